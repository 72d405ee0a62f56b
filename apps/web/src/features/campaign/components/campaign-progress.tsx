import type { CampaignProgress } from '@inventory/contract';
import { Progress, Tooltip } from 'antd';

/** The orders of a campaign still meant to ship: cancelled ones are left out of its steps. */
export const ordersToShip = (progress: CampaignProgress) => progress.orders - progress.cancelled;

/** A step's progress (picked, labelled, scanned out) over the orders still meant to ship. */
export function ProgressStep({
  label,
  done,
  of,
  width = 120,
}: {
  label: string;
  done: number;
  of: number;
  width?: number;
}) {
  return (
    <Tooltip title={`${label}: ${done} of ${of}`}>
      <Progress
        aria-label={`${label}: ${done} of ${of}`}
        percent={of === 0 ? 0 : Math.round((done / of) * 100)}
        size="small"
        format={() => `${done}/${of}`}
        style={{ width, margin: 0 }}
      />
    </Tooltip>
  );
}
