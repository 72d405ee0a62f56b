import { statusText, type DeviceStatus, type HoldReason } from '@inventory/contract';
import { Tag } from 'antd';
import { holdWords, STATUS_COLORS } from '../device-words';

/** A device's status as stored (the filters and exports use the same word), coloured. */
export function DeviceStatusTag({ status }: { status: DeviceStatus | null }) {
  if (!status) return <>—</>;
  return (
    <Tag color={STATUS_COLORS[status]} title={statusText(status)}>
      {status}
    </Tag>
  );
}

/** Why a device is held, or a dash when it is not. */
export function HoldTag({ reason }: { reason: HoldReason | null }) {
  return reason ? <Tag color="red">{holdWords(reason)}</Tag> : <>—</>;
}
