import {
  nextStatus,
  packageLifecycle,
  statusText,
  UNIDENTIFIED_SHOWN,
  type DeviceStatus,
  type PackageStatus,
  type ReturnedParcel,
  type UnidentifiedParcel,
  type UnidentifiedParcelInput,
  type UnpackDisposition,
  type UnpackInput,
  type UnpackItem,
  type UnpackOutcome,
  type UnpackReason,
  type UnpackRecord,
} from '@inventory/contract';
import { beforeCommit, type Queryable, type Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, fieldError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition, runTransitions, TRANSACTION_TIME } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { modelDisplayNameOf } from '../master-data/index.js';
import { orderStore } from '../order/index.js';
import { requestRepair } from '../repair/index.js';
import { packageStore } from '../shipment/index.js';
import { simStore } from '../sim/index.js';

/**
 * The unpack station (DOMAIN.md 4.16, 5.3 step 2b): a parcel that came back is found by its
 * tracking number or its order's number, its expected contents read from its order, and what was
 * found recorded in one transaction. The package row is locked first and the unique package on
 * `unpacks` stands behind it, so of two stations opening one parcel one wins; the devices found
 * are locked next (id order), so one IMEI scanned into two parcels at once is received once.
 */

const UNPACKABLE = packageLifecycle.actions.unpack.from as readonly PackageStatus[];

type ParcelRow = Omit<ReturnedParcel, 'devices' | 'sims' | 'accessories' | 'unpack' | 'reason'> & {
  client_carrier_id: number | null;
};

const PARCEL_COLUMNS = `p.id::int AS package_id, p.tracking_number, p.carrier, p.status,
  o.id::int AS order_id, o.number AS order_number, o.status AS order_status,
  o.client_carrier_id::int AS client_carrier_id,
  (SELECT v.name FROM vendors v WHERE v.id = o.client_carrier_id) AS client_carrier,
  COALESCE((SELECT s.city || ', ' || s.state FROM order_ship_to s WHERE s.order_id = o.id), '')
    AS place`;

const reasonOf = (status: PackageStatus): UnpackReason =>
  status === 'return_to_sender' ? 'undeliverable' : 'no_tracking';

/** A code as the parcel's label carries it: a tracking number or an order number (SO-…). */
const normalised = (code: string) => code.replace(/\s+/g, '').toUpperCase();

async function findParcelRow(db: Queryable, code: string, lock: boolean): Promise<ParcelRow> {
  const text = normalised(code);
  // The newest parcel of a number: carriers recycle tracking numbers, voided labels never shipped.
  const [row] = await db.query<ParcelRow>(
    `SELECT ${PARCEL_COLUMNS} FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE p.status <> 'voided'
       AND (p.tracking_number = $1 OR p.order_id = (SELECT id FROM orders WHERE number = $1))
     ORDER BY p.id DESC LIMIT 1 ${lock ? 'FOR UPDATE OF p' : ''}`,
    [text],
  );
  if (!row) {
    throw new NotFoundError(
      `No shipped parcel has the code ${text}: put it aside as an unidentified parcel.`,
    );
  }
  return row;
}

type Expected = Pick<ReturnedParcel, 'devices' | 'sims' | 'accessories'>;

/** What the order sent: its devices, its SIMs and its accessory lines. */
async function expectedContents(db: Queryable, orderId: number): Promise<Expected> {
  const [devices, sims, accessories] = await Promise.all([
    db.query<ReturnedParcel['devices'][number]>(
      `SELECT d.id::int AS device_id, d.identifier AS imei, ${modelDisplayNameOf('d.model_id')} AS model,
         d.status
       FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = $1 AND u.status IN ('shipped', 'returned')
       ORDER BY d.identifier`,
      [orderId],
    ),
    db.query<ReturnedParcel['sims'][number]>(
      `SELECT c.id::int AS sim_id, c.iccid, c.status, c.ever_active
       FROM sim_cards c WHERE c.order_id = $1 ORDER BY c.iccid`,
      [orderId],
    ),
    db.query<ReturnedParcel['accessories'][number]>(
      `SELECT l.sku, l.description, sum(l.qty)::int AS qty
       FROM order_lines l JOIN product_variants v ON v.id = l.variant_id
       JOIN products pr ON pr.id = v.product_id
       WHERE l.order_id = $1 AND pr.kind = 'accessory' AND l.status <> 'cancelled'
       GROUP BY l.sku, l.description ORDER BY l.sku`,
      [orderId],
    ),
  ]);
  return { devices, sims, accessories };
}

