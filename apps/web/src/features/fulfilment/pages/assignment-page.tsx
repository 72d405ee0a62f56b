import {
  FULFILMENT_TYPES,
  readyOrderList,
  readyOrderListEndpoints,
  type AssignmentDemand,
  type FulfilmentOrderRow,
  type OrderAssignmentResult,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  InputNumber,
  Select,
  Space,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { counted, when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { useAssignment, useAssignmentOverview } from '../api/fulfilment.queries';
import { customerColumn, slaColumn } from '../components/order-columns';

/** What a batch did, in words. */
const resultText = (result: OrderAssignmentResult, worker: string) =>
  [
    `${counted(result.assigned.length, 'order')} assigned to ${worker} (${counted(result.units_reserved, 'unit')} reserved)`,
    result.held.length > 0 &&
      `${counted(result.held.length, 'order')} short of stock went to the backlog: ${result.held.map((o) => o.number).join(', ')}`,
    result.skipped.length > 0 && `${counted(result.skipped.length, 'order')} no longer ready`,
  ]
    .filter(Boolean)
    .join('. ') + '.';

/**
 * Assignment (`/fulfill/assignment`): ready orders by queue with their SLA, demand against
 * available stock per variant, the workers and their load. A batch of the next N orders (of a
 * model, for batch picking) or the orders chosen in the table goes to a worker; each unit's device
 * is reserved at once, oldest box first, and an order short of stock goes to the backlog.
 */
export default function AssignmentPage(props: PageProps) {
  const overview = useAssignmentOverview();
  const { assign, autoAssign } = useAssignment();
  const [workerId, setWorkerId] = useState<number | null>(null);
  const [count, setCount] = useState(10);
  const [chosen, setChosen] = useState<number[]>([]);
  const workers = overview.data?.workers ?? [];
  const workerName = workers.find((w) => w.id === workerId)?.name ?? '';

  const run = async (batch: () => Promise<OrderAssignmentResult>) => {
    try {
      const result = await batch();
      notify.success(resultText(result, workerName));
      setChosen([]);
    } catch (error) {
      showApiError(error);
    }
  };
  const autoFor = (modelId?: number) =>
    run(() =>
      autoAssign.mutateAsync({
        assignee_id: workerId!,
        count,
        ...(modelId !== undefined && { model_id: modelId }),
      }),
    );

  const batchControls = (
    <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
      <Space wrap>
        <Select
          aria-label="Worker"
          placeholder="Choose the worker"
          // A site has tens of pickers: the manager types a name.
          showSearch={{ optionFilterProp: 'label' }}
          style={{ minWidth: 240 }}
          value={workerId ?? undefined}
          onChange={setWorkerId}
          options={workers.map((w) => ({
            value: w.id,
            label: `${w.name} (${w.assigned + w.in_progress} open, ${w.units} units)`,
          }))}
        />
        <InputNumber
          aria-label="Orders in the batch"
          min={1}
          max={500}
          value={count}
          onChange={(value) => setCount(value ?? 1)}
        />
        <Button
          type="primary"
          disabled={workerId === null}
          loading={autoAssign.isPending}
          onClick={() => void autoFor()}
        >
          Auto-assign the next {count}
        </Button>
        <Button
          disabled={chosen.length === 0 || workerId === null}
          loading={assign.isPending}
          onClick={() =>
            void run(() => assign.mutateAsync({ assignee_id: workerId!, order_ids: chosen }))
          }
        >
          Assign {counted(chosen.length, 'chosen order')}
        </Button>
      </Space>
      {overview.isError && <Alert type="error" title={overview.error.message} />}
      <Space wrap>
        {(overview.data?.queues ?? []).map((queue) => (
          <Card key={queue.fulfilment_type} size="small">
            <Statistic
              title={queue.fulfilment_type.replace(/_/g, ' ')}
              value={queue.orders}
              suffix={queue.breached > 0 ? `(${queue.breached} past SLA)` : undefined}
            />
            <Typography.Text type="secondary">
              {counted(queue.units, 'unit')} · next due {when(queue.next_due_at)}
            </Typography.Text>
          </Card>
        ))}
      </Space>
      <DemandTable
        rows={overview.data?.demand ?? []}
        canAssign={workerId !== null}
        count={count}
        onAssign={(modelId) => void autoFor(modelId)}
      />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        title={() => <Typography.Text strong>Workers and load</Typography.Text>}
        dataSource={workers}
        columns={[
          { key: 'name', dataIndex: 'name', title: 'Worker' },
          { key: 'assigned', dataIndex: 'assigned', title: 'Assigned' },
          { key: 'in_progress', dataIndex: 'in_progress', title: 'Being picked' },
          { key: 'units', dataIndex: 'units', title: 'Units' },
        ]}
      />
      <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
        Ready orders
      </Typography.Title>
    </Space>
  );

  const config: ResourcePageConfig<FulfilmentOrderRow, typeof readyOrderList> = {
    resource: readyOrderList,
    endpoints: readyOrderListEndpoints,
    titleOf: (order) => order.number,
    searchPlaceholder: 'Order number or reference',
    selection: { ids: chosen, onChange: setChosen },
    header: batchControls,
    columns: [
      { key: 'number', title: 'Order' },
      { key: 'fulfilment_type', title: 'Queue' },
      customerColumn,
      { key: 'items_text', title: 'Items' },
      slaColumn,
      {
        key: 'created_at',
        title: 'Created',
        sortKey: 'created_at',
        render: (order) => when(order.created_at),
      },
    ],
    filters: [{ key: 'fulfilment_type', label: 'Queue', options: optionsOf(FULFILMENT_TYPES) }],
  };

  return <ResourcePage {...props} config={config} />;
}

function DemandTable({
  rows,
  canAssign,
  count,
  onAssign,
}: {
  rows: readonly AssignmentDemand[];
  canAssign: boolean;
  count: number;
  onAssign: (modelId: number) => void;
}) {
  return (
    <Table
      size="small"
      rowKey="variant_id"
      pagination={false}
      title={() => <Typography.Text strong>Demand against stock</Typography.Text>}
      dataSource={rows}
      locale={{ emptyText: 'No ready orders wait for devices.' }}
      columns={[
        { key: 'model', dataIndex: 'model', title: 'Model' },
        { key: 'sku', dataIndex: 'sku', title: 'Variant' },
        { key: 'description', dataIndex: 'description', title: 'Description' },
        { key: 'orders', dataIndex: 'orders', title: 'Orders' },
        { key: 'units', dataIndex: 'units', title: 'Units wanted' },
        {
          key: 'available',
          title: 'Available',
          render: (_: unknown, row) => (
            <Typography.Text type={row.available < row.units ? 'danger' : undefined}>
              {row.available}
            </Typography.Text>
          ),
        },
        {
          key: 'assign',
          title: 'Batch',
          render: (_: unknown, row) => (
            <Button
              size="small"
              disabled={!canAssign}
              aria-label={`Assign ${count} orders of ${row.model}`}
              onClick={() => onAssign(row.model_id)}
            >
              Assign {count} of this model
            </Button>
          ),
        },
      ]}
    />
  );
}
