import {
  learnTacEndpoint,
  tacNumberEndpoints,
  tacNumberResource,
  unknownTacsEndpoint,
  type UnknownTac,
} from '@inventory/contract';
import { Alert, Button, Collapse, Form, InputNumber, Modal, Select, Table } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { searchModels } from '../pages/master-data-options';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { useLatestSearch } from '../../../toolkit/latest-search';

/** Under the TAC list's key: learning a TAC refreshes the TAC list and this one together. */
const tacsKey = tacNumberEndpoints.list.path;

type LearnValues = { model_id: number; capacity_gb?: number | null };

/**
 * Maps an unknown TAC to a model: from now on its IMEIs are received as that model. Used here and
 * at the receiving station, where the scan is tried again once the TAC is learned.
 */
export function LearnTacModal({
  tac,
  onClose,
  onLearned,
}: {
  tac: Pick<UnknownTac, 'tac'>;
  onClose: () => void;
  onLearned?: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<LearnValues>();
  const { options: models, search } = useLatestSearch(searchModels);
  const [saving, setSaving] = useState(false);
  const client = useQueryClient();

  const submit = async (values: LearnValues) => {
    setSaving(true);
    try {
      const learned = (
        await callEndpoint(learnTacEndpoint, {
          body: {
            tac: tac.tac,
            model_id: values.model_id,
            capacity_gb: values.capacity_gb ?? null,
          },
        })
      ).data;
      await client.invalidateQueries({ queryKey: [tacsKey] });
      notify.success(`TAC ${learned.tac} is a ${learned.model} from now on.`);
      onClose();
      onLearned?.();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      {...dialogFocus}
      open
      title={`Map TAC ${tac.tac} to a model`}
      okText="Map"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item
          label="Model"
          name="model_id"
          rules={[{ required: true, message: 'Choose a model.' }]}
        >
          <Select
            showSearch={{ filterOption: false, onSearch: (term) => void search(term) }}
            onFocus={() => void search('')}
            options={models}
            placeholder="Type to search"
            notFoundContent="No model found"
          />
        </Form.Item>
        <Form.Item label="Capacity" name="capacity_gb">
          <InputNumber min={1} suffix="GB" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The TACs met at scanning that map to no model: devices with them cannot be received until a
 * product-information clerk maps each to its model.
 */
export function UnknownTacs() {
  const canMap = useCan(tacNumberResource.manage);
  const [mapping, setMapping] = useState<UnknownTac | null>(null);
  const unknown = useQuery({
    queryKey: [tacsKey, 'unknown'],
    queryFn: async () => (await callEndpoint(unknownTacsEndpoint)).data,
  });
  const count = unknown.data?.length;

  return (
    <>
      <Collapse
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'unknown',
            label: `Unknown TACs met at scanning${count === undefined ? '' : ` (${count})`}`,
            children: unknown.isError ? (
              <Alert
                type="error"
                showIcon
                title="The unknown TACs could not be loaded."
                description={unknown.error.message}
              />
            ) : (
              <section aria-label="Unknown TACs">
                <Table<UnknownTac>
                  size="small"
                  rowKey="tac"
                  loading={unknown.isFetching}
                  dataSource={unknown.data ?? []}
                  pagination={false}
                  scroll={{ y: 400 }}
                  locale={{ emptyText: 'Every TAC met at scanning maps to a model.' }}
                  columns={[
                    { key: 'tac', dataIndex: 'tac', title: 'TAC' },
                    { key: 'seen_count', dataIndex: 'seen_count', title: 'Times seen' },
                    {
                      key: 'last_imei',
                      title: 'Last IMEI',
                      render: (_, tac) => tac.last_imei ?? '—',
                    },
                    {
                      key: 'last_invoice_no',
                      title: 'Last invoice',
                      render: (_, tac) => tac.last_invoice_no ?? '—',
                    },
                    {
                      key: 'last_seen_at',
                      title: 'Last seen',
                      render: (_, tac) => when(tac.last_seen_at),
                    },
                    ...(canMap
                      ? [
                          {
                            key: 'map',
                            title: '',
                            render: (_: unknown, tac: UnknownTac) => (
                              <Button
                                size="small"
                                aria-label={`Map ${tac.tac} to a model`}
                                onClick={() => setMapping(tac)}
                              >
                                Map to a model
                              </Button>
                            ),
                          },
                        ]
                      : []),
                  ]}
                />
              </section>
            ),
          },
        ]}
      />
      {mapping && <LearnTacModal tac={mapping} onClose={() => setMapping(null)} />}
    </>
  );
}
