import {
  MAX_BOX_QTY,
  normaliseScan,
  statusText,
  type BoxScanAnswer,
  type BoxScanMode,
  type BoxScanResult,
  type DeviceAction,
  type InventoryBoxCount,
  type StationBox,
  type StationDevice,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';
import { COUNT_JSON } from './box-count-json.js';
import {
  boxById,
  boxIdByCode,
  boxStatusText,
  deviceByCode,
  differences,
  labelCode,
  lockBox,
  reopenBox,
  type DeviceRow,
  type LockedBox,
} from './inventory-boxes.service.js';

/**
 * The box scan station (DOMAIN.md 4.2, /inventory-box/scan-device) and the counts of boxes. A
 * scan locks its device, then its boxes in id order (as consolidation does: device before box),
 * changes the device's box through a named device action (the status stays; its event and audit
 * entry are written) and counts the boxes' qty again, all in the caller's transaction. Homogeneity
 * is the consolidation's check (`differences`), with its words.
 */

/** A device as the station lists it, over `devices d`. */
const STATION_DEVICE_COLUMNS = `d.id, d.identifier, ${modelDisplayNameOf('d.model_id')} AS model,
  (SELECT c.name FROM colors c WHERE c.id = d.color_id) AS color, d.capacity_gb, d.grade,
  d.carrier_lock, d.status, d.hold_reason,
  (SELECT b.code FROM inventory_boxes b WHERE b.id = d.inventory_box_id) AS box_code`;

async function stationDevice(db: Queryable, id: number): Promise<StationDevice> {
  const [device] = await db.query<StationDevice>(
    `SELECT ${STATION_DEVICE_COLUMNS} FROM devices d WHERE d.id = $1`,
    [id],
  );
  return device!;
}

/** What a box holds, by IMEI (never more than a box's largest limit). */
const boxDevices = (db: Queryable, boxId: number) =>
  db.query<StationDevice>(
    `SELECT ${STATION_DEVICE_COLUMNS} FROM devices d WHERE d.inventory_box_id = $1
     ORDER BY d.identifier, d.id LIMIT ${MAX_BOX_QTY}`,
    [boxId],
  );

async function countWhere(
  db: Queryable,
  where: string,
  id: number,
): Promise<InventoryBoxCount | null> {
  const [row] = await db.query<{ count: InventoryBoxCount }>(
    `SELECT ${COUNT_JSON} AS count FROM inventory_box_counts c WHERE ${where}`,
    [id],
  );
  return row?.count ?? null;
}

const runningCountOf = (db: Queryable, boxId: number) =>
  countWhere(db, 'c.box_id = $1 AND c.finished_at IS NULL', boxId);

/** A box as the station works on it: the box, its devices and its running count. */
async function stationBox(db: Queryable, boxId: number): Promise<StationBox> {
  return {
    box: (await boxById(db, boxId))!,
    devices: await boxDevices(db, boxId),
    count: await runningCountOf(db, boxId),
  };
}

/** The box of a scanned code as the station works on it, or 404. */
export async function stationBoxByCode(db: Queryable, raw: string): Promise<StationBox> {
  return stationBox(db, await boxIdByCode(db, raw));
}

/**
 * Refuses (409) a change to what a box holds while the box cannot change: sealed (someone with
 * box.reopen reopens it first, DOMAIN.md 4.2), locked by a count, emptied or archived.
 */
function assertChangeable(box: LockedBox): void {
  if (box.status === 'sealed') {
    throw new ConflictError(
      `${box.code} is sealed: someone with box.reopen reopens it before devices go in or out.`,
    );
  }
  if (box.status === 'locked') {
    throw new ConflictError(
      `${box.code} is locked by a count: finish the count (verify mode) before devices go in or out.`,
    );
  }
  if (box.status === 'empty' || box.status === 'archived') {
    throw new ConflictError(`${box.code} is ${box.status}: no device goes in or out of it.`);
  }
}

/** Why a device cannot go into, out of or between boxes at all, or null. */
function unitRefusal(device: DeviceRow): { result: BoxScanResult; message: string } | null {
  if (device.status === 'hold') {
    return {
      result: 'held',
      message: `${device.identifier} is on hold (${device.hold_reason}): it does not go into, out of or between boxes.`,
    };
  }
  if (device.status !== 'in_stock' && device.status !== 'reserved') {
    const next =
      device.status === 'graded' || device.status === 'reuse'
        ? 'the consolidation station puts it into a box.'
        : 'only devices in stock go into, out of or between boxes.';
    return {
      result: 'not_in_stock',
      message: `${device.identifier} is ${statusText(device.status)}: ${next}`,
    };
  }
  return null;
}

type ScanInput = {
  readonly mode: BoxScanMode;
  readonly code: string;
  readonly box_code: string;
  readonly from_box_code?: string | undefined;
  readonly station?: string | undefined;
};

/** The box a device was taken out of by its last step, when that step was a removal. */
async function removedFrom(tx: Queryable, deviceId: number): Promise<number | null> {
  const [last] = await tx.query<{ type: string; ref_id: number | null }>(
    'SELECT type, ref_id FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
    [deviceId],
  );
  return last?.type === 'removed_from_box' ? Number(last.ref_id) : null;
}

/** Counts again what the boxes hold (DOMAIN.md 4.2: qty is recalculated, never edited). */
const recount = (tx: Queryable, boxIds: readonly number[]) =>
  tx.query(
    `UPDATE inventory_boxes b SET updated_at = now(),
       qty = (SELECT count(*) FROM devices d WHERE d.inventory_box_id = b.id)
     WHERE b.id = ANY ($1::bigint[])`,
    [boxIds],
  );

/**
 * One scan at the station. Add puts a device in no box into the box; remove takes one out; move
 * takes one from `from_box_code` into the box; verify counts it for the box's running count.
 */
export async function scanAtStation(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: ScanInput,
): Promise<BoxScanAnswer> {
  const code = normaliseScan(input.code);
  const boxCode = labelCode(input.box_code);
  if (input.mode === 'verify') return verifyScan(tx, actor, meta, code, boxCode, input.station);
  let fromCode: string | null = null;
  if (input.mode === 'move') {
    if (!input.from_box_code) {
      throw fieldError('from_box_code', 'Scan the box to take the device from.');
    }
    fromCode = labelCode(input.from_box_code);
    if (fromCode === boxCode) {
      throw fieldError('from_box_code', 'Scan two boxes: the one to take from and another.');
    }
  }
  // The device first, then its boxes in id order: two stations racing for one device take turns.
  const device = await deviceByCode(tx, code, true);
  const boxes = await tx.query<LockedBox>(
    `SELECT id, code, status, qty, max_qty, model_id, color_id, capacity_gb, grade, carrier_lock
     FROM inventory_boxes WHERE code = ANY ($1::text[]) ORDER BY id FOR UPDATE`,
    [fromCode ? [boxCode, fromCode] : [boxCode]],
  );
  const box = boxes.find((each) => each.code === boxCode);
  if (!box) throw new NotFoundError(`No inventory box has the code ${boxCode}.`);
  const from = fromCode ? boxes.find((each) => each.code === fromCode) : undefined;
  if (fromCode && !from) throw new NotFoundError(`No inventory box has the code ${fromCode}.`);
  assertChangeable(box);
  if (from) assertChangeable(from);

  const answer = async (
    result: BoxScanResult,
    message: string,
    withDevice = true,
  ): Promise<BoxScanAnswer> => ({
    result,
    message,
    code,
    device: device && withDevice ? await stationDevice(tx, device.id) : null,
    box: (await boxById(tx, box.id))!,
    from_box: from ? (await boxById(tx, from.id))! : null,
    count: null,
  });
  if (!device) return answer('not_found', `No device has the code ${code}.`, false);
  const id = device.identifier;
  const data = {
    box: box.code,
    ...(from && { from_box: from.code }),
    ...(input.station && { station: input.station }),
  };
  const change = async (action: DeviceAction, target: number | null, touched: number[]) => {
    await applyDeviceAction(tx, actor, meta, {
      deviceIds: [device.id],
      action,
      ref: { type: 'inventory_box', id: box.id },
      data,
      columns: { inventory_box_id: target },
    });
    await recount(tx, touched);
  };
  const fill = async () => {
    const after = (await boxById(tx, box.id))!;
    return `${after.code} holds ${after.qty} of ${after.max_qty}`;
  };

  if (input.mode === 'add') {
    if (device.inventory_box_id === box.id) {
      return answer('duplicate', `${id} is in ${box.code} already.`);
    }
    if (device.inventory_box_id !== null) {
      return answer(
        'in_other_box',
        `${id} is in ${device.inventory_box_code}: move it from there (move mode).`,
      );
    }
    const refusal = unitRefusal(device);
    if (refusal) return answer(refusal.result, refusal.message);
    if (device.status === 'reserved') {
      return answer('reserved', `${id} is reserved: it moves only between boxes of its kind.`);
    }
    if (box.qty >= box.max_qty) {
      return answer('box_full', `${box.code} is full (${box.qty} of ${box.max_qty}).`);
    }
    const found = await differences(tx, box, device);
    if (found.length > 0) {
      return answer('mismatch', `${id} does not match ${box.code}: ${found.join('; ')}.`);
    }
    await change('add_to_box', box.id, [box.id]);
    return answer('added', `${id} added: ${await fill()}.`);
  }

  if (input.mode === 'remove') {
    if (device.inventory_box_id !== box.id) {
      if (device.inventory_box_id === null && (await removedFrom(tx, device.id)) === box.id) {
        return answer('duplicate', `${id} was taken out of ${box.code} already.`);
      }
      return answer(
        'not_in_box',
        device.inventory_box_id === null
          ? `${id} is in no box.`
          : `${id} is in ${device.inventory_box_code}, not ${box.code}.`,
      );
    }
    const refusal = unitRefusal(device);
    if (refusal) return answer(refusal.result, refusal.message);
    if (device.status === 'reserved') {
      return answer(
        'reserved',
        `${id} is reserved: it leaves ${box.code} only for a box of its kind (move mode).`,
      );
    }
    await change('remove_from_box', null, [box.id]);
    return answer('removed', `${id} taken out: ${await fill()}.`);
  }

  // Move: from the first box scanned into the box.
  const source = from!;
  if (device.inventory_box_id === box.id) {
    return answer('duplicate', `${id} is in ${box.code} already.`);
  }
  if (device.inventory_box_id !== source.id) {
    return answer(
      'not_in_box',
      `${id} is in ${device.inventory_box_code ?? 'no box'}, not ${source.code}.`,
    );
  }
  const refusal = unitRefusal(device);
  if (refusal) return answer(refusal.result, refusal.message);
  if (box.qty >= box.max_qty) {
    return answer('box_full', `${box.code} is full (${box.qty} of ${box.max_qty}).`);
  }
  const reserved = device.status === 'reserved';
  if (reserved) {
    // A reserved unit was promised as its box's kind: it moves only to a box of the same kind.
    const unlike = await differences(tx, box, (await boxById(tx, source.id))!);
    if (unlike.length > 0) {
      return answer(
        'reserved',
        `${id} is reserved: it moves only to a box like ${source.code}, and ${box.code} differs (${unlike.join('; ')}).`,
      );
    }
  }
  const found = await differences(tx, box, device);
  if (found.length > 0) {
    return answer('mismatch', `${id} does not match ${box.code}: ${found.join('; ')}.`);
  }
  await change(reserved ? 'move_reserved_box' : 'move_box', box.id, [box.id, source.id]);
  return answer('moved', `${id} moved from ${source.code}: ${await fill()}.`);
}

/**
 * A verify scan: the device is counted for the box's running count, as found (in the box) or
 * extra (not in it). The count's row is held FOR SHARE, so a finish waits for the scan.
 */
async function verifyScan(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  code: string,
  boxCode: string,
  station: string | undefined,
): Promise<BoxScanAnswer> {
  const boxId = await boxIdByCode(tx, boxCode);
  const [running] = await tx.query<{ id: number }>(
    `SELECT id FROM inventory_box_counts WHERE box_id = $1 AND finished_at IS NULL FOR SHARE`,
    [boxId],
  );
  if (!running) {
    throw new ConflictError(`No count runs on ${boxCode}: start one before verifying it.`);
  }
  const device = await deviceByCode(tx, code, false);
  const answer = async (result: BoxScanResult, message: string): Promise<BoxScanAnswer> => ({
    result,
    message,
    code,
    device: device ? await stationDevice(tx, device.id) : null,
    box: (await boxById(tx, boxId))!,
    from_box: null,
    count: await countWhere(tx, 'c.id = $1', running.id),
  });
  if (!device) return answer('not_found', `No device has the code ${code}.`);
  const id = device.identifier;
  const inBox = device.inventory_box_id === boxId;
  const [scanned] = await tx.query<{ in_box: boolean }>(
    `INSERT INTO inventory_box_count_scans (count_id, device_id, in_box, scanned_by, station)
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING in_box`,
    [running.id, device.id, inBox, actor.userId, station ?? null],
  );
  if (!scanned) {
    return answer(
      'duplicate',
      inBox ? `${id} is counted already.` : `${id} was scanned already: it is not in ${boxCode}.`,
    );
  }
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.count_scanned',
    entityType: 'inventory_box',
    entityId: boxId,
    after: { count_id: running.id, device: id, in_box: inBox, ...(station && { station }) },
  });
  if (!inBox) {
    const where = device.inventory_box_code ? `it is in ${device.inventory_box_code}` : 'in no box';
    return answer('extra', `${id} is not in ${boxCode} (${where}): counted as extra.`);
  }
  const count = await answer('counted', '');
  const total = count.count!;
  return {
    ...count,
    message: `${id} counted: ${total.counted.length} of ${total.expected}.`,
  };
}

