import {
  DEFAULT_BOX_MAX_QTY,
  INQUIRY_EVENTS,
  normaliseScan,
  PUTAWAY_QUEUE_LIMIT,
  type ConsolidationAnswer,
  type ConsolidationGroup,
  type DeviceInquiry,
  type ConsolidationDevice,
  type ConsolidationResult,
  type InventoryBox,
  type PutawaySuggestion,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';

/**
 * Inventory boxes (DOMAIN.md 4.2, 4.17): the consolidation station's two scans (a device names
 * its box, the box confirms), sealing, and putaway to a location. Every change runs in the
 * caller's transaction with its device and audit events.
 */

/** A box or location code as scanned: its label's characters, in capitals, dashes kept. */
export const labelCode = (raw: string) => raw.trim().toUpperCase();

/** A box's status in words: a locked box is being counted (DOMAIN.md 3.7). */
export const boxStatusText = (status: string) =>
  status === 'locked' ? 'locked by a count' : status.replace(/_/g, ' ');

/** A box as the contract shows it, from `inventory_boxes ib`. */
const BOX_JSON = `json_build_object(
  'id', ib.id, 'code', ib.code, 'model_id', ib.model_id,
  'model', (SELECT ${MODEL_DISPLAY_NAME} FROM device_models m JOIN brands b ON b.id = m.brand_id
            WHERE m.id = ib.model_id),
  'color_id', ib.color_id, 'color', (SELECT name FROM colors WHERE id = ib.color_id),
  'capacity_gb', ib.capacity_gb, 'grade', ib.grade, 'carrier_lock', ib.carrier_lock,
  'max_qty', ib.max_qty, 'qty', ib.qty, 'status', ib.status, 'location_id', ib.location_id,
  'location_code', (SELECT code FROM locations WHERE id = ib.location_id),
  'sealed_at', ${isoTextSql('ib.sealed_at')},
  'sealed_by_name', (SELECT name FROM users WHERE id = ib.sealed_by),
  'created_at', ${isoTextSql('ib.created_at')})`;

/** The boxes that `where` picks (over `ib`), as the contract shows them, in `order`. */
export async function boxesWhere(
  db: Queryable,
  where: string,
  params: unknown[],
  order = 'ib.id',
): Promise<InventoryBox[]> {
  const rows = await db.query<{ box: InventoryBox }>(
    `SELECT ${BOX_JSON} AS box FROM inventory_boxes ib
     WHERE ${where} ORDER BY ${order} LIMIT ${PUTAWAY_QUEUE_LIMIT}`,
    params,
  );
  return rows.map((row) => row.box);
}

export const boxById = async (db: Queryable, id: number) =>
  (await boxesWhere(db, 'ib.id = $1', [id]))[0];

/** The box of this id, or 404. */
export async function findInventoryBox(db: Queryable, id: number): Promise<InventoryBox> {
  const box = await boxById(db, id);
  if (!box) throw new NotFoundError(`There is no inventory box ${id}.`);
  return box;
}

export type DeviceRow = ConsolidationDevice & {
  model_id: number;
  color_id: number | null;
  warehouse_box_id: number | null;
  inventory_box_id: number | null;
  inventory_box_code: string | null;
};

/** A device by the code scanned (IMEI, MEID, or second IMEI), locked when `lock`. */
export async function deviceByCode(
  tx: Queryable,
  code: string,
  lock: boolean,
): Promise<DeviceRow | undefined> {
  const [device] = await tx.query<DeviceRow>(
    `SELECT d.id, d.identifier, d.model_id, d.color_id, d.capacity_gb, d.grade, d.carrier_lock,
       d.status, d.hold_reason, d.warehouse_box_id, d.inventory_box_id,
       (SELECT code FROM inventory_boxes WHERE id = d.inventory_box_id) AS inventory_box_code,
       (SELECT ${MODEL_DISPLAY_NAME} FROM device_models m JOIN brands b ON b.id = m.brand_id
        WHERE m.id = d.model_id) AS model,
       (SELECT name FROM colors WHERE id = d.color_id) AS color
     FROM devices d
     WHERE d.id = COALESCE((SELECT id FROM devices WHERE identifier = $1),
                           (SELECT id FROM devices WHERE imei2 = $1))
     ${lock ? 'FOR UPDATE OF d' : ''}`,
    [code],
  );
  return device;
}

const deviceOf = (row: DeviceRow): ConsolidationDevice => ({
  id: row.id,
  identifier: row.identifier,
  model: row.model,
  color: row.color,
  capacity_gb: row.capacity_gb,
  grade: row.grade,
  carrier_lock: row.carrier_lock,
  status: row.status,
  hold_reason: row.hold_reason,
});

const answer = (
  result: ConsolidationResult,
  message: string,
  code: string,
  device: DeviceRow | undefined,
  box: InventoryBox | undefined = undefined,
): ConsolidationAnswer => ({
  result,
  message,
  code,
  device: device ? deviceOf(device) : null,
  box: box ?? null,
});

/** Why a device cannot go into any box now, or null when it may (invariant 5, DOMAIN.md 4.17). */
function refusalOf(device: DeviceRow, code: string): ConsolidationAnswer | null {
  if (device.status === 'hold') {
    return answer(
      'held',
      `${device.identifier} is on hold (${device.hold_reason}): it cannot be consolidated.`,
      code,
      device,
    );
  }
  if (device.status !== 'graded' && device.status !== 'reuse') {
    return answer(
      'not_ready',
      `${device.identifier} is ${device.status.replace(/_/g, ' ')}: only graded or reuse devices are consolidated.`,
      code,
      device,
    );
  }
  if (!device.grade) {
    return answer('not_ready', `${device.identifier} has no grade yet.`, code, device);
  }
  return null;
}

/** The attributes a box's devices share (invariant 4), as SQL over a box `b` and a device `d`. */
const SAME_ATTRIBUTES = `b.model_id = d.model_id AND b.grade = d.grade
  AND b.color_id IS NOT DISTINCT FROM d.color_id AND b.capacity_gb IS NOT DISTINCT FROM d.capacity_gb
  AND b.carrier_lock IS NOT DISTINCT FROM d.carrier_lock`;

/**
 * Scan a device: names the open box with its attributes and room (the fullest first), opening a
 * box when none has room. A device already in a box is named with its box.
 */
export async function scanForConsolidation(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  raw: string,
): Promise<ConsolidationAnswer> {
  const code = normaliseScan(raw);
  const device = await deviceByCode(tx, code, false);
  if (!device) return answer('not_found', `No device has the code ${code}.`, code, undefined);
  if (device.inventory_box_id !== null) {
    return answer(
      'already_in_box',
      `${device.identifier} is in ${device.inventory_box_code} already.`,
      code,
      device,
      await boxById(tx, device.inventory_box_id),
    );
  }
  const refusal = refusalOf(device, code);
  if (refusal) return refusal;
  // Two stations scanning devices of one kind at once open one box between them, not two.
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtext('inventory_box_open:' || $1 || ':' || $2))`,
    [device.model_id, device.grade],
  );
  const [open] = await tx.query<{ id: number }>(
    `SELECT b.id FROM inventory_boxes b, devices d
     WHERE d.id = $1 AND b.status = 'open' AND b.model_id = $2 AND b.grade = $3
       AND b.qty < b.max_qty AND ${SAME_ATTRIBUTES}
     ORDER BY b.qty DESC, b.id LIMIT 1`,
    [device.id, device.model_id, device.grade],
  );
  if (open) {
    const box = (await boxById(tx, open.id))!;
    return answer('box_named', `Put it in ${box.code}; scan the box.`, code, device, box);
  }
  const [opened] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, carrier_lock, max_qty,
       created_by, source)
     SELECT model_id, color_id, capacity_gb, grade, carrier_lock, $2, $3,
       CASE status WHEN 'reuse' THEN 'reuse' ELSE 'consolidation' END
     FROM devices WHERE id = $1
     RETURNING id, code`,
    [device.id, DEFAULT_BOX_MAX_QTY, actor.userId],
  );
  const box = (await boxById(tx, opened!.id))!;
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.opened',
    entityType: 'inventory_box',
    entityId: box.id,
    after: { code: box.code, model: box.model, grade: box.grade, for_device: device.identifier },
  });
  return answer(
    'box_named',
    `No open box matches: ${box.code} was opened. Label it and scan it.`,
    code,
    device,
    box,
  );
}

