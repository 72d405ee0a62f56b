import {
  reuseList,
  statusText,
  type DeviceStatus,
  type ReuseDecisionAnswer,
  type ReuseDecisionInput,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { TRANSACTION_TIME } from '../../toolkit/lifecycle.js';
import type { ListStore } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';
import { requestRepair } from '../repair/index.js';

/**
 * The reuse queue (DOMAIN.md 4.10 /RMA/reuse, 5.3 steps 4-7): devices back from customers
 * (`returned`, not in repair) and those the repair line released (`repaired`). Each is
 * re-inspected (a new wipe, the blacklist checked again, a grade) and approved into consolidation
 * (`reuse`, its reuse count up by one, refused past the configured limit), or rejected to repair,
 * scrap or its vendor.
 */

/** The RMA a device came back on last, over `devices d`. */
const LAST_RMA = `(SELECT r.number FROM rma_lines l JOIN rmas r ON r.id = l.rma_id
  WHERE l.device_id = d.id ORDER BY l.rma_id DESC LIMIT 1)`;

export const reuseListStore: ListStore<typeof reuseList> = {
  contract: reuseList,
  list: {
    from: 'devices d CROSS JOIN rma_settings s',
    id: 'd.id',
    columns: `d.id::int AS id, d.identifier AS imei, ${modelDisplayNameOf('d.model_id')} AS model,
      d.status,
      CASE WHEN d.status = 'repaired' THEN 'repair'
        WHEN ${LAST_RMA} IS NOT NULL THEN 'rma' ELSE 'return' END AS source,
      ${LAST_RMA} AS rma_number, d.grade, d.reuse_count, s.reuse_limit,
      (SELECT i.decision FROM device_reuse_inspections i WHERE i.device_id = d.id
       ORDER BY i.id DESC LIMIT 1) AS last_decision,
      ${isoTextSql('d.updated_at')} AS waiting_since`,
    sorts: { waiting_since: { sql: 'd.updated_at', type: 'timestamptz' } },
    search: (_pattern, term) => ['(d.imei = ? OR d.imei2 = ?)', term, term],
    // The queue's partial index (migration 0066) holds exactly the rows of its first condition.
    filters: (query) => [
      ["d.status IN ('returned', 'repaired')"],
      query.status !== undefined && ['d.status = ?', query.status],
    ],
  },
};

/**
 * Re-inspects a device of the queue and decides. The device is locked; the blacklist is read
 * again (a listed device is held, never approved); an approval needs a grade and a count under
 * the limit, and writes the new wipe and grade with the step.
 */
export async function decideReuse(
  tx: Transaction,
  acting: Acting,
  deviceId: number,
  input: ReuseDecisionInput,
): Promise<ReuseDecisionAnswer> {
  const { actor, meta } = acting;
  const [device] = await tx.query<{
    identifier: string;
    status: DeviceStatus;
    reuse_count: number;
    reuse_limit: number;
    blacklisted: boolean;
  }>(
    `SELECT d.identifier, d.status, d.reuse_count, s.reuse_limit,
       EXISTS (SELECT 1 FROM blacklist_entries be WHERE be.cleared_at IS NULL
               AND be.imei IN (d.imei, d.imei2)) AS blacklisted
     FROM devices d CROSS JOIN rma_settings s WHERE d.id = $1 FOR UPDATE OF d`,
    [deviceId],
  );
  if (!device) throw new NotFoundError(`There is no device with id ${deviceId}.`);
  if (device.status !== 'returned' && device.status !== 'repaired') {
    throw new ConflictError(
      `${device.identifier} is ${statusText(device.status)}: only a returned or repaired device is re-inspected here.`,
    );
  }
  const blacklistState = device.blacklisted ? 'blocked' : 'clean';
  const wipe = {
    wipe_method: input.wipe_method,
    wipe_certificate: input.wipe_certificate ?? null,
    wiped_at: TRANSACTION_TIME,
    blacklist_state: blacklistState,
    blacklist_checked_at: TRANSACTION_TIME,
  };
  const data = { decision: input.decision, grade: input.grade ?? null, note: input.note ?? null };
  const ref = { type: 'reuse_inspection', id: null };
  let reuseCount = device.reuse_count;
  if (input.decision === 'approved' && !input.grade) {
    throw fieldError('grade', 'Grade the device to approve it.');
  }
  if (input.decision === 'approved' && device.blacklisted) {
    // Listed since it left: held with the listing, never approved.
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [deviceId],
      action: 'hold',
      holdReason: 'blacklist',
      ref,
      data,
      columns: wipe,
    });
  } else if (input.decision === 'approved') {
    if (device.reuse_count >= device.reuse_limit) {
      throw new ConflictError(
        `${device.identifier} was reused ${device.reuse_count} times, the limit: scrap it or send it to its vendor.`,
      );
    }
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [deviceId],
      action: 'approve_reuse',
      ref,
      data,
      columns: {
        ...wipe,
        grade: input.grade,
        graded_at: TRANSACTION_TIME,
        graded_by: actor.userId,
      },
    });
    await tx.query(`UPDATE devices SET reuse_count = reuse_count + 1 WHERE id = $1`, [deviceId]);
    reuseCount += 1;
  } else if (input.decision === 'repair') {
    await requestRepair(tx, acting, {
      deviceId,
      source: 'rma',
      reference: 'reuse queue',
      note: input.note ?? null,
    });
  } else {
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [deviceId],
      action: input.decision === 'scrap' ? 'scrap_returned' : 'return_to_vendor',
      ref,
      data,
      columns: wipe,
    });
  }
  await keepInspection(tx, acting, deviceId, input, blacklistState);
  const [after] = await tx.query<{ status: DeviceStatus }>(
    `SELECT status FROM devices WHERE id = $1`,
    [deviceId],
  );
  return {
    device_id: deviceId,
    decision: input.decision,
    status: after!.status,
    blacklist_state: blacklistState,
    reuse_count: reuseCount,
  };
}

async function keepInspection(
  tx: Transaction,
  { actor, meta }: Acting,
  deviceId: number,
  input: ReuseDecisionInput,
  blacklistState: 'clean' | 'blocked',
) {
  await tx.query(
    `INSERT INTO device_reuse_inspections (device_id, wipe_method, wipe_certificate,
       blacklist_state, grade, decision, note, actor_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      deviceId,
      input.wipe_method,
      input.wipe_certificate ?? null,
      blacklistState,
      input.grade ?? null,
      input.decision,
      input.note ?? null,
      actor.userId,
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'device.reuse_inspected',
    entityType: 'device',
    entityId: deviceId,
    after: {
      decision: input.decision,
      grade: input.grade ?? null,
      wipe_method: input.wipe_method,
      blacklist_state: blacklistState,
    },
  });
}
