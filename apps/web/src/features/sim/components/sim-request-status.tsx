import { simRequestLifecycle, type SimRequestStatus } from '@inventory/contract';
import { Tag } from 'antd';

const COLORS: Record<SimRequestStatus, string> = {
  submitted: 'blue',
  approved: 'cyan',
  packed: 'purple',
  shipped: 'geekblue',
  received: 'green',
  rejected: 'red',
  cancelled: 'default',
};

/** A SIM request's status as the agent reads it. */
export function SimRequestStatusTag({ status }: { status: SimRequestStatus }) {
  return (
    <Tag color={COLORS[status]} data-testid="sim-request-status">
      {simRequestLifecycle.stateText(status)}
    </Tag>
  );
}