export type LockedBox = {
  id: number;
  code: string;
  status: string;
  qty: number;
  max_qty: number;
  model_id: number;
  color_id: number | null;
  capacity_gb: number | null;
  grade: string;
  carrier_lock: string | null;
};

/** What a box's devices share (invariant 4). */
export type BoxAttributes = Pick<
  LockedBox,
  'model_id' | 'color_id' | 'capacity_gb' | 'grade' | 'carrier_lock'
>;

/** The attributes of a device, or of another box, with the names of its model and colour. */
export type UnitAttributes = Omit<BoxAttributes, 'grade'> & {
  grade: string | null;
  model: string;
  color: string | null;
};

/**
 * How a device (or another box) differs from a box, in words: the reason a unit is refused
 * (invariant 4). Empty when they match.
 */
export async function differences(
  tx: Queryable,
  box: BoxAttributes,
  device: UnitAttributes,
): Promise<string[]> {
  const found: string[] = [];
  if (box.model_id !== device.model_id) {
    const [model] = await tx.query<{ name: string }>(
      `SELECT ${MODEL_DISPLAY_NAME} AS name FROM device_models m JOIN brands b ON b.id = m.brand_id
       WHERE m.id = $1`,
      [box.model_id],
    );
    found.push(`model ${device.model}, the box holds ${model?.name}`);
  }
  if (box.grade !== device.grade)
    found.push(`grade ${device.grade}, the box holds grade ${box.grade}`);
  if (box.color_id !== device.color_id) {
    const [color] = await tx.query<{ name: string }>('SELECT name FROM colors WHERE id = $1', [
      box.color_id,
    ]);
    found.push(`colour ${device.color ?? 'unknown'}, the box holds ${color?.name ?? 'unknown'}`);
  }
  if (box.capacity_gb !== device.capacity_gb) {
    const gb = (value: number | null) => (value === null ? 'unknown' : `${value} GB`);
    found.push(`capacity ${gb(device.capacity_gb)}, the box holds ${gb(box.capacity_gb)}`);
  }
  if (box.carrier_lock !== device.carrier_lock) {
    const lock = (value: string | null) => value ?? 'unknown';
    found.push(`lock ${lock(device.carrier_lock)}, the box holds ${lock(box.carrier_lock)}`);
  }
  return found;
}