async function unpackRecordOf(db: Queryable, packageId: number): Promise<UnpackRecord | null> {
  const [record] = await db.query<UnpackRecord>(
    `SELECT k.id::int AS id, k.reason, k.outcome, to_json(k.unpacked_at) #>> '{}' AS unpacked_at,
       (SELECT name FROM users WHERE id = k.unpacked_by) AS unpacked_by_name, k.station, k.notes,
       COALESCE((SELECT json_agg(json_build_object('kind', i.kind, 'code', i.code,
           'expected_qty', i.expected_qty, 'found_qty', i.found_qty,
           'disposition', i.disposition, 'note', i.note) ORDER BY i.kind, i.code)
         FROM unpack_items i WHERE i.unpack_id = k.id), '[]'::json) AS items
     FROM unpacks k WHERE k.package_id = $1`,
    [packageId],
  );
  return record ?? null;
}

async function parcelAnswer(db: Queryable, row: ParcelRow): Promise<ReturnedParcel> {
  const { client_carrier_id: _client, ...parcel } = row;
  const unpack = await unpackRecordOf(db, row.package_id);
  return {
    ...parcel,
    // Once unpacked, the parcel came back as it was recorded then.
    reason: unpack?.reason ?? reasonOf(row.status),
    ...(await expectedContents(db, row.order_id)),
    unpack,
  };
}

/** The parcel a station scanned, with what it should hold; 409 for one that never left. */
export async function findReturnedParcel(db: Queryable, code: string): Promise<ReturnedParcel> {
  const row = await findParcelRow(db, code, false);
  if (row.status !== 'returned' && !UNPACKABLE.includes(row.status)) {
    throw new ConflictError(
      `${row.tracking_number} (${row.order_number}) has not been shipped: it is ${row.status.replace(/_/g, ' ')}.`,
    );
  }
  return parcelAnswer(db, row);
}

type FoundDevice = {
  id: number;
  identifier: string;
  imei2: string | null;
  status: DeviceStatus;
  blacklisted: boolean;
};

type ItemRow = {
  kind: UnpackItem['kind'];
  code: string;
  expected_qty: number;
  found_qty: number;
  device_id: number | null;
  sim_id: number | null;
  disposition: UnpackDisposition | null;
  note: string | null;
};

const outcomeOf = (items: readonly ItemRow[]): UnpackOutcome =>
  items.every((item) => item.found_qty === 0)
    ? 'empty'
    : items.every((item) => item.found_qty === item.expected_qty)
      ? 'match'
      : 'mismatch';

/**
 * Records what a returned parcel held, in the caller's transaction: the devices found go back to
 * `returned` (held when listed on the blacklist or chosen for quarantine, or sent to repair), the
 * SIMs found to `returned` for /RMA/sim, the package is unpacked and its order returned where its
 * lifecycle allows.
 */
