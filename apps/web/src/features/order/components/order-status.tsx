import { orderLifecycle, type OrderStatus } from '@inventory/contract';
import { Tag } from 'antd';

const COLORS: Partial<Record<OrderStatus, string>> = {
  pending: 'default',
  ready: 'blue',
  on_hold: 'orange',
  cancel_requested: 'gold',
  cancelled: 'default',
  shipped: 'green',
  delivered: 'green',
  lost: 'red',
  returned: 'volcano',
};

/** An order's state in words, coloured by what it asks of staff. */
export function OrderStatusTag({ status }: { status: OrderStatus }) {
  return <Tag color={COLORS[status] ?? 'cyan'}>{orderLifecycle.stateText(status)}</Tag>;
}
