import {
  normaliseScan,
  trackingOfScan,
  type RmaChecklistInput,
  type RmaDetail,
  type RmaRouteInput,
  type RmaScanAnswer,
  type RmaScanInput,
  type RmaScanResult,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { requestRepair } from '../repair/index.js';
import { writeRmaDeviceEvents } from './open-rma.js';
import { recordRmaFact, rmaNumberOf } from './rma.service.js';
import { rmaDetail, rmaStore } from './rma.store.js';

/**
 * RMA receiving (DOMAIN.md 4.10 /RMA/scan, 5.3 step 2a): the parcel is found by its return label
 * or the RMA number, each IMEI in it is scanned (a device the RMA expects is received and becomes
 * `returned`; any other is a mismatch flagged for a supervisor), what came with it is ticked and
 * photographed, and each device is routed to reuse, inspection or repair. A scan locks its RMA,
 * so two stations scanning one parcel take turns: the second finds the device received already.
 */

/** States in which an RMA's parcel may be received. */
const RECEIVABLE = ['authorized', 'in_transit', 'received', 'inspected'];

/** The RMA a return label's tracking number or an RMA number names. */
export async function rmaToReceive(db: Queryable, code: string): Promise<RmaDetail> {
  const number = rmaNumberOf(code);
  const [rma] = await db.query<{ id: number }>(
    `SELECT r.id::int AS id FROM rmas r WHERE r.number = $1
     UNION ALL
     SELECT rl.rma_id::int FROM rma_return_labels rl WHERE rl.tracking_number = $2
     LIMIT 1`,
    [number, trackingOfScan(code)],
  );
  if (!rma) throw new NotFoundError(`No RMA has the number or return label ${code.trim()}.`);
  return rmaDetail(db, rma.id);
}

async function lockedRma(tx: Transaction, id: number) {
  const [rma] = await tx.query<{ number: string; status: string }>(
    `SELECT number, status FROM rmas WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!rma) throw new NotFoundError(`There is no RMA with id ${id}.`);
  if (!RECEIVABLE.includes(rma.status)) {
    throw new ConflictError(
      `${rma.number} is ${rma.status.replace(/_/g, ' ')}: it is not being received.`,
    );
  }
  return rma;
}

/**
 * One IMEI scanned into an RMA's parcel. A device the RMA expects and has not had yet is received
 * back (`receive_return`), its blacklist listing checked again (a listed device is held), and
 * the RMA is received with its first device; a device received already answers so; any other
 * code is a mismatch, flagged on the RMA for a supervisor. Every scan is logged.
 */
export async function scanRma(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: RmaScanInput,
): Promise<RmaScanAnswer> {
  const { actor, meta } = acting;
  const rma = await lockedRma(tx, id);
  const code = normaliseScan(input.code);
  const station = input.station?.trim() || null;
  const [found] = await tx.query<{
    device_id: string;
    identifier: string;
    on_rma: boolean;
    received: boolean;
    blacklisted: boolean;
  }>(
    `SELECT d.id AS device_id, d.identifier, l.id IS NOT NULL AS on_rma,
       l.received_at IS NOT NULL AS received,
       EXISTS (SELECT 1 FROM blacklist_entries be WHERE be.cleared_at IS NULL
               AND be.imei IN (d.imei, d.imei2)) AS blacklisted
     FROM devices d LEFT JOIN rma_lines l ON l.device_id = d.id AND l.rma_id = $2
     WHERE d.imei = $1 OR d.imei2 = $1 OR d.meid = $1
     LIMIT 1`,
    [code, id],
  );
  let result: RmaScanResult;
  let words: string;
  if (!found?.on_rma) {
    result = 'mismatch';
    words = `${code} is not on ${rma.number}: flagged for a supervisor.`;
    await tx.query(`UPDATE rmas SET mismatch_flagged = true, updated_at = now() WHERE id = $1`, [
      id,
    ]);
    await recordRmaFact(tx, acting, { id, number: rma.number }, 'mismatch_flagged', {
      code,
      station,
    });
  } else if (found.received) {
    result = 'already_received';
    words = `${found.identifier} is received already.`;
  } else {
    result = 'received';
    const deviceId = Number(found.device_id);
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [deviceId],
      action: 'receive_return',
      ref: { type: 'rma', id },
      data: { rma: rma.number, station },
    });
    await tx.query(
      `UPDATE rma_lines SET received_at = now(), received_by = $3
       WHERE rma_id = $1 AND device_id = $2`,
      [id, deviceId, actor.userId],
    );
    if (rma.status === 'authorized' || rma.status === 'in_transit') {
      await runTransition(tx, rmaStore, {
        id,
        action: 'receive',
        actor,
        meta,
        data: { rma: rma.number, station },
      });
    }
    words = `${found.identifier} received.`;
    if (found.blacklisted) {
      await applyDeviceAction(tx, actor, meta, {
        deviceIds: [deviceId],
        action: 'hold',
        holdReason: 'blacklist',
        ref: { type: 'rma', id },
        data: { rma: rma.number, station },
      });
      words += ' It is on the blacklist: held.';
    }
  }
  await tx.query(
    `INSERT INTO rma_scans (rma_id, code, device_id, result, station, actor_id, actor_name)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [id, code, found?.device_id ?? null, result, station, actor.userId, actor.userName],
  );
  return { result, words, detail: await rmaDetail(tx, id) };
}

/** What came back with the devices, and the damage seen: kept on the RMA and its timeline. */
export async function recordChecklist(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: RmaChecklistInput,
): Promise<RmaDetail> {
  const rma = await lockedRma(tx, id);
  const accessories = [...new Set(input.accessories)];
  const damageNote = input.damage_note ?? null;
  await tx.query(
    `UPDATE rmas SET accessories = $2::text[], damage_note = $3, updated_at = now() WHERE id = $1`,
    [id, accessories, damageNote],
  );
  await recordRmaFact(tx, acting, { id, number: rma.number }, 'checklist_recorded', {
    accessories,
    damage_note: damageNote,
  });
  return rmaDetail(tx, id);
}

/**
 * Sends a received device on: to repair (a ticket, the device `in_repair`), or to the reuse queue
 * for reuse or a full inspection (it waits there as `returned`). Once every device of the RMA is
 * routed, the RMA is inspected and ready for its resolution.
 */
export async function routeRmaDevice(
  tx: Transaction,
  acting: Acting,
  id: number,
  input: RmaRouteInput,
): Promise<RmaDetail> {
  const { actor, meta } = acting;
  const rma = await lockedRma(tx, id);
  const [line] = await tx.query<{ received: boolean; route: string | null; identifier: string }>(
    `SELECT l.received_at IS NOT NULL AS received, l.route, d.identifier
     FROM rma_lines l JOIN devices d ON d.id = l.device_id
     WHERE l.rma_id = $1 AND l.device_id = $2`,
    [id, input.device_id],
  );
  if (!line) throw new NotFoundError(`Device ${input.device_id} is not on ${rma.number}.`);
  if (!line.received)
    throw new ConflictError(`${line.identifier} is not received yet: scan it first.`);
  if (line.route !== null) {
    throw new ConflictError(`${line.identifier} is routed to ${line.route} already.`);
  }
  const note = input.note ?? null;
  if (input.route === 'repair') {
    await requestRepair(tx, acting, {
      deviceId: input.device_id,
      source: 'rma',
      reference: rma.number,
      note,
    });
  } else {
    await writeRmaDeviceEvents(tx, actor, id, 'rma_routed', [input.device_id], {
      rma: rma.number,
      route: input.route,
      ...(note ? { note } : {}),
    });
  }
  await tx.query(`UPDATE rma_lines SET route = $3 WHERE rma_id = $1 AND device_id = $2`, [
    id,
    input.device_id,
    input.route,
  ]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'RMA.device_routed',
    entityType: 'RMA',
    entityId: id,
    after: { rma: rma.number, device: line.identifier, route: input.route, note },
  });
  const [left] = await tx.query<{ unrouted: number }>(
    `SELECT count(*)::int AS unrouted FROM rma_lines WHERE rma_id = $1 AND route IS NULL`,
    [id],
  );
  if (left!.unrouted === 0 && rma.status === 'received') {
    await runTransition(tx, rmaStore, {
      id,
      action: 'inspect',
      actor,
      meta,
      data: { rma: rma.number },
    });
  }
  return rmaDetail(tx, id);
}