export async function unpackParcel(
  tx: Transaction,
  acting: Acting,
  packageId: number,
  input: Required<Pick<UnpackInput, 'devices' | 'iccids' | 'accessories'>> &
    Pick<UnpackInput, 'station' | 'notes'>,
): Promise<ReturnedParcel> {
  const { actor, meta } = acting;
  const [locked] = await tx.query<{ tracking_number: string }>(
    'SELECT tracking_number FROM packages WHERE id = $1 FOR UPDATE',
    [packageId],
  );
  if (!locked) throw new NotFoundError(`There is no parcel with id ${packageId}.`);
  const parcel = await findParcelRow(tx, locked.tracking_number, false);
  if (parcel.status === 'returned') {
    const done = await unpackRecordOf(tx, packageId);
    throw new ConflictError(
      `${parcel.tracking_number} was unpacked already${done?.station ? ` at ${done.station}` : ''}${done?.unpacked_by_name ? ` by ${done.unpacked_by_name}` : ''}.`,
    );
  }
  const step = nextStatus(packageLifecycle, { status: parcel.status }, 'unpack');
  if (!step.ok) {
    throw new ConflictError(
      `${parcel.tracking_number} has not been shipped: it is ${parcel.status.replace(/_/g, ' ')}.`,
    );
  }
  const station = input.station?.trim() || null;
  const reference = parcel.tracking_number;
  const expected = await expectedContents(tx, parcel.order_id);

  const imeis = input.devices.map((device) => device.imei);
  if (new Set(imeis).size !== imeis.length) throw fieldError('devices', 'An IMEI is listed twice.');
  if (new Set(input.iccids).size !== input.iccids.length) {
    throw fieldError('iccids', 'An ICCID is listed twice.');
  }
  const found = await tx.query<FoundDevice>(
    `SELECT d.id::int AS id, d.identifier, d.imei2, d.status,
       EXISTS (SELECT 1 FROM blacklist_entries be WHERE be.cleared_at IS NULL
               AND be.imei IN (d.imei, d.imei2)) AS blacklisted
     FROM devices d WHERE d.identifier = ANY ($1::text[]) OR d.imei2 = ANY ($1::text[])
     ORDER BY d.id FOR UPDATE OF d`,
    [imeis],
  );
  const deviceOf = (imei: string) =>
    found.find((device) => device.identifier === imei || device.imei2 === imei);
  const notOut = found.filter(
    (device) => device.status !== 'shipped' && device.status !== 'delivered',
  );
  if (notOut.length > 0) {
    throw new ConflictError(
      notOut
        .map(
          (device) =>
            `${device.identifier} is ${statusText(device.status)}, not out with a customer.`,
        )
        .join(' '),
    );
  }

  const items: ItemRow[] = [];
  const expectedImeis = new Set(expected.devices.map((device) => device.imei));
  for (const device of expected.devices) {
    if (!imeis.some((imei) => deviceOf(imei)?.id === device.device_id)) {
      items.push({
        kind: 'device',
        code: device.imei,
        expected_qty: 1,
        found_qty: 0,
        device_id: device.device_id,
        sim_id: null,
        disposition: null,
        note: 'Not in the parcel.',
      });
    }
  }
  for (const entry of input.devices) {
    const device = deviceOf(entry.imei);
    items.push({
      kind: 'device',
      code: device?.identifier ?? entry.imei,
      expected_qty: device && expectedImeis.has(device.identifier) ? 1 : 0,
      found_qty: 1,
      device_id: device?.id ?? null,
      sim_id: null,
      disposition: device ? (device.blacklisted ? 'hold' : entry.disposition) : null,
      note: !device
        ? 'Not one of our devices: set aside.'
        : device.blacklisted
          ? 'On the blacklist: held.'
          : null,
    });
  }

  // Devices: back as returned, then held or sent to repair as chosen.
  const ours = found.map((device) => device.id);
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: ours,
    action: 'receive_return',
    ref: { type: 'package', id: packageId },
    data: { station, tracking: reference, order: parcel.order_number },
    columns: { blacklist_checked_at: TRANSACTION_TIME },
  });
  const listed = found.filter((device) => device.blacklisted).map((device) => device.id);
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: listed,
    action: 'hold',
    holdReason: 'blacklist',
    ref: { type: 'package', id: packageId },
    data: { station, tracking: reference },
    columns: { blacklist_state: 'blocked' },
  });
  const byDisposition = (disposition: UnpackDisposition) =>
    input.devices
      .filter((entry) => entry.disposition === disposition)
      .map((entry) => ({ entry, device: deviceOf(entry.imei) }))
      .filter(
        (pair): pair is { entry: typeof pair.entry; device: FoundDevice } =>
          pair.device !== undefined && !pair.device.blacklisted,
      );
  const held = byDisposition('hold');
  await applyDeviceAction(tx, actor, meta, {
    deviceIds: held.map(({ device }) => device.id),
    action: 'hold',
    holdReason: 'quarantine',
    ref: { type: 'package', id: packageId },
    data: { station, tracking: reference },
  });
  for (const { entry, device } of byDisposition('repair')) {
    const ticket = await requestRepair(tx, acting, {
      deviceId: device.id,
      source: 'unpack',
      reference,
      note: entry.issue ?? null,
    });
    const item = items.find((row) => row.device_id === device.id && row.found_qty > 0)!;
    item.note = `Repair ticket ${ticket.number}.`;
  }
  await tx.query(
    `UPDATE order_line_units u SET status = 'returned', updated_at = now()
     FROM order_lines l WHERE l.id = u.order_line_id AND l.order_id = $1
       AND u.status = 'shipped' AND u.device_id = ANY ($2::bigint[])`,
    [parcel.order_id, ours],
  );

  // SIMs: back as returned; they wait on /RMA/sim.
  const sims = await tx.query<{ id: number; iccid: string; status: string }>(
    `SELECT id::int AS id, iccid, status FROM sim_cards WHERE iccid = ANY ($1::text[])
     ORDER BY id FOR UPDATE`,
    [input.iccids],
  );
  const returnable = new Set(simStore.lifecycle.actions.receive_return.from as readonly string[]);
  const notReturnable = sims.filter((sim) => !returnable.has(sim.status));
  if (notReturnable.length > 0) {
    throw new ConflictError(
      notReturnable
        .map(
          (sim) => `SIM ${sim.iccid} is ${sim.status.replace(/_/g, ' ')}, not out with a customer.`,
        )
        .join(' '),
    );
  }
  await runTransitions(tx, simStore, {
    ids: sims.map((sim) => sim.id),
    action: 'receive_return',
    actor,
    meta,
    ref: { type: 'package', id: packageId },
    data: { station, tracking: reference, order: parcel.order_number },
  });
  const expectedIccids = new Set(expected.sims.map((sim) => sim.iccid));
  for (const sim of expected.sims) {
    if (!input.iccids.includes(sim.iccid)) {
      items.push({
        kind: 'sim',
        code: sim.iccid,
        expected_qty: 1,
        found_qty: 0,
        device_id: null,
        sim_id: sim.sim_id,
        disposition: null,
        note: 'Not in the parcel.',
      });
    }
  }
  for (const iccid of input.iccids) {
    const sim = sims.find((row) => row.iccid === iccid);
    items.push({
      kind: 'sim',
      code: iccid,
      expected_qty: expectedIccids.has(iccid) ? 1 : 0,
      found_qty: 1,
      device_id: null,
      sim_id: sim?.id ?? null,
      disposition: null,
      note: sim ? null : 'Not one of our SIMs.',
    });
  }

  // Accessories: counted against the order's lines.
  const foundQty = new Map<string, number>();
  for (const accessory of input.accessories) {
    const sku = accessory.sku.trim().toUpperCase();
    foundQty.set(sku, (foundQty.get(sku) ?? 0) + accessory.qty);
  }
  const expectedQty = new Map(
    expected.accessories.map((accessory) => [accessory.sku.toUpperCase(), accessory.qty]),
  );
  for (const sku of new Set([...expectedQty.keys(), ...foundQty.keys()])) {
    items.push({
      kind: 'accessory',
      code: sku,
      expected_qty: expectedQty.get(sku) ?? 0,
      found_qty: foundQty.get(sku) ?? 0,
      device_id: null,
      sim_id: null,
      disposition: null,
      note: null,
    });
  }

  const outcome = outcomeOf(items);
  const reason = reasonOf(parcel.status);
  const [unpack] = await tx.query<{ id: number; day: string }>(
    `INSERT INTO unpacks (package_id, order_id, carrier, client_carrier_id, reason,
       package_status, outcome, address_key, zip, notes, station, unpacked_by)
     SELECT $1, $2, $3, $4, $5, $6, $7,
       COALESCE(upper(regexp_replace(s.line1 || ' ' || COALESCE(s.line2, ''), '\\s+', ' ', 'g'))
         || ' ' || s.zip, 'NO ADDRESS'),
       COALESCE(s.zip, ''), $8, $9, $10
     FROM (SELECT 1) one LEFT JOIN order_ship_to s ON s.order_id = $2
     RETURNING id::int AS id, order_business_day(unpacked_at)::text AS day`,
    [
      packageId,
      parcel.order_id,
      parcel.carrier,
      parcel.client_carrier_id,
      reason,
      parcel.status,
      outcome,
      input.notes ?? null,
      station,
      actor.userId,
    ],
  );
  const unpackId = unpack!.id;
  await tx.query(
    `INSERT INTO unpack_items (unpack_id, kind, code, expected_qty, found_qty, device_id, sim_id,
       disposition, note)
     SELECT $1, * FROM unnest($2::text[], $3::text[], $4::int[], $5::int[], $6::bigint[],
       $7::bigint[], $8::text[], $9::text[])`,
    [
      unpackId,
      items.map((item) => item.kind),
      items.map((item) => item.code),
      items.map((item) => item.expected_qty),
      items.map((item) => item.found_qty),
      items.map((item) => item.device_id),
      items.map((item) => item.sim_id),
      items.map((item) => item.disposition),
      items.map((item) => item.note),
    ],
  );

  await runTransition(tx, packageStore, {
    id: packageId,
    action: 'unpack',
    actor,
    meta,
    data: { station, outcome, unpack_id: unpackId },
  });
  // The order follows as its lifecycle allows: a shipped order is returned; one delivered or
  // lost before keeps its state for the reship or cancel desk.
  await runTransitions(tx, orderStore, {
    ids: [parcel.order_id],
    action: 'return_to_sender',
    actor,
    meta,
    data: { source: 'unpack', tracking: reference },
    skipRefused: true,
  });
  countForStatistics(tx, {
    day: unpack!.day,
    carrier: parcel.carrier,
    reason,
    client: parcel.client_carrier_id ?? 0,
    outcome,
  });
  await tx.query(
    `INSERT INTO unpack_addresses (address_key, zip, returns, first_at, last_at)
     SELECT address_key, zip, 1, unpacked_at, unpacked_at FROM unpacks WHERE id = $1
     ON CONFLICT (address_key) DO UPDATE SET returns = unpack_addresses.returns + 1,
       last_at = greatest(unpack_addresses.last_at, EXCLUDED.last_at)`,
    [unpackId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'package.unpacked',
    entityType: 'package',
    entityId: packageId,
    after: { unpack_id: unpackId, outcome, station, items },
  });
  return parcelAnswer(tx, await findParcelRow(tx, reference, false));
}