/**
 * Scan the box to confirm: the device is consolidated into it (graded or reuse → in stock, out of
 * its warehouse box) when the box is open, has room and matches. The device is locked before the
 * box, so two stations putting the same device in two boxes take turns and the second is told
 * where it went.
 */
export async function placeInBox(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: { code: string; box_code: string; station?: string | undefined },
): Promise<ConsolidationAnswer> {
  const code = normaliseScan(input.code);
  const boxCode = labelCode(input.box_code);
  const device = await deviceByCode(tx, code, true);
  if (!device) return answer('not_found', `No device has the code ${code}.`, code, undefined);
  const [box] = await tx.query<LockedBox>(
    `SELECT id, code, status, qty, max_qty, model_id, color_id, capacity_gb, grade, carrier_lock
     FROM inventory_boxes WHERE code = $1 FOR UPDATE`,
    [boxCode],
  );
  if (!box) return answer('not_found', `No inventory box has the code ${boxCode}.`, code, device);
  if (device.inventory_box_id === box.id) {
    return answer(
      'already_in_box',
      `${device.identifier} is in ${box.code} already.`,
      code,
      device,
      await boxById(tx, box.id),
    );
  }
  if (device.inventory_box_id !== null) {
    return answer(
      'in_other_box',
      `${device.identifier} is in ${device.inventory_box_code}, not ${box.code}.`,
      code,
      device,
      await boxById(tx, box.id),
    );
  }
  const refusal = refusalOf(device, code);
  if (refusal) return refusal;
  const boxNow = async () => (await boxById(tx, box.id))!;
  if (box.status !== 'open') {
    return answer(
      'box_closed',
      `${box.code} is ${boxStatusText(box.status)}: it takes no more devices.`,
      code,
      device,
      await boxNow(),
    );
  }
  if (box.qty >= box.max_qty) {
    return answer(
      'box_full',
      `${box.code} is full (${box.qty} of ${box.max_qty}): seal it.`,
      code,
      device,
      await boxNow(),
    );
  }
  const found = await differences(tx, box, device);
  if (found.length > 0) {
    return answer(
      'mismatch',
      `${device.identifier} does not match ${box.code}: ${found.join('; ')}.`,
      code,
      device,
      await boxNow(),
    );
  }
  // One container at a time (invariant 3): into the inventory box, out of its warehouse box,
  // written with the step.
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: [device.id],
    action: 'consolidate',
    ref: { type: 'inventory_box', id: box.id },
    data: { box: box.code, ...(input.station && { station: input.station }) },
    columns: { inventory_box_id: box.id, warehouse_box_id: null },
  });
  await tx.query('UPDATE inventory_boxes SET qty = qty + 1, updated_at = now() WHERE id = $1', [
    box.id,
  ]);
  const placed = (await deviceByCode(tx, code, false))!;
  const after = await boxNow();
  return answer(
    'added',
    after.qty >= after.max_qty
      ? `${device.identifier} added: ${after.code} is full, seal it.`
      : `${device.identifier} added to ${after.code} (${after.qty} of ${after.max_qty}).`,
    code,
    placed,
    after,
  );
}