/** The box statuses a count starts from: a box that is sealed and not being filled. */
const COUNTABLE = ['sealed', 'located', 'partially_picked'];

/**
 * Starts a count of a box (DOMAIN.md 4.2): the box is locked, keeping the status it had, until
 * the verify mode finishes the count. Two people starting one at once: the box's lock makes one
 * wait, and it finds the box locked (409).
 */
export async function startCount(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  boxId: number,
): Promise<InventoryBoxCount> {
  const box = await lockBox(tx, boxId);
  if (box.status === 'locked') {
    const running = await runningCountOf(tx, boxId);
    throw new ConflictError(
      `A count of ${box.code} runs already${running?.started_by_name ? `, started by ${running.started_by_name}` : ''}.`,
    );
  }
  if (!COUNTABLE.includes(box.status)) {
    throw new ConflictError(
      box.status === 'open'
        ? `${box.code} is open: seal it before counting it.`
        : `${box.code} is ${boxStatusText(box.status)}: it holds nothing to count.`,
    );
  }
  const [count] = await tx.query<{ id: number }>(
    `INSERT INTO inventory_box_counts (box_id, box_status, expected_qty, started_by)
     VALUES ($1, $2, $3, $4) RETURNING id`,
    [boxId, box.status, box.qty, actor.userId],
  );
  await tx.query("UPDATE inventory_boxes SET status = 'locked', updated_at = now() WHERE id = $1", [
    boxId,
  ]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.count_started',
    entityType: 'inventory_box',
    entityId: boxId,
    before: { status: box.status },
    after: { status: 'locked', count_id: count!.id, expected: box.qty },
  });
  return (await countWhere(tx, 'c.id = $1', count!.id))!;
}

