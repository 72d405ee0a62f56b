import { HOLD_REASON_TEXT, type OrderRow } from '@inventory/contract';
import { Tag, Tooltip, Typography } from 'antd';
import { when } from '../../../toolkit/format';
import { OrderStatusTag } from '../../order';

/** Columns the fulfilment tables share, over the order list's row. */

export const customerColumn = {
  key: 'customer',
  title: 'Ship to',
  render: (order: OrderRow) => (
    <>
      {order.customer}
      <Typography.Text type="secondary"> · {order.place}</Typography.Text>
    </>
  ),
} as const;

export const stageColumn = {
  key: 'status',
  title: 'Stage',
  render: (order: OrderRow) => <OrderStatusTag status={order.status} />,
} as const;

/** The SLA due, in red once passed. */
export const slaColumn = {
  key: 'sla_due_at',
  title: 'SLA due',
  sortKey: 'sla_due_at',
  render: (order: OrderRow) =>
    order.sla_due_at && new Date(order.sla_due_at) < new Date() ? (
      <Tag color="red">Breached {when(order.sla_due_at)}</Tag>
    ) : (
      when(order.sla_due_at)
    ),
} as const;

export const holdReasonColumn = {
  key: 'hold_reason',
  title: 'Reason',
  render: (order: OrderRow) =>
    order.hold_reason ? (
      <Tooltip title={order.hold_note}>
        <Tag color="orange">{HOLD_REASON_TEXT[order.hold_reason]}</Tag>
      </Tooltip>
    ) : (
      '—'
    ),
} as const;