type DayCount = {
  day: string;
  carrier: string;
  reason: UnpackReason;
  client: number;
  outcome: UnpackOutcome;
};

/**
 * Adds the unpack to the day's figures right before the commit, in this transaction's shard: the
 * row every station of the day writes is locked from there to the commit only (decision 0043).
 */
function countForStatistics(tx: Transaction, count: DayCount) {
  beforeCommit(tx, 'unpack-day-counts', () => ({
    state: null,
    run: () =>
      tx.query(
        `INSERT INTO unpack_day_counts AS c (day, carrier, reason, client_carrier_id, shard,
           returns, mismatches, empties)
         VALUES ($1, $2, $3, $4, (pg_current_xact_id()::text::bigint % 8)::smallint, 1, $5, $6)
         ON CONFLICT (day, carrier, reason, client_carrier_id, shard) DO UPDATE SET
           returns = c.returns + 1, mismatches = c.mismatches + EXCLUDED.mismatches,
           empties = c.empties + EXCLUDED.empties`,
        [
          count.day,
          count.carrier,
          count.reason,
          count.client,
          count.outcome === 'mismatch' ? 1 : 0,
          count.outcome === 'empty' ? 1 : 0,
        ],
      ),
  }));
}

// --- Unidentified parcels ---

const UNIDENTIFIED_COLUMNS = `u.id::int AS id, u.code, u.location, u.contents, u.notes, u.station,
  to_json(u.found_at) #>> '{}' AS found_at,
  (SELECT name FROM users WHERE id = u.found_by) AS found_by_name`;