/** Locks a box by id, or 404. */
export async function lockBox(
  tx: Transaction,
  id: number,
): Promise<LockedBox & { location_id: number | null }> {
  const [box] = await tx.query<LockedBox & { location_id: number | null }>(
    `SELECT id, code, status, qty, max_qty, model_id, color_id, capacity_gb, grade, carrier_lock,
       location_id
     FROM inventory_boxes WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!box) throw new NotFoundError(`There is no inventory box ${id}.`);
  return box;
}

/** Seals an open box that holds a device (open → sealed); a sealed box is answered as it is. */
export async function sealBox(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<InventoryBox> {
  const box = await lockBox(tx, id);
  if (box.status === 'sealed') return (await boxById(tx, id))!;
  if (box.status !== 'open')
    throw new ConflictError(`${box.code} is ${box.status}: only an open box is sealed.`);
  if (box.qty === 0)
    throw new ConflictError(`${box.code} is empty: put a device in before sealing it.`);
  await tx.query(
    `UPDATE inventory_boxes SET status = 'sealed', sealed_at = now(), sealed_by = $2,
       updated_at = now() WHERE id = $1`,
    [id, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.sealed',
    entityType: 'inventory_box',
    entityId: id,
    before: { status: 'open' },
    after: { status: 'sealed', qty: box.qty },
  });
  return (await boxById(tx, id))!;
}

/** Sets an open box's limit; never below what it holds. */
export async function setBoxMaxQty(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  maxQty: number,
): Promise<InventoryBox> {
  const box = await lockBox(tx, id);
  if (box.status !== 'open')
    throw new ConflictError(`${box.code} is ${box.status}: only an open box's limit changes.`);
  if (maxQty < box.qty) {
    throw new ConflictError(`${box.code} holds ${box.qty} devices: its limit cannot be lower.`);
  }
  await tx.query('UPDATE inventory_boxes SET max_qty = $2, updated_at = now() WHERE id = $1', [
    id,
    maxQty,
  ]);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.max_qty_set',
    entityType: 'inventory_box',
    entityId: id,
    before: { max_qty: box.max_qty },
    after: { max_qty: maxQty },
  });
  return (await boxById(tx, id))!;
}

