import {
  nextDeviceStatus,
  statusText,
  type DeviceStatus,
  type RepairSource,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';

export type RepairRequest = {
  readonly deviceId: number;
  readonly source: RepairSource;
  /** What sent it: an RMA's number, a parcel's tracking number. */
  readonly reference?: string | null;
  readonly issueCodes?: readonly string[];
  readonly note?: string | null;
};

type Locked = {
  identifier: string;
  status: DeviceStatus;
  status_before_hold: DeviceStatus | null;
  open_ticket: string | null;
  open_status: string | null;
};

/**
 * Sends a device that failed QC or came back to repair (DOMAIN.md 3.5): the device goes
 * `in_repair` (device action `send_to_repair`) and a ticket opens as `requested`, both in the
 * caller's transaction. The caller's station carries the permission: the repair request page, an
 * RMA, the unpack desk. The device is locked first, so of two requests for it the second finds the
 * first's ticket open and is refused (409) naming it; the unique index on open tickets
 * (`repair_tickets_open_device`) stands behind that.
 */
export async function requestRepair(
  tx: Transaction,
  { actor, meta }: Acting,
  input: RepairRequest,
): Promise<{ id: number; number: string }> {
  const [device] = await tx.query<Locked>(
    `SELECT d.identifier, d.status, d.status_before_hold, t.number AS open_ticket,
       t.status AS open_status
     FROM devices d
     LEFT JOIN repair_tickets t ON t.device_id = d.id
       AND t.status NOT IN ('released', 'beyond_repair', 'cancelled')
     WHERE d.id = $1
     FOR UPDATE OF d`,
    [input.deviceId],
  );
  if (!device) throw new NotFoundError(`There is no device with id ${input.deviceId}.`);
  if (device.open_ticket) {
    throw new ConflictError(
      `${device.identifier} has an open repair ticket already: ${device.open_ticket} (${device.open_status!.replace(/_/g, ' ')}).`,
    );
  }
  const step = nextDeviceStatus(device, 'send_to_repair');
  if (!step.ok) {
    throw new ConflictError(
      `${device.identifier} is ${statusText(device.status)}: only a device that failed QC or came back is sent to repair.`,
    );
  }
  const [ticket] = await tx.query<{ id: number; number: string }>(
    `INSERT INTO repair_tickets (device_id, source, reference, issue_codes, note, requested_by)
     VALUES ($1, $2, $3, $4::text[], $5, $6)
     RETURNING id::int AS id, number`,
    [
      input.deviceId,
      input.source,
      input.reference?.trim() || null,
      [...new Set(input.issueCodes ?? [])],
      input.note?.trim() || null,
      actor.userId,
    ],
  );
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: [input.deviceId],
    action: 'send_to_repair',
    ref: { type: 'repair_ticket', id: ticket!.id },
    data: { ticket: ticket!.number, source: input.source, station: 'repair' },
  });
  await tx.query(
    `INSERT INTO repair_ticket_events (ticket_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'requested', 'requested', $4::jsonb)`,
    [
      ticket!.id,
      actor.userId,
      actor.userName,
      JSON.stringify({ source: input.source, reference: input.reference ?? null }),
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'repair_ticket.requested',
    entityType: 'repair_ticket',
    entityId: ticket!.id,
    after: {
      number: ticket!.number,
      device: device.identifier,
      source: input.source,
      reference: input.reference ?? null,
      issue_codes: input.issueCodes ?? [],
    },
  });
  return ticket!;
}