/** Puts a parcel nobody could identify aside, with where it went and what it holds. */
export async function addUnidentifiedParcel(
  tx: Transaction,
  { actor, meta }: Acting,
  input: Pick<UnidentifiedParcelInput, 'code' | 'location' | 'contents' | 'notes' | 'station'>,
): Promise<UnidentifiedParcel> {
  const [row] = await tx.query<UnidentifiedParcel>(
    `WITH added AS (
       INSERT INTO unidentified_parcels (code, location, contents, notes, station, found_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *
     )
     SELECT ${UNIDENTIFIED_COLUMNS} FROM added u`,
    [
      normalised(input.code),
      input.location.trim().toUpperCase(),
      input.contents ?? null,
      input.notes ?? null,
      input.station?.trim() || null,
      actor.userId,
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'unidentified_parcel.added',
    entityType: 'unidentified_parcel',
    entityId: row!.id,
    after: row,
  });
  return row!;
}

/**
 * The newest unidentified parcels; a search matches the start of the code or of the bin, or
 * words in the contents and notes.
 */
export async function searchUnidentifiedParcels(
  db: Queryable,
  q: string | undefined,
): Promise<UnidentifiedParcel[]> {
  const term = q?.trim() ?? '';
  if (term === '') {
    return db.query<UnidentifiedParcel>(
      `SELECT ${UNIDENTIFIED_COLUMNS} FROM unidentified_parcels u
       ORDER BY u.found_at DESC, u.id DESC LIMIT ${UNIDENTIFIED_SHOWN}`,
    );
  }
  const escaped = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
  return db.query<UnidentifiedParcel>(
    `SELECT ${UNIDENTIFIED_COLUMNS} FROM unidentified_parcels u
     WHERE u.code LIKE $1 OR u.location LIKE $2 OR u.contents ILIKE $3 OR u.notes ILIKE $3
     ORDER BY u.found_at DESC, u.id DESC LIMIT ${UNIDENTIFIED_SHOWN}`,
    [`${escaped(normalised(term))}%`, `${escaped(term.toUpperCase())}%`, `%${escaped(term)}%`],
  );
}