/** The open boxes, fullest first. */
export const openBoxes = (db: Queryable) =>
  boxesWhere(db, "ib.status = 'open'", [], 'ib.qty DESC, ib.id');

/** Sealed boxes waiting for a location, oldest sealed first. */
export const putawayQueue = (db: Queryable) =>
  boxesWhere(db, "ib.status = 'sealed'", [], 'ib.sealed_at, ib.id');

/** The id of the box with this scanned code, or 404. */
export async function boxIdByCode(db: Queryable, raw: string): Promise<number> {
  const code = labelCode(raw);
  const [box] = await db.query<{ id: number }>('SELECT id FROM inventory_boxes WHERE code = $1', [
    code,
  ]);
  if (!box) throw new NotFoundError(`No inventory box has the code ${code}.`);
  return box.id;
}

/** A box holding a held device is quarantine stock: it goes to the quarantine zone only. */
const HOLDS_HELD = `EXISTS (SELECT 1 FROM devices d WHERE d.inventory_box_id = $1 AND d.status = 'hold')`;

type Place = { id: number; code: string; zone_code: string; quarantine: boolean };

/**
 * An active location (`l`) of the quarantine kind the box needs (`quarantine`), with room for
 * `room` more boxes.
 */
const hasRoom = (quarantine: string, room: string) => `l.active AND l.quarantine = ${quarantine}
  AND (l.capacity_boxes IS NULL
       OR (SELECT count(*) FROM inventory_boxes o WHERE o.location_id = l.id) + ${room}
          <= l.capacity_boxes)`;

/**
 * Where a sealed box should go: an active bin with room in a zone that holds boxes of its model
 * and grade, else the first empty active bin by code (the nearest along the walk). With a pallet,
 * the bin has room for `roomFor` boxes.
 */
export async function suggestLocation(
  db: Queryable,
  raw: string,
  roomFor = 1,
): Promise<PutawaySuggestion> {
  const id = await boxIdByCode(db, raw);
  const box = (await boxById(db, id))!;
  if (box.status !== 'sealed') {
    throw new ConflictError(
      box.status === 'open'
        ? `${box.code} is open: seal it before putting it away.`
        : `${box.code} is ${boxStatusText(box.status)}${box.location_code ? ` in ${box.location_code}` : ''}: only a sealed box is put away.`,
    );
  }
  const [{ quarantine }] = (await db.query<{ quarantine: boolean }>(
    `SELECT ${HOLDS_HELD} AS quarantine`,
    [id],
  )) as [{ quarantine: boolean }];
  const columns = `l.id, l.code, z.code AS zone_code, l.quarantine`;
  const [sameZone] = await db.query<Place>(
    `SELECT ${columns} FROM locations l JOIN locations z ON z.id = l.zone_id
     WHERE l.kind = 'bin' AND ${hasRoom('$2', '$3')}
       AND l.zone_id IN (SELECT p.zone_id FROM inventory_boxes o JOIN locations p ON p.id = o.location_id
                         JOIN inventory_boxes me ON me.id = $1
                         WHERE o.model_id = me.model_id AND o.grade = me.grade)
     ORDER BY l.code LIMIT 1`,
    [id, quarantine, roomFor],
  );
  if (sameZone) {
    return {
      box,
      location: sameZone,
      reason: `Zone ${sameZone.zone_code} holds ${box.model} grade ${box.grade}.`,
    };
  }
  const [empty] = await db.query<Place>(
    `SELECT ${columns} FROM locations l JOIN locations z ON z.id = l.zone_id
     WHERE l.kind = 'bin' AND ${hasRoom('$1', '$2')}
       AND NOT EXISTS (SELECT 1 FROM inventory_boxes o WHERE o.location_id = l.id)
     ORDER BY l.code LIMIT 1`,
    [quarantine, roomFor],
  );
  if (empty) return { box, location: empty, reason: 'The nearest empty bin.' };
  const room = roomFor === 1 ? 'room' : `room for ${roomFor} boxes`;
  return {
    box,
    location: null,
    reason: quarantine
      ? `It holds a device on hold, and no quarantine bin has ${room}.`
      : `No active bin has ${room}: activate more locations.`,
  };
}

