import type { CarrierUpdateState } from '@inventory/contract';
import { Tag } from 'antd';

const COLORS: Record<CarrierUpdateState['status'], string | undefined> = {
  pending: 'gold',
  submitted: 'blue',
  ok: 'green',
  failed: 'red',
  cancelled: undefined,
};

const WORDS: Record<CarrierUpdateState['status'], string> = {
  pending: 'Pending',
  submitted: 'Submitted',
  ok: 'OK',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** A pairing's or device change's status as a tag; "Not sent" before there is one. */
export function CarrierUpdateTag({
  update,
}: {
  update: Pick<CarrierUpdateState, 'status'> | null;
}) {
  return update ? (
    <Tag color={COLORS[update.status]} data-testid="carrier-update-status">
      {WORDS[update.status]}
    </Tag>
  ) : (
    <Tag>Not sent</Tag>
  );
}
