import {
  SHIP_METHODS,
  SUPPORT_ORDER_APPROVE_ACCESS,
  SUPPORT_REASON_TEXT,
  SUPPORT_REASONS,
  supportOrderEndpoints,
  type CreateSupportOrderInput,
  type SupportOrderRow,
} from '@inventory/contract';
import {
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { callEndpoint } from '../../../shell/http-client';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';
import { useSupportOrderActions, useSupportOrders } from '../api/substitutions.queries';

/**
 * Support orders (`/fulfill/support-order`, DOMAIN.md 4.14): a subscriber found by enrolment or
 * order number is sent chargers and accessories, a SIM kit or a goodwill device, with a reason and
 * a ship method. Submitted, it goes to the fulfilment queue at once; with a device it waits for a
 * manager, who approves or refuses it here. The same item again within the set days is refused
 * unless a manager overrides.
 */

const subscriberField: Extract<FormField, { kind: 'remote' }> = {
  name: 'subscriber_id',
  label: 'Subscriber',
  kind: 'remote',
  placeholder: 'Enrolment or account number, or an order number',
  load: async (search) =>
    (await callEndpoint(supportOrderEndpoints.subscribers, { query: { search } })).data.map(
      (subscriber) => ({
        value: subscriber.id,
        label: [
          subscriber.customer,
          subscriber.external_id,
          `${subscriber.client_carrier} ${subscriber.program}`,
          subscriber.place,
          subscriber.last_order && `last ${subscriber.last_order}`,
        ]
          .filter(Boolean)
          .join(' · '),
      }),
    ),
};

const itemField: Extract<FormField, { kind: 'remote' }> = {
  name: 'variant_id',
  label: 'Item',
  kind: 'remote',
  placeholder: 'SKU or name',
  load: async (search) =>
    (await callEndpoint(supportOrderEndpoints.itemOptions, { query: { search } })).data.map(
      (item) => ({
        // One select holds every source: an accessory of the master by its id negated, the
        // carrier's SIM kit as 0.
        value: item.source === 'accessory' ? -item.id : item.id,
        label: item.kind === 'device' ? `${item.label} (device: needs approval)` : item.label,
      }),
    ),
};

const REASON_OPTIONS = SUPPORT_REASONS.map((reason) => ({
  value: reason,
  label: SUPPORT_REASON_TEXT[reason],
}));

type Values = Omit<CreateSupportOrderInput, 'note' | 'items'> & {
  note?: string;
  items: { variant_id: number; qty: number }[];
};

function NewSupportOrder() {
  const [form] = Form.useForm<Values>();
  const { create } = useSupportOrderActions();
  const canOverride = useCan(SUPPORT_ORDER_APPROVE_ACCESS);
  const submit = async (values: Values) => {
    try {
      const order = await create.mutateAsync({
        ...values,
        items: values.items.map(({ variant_id: value, qty }) =>
          value < 0
            ? { accessory_id: -value, qty }
            : value === 0
              ? { sim_kit: true as const, qty }
              : { variant_id: value, qty },
        ),
        note: values.note?.trim() ? values.note : null,
      });
      notify.success(
        order.status === 'pending'
          ? `${order.number} waits for a manager's approval (a device).`
          : order.status === 'ready'
            ? `${order.number} is in the support queue.`
            : `${order.number} is ${order.status.replace(/_/g, ' ')}: ${order.hold_note ?? ''}`,
      );
      form.resetFields();
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Card title="New support order" style={{ marginBottom: 24 }}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ ship_method: 'ground', items: [{ qty: 1 }] }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item
          name="subscriber_id"
          label="Subscriber"
          rules={[{ required: true, message: 'Choose a subscriber.' }]}
        >
          <RemoteSelect field={subscriberField} initial={[]} />
        </Form.Item>
        <Form.List name="items">
          {(rows, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
              {rows.map(({ key, name }, index) => (
                <Space key={key} align="start" wrap>
                  <Form.Item
                    name={[name, 'variant_id']}
                    label={`Item ${index + 1}`}
                    rules={[{ required: true, message: 'Choose an item.' }]}
                    style={{ minWidth: 360 }}
                  >
                    <RemoteSelect field={itemField} initial={[]} />
                  </Form.Item>
                  <Form.Item name={[name, 'qty']} label={`Quantity ${index + 1}`}>
                    <InputNumber min={1} max={10} />
                  </Form.Item>
                  {rows.length > 1 && (
                    <Button
                      style={{ marginTop: 30 }}
                      aria-label={`Remove item ${index + 1}`}
                      onClick={() => remove(name)}
                    >
                      Remove
                    </Button>
                  )}
                </Space>
              ))}
              {rows.length < 10 && <Button onClick={() => add({ qty: 1 })}>Add an item</Button>}
            </Space>
          )}
        </Form.List>
        <Space wrap align="start">
          <Form.Item
            name="reason"
            label="Reason"
            rules={[{ required: true, message: 'Choose the reason.' }]}
            style={{ minWidth: 260 }}
          >
            <Select options={REASON_OPTIONS} placeholder="Reason" />
          </Form.Item>
          <Form.Item name="ship_method" label="Ship method" style={{ minWidth: 160 }}>
            <Select options={optionsOf(SHIP_METHODS)} />
          </Form.Item>
        </Space>
        <Form.Item name="note" label="Note">
          <Input.TextArea rows={2} maxLength={1000} />
        </Form.Item>
        {canOverride && (
          <Form.Item name="override_duplicate" valuePropName="checked">
            <Checkbox>Send it even if the subscriber had the same item lately</Checkbox>
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" loading={create.isPending}>
          Submit to the queue
        </Button>
      </Form>
    </Card>
  );
}

const statusTag = (order: SupportOrderRow) =>
  order.status === 'pending' && order.needs_approval && !order.approved_at ? (
    <Tag color="gold">awaiting approval</Tag>
  ) : (
    <Tag>{order.status.replace(/_/g, ' ')}</Tag>
  );

function SupportOrders({ awaiting }: { awaiting: boolean }) {
  const orders = useSupportOrders(awaiting);
  const { approve, reject } = useSupportOrderActions();
  const canApprove = useCan(SUPPORT_ORDER_APPROVE_ACCESS);
  const [refusing, setRefusing] = useState<SupportOrderRow | null>(null);
  const [reason, setReason] = useState('');
  const act = async (action: () => Promise<SupportOrderRow>, what: string) => {
    try {
      const order = await action();
      notify.success(`${order.number} ${what}.`);
      setRefusing(null);
      setReason('');
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <>
      <Modal
        open={refusing !== null}
        title={`Refuse ${refusing?.number ?? ''}`}
        okText="Refuse"
        okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
        confirmLoading={reject.isPending}
        onCancel={() => setRefusing(null)}
        onOk={() =>
          void act(() => reject.mutateAsync({ id: refusing!.order_id, reason }), 'is cancelled')
        }
      >
        <Input.TextArea
          aria-label="Why"
          placeholder="Why"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Modal>
      <Table<SupportOrderRow>
        rowKey="order_id"
        size="small"
        loading={orders.isLoading}
        dataSource={orders.data ?? []}
        pagination={false}
        locale={{
          emptyText: awaiting ? 'No support order waits for approval.' : 'No support orders yet.',
        }}
        columns={[
          { key: 'number', title: 'Order', dataIndex: 'number' },
          { key: 'status', title: 'Status', render: (_, order) => statusTag(order) },
          { key: 'customer', title: 'Customer', dataIndex: 'customer' },
          { key: 'items', title: 'Items', dataIndex: 'items_text' },
          {
            key: 'reason',
            title: 'Reason',
            render: (_, order) => SUPPORT_REASON_TEXT[order.reason],
          },
          { key: 'ship', title: 'Ship method', dataIndex: 'ship_method' },
          {
            key: 'duplicate',
            title: 'Duplicate of',
            render: (_, order) => order.duplicate_of?.join(', ') ?? '—',
          },
          {
            key: 'created',
            title: 'Created',
            render: (_, order) => `${when(order.created_at)} · ${order.created_by ?? '—'}`,
          },
          ...(awaiting && canApprove
            ? [
                {
                  key: 'actions',
                  title: 'Actions',
                  render: (_: unknown, order: SupportOrderRow) => (
                    <Space size="small">
                      <Button
                        size="small"
                        type="primary"
                        onClick={() =>
                          void act(() => approve.mutateAsync(order.order_id), 'is approved')
                        }
                      >
                        Approve
                      </Button>
                      <Button size="small" danger onClick={() => setRefusing(order)}>
                        Refuse
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
    </>
  );
}

export default function SupportOrderPage({ entry }: PageProps) {
  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <NewSupportOrder />
      <Typography.Title level={2}>Awaiting approval</Typography.Title>
      <SupportOrders awaiting />
      <Typography.Title level={2}>Support orders</Typography.Title>
      <SupportOrders awaiting={false} />
    </div>
  );
}