/** A location as putaway checks it, locked. */
export type LockedLocation = {
  id: number;
  code: string;
  active: boolean;
  quarantine: boolean;
  capacity_boxes: number | null;
};

/**
 * Locks a location by its scanned code, or 404. Every writer locks its boxes first, then the
 * location, so two putaways racing for a location's last place take turns (and never deadlock).
 */
export async function lockLocation(tx: Transaction, raw: string): Promise<LockedLocation> {
  const code = labelCode(raw);
  const [location] = await tx.query<LockedLocation>(
    `SELECT id, code, active, quarantine, capacity_boxes FROM locations WHERE code = $1 FOR UPDATE`,
    [code],
  );
  if (!location) throw new NotFoundError(`No location has the code ${code}.`);
  return location;
}

/**
 * Why `location` cannot take these boxes now, a sentence each; empty when it can take them all:
 * it is active, each box is of its quarantine kind (a box holding a device on hold goes to the
 * quarantine zone, and only such boxes do), and it has room for all of them. The location is
 * locked, so its count of boxes holds until the caller commits.
 */
export async function placementRefusals(
  tx: Transaction,
  location: LockedLocation,
  boxes: readonly { id: number; code: string }[],
): Promise<string[]> {
  if (!location.active) return [`${location.code} is not active.`];
  const rows = await tx.query<{ id: number }>(
    `SELECT DISTINCT inventory_box_id AS id FROM devices
     WHERE inventory_box_id = ANY ($1::bigint[]) AND status = 'hold'`,
    [boxes.map((box) => box.id)],
  );
  const held = new Set(rows.map((row) => row.id));
  const refusals = boxes.flatMap((box) => {
    if (held.has(box.id) && !location.quarantine) {
      return [
        `${box.code} holds a device on hold: it goes to the quarantine zone only, not ${location.code}.`,
      ];
    }
    if (!held.has(box.id) && location.quarantine) {
      return [
        `${location.code} is in the quarantine zone: only boxes with a device on hold go there${boxes.length > 1 ? `, not ${box.code}` : ''}.`,
      ];
    }
    return [];
  });
  const capacity = location.capacity_boxes;
  if (capacity !== null) {
    const [{ holds }] = (await tx.query<{ holds: number }>(
      'SELECT count(*)::int AS holds FROM inventory_boxes WHERE location_id = $1',
      [location.id],
    )) as [{ holds: number }];
    if (holds + boxes.length > capacity) {
      refusals.push(
        boxes.length === 1
          ? `${location.code} is full (${holds} of ${capacity} boxes).`
          : `${location.code} has room for ${Math.max(0, capacity - holds)} more, not ${boxes.length} boxes (it holds ${holds} of ${capacity}).`,
      );
    }
  }
  return refusals;
}

/**
 * Puts a sealed box in a location (sealed → located). The box is locked, then the location, so
 * two people putting the same box away take turns and the second is told where it went; two
 * boxes racing for a location's last place do not overfill it.
 */
export async function putAway(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: { box_code: string; location_code: string },
): Promise<{ box: InventoryBox; already: boolean }> {
  const box = await lockBox(tx, await boxIdByCode(tx, input.box_code));
  const location = await lockLocation(tx, input.location_code);
  if (box.status === 'located' && box.location_id === location.id) {
    return { box: (await boxById(tx, box.id))!, already: true };
  }
  if (box.status === 'locked') {
    throw new ConflictError(`${box.code} is locked by a count: finish the count first.`);
  }
  if (box.status !== 'sealed') {
    const where = box.location_id ? ` in ${(await boxById(tx, box.id))!.location_code}` : '';
    throw new ConflictError(
      box.status === 'open'
        ? `${box.code} is open: seal it before putting it away.`
        : `${box.code} is ${box.status}${where} already.`,
    );
  }
  const [refusal] = await placementRefusals(tx, location, [box]);
  if (refusal) throw new ConflictError(refusal);
  await tx.query(
    `UPDATE inventory_boxes SET status = 'located', location_id = $2, located_at = now(),
       located_by = $3, updated_at = now() WHERE id = $1`,
    [box.id, location.id, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.located',
    entityType: 'inventory_box',
    entityId: box.id,
    before: { status: 'sealed', location: null },
    after: { status: 'located', location: location.code },
  });
  return { box: (await boxById(tx, box.id))!, already: false };
}