/**
 * Finishes a running count: what was missing (the box's devices not scanned) and extra (scanned,
 * not in the box) is kept with it, and the box gets back the status it had. Nothing moves: the
 * station's other modes put the box right.
 */
export async function finishCount(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  countId: number,
): Promise<StationBox> {
  const [count] = await tx.query<{ box_id: number; box_status: string; finished: boolean }>(
    `SELECT box_id, box_status, finished_at IS NOT NULL AS finished
     FROM inventory_box_counts WHERE id = $1 FOR UPDATE`,
    [countId],
  );
  if (!count) throw new NotFoundError(`There is no count ${countId}.`);
  const box = await lockBox(tx, count.box_id);
  if (count.finished) throw new ConflictError(`The count of ${box.code} is finished already.`);
  await tx.query(
    `UPDATE inventory_box_counts c SET finished_at = now(), finished_by = $2,
       missing = COALESCE((SELECT jsonb_agg(d.identifier ORDER BY d.identifier) FROM devices d
         WHERE d.inventory_box_id = c.box_id AND NOT EXISTS (
           SELECT 1 FROM inventory_box_count_scans s
           WHERE s.count_id = c.id AND s.device_id = d.id)), '[]'::jsonb),
       extra = COALESCE((SELECT jsonb_agg(jsonb_build_object('identifier', d.identifier,
           'box_code', (SELECT b.code FROM inventory_boxes b WHERE b.id = d.inventory_box_id))
           ORDER BY s.scanned_at DESC, d.identifier)
         FROM inventory_box_count_scans s JOIN devices d ON d.id = s.device_id
         WHERE s.count_id = c.id AND NOT s.in_box), '[]'::jsonb)
     WHERE c.id = $1`,
    [countId, actor.userId],
  );
  await tx.query('UPDATE inventory_boxes SET status = $2, updated_at = now() WHERE id = $1', [
    box.id,
    count.box_status,
  ]);
  const finished = (await countWhere(tx, 'c.id = $1', countId))!;
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.count_finished',
    entityType: 'inventory_box',
    entityId: box.id,
    before: { status: 'locked' },
    after: {
      status: count.box_status,
      count_id: countId,
      expected: finished.expected,
      counted: finished.counted.length,
      missing: finished.missing,
      extra: finished.extra.map((unit) => unit.identifier),
    },
  });
  return { ...(await stationBox(tx, box.id)), count: finished };
}

/** Reopens a sealed box from the station (box.reopen), answered as the station works on it. */
export async function reopenAtStation(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  raw: string,
): Promise<StationBox> {
  const id = await boxIdByCode(tx, raw);
  await reopenBox(tx, actor, meta, id);
  return stationBox(tx, id);
}
