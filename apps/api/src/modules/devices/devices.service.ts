import {
  nextDeviceStatus,
  type DeviceAction,
  type DeviceStatus,
  type HoldReason,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../session/session.service.js';

/** The event each action writes on a device's timeline. */
const EVENT_TYPES: Record<DeviceAction, string> = {
  hold: 'held',
  clear_hold: 'hold_cleared',
  return_to_vendor: 'returned_to_vendor',
};

export type DeviceActionInput = {
  readonly deviceIds: readonly number[];
  readonly action: DeviceAction;
  /** For `hold`. */
  readonly holdReason?: HoldReason;
  /** What caused the step: a blacklist entry, a vendor transfer. */
  readonly ref?: { readonly type: string; readonly id: number | null };
  readonly data?: Record<string, unknown>;
  /** Devices that cannot take the step are left as they are instead of failing the whole call. */
  readonly skipRefused?: boolean;
};

export type DeviceStep = { id: number; identifier: string; from: DeviceStatus; to: DeviceStatus };

type LockedDevice = {
  id: number;
  identifier: string;
  status: DeviceStatus;
  status_before_hold: DeviceStatus | null;
};

/**
 * The one way a device's status changes (DOMAIN.md invariant 6): the devices are locked, each is
 * checked against the lifecycle (current status, hold), then all move in one statement with a
 * device event and an audit event each, in the caller's transaction. Answers the steps taken.
 */
export async function applyDeviceAction(
  tx: Queryable,
  actor: Principal,
  meta: RequestMeta,
  input: DeviceActionInput,
): Promise<DeviceStep[]> {
  if (input.deviceIds.length === 0) return [];
  // Locked in id order, so that two callers locking overlapping sets cannot deadlock.
  const devices = await tx.query<LockedDevice>(
    `SELECT id, identifier, status, status_before_hold FROM devices
     WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [input.deviceIds],
  );
  const steps: DeviceStep[] = [];
  const refused: string[] = [];
  for (const device of devices) {
    const next = nextDeviceStatus(device, input.action);
    if (next.ok)
      steps.push({
        id: device.id,
        identifier: device.identifier,
        from: device.status,
        to: next.status,
      });
    else refused.push(`${device.identifier}: ${next.message}`);
  }
  if (refused.length > 0 && !input.skipRefused) {
    const more = refused.length > 3 ? ` (and ${refused.length - 3} more)` : '';
    throw new ConflictError(`${refused.slice(0, 3).join(' ')}${more}`);
  }
  if (steps.length === 0) return steps;

  const ids = steps.map((step) => step.id);
  const targets = steps.map((step) => step.to);
  const held = input.action === 'hold';
  const leaves = input.action === 'return_to_vendor';
  await tx.query(
    `UPDATE devices d SET status = s.target,
       hold_reason = CASE WHEN $3 THEN $4 WHEN s.target = 'hold' THEN d.hold_reason END,
       status_before_hold = CASE WHEN $3 THEN d.status WHEN s.target = 'hold' THEN d.status_before_hold END,
       warehouse_box_id = CASE WHEN $5 THEN NULL ELSE d.warehouse_box_id END,
       updated_at = now()
     FROM unnest($1::bigint[], $2::text[]) AS s (id, target)
     WHERE d.id = s.id`,
    [ids, targets, held, input.holdReason ?? null, leaves],
  );
  const data = JSON.stringify({ ...input.data, ...(held && { reason: input.holdReason }) });
  await tx.query(
    `INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
       container, ref_type, ref_id, data)
     SELECT s.id, $4, $5, $6, s.from_status, s.to_status, wb.code, $7, $8, $9::jsonb
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)
     JOIN devices d ON d.id = s.id
     LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id`,
    [
      ids,
      steps.map((step) => step.from),
      targets,
      actor.userId,
      actor.userName,
      EVENT_TYPES[input.action],
      input.ref?.type ?? null,
      input.ref?.id ?? null,
      data,
    ],
  );
  await tx.query(
    `INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, before, after,
       ip, request_id)
     SELECT $4, $5, $6, 'device', s.id::text, jsonb_build_object('status', s.from_status),
       jsonb_build_object('status', s.to_status) || $9::jsonb, $7, $8
     FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)`,
    [
      ids,
      steps.map((step) => step.from),
      targets,
      actor.userId,
      actor.userName,
      `device.${EVENT_TYPES[input.action]}`,
      meta.ip,
      meta.requestId,
      data,
    ],
  );
  return steps;
}