/** The newest boxes, of one status or all. */
export const consolidationBoxes = (db: Queryable, status: string | undefined) =>
  status
    ? boxesWhere(db, 'ib.status = $1', [status], 'ib.id DESC')
    : boxesWhere(db, 'true', [], 'ib.id DESC');

/** Reopens a sealed box that is not put away (sealed → open); an open box is answered as it is. */
export async function reopenBox(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
): Promise<InventoryBox> {
  const box = await lockBox(tx, id);
  if (box.status === 'open') return (await boxById(tx, id))!;
  if (box.status !== 'sealed') {
    throw new ConflictError(
      `${box.code} is ${boxStatusText(box.status)}: only a sealed box that is not put away is reopened.`,
    );
  }
  await tx.query(
    `UPDATE inventory_boxes SET status = 'open', sealed_at = NULL, sealed_by = NULL,
       updated_at = now() WHERE id = $1`,
    [id],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.reopened',
    entityType: 'inventory_box',
    entityId: id,
    before: { status: 'sealed' },
    after: { status: 'open' },
  });
  return (await boxById(tx, id))!;
}

/** Graded and reuse devices in no box, by the attributes a box shares; the open boxes. */
export async function consolidationOverview(
  db: Queryable,
): Promise<{ waiting: ConsolidationGroup[]; open_boxes: InventoryBox[] }> {
  const waiting = await db.query<ConsolidationGroup>(
    `SELECT g.model_id,
       (SELECT ${MODEL_DISPLAY_NAME} FROM device_models m JOIN brands b ON b.id = m.brand_id
        WHERE m.id = g.model_id) AS model,
       (SELECT name FROM colors WHERE id = g.color_id) AS color,
       g.capacity_gb, g.grade, g.carrier_lock, g.devices
     FROM (SELECT model_id, color_id, capacity_gb, grade, carrier_lock, count(*)::int AS devices
           FROM devices
           WHERE status IN ('graded', 'reuse') AND inventory_box_id IS NULL AND grade IS NOT NULL
           GROUP BY model_id, color_id, capacity_gb, grade, carrier_lock) g
     ORDER BY g.devices DESC, model, g.grade
     LIMIT ${PUTAWAY_QUEUE_LIMIT}`,
  );
  return { waiting, open_boxes: await openBoxes(db) };
}

/** A device's stage, grade, box and location, and its latest steps; 404 for an unknown code. */
export async function inquireDevice(db: Queryable, raw: string): Promise<DeviceInquiry> {
  const code = normaliseScan(raw);
  const device = await deviceByCode(db, code, false);
  if (!device) throw new NotFoundError(`No device has the code ${code}.`);
  const [warehouseBox] = await db.query<{ code: string }>(
    'SELECT code FROM warehouse_boxes WHERE id = $1',
    [device.warehouse_box_id],
  );
  const events = await db.query<DeviceInquiry['events'][number]>(
    `SELECT ${isoTextSql('at')} AS at, type, from_status, to_status, container, actor_name
     FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT ${INQUIRY_EVENTS}`,
    [device.id],
  );
  return {
    device: deviceOf(device),
    warehouse_box: warehouseBox?.code ?? null,
    box:
      device.inventory_box_id === null
        ? null
        : ((await boxById(db, device.inventory_box_id)) ?? null),
    events,
  };
}
