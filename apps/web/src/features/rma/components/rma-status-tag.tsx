import { rmaLifecycle, type RmaStatus } from '@inventory/contract';
import { Tag } from 'antd';

const STATUS_COLORS: Record<RmaStatus, string> = {
  requested: 'blue',
  authorized: 'cyan',
  rejected: 'red',
  in_transit: 'geekblue',
  received: 'purple',
  inspected: 'gold',
  replacement_sent: 'green',
  refunded: 'green',
  repair: 'orange',
  closed: 'default',
  cancelled: 'default',
};

export function RmaStatusTag({ status }: { status: RmaStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{rmaLifecycle.stateText(status)}</Tag>;
}
