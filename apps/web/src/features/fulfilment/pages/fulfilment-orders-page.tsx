import {
  FULFILMENT_TYPES,
  ORDER_ASSIGNMENT_ACCESS,
  PICK_PROBLEMS,
  PIPELINE_STATUSES,
  pipelineOrderList,
  pipelineOrderListEndpoints,
  type FulfilmentOrderRow,
} from '@inventory/contract';
import { Button, Dropdown, Form, Input, Modal, Select, Space } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { useAssignmentOverview, openPickList, usePipelineActions } from '../api/fulfilment.queries';
import { customerColumn, slaColumn, stageColumn } from '../components/order-columns';

const PROBLEM_TEXT: Record<(typeof PICK_PROBLEMS)[number], string> = {
  damaged_unit: 'Damaged unit',
  wrong_item: 'Wrong item (colour, model, grade)',
};

/** Pushing an order to the backlog: the problem and a note. */
function BacklogDialog({ order, onClose }: { order: FulfilmentOrderRow; onClose: () => void }) {
  const { backlog } = usePipelineActions();
  const [form] = Form.useForm<{ reason: (typeof PICK_PROBLEMS)[number]; note?: string }>();
  const submit = async () => {
    const values = await form.validateFields();
    try {
      await backlog.mutateAsync({ id: order.id, ...values });
      notify.success(`${order.number} is in the backlog.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Modal
      open
      title={`Push ${order.number} to the backlog`}
      okText="Push to backlog"
      confirmLoading={backlog.isPending}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical">
        <Form.Item
          name="reason"
          label="Problem"
          rules={[{ required: true, message: 'Choose the problem.' }]}
        >
          <Select
            options={PICK_PROBLEMS.map((reason) => ({
              value: reason,
              label: PROBLEM_TEXT[reason],
            }))}
          />
        </Form.Item>
        <Form.Item name="note" label="Note">
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Fulfilment orders (`/fulfill/order`): every order in the pipeline with its stage, assignee and
 * SLA; reassign or unassign (assignment's right), unpick (units back to their boxes; a labeled
 * order's label is voided first), push to the backlog with the problem, print the pick list.
 */
export default function FulfilmentOrdersPage(props: PageProps) {
  const canAssign = useCan(ORDER_ASSIGNMENT_ACCESS);
  const overview = useAssignmentOverview(canAssign);
  const actions = usePipelineActions();
  const [pushing, setPushing] = useState<FulfilmentOrderRow | null>(null);
  const workers = overview.data?.workers ?? [];

  const act = async (
    run: () => Promise<FulfilmentOrderRow>,
    done: (row: FulfilmentOrderRow) => string,
  ) => {
    try {
      notify.success(done(await run()));
    } catch (error) {
      showApiError(error);
    }
  };

  const config: ResourcePageConfig<FulfilmentOrderRow, typeof pipelineOrderList> = {
    resource: pipelineOrderList,
    endpoints: pipelineOrderListEndpoints,
    titleOf: (order) => order.number,
    searchPlaceholder: 'Order number or reference',
    columns: [
      { key: 'number', title: 'Order' },
      stageColumn,
      { key: 'fulfilment_type', title: 'Queue' },
      customerColumn,
      { key: 'items_text', title: 'Items' },
      {
        key: 'units_picked',
        title: 'Picked',
        render: (order) => `${order.units_picked} of ${order.items}`,
      },
      { key: 'assignee_name', title: 'Assignee', render: (order) => order.assignee_name ?? '—' },
      slaColumn,
      {
        key: 'created_at',
        title: 'Created',
        sortKey: 'created_at',
        render: (order) => when(order.created_at),
      },
    ],
    filters: [
      { key: 'status', label: 'Stage', options: optionsOf(PIPELINE_STATUSES) },
      { key: 'fulfilment_type', label: 'Queue', options: optionsOf(FULFILMENT_TYPES) },
      ...(canAssign
        ? [
            {
              key: 'assignee_id' as const,
              label: 'Assignee',
              options: workers.map((w) => ({ value: w.id, label: w.name })),
            },
          ]
        : []),
    ],
    rowActions: (order) => (
      <Space size="small" wrap>
        {canAssign && (order.status === 'assigned' || order.status === 'in_progress') && (
          <Dropdown
            trigger={['click']}
            menu={{
              items: workers
                .filter((w) => w.id !== order.assignee_id)
                .map((w) => ({ key: String(w.id), label: w.name })),
              onClick: ({ key }) =>
                void act(
                  () => actions.reassign.mutateAsync({ id: order.id, assigneeId: Number(key) }),
                  (row) => `${row.number} is ${row.assignee_name}'s now.`,
                ),
            }}
          >
            <Button size="small">Reassign</Button>
          </Dropdown>
        )}
        {canAssign && order.status === 'assigned' && (
          <Button
            size="small"
            onClick={() =>
              void act(
                () => actions.unassign.mutateAsync(order.id),
                (row) => `${row.number} is back in the assignment queue.`,
              )
            }
          >
            Unassign
          </Button>
        )}
        {(order.status === 'in_progress' ||
          order.status === 'fulfilled' ||
          order.status === 'labeled') && (
          <Button
            size="small"
            onClick={() =>
              void act(
                () => actions.unpick.mutateAsync(order.id),
                (row) => `${row.number}'s units are back in their boxes.`,
              )
            }
          >
            Unpick
          </Button>
        )}
        {order.status !== 'labeled' && (
          <Button size="small" onClick={() => setPushing(order)}>
            Push to backlog
          </Button>
        )}
        <Button size="small" onClick={() => void openPickList(order.id).catch(showApiError)}>
          Pick list
        </Button>
      </Space>
    ),
  };

  return (
    <>
      <ResourcePage {...props} config={config} />
      {pushing && <BacklogDialog order={pushing} onClose={() => setPushing(null)} />}
    </>
  );
}
