import {
  CARRIER_NAMES,
  SHIPPING_SERVICE_INFO,
  type LabelBatch,
  type LabelFormat,
  type LabelQueue,
  type LabelQueueOrder,
  type LabelRunProgress,
} from '@inventory/contract';
import { Alert, Button, Empty, Progress, Radio, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { when } from '../../../toolkit/format';
import { printBatch, useLabelDesk, useLabelQueue } from '../api/label-desk.queries';
import { LabelActions } from './label-actions';

type Result = LabelRunProgress['results'][number];

const RESULT_COLORS: Record<Result['result'], string> = {
  created: 'green',
  already_labelled: 'blue',
  refused: 'red',
  waiting: 'default',
};

const RESULT_WORDS: Record<Result['result'], string> = {
  created: 'Label created',
  already_labelled: 'Labelled already',
  refused: 'Refused',
  waiting: 'Waiting',
};

/** How often the desk reads a running batch's progress. */
const PROGRESS_MS = 700;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One carrier service's waiting orders, with their check boxes. */
function ServiceGroup({
  group,
  selected,
  onSelect,
}: {
  group: LabelQueue['groups'][number];
  selected: readonly number[];
  onSelect: (ids: number[]) => void;
}) {
  const info = SHIPPING_SERVICE_INFO[group.service];
  const mine = new Set(group.orders.map((order) => order.order_id));
  return (
    <section aria-label={info.name}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {info.name}{' '}
        <Typography.Text type="secondary">
          {group.total} waiting
          {group.total > group.orders.length && `, the oldest ${group.orders.length} shown`}
        </Typography.Text>
      </Typography.Title>
      <Table<LabelQueueOrder>
        size="small"
        rowKey="order_id"
        pagination={false}
        dataSource={group.orders}
        rowSelection={{
          selectedRowKeys: selected.filter((id) => mine.has(id)),
          onChange: (keys) =>
            onSelect([...selected.filter((id) => !mine.has(id)), ...keys.map(Number)]),
          // An order waiting for its carrier's OK or its MDN is not chosen until then.
          getCheckboxProps: (order) => ({
            'aria-label': `Choose order ${order.order_number}`,
            disabled: order.waiting !== null,
          }),
        }}
        columns={[
          { key: 'number', title: 'Order', dataIndex: 'order_number' },
          { key: 'type', title: 'Type', dataIndex: 'fulfilment_type' },
          { key: 'place', title: 'Ships to', dataIndex: 'place' },
          { key: 'items', title: 'Items', dataIndex: 'items_text' },
          { key: 'sla', title: 'SLA due', render: (_, order) => when(order.sla_due_at) },
          { key: 'created', title: 'Created', render: (_, order) => when(order.created_at) },
          {
            key: 'waiting',
            title: 'Label',
            render: (_, order) =>
              order.waiting ? (
                <Tag color="gold" title={order.waiting} data-testid="label-waiting">
                  Waiting: {order.waiting}
                </Tag>
              ) : (
                <Tag color="green">Ready</Tag>
              ),
          },
        ]}
      />
    </section>
  );
}

/**
 * The label desk (DOMAIN.md 4.14 `/fulfill/print-label`, and 4.15's campaign labels scoped to a
 * campaign): fulfilled orders waiting for a label, grouped by carrier and service. The orders
 * chosen are given to one batch, whose job on the server labels them in steps while the desk
 * shows its progress; run again (a lost answer, a stop), an order labelled already keeps its label. The batch downloads as one PDF or ZPL file;
 * each label can be printed again (counted) or voided. `onChange` hears of labels made or voided.
 */
export function LabelDesk({
  campaignId,
  onChange,
}: {
  campaignId?: number;
  onChange?: () => void;
}) {
  const queue = useLabelQueue(campaignId);
  const desk = useLabelDesk(campaignId);
  const [format, setFormat] = useState<LabelFormat>('pdf');
  const [selected, setSelected] = useState<number[]>([]);
  const [running, setRunning] = useState<{ done: number; total: number } | null>(null);
  const [batch, setBatch] = useState<LabelBatch | null>(null);
  const [results, setResults] = useState<Result[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);

  // The batch's job labels the orders; the desk shows its progress until every one is done.
  const run = async (ids: number[], into: LabelBatch | null) => {
    setFailure(null);
    setRunning({ done: 0, total: ids.length });
    try {
      const current = into ?? (await desk.createBatch(format));
      setBatch(current);
      let progress = await desk.startRun(current.id, ids);
      for (;;) {
        setResults(progress.results);
        setBatch(progress.batch);
        setRunning({ done: progress.done, total: progress.requested });
        setRetrying(progress.error);
        if (progress.done >= progress.requested) break;
        await pause(PROGRESS_MS);
        progress = await desk.progress(current.id);
      }
      setSelected([]);
      const made = progress.results.filter((result) => result.result === 'created').length;
      notify.success(`${made} label${made === 1 ? '' : 's'} created in batch ${current.id}.`);
    } catch (error) {
      setFailure(
        `${error instanceof Error ? error.message : String(error)} Labels made so far are kept; ` +
          'run the batch again to finish it: an order labelled already keeps its label.',
      );
    } finally {
      setRunning(null);
      setRetrying(null);
      await desk.refresh();
      onChange?.();
    }
  };

  const groups = queue.data?.groups ?? [];
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="center">
        <Radio.Group
          aria-label="Label format"
          value={format}
          onChange={(event) => setFormat(event.target.value as LabelFormat)}
          optionType="button"
          options={[
            { value: 'pdf', label: 'PDF (any printer)' },
            { value: 'zpl', label: 'ZPL (Zebra printer)' },
          ]}
        />
        <Button
          type="primary"
          disabled={selected.length === 0 || running !== null}
          loading={running !== null}
          onClick={() => void run(selected, null)}
        >
          Create {selected.length || ''} label{selected.length === 1 ? '' : 's'}
        </Button>
        {failure && batch && selected.length > 0 && (
          <Button disabled={running !== null} onClick={() => void run(selected, batch)}>
            Run batch {batch.id} again
          </Button>
        )}
      </Space>
      {running && (
        <Progress
          aria-label="Labels created"
          percent={Math.round((running.done / Math.max(running.total, 1)) * 100)}
          format={() => `${running.done} of ${running.total}`}
        />
      )}
      {retrying && (
        <Alert
          type="warning"
          showIcon
          title="The batch waits to try again"
          description={`${retrying} The labels made so far are kept.`}
        />
      )}
      {failure && <Alert type="error" showIcon title="The batch stopped" description={failure} />}
      {batch && results.length > 0 && (
        <section aria-label={`Batch ${batch.id}`}>
          <Space wrap align="center" style={{ marginBottom: 8 }}>
            <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
              Batch {batch.id}: {batch.labels} label{batch.labels === 1 ? '' : 's'}
            </Typography.Title>
            <Button
              type="primary"
              disabled={batch.labels === 0}
              onClick={() => void printBatch(batch.id, format).catch(showApiError)}
            >
              Download labels ({format.toUpperCase()})
            </Button>
          </Space>
          <Table<Result>
            size="small"
            rowKey="order_id"
            pagination={false}
            dataSource={results}
            columns={[
              {
                key: 'order',
                title: 'Order',
                render: (_, result) => result.order_number ?? `#${result.order_id}`,
              },
              {
                key: 'result',
                title: 'Label',
                render: (_, result) => (
                  <Tag color={RESULT_COLORS[result.result]} data-testid="label-result">
                    {RESULT_WORDS[result.result]}
                  </Tag>
                ),
              },
              {
                key: 'tracking',
                title: 'Tracking',
                render: (_, result) =>
                  result.package
                    ? `${CARRIER_NAMES[result.package.carrier]} ${result.package.tracking_number}`
                    : result.message,
              },
              {
                key: 'actions',
                title: 'Actions',
                render: (_, result) =>
                  result.package && (
                    <LabelActions
                      parcel={result.package}
                      format={format}
                      onVoided={(row) => {
                        setResults((rows) =>
                          rows.map((one) =>
                            one.order_id === result.order_id ? { ...one, package: row } : one,
                          ),
                        );
                        onChange?.();
                      }}
                    />
                  ),
              },
            ]}
          />
        </section>
      )}
      {queue.error ? (
        <Alert type="error" showIcon title={queue.error.message} />
      ) : !queue.data ? (
        <Spin />
      ) : groups.length === 0 ? (
        <Empty
          description={
            campaignId === undefined
              ? 'No fulfilled order is waiting for a label.'
              : 'No fulfilled order of this campaign is waiting for a label.'
          }
        />
      ) : (
        groups.map((group) => (
          <ServiceGroup
            key={group.service}
            group={group}
            selected={selected}
            onSelect={setSelected}
          />
        ))
      )}
      {queue.data && queue.data.without_parcel > 0 && (
        <Typography.Text type="secondary">
          {queue.data.without_parcel} fulfilled order(s) ship by freight or pickup: they take no
          parcel label.
        </Typography.Text>
      )}
    </Space>
  );
}
