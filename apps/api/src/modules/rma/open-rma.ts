import { RMA_REASONS, RMA_REASON_TEXT, type RmaReason } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError, fieldError } from '../../http/errors.js';
import type { Actor } from '../../http/principal.js';
import { recordAudit } from '../audit/index.js';

export type OpenRmaInput = {
  readonly orderId: number;
  /** The device coming back; null: every device the order shipped. */
  readonly deviceId: number | null;
  /** One of `RMA_REASONS`. */
  readonly reason: string;
  readonly note?: string | null;
};

const isReason = (reason: string): reason is RmaReason =>
  (RMA_REASONS as readonly string[]).includes(reason);

/**
 * Opens an RMA on an order (DOMAIN.md 4.10), from /RMA or from another area's step (a shipped
 * order's cancellation): `requested`, expecting back the device named (which must have shipped on
 * that order) or every device the order shipped. A defect is accepted within the warranty window
 * only (days from the order's shipping, `rma_settings`). A device is on one open RMA at most: its
 * row is locked while its open RMAs are read, so of two opened at once the second sees the first
 * and is refused with its number (409); the unique index `rma_lines_open_device` holds it besides.
 * Writes the RMA's and each device's timeline and the audit log, in the caller's transaction.
 */
export async function openRma(
  tx: Queryable,
  actor: Actor,
  input: OpenRmaInput,
): Promise<{ id: number; number: string }> {
  if (!isReason(input.reason)) {
    throw fieldError(
      'reason',
      `Choose one of: ${RMA_REASONS.map((r) => RMA_REASON_TEXT[r]).join(', ')}.`,
    );
  }
  const note = input.note?.trim() || null;
  if (note && note.length > 2000) throw fieldError('note', 'At most 2000 characters.');

  const [order] = await tx.query<{
    number: string;
    shipped_at: string | null;
    warranty_ok: boolean;
    warranty_days: number;
  }>(
    `SELECT o.number, o.shipped_at::text,
       o.shipped_at IS NOT NULL AND o.shipped_at + make_interval(days => s.warranty_days) >= now()
         AS warranty_ok,
       s.warranty_days
     FROM orders o CROSS JOIN rma_settings s WHERE o.id = $1`,
    [input.orderId],
  );
  if (!order) throw new NotFoundError(`Order ${input.orderId} does not exist.`);
  if (input.reason === 'defective' && !order.warranty_ok) {
    throw fieldError(
      'orderId',
      order.shipped_at
        ? `Order ${order.number} shipped more than ${order.warranty_days} days ago: a defect is no longer under warranty.`
        : `Order ${order.number} has not shipped.`,
    );
  }

  // The devices the order shipped that are still out there (shipped or delivered), locked in id
  // order so that two RMAs opened at once for one device take turns.
  const units = await tx.query<{ unit_id: string; device_id: string; identifier: string }>(
    `SELECT u.id AS unit_id, d.id AS device_id, d.identifier
     FROM order_lines l
     JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'shipped'
     JOIN devices d ON d.id = u.device_id AND d.status IN ('shipped', 'delivered')
     WHERE l.order_id = $1 AND ($2::bigint IS NULL OR d.id = $2)
     ORDER BY d.id
     FOR UPDATE OF d`,
    [input.orderId, input.deviceId],
  );
  if (units.length === 0) {
    throw new ValidationError({
      [input.deviceId === null ? 'orderId' : 'deviceId']: [
        input.deviceId === null
          ? `Order ${order.number} has no shipped device to return.`
          : `This device did not ship on order ${order.number}, or is back already.`,
      ],
    });
  }
  const deviceIds = units.map((unit) => unit.device_id);

  const [open] = await tx.query<{ number: string; identifier: string }>(
    `SELECT r.number, d.identifier
     FROM rma_lines l JOIN rmas r ON r.id = l.rma_id JOIN devices d ON d.id = l.device_id
     WHERE l.device_id = ANY($1::bigint[]) AND l.open
     LIMIT 1`,
    [deviceIds],
  );
  if (open) throw new ConflictError(`Device ${open.identifier} is on open ${open.number} already.`);

  const [rma] = await tx.query<{ id: string; number: string }>(
    `INSERT INTO rmas (order_id, reason, note, warranty_ok, created_by)
     VALUES ($1, $2, $3, $4, $5) RETURNING id, number`,
    [input.orderId, input.reason, note, order.warranty_ok, actor.userId],
  );
  const rmaId = Number(rma!.id);
  await tx.query(
    `INSERT INTO rma_lines (rma_id, device_id, order_line_unit_id)
     SELECT $1, s.device_id, s.unit_id FROM unnest($2::bigint[], $3::bigint[]) AS s (device_id, unit_id)`,
    [rmaId, deviceIds, units.map((unit) => unit.unit_id)],
  );
  const data = { rma: rma!.number, order: order.number, reason: input.reason, note };
  await tx.query(
    `INSERT INTO rma_events (rma_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'requested', 'requested', $4::jsonb)`,
    [rmaId, actor.userId, actor.userName, JSON.stringify(data)],
  );
  await writeRmaDeviceEvents(tx, actor, rmaId, 'rma_requested', deviceIds, data);
  await recordAudit(tx, {
    actorId: actor.userId,
    actorName: actor.userName,
    action: 'RMA.requested',
    entityType: 'RMA',
    entityId: rmaId,
    after: { ...data, devices: units.map((unit) => unit.identifier) },
  });
  return { id: rmaId, number: rma!.number };
}

/**
 * An RMA's step on its devices' timelines that does not change their status (requested,
 * authorised, resolved): an event naming the RMA.
 */
export const writeRmaDeviceEvents = (
  tx: Queryable,
  actor: Actor,
  rmaId: number,
  type: string,
  deviceIds: readonly (string | number)[],
  data: Record<string, unknown>,
) =>
  tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, ref_type, ref_id, data)
     SELECT d, $2, $3, $4, 'rma', $5, $6::jsonb FROM unnest($1::bigint[]) AS d`,
    [deviceIds, actor.userId, actor.userName, type, rmaId, JSON.stringify(data)],
  );
