import {
  CARTON_QUEUE_LIMIT,
  ORDER_BOX_STATUS_WORDS,
  orderLifecycle,
  parseDeviceId,
  type CartonLine,
  type CartonOrder,
  type CartonOrderDetail,
  type CartonQueue,
  type FulfilmentType,
  type OrderBox,
  type OrderBoxDetail,
  type OrderBoxScanAnswer,
  type OrderBoxScanInput,
  type OrderBoxScanResult,
  type OrderBoxStatus,
  type OrderStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { applyDeviceAction } from '../devices/index.js';
import { pickDevice } from '../fulfilment/index.js';
import { orderStore } from '../order/index.js';
import type { Desk } from '../shipment/index.js';

/**
 * Wholesale cartons (DOMAIN.md 4.7 /order/box): an assigned wholesale order is packed into
 * cartons ("OB-…"). A device scanned into an open carton is picked for one of the order's units
 * by the pick station's own rule (`pickDevice`: the reserved unit, or another matching one whose
 * reservation swaps; held, blacklisted and unavailable devices refused), or, picked already (at
 * the pick station), is put into the carton; an accessory's SKU adds its quantity up to what the
 * order ships. Closing a carton needs its weight and packs its devices; the order is fulfilled
 * once every unit and accessory is in a closed carton. A leader reopens a closed carton not yet
 * in a shipment. Every action locks the order, then the carton, so the scans of one order take
 * turns and two stations cannot put one device into two cartons.
 */

const GRAMS_PER_LB = 453.59237;

/** The lines of an order as the carton station counts them, over `orders o`. */
const LINES_SQL = `COALESCE((SELECT json_agg(x ORDER BY x.kind DESC, x.sku) FROM (
    SELECT COALESCE(v.sku, l.sku) AS sku, COALESCE(l.description, p.name, '') AS description,
      'device' AS kind, count(*)::int AS qty, count(u.order_box_id)::int AS in_boxes,
      (count(*) FILTER (WHERE b.status <> 'open'))::int AS packed
    FROM order_lines l
    JOIN order_line_units u ON u.order_line_id = l.id
      AND u.status IN ('allocated', 'picked', 'packed', 'shipped')
    LEFT JOIN product_variants v ON v.id = u.variant_id
    LEFT JOIN products p ON p.id = v.product_id
    LEFT JOIN order_boxes b ON b.id = u.order_box_id
    WHERE l.order_id = o.id
    GROUP BY 1, 2
    UNION ALL
    SELECT v.sku, p.name, 'accessory', n.qty,
      COALESCE(sum(i.qty), 0)::int, COALESCE(sum(i.qty) FILTER (WHERE b.status <> 'open'), 0)::int
    FROM order_accessory_needs(o.id) n
    JOIN product_variants v ON v.id = n.variant_id
    JOIN products p ON p.id = v.product_id
    LEFT JOIN order_boxes b ON b.order_id = o.id
    LEFT JOIN order_box_items i ON i.box_id = b.id AND i.variant_id = n.variant_id
    GROUP BY v.sku, p.name, n.qty
  ) x), '[]')`;

/** A wholesale order as /order/box shows it, over `orders o`. */
const CARTON_ORDER_COLUMNS = `o.id::int AS id, o.number, o.status,
  (SELECT r.name FROM retailers r WHERE r.id = o.retailer_id) AS retailer,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
    AS place,
  ${isoTextSql('o.sla_due_at')} AS sla_due_at,
  ${LINES_SQL} AS lines,
  (SELECT count(*)::int FROM order_boxes b WHERE b.order_id = o.id) AS boxes,
  (SELECT count(*)::int FROM order_boxes b WHERE b.order_id = o.id AND b.status = 'open')
    AS open_boxes,
  (SELECT s.id::int FROM wholesale_shipments s WHERE s.order_id = o.id) AS shipment_id,
  (SELECT s.number FROM wholesale_shipments s WHERE s.order_id = o.id) AS shipment_number`;

type CartonOrderRow = Omit<CartonOrder, 'units' | 'units_in_boxes' | 'units_packed'>;

const sum = (lines: readonly CartonLine[], key: 'qty' | 'in_boxes' | 'packed') =>
  lines.reduce((total, line) => total + line[key], 0);

const cartonOrder = (row: CartonOrderRow): CartonOrder => ({
  ...row,
  units: sum(row.lines, 'qty'),
  units_in_boxes: sum(row.lines, 'in_boxes'),
  units_packed: sum(row.lines, 'packed'),
});

/** A wholesale order's row; 404 for no order or another kind of order. */
export async function cartonOrderRow(db: Queryable, id: number): Promise<CartonOrder> {
  const [row] = await db.query<CartonOrderRow>(
    `SELECT ${CARTON_ORDER_COLUMNS} FROM orders o
     WHERE o.id = $1 AND o.fulfilment_type = 'wholesale'`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no wholesale order with id ${id}.`);
  return cartonOrder(row);
}

/**
 * Wholesale orders needing cartons, the most urgent first: assigned or being packed, and fulfilled
 * ones without a shipment yet (their cartons may still be reopened).
 */
export async function cartonQueue(db: Queryable): Promise<CartonQueue> {
  const rows = await db.query<CartonOrderRow>(
    `SELECT ${CARTON_ORDER_COLUMNS} FROM orders o
     WHERE o.fulfilment_type = 'wholesale'
       AND (o.status IN ('assigned', 'in_progress')
         OR (o.status = 'fulfilled'
           AND NOT EXISTS (SELECT 1 FROM wholesale_shipments s WHERE s.order_id = o.id)))
     ORDER BY COALESCE(o.sla_due_at, 'infinity'::timestamptz), o.id
     LIMIT $1`,
    [CARTON_QUEUE_LIMIT],
  );
  return { orders: rows.map(cartonOrder) };
}

/** A carton's row, over `order_boxes b`. */
export const ORDER_BOX_COLUMNS = `b.id::int AS id, b.code, b.order_id::int AS order_id,
  (SELECT o.number FROM orders o WHERE o.id = b.order_id) AS order_number, b.seq, b.status,
  b.weight_g,
  (SELECT count(*)::int FROM order_line_units u WHERE u.order_box_id = b.id) AS devices,
  (SELECT COALESCE(sum(i.qty), 0)::int FROM order_box_items i WHERE i.box_id = b.id)
    AS accessories,
  b.shipment_id::int AS shipment_id,
  (SELECT s.number FROM wholesale_shipments s WHERE s.id = b.shipment_id) AS shipment_number,
  b.tracking_number,
  (SELECT p.code FROM wholesale_pallets p WHERE p.id = b.pallet_id) AS pallet_code,
  ${isoTextSql('b.opened_at')} AS opened_at, ${isoTextSql('b.closed_at')} AS closed_at,
  (SELECT x.name FROM users x WHERE x.id = b.closed_by) AS closed_by_name, b.reopened_count,
  ${isoTextSql('b.dock_scanned_at')} AS dock_scanned_at,
  (SELECT x.name FROM users x WHERE x.id = b.dock_scanned_by) AS dock_scanned_by_name,
  ${isoTextSql('b.scanned_out_at')} AS scanned_out_at`;

export async function orderBoxRow(db: Queryable, id: number): Promise<OrderBox> {
  const [row] = await db.query<OrderBox>(
    `SELECT ${ORDER_BOX_COLUMNS} FROM order_boxes b WHERE b.id = $1`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no carton with id ${id}.`);
  return row;
}

/** Cartons with what each holds: the devices by IMEI, the accessories by SKU. */
async function boxDetails(db: Queryable, where: string, params: unknown[]) {
  const boxes = await db.query<OrderBox>(
    `SELECT ${ORDER_BOX_COLUMNS} FROM order_boxes b WHERE ${where} ORDER BY b.seq`,
    params,
  );
  if (boxes.length === 0) return [];
  const ids = boxes.map((box) => box.id);
  const [units, items] = await Promise.all([
    db.query<OrderBoxDetail['units'][number] & { box_id: number }>(
      `SELECT u.order_box_id::int AS box_id, u.id::int AS unit_id, d.id::int AS device_id,
         d.identifier AS imei, COALESCE(v.sku, l.sku) AS sku,
         COALESCE(l.description, p.name, '') AS description, d.status AS device_status
       FROM order_line_units u
       JOIN order_lines l ON l.id = u.order_line_id
       JOIN devices d ON d.id = u.device_id
       LEFT JOIN product_variants v ON v.id = u.variant_id
       LEFT JOIN products p ON p.id = v.product_id
       WHERE u.order_box_id = ANY ($1::bigint[])
       ORDER BY u.id`,
      [ids],
    ),
    db.query<OrderBoxDetail['items'][number] & { box_id: number }>(
      `SELECT i.box_id::int AS box_id, i.variant_id::int AS variant_id, v.sku,
         p.name AS description, i.qty
       FROM order_box_items i
       JOIN product_variants v ON v.id = i.variant_id
       JOIN products p ON p.id = v.product_id
       WHERE i.box_id = ANY ($1::bigint[])
       ORDER BY v.sku`,
      [ids],
    ),
  ]);
  return boxes.map((box): OrderBoxDetail => ({
    box,
    units: units.filter((unit) => unit.box_id === box.id).map(({ box_id: _, ...unit }) => unit),
    items: items.filter((item) => item.box_id === box.id).map(({ box_id: _, ...item }) => item),
  }));
}

export async function orderBoxDetail(db: Queryable, id: number): Promise<OrderBoxDetail> {
  const [detail] = await boxDetails(db, 'b.id = $1', [id]);
  if (!detail) throw new NotFoundError(`There is no carton with id ${id}.`);
  return detail;
}

export async function cartonOrderDetail(db: Queryable, id: number): Promise<CartonOrderDetail> {
  const order = await cartonOrderRow(db, id);
  return { order, boxes: await boxDetails(db, 'b.order_id = $1', [id]) };
}

type LockedOrder = {
  id: number;
  number: string;
  status: OrderStatus;
  fulfilment_type: FulfilmentType;
  shipment_number: string | null;
};

/** Locks a wholesale order: 404 for none (or not wholesale). */
async function lockOrder(tx: Transaction, id: number): Promise<LockedOrder> {
  const [order] = await tx.query<LockedOrder>(
    `SELECT o.id::int AS id, o.number, o.status, o.fulfilment_type,
       (SELECT s.number FROM wholesale_shipments s WHERE s.order_id = o.id) AS shipment_number
     FROM orders o WHERE o.id = $1 FOR UPDATE`,
    [id],
  );
  if (!order || order.fulfilment_type !== 'wholesale') {
    throw new NotFoundError(`There is no wholesale order with id ${id}.`);
  }
  return order;
}

type LockedBox = {
  id: number;
  code: string;
  status: OrderBoxStatus;
  shipment_number: string | null;
  order: LockedOrder;
};

/** Locks a carton's order, then the carton: every carton action takes them in this order. */
async function lockBox(tx: Transaction, id: number): Promise<LockedBox> {
  const [found] = await tx.query<{ order_id: number }>(
    'SELECT order_id::int AS order_id FROM order_boxes WHERE id = $1',
    [id],
  );
  if (!found) throw new NotFoundError(`There is no carton with id ${id}.`);
  const order = await lockOrder(tx, found.order_id);
  const [box] = await tx.query<Omit<LockedBox, 'order'>>(
    `SELECT b.id::int AS id, b.code, b.status,
       (SELECT s.number FROM wholesale_shipments s WHERE s.id = b.shipment_id) AS shipment_number
     FROM order_boxes b WHERE b.id = $1 FOR UPDATE`,
    [id],
  );
  return { ...box!, order };
}

/** Orders whose cartons are packed now: assigned or being packed, or picked at the pick station. */
const PACKABLE: readonly OrderStatus[] = ['assigned', 'in_progress', 'fulfilled'];

function checkPackable(order: LockedOrder) {
  if (!PACKABLE.includes(order.status) || order.shipment_number !== null) {
    const why = order.shipment_number
      ? `it ships in ${order.shipment_number}`
      : `it is ${orderLifecycle.stateText(order.status)}`;
    throw new ConflictError(`${order.number} is not packed into cartons now: ${why}.`);
  }
}

/** Opens the order's next carton (its label is printed next). */
export async function openOrderBox(
  tx: Transaction,
  { principal, meta }: Desk,
  orderId: number,
): Promise<OrderBox> {
  const order = await lockOrder(tx, orderId);
  checkPackable(order);
  const [made] = await tx.query<{ id: number; code: string; seq: number }>(
    `INSERT INTO order_boxes (order_id, seq, opened_by)
     SELECT $1, COALESCE(max(seq), 0) + 1, $2 FROM order_boxes WHERE order_id = $1
     RETURNING id::int AS id, code, seq`,
    [orderId, principal.userId],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'order_box.opened',
    entityType: 'order_box',
    entityId: made!.id,
    after: { code: made!.code, order: order.number, seq: made!.seq },
  });
  return orderBoxRow(tx, made!.id);
}

/**
 * Moves the order on as its cartons fill: assigned → in progress once anything is in a carton,
 * in progress → fulfilled once every unit and accessory is in a closed carton.
 */
async function settleOrder(tx: Transaction, acting: Acting, order: LockedOrder): Promise<boolean> {
  const [left] = await tx.query<{ started: boolean; to_pack: number; accessories_left: boolean }>(
    `SELECT
       EXISTS (SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
               WHERE l.order_id = $1 AND u.order_box_id IS NOT NULL)
         OR EXISTS (SELECT 1 FROM order_box_items i JOIN order_boxes b ON b.id = i.box_id
                    WHERE b.order_id = $1) AS started,
       (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
        WHERE l.order_id = $1 AND u.status IN ('allocated', 'picked')) AS to_pack,
       EXISTS (SELECT 1 FROM order_accessory_needs($1) n
               WHERE n.qty > (SELECT COALESCE(sum(i.qty), 0) FROM order_box_items i
                              JOIN order_boxes b ON b.id = i.box_id
                              WHERE b.order_id = $1 AND b.status <> 'open'
                                AND i.variant_id = n.variant_id)) AS accessories_left`,
    [order.id],
  );
  const { actor, meta } = acting;
  let status = order.status;
  if (status === 'assigned' && left!.started) {
    await runTransition(tx, orderStore, { id: order.id, action: 'start_pick', actor, meta });
    status = 'in_progress';
  }
  if (status !== 'in_progress' || left!.to_pack > 0 || left!.accessories_left) return false;
  await tx.query(
    `UPDATE orders SET accessories_confirmed_at = COALESCE(accessories_confirmed_at, now())
     WHERE id = $1`,
    [order.id],
  );
  await runTransition(tx, orderStore, {
    id: order.id,
    action: 'fulfil',
    actor,
    meta,
    data: { by: 'cartons' },
  });
  return true;
}

type Outcome = { result: OrderBoxScanResult; message: string };

/** A device's unit on this order already picked: put into the carton, or where it is. */
async function boxPickedDevice(
  tx: Transaction,
  box: LockedBox,
  identifier: string,
): Promise<Outcome | null> {
  const [unit] = await tx.query<{ id: number; box_id: number | null; box_code: string | null }>(
    `SELECT u.id::int AS id, u.order_box_id::int AS box_id, b.code AS box_code
     FROM devices d
     JOIN order_line_units u ON u.device_id = d.id AND u.status IN ('picked', 'packed', 'shipped')
     JOIN order_lines l ON l.id = u.order_line_id AND l.order_id = $2
     LEFT JOIN order_boxes b ON b.id = u.order_box_id
     WHERE d.identifier = $1 OR d.imei2 = $1
     LIMIT 1`,
    [identifier, box.order.id],
  );
  if (!unit) return null;
  if (unit.box_id === box.id) {
    return { result: 'already_in_box', message: `${identifier} is in ${box.code} already.` };
  }
  if (unit.box_id !== null) {
    return {
      result: 'in_other_box',
      message: `${identifier} is in carton ${unit.box_code}: take it out of this one.`,
    };
  }
  await tx.query(
    'UPDATE order_line_units SET order_box_id = $2, updated_at = now() WHERE id = $1',
    [unit.id, box.id],
  );
  return { result: 'packed', message: `${identifier} (picked already) is in ${box.code}.` };
}

/** The pick's answers in the carton station's words. */
const PICK_RESULTS: Partial<Record<string, OrderBoxScanResult>> = {
  picked: 'packed',
  swapped: 'swapped',
  already_done: 'too_many',
  wrong_variant: 'wrong_variant',
  held: 'held',
  blacklisted: 'blacklisted',
  not_available: 'not_available',
  unknown: 'unknown',
  invalid: 'invalid',
};

async function scanDevice(
  tx: Transaction,
  acting: Acting,
  box: LockedBox,
  identifier: string,
  station: string | null,
): Promise<Outcome> {
  const boxed = await boxPickedDevice(tx, box, identifier);
  if (boxed) return boxed;
  const pick = await pickDevice(tx, acting, box.order, identifier, {
    carton: box.code,
    ...(station && { station }),
  });
  const result = PICK_RESULTS[pick.result] ?? 'not_available';
  if (!pick.picked) return { result, message: pick.message };
  await tx.query(
    'UPDATE order_line_units SET order_box_id = $2, updated_at = now() WHERE id = $1',
    [pick.picked.unitId, box.id],
  );
  return { result, message: `${pick.message.replace(/\.$/, '')} into ${box.code}.` };
}

/** An accessory's SKU: its quantity into the carton, up to what the order ships. */
async function scanAccessory(
  tx: Transaction,
  box: LockedBox,
  variant: { id: number; sku: string },
  qty: number,
): Promise<Outcome> {
  const [need] = await tx.query<{ qty: number; in_boxes: number }>(
    `SELECT n.qty,
       (SELECT COALESCE(sum(i.qty), 0)::int FROM order_box_items i
        JOIN order_boxes b ON b.id = i.box_id
        WHERE b.order_id = $1 AND i.variant_id = n.variant_id) AS in_boxes
     FROM order_accessory_needs($1) n WHERE n.variant_id = $2`,
    [box.order.id, variant.id],
  );
  if (!need) {
    return {
      result: 'not_on_order',
      message: `${variant.sku} is not on ${box.order.number}: keep it out.`,
    };
  }
  if (need.in_boxes + qty > need.qty) {
    return {
      result: 'too_many',
      message: `${box.order.number} ships ${need.qty} × ${variant.sku}; ${need.in_boxes} in cartons already, so ${need.qty - need.in_boxes} more at most.`,
    };
  }
  await tx.query(
    `INSERT INTO order_box_items (box_id, variant_id, qty) VALUES ($1, $2, $3)
     ON CONFLICT (box_id, variant_id) DO UPDATE SET qty = order_box_items.qty + EXCLUDED.qty`,
    [box.id, variant.id, qty],
  );
  return {
    result: 'accessory_added',
    message: `${qty} × ${variant.sku} into ${box.code}: ${need.in_boxes + qty} of ${need.qty} in cartons.`,
  };
}

async function scanCode(
  tx: Transaction,
  acting: Acting,
  box: LockedBox,
  input: OrderBoxScanInput,
): Promise<Outcome> {
  const { order } = box;
  if (box.status !== 'open') {
    return {
      result: 'box_closed',
      message: `${box.code} is ${ORDER_BOX_STATUS_WORDS[box.status]}: open another carton.`,
    };
  }
  if (!PACKABLE.includes(order.status) || order.shipment_number !== null) {
    return {
      result: 'not_packable',
      message: `${order.number} is ${orderLifecycle.stateText(order.status)}: it is not packed now.`,
    };
  }
  const code = input.code.trim();
  const [variant] = await tx.query<{ id: number; sku: string; kind: string }>(
    `SELECT v.id::int AS id, v.sku, p.kind FROM product_variants v
     JOIN products p ON p.id = v.product_id WHERE upper(v.sku) = upper($1)`,
    [code],
  );
  if (variant && variant.kind !== 'device') {
    return scanAccessory(tx, box, variant, input.qty ?? 1);
  }
  const parsed = parseDeviceId(code.replace(/\s/g, ''));
  if (!parsed.ok) {
    return {
      result: variant ? 'not_on_order' : 'invalid',
      message: variant
        ? `${variant.sku} is a device SKU: scan each device's IMEI.`
        : `${code} is neither an IMEI nor an accessory SKU: ${parsed.message}`,
    };
  }
  return scanDevice(tx, acting, box, parsed.value.value, input.station?.trim() || null);
}

/**
 * One scan into an open carton: an IMEI (or MEID) or an accessory's SKU with its quantity.
 * Answers the result with the carton and its order as they are after the scan.
 */
export async function scanIntoOrderBox(
  tx: Transaction,
  desk: Desk,
  boxId: number,
  input: OrderBoxScanInput,
): Promise<OrderBoxScanAnswer> {
  const acting: Acting = { actor: desk.principal, meta: desk.meta };
  const box = await lockBox(tx, boxId);
  const outcome = await scanCode(tx, acting, box, input);
  if (['packed', 'swapped', 'accessory_added'].includes(outcome.result)) {
    await settleOrder(tx, acting, box.order);
  }
  return {
    ...outcome,
    code: input.code.trim(),
    at: new Date().toISOString(),
    box: await orderBoxDetail(tx, boxId),
    order: await cartonOrderRow(tx, box.order.id),
  };
}

/**
 * Closes an open carton with its weight: its devices are packed, and the order is fulfilled when
 * nothing is left outside a closed carton. An empty carton stays open (409).
 */
export async function closeOrderBox(
  tx: Transaction,
  desk: Desk,
  boxId: number,
  weightLb: number,
): Promise<OrderBox> {
  const { principal, meta } = desk;
  const box = await lockBox(tx, boxId);
  if (box.status !== 'open') {
    throw new ConflictError(`${box.code} is ${ORDER_BOX_STATUS_WORDS[box.status]} already.`);
  }
  const devices = await tx.query<{ id: number }>(
    `SELECT device_id::int AS id FROM order_line_units
     WHERE order_box_id = $1 AND status = 'picked' ORDER BY device_id`,
    [boxId],
  );
  const [items] = await tx.query<{ n: number }>(
    'SELECT COALESCE(sum(qty), 0)::int AS n FROM order_box_items WHERE box_id = $1',
    [boxId],
  );
  if (devices.length === 0 && items!.n === 0) {
    throw new ConflictError(`${box.code} is empty: scan what goes in before closing it.`);
  }
  const data = { order: box.order.number, carton: box.code };
  await applyDeviceAction(tx, principal, meta, {
    deviceIds: devices.map((device) => device.id),
    action: 'pack',
    data,
  });
  await tx.query(
    `UPDATE order_line_units SET status = 'packed', updated_at = now()
     WHERE order_box_id = $1 AND status = 'picked'`,
    [boxId],
  );
  const weightG = Math.max(1, Math.round(weightLb * GRAMS_PER_LB));
  await tx.query(
    `UPDATE order_boxes SET status = 'closed', weight_g = $2, closed_at = now(), closed_by = $3,
       updated_at = now()
     WHERE id = $1`,
    [boxId, weightG, principal.userId],
  );
  const fulfilled = await settleOrder(tx, { actor: principal, meta }, box.order);
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'order_box.closed',
    entityType: 'order_box',
    entityId: boxId,
    before: { status: 'open' },
    after: {
      status: 'closed',
      weight_g: weightG,
      devices: devices.length,
      accessories: items!.n,
      order_fulfilled: fulfilled,
    },
  });
  return orderBoxRow(tx, boxId);
}

/**
 * Reopens a closed carton not yet in a shipment (a leader): its devices are picked again, and a
 * fulfilled order goes back to being packed.
 */
export async function reopenOrderBox(
  tx: Transaction,
  desk: Desk,
  boxId: number,
): Promise<OrderBox> {
  const { principal, meta } = desk;
  const box = await lockBox(tx, boxId);
  if (box.shipment_number !== null) {
    throw new ConflictError(
      `${box.code} ships in ${box.shipment_number}: it is not reopened once in a shipment.`,
    );
  }
  if (box.status !== 'closed') {
    throw new ConflictError(
      `${box.code} is ${ORDER_BOX_STATUS_WORDS[box.status]}: only a closed carton is reopened.`,
    );
  }
  const devices = await tx.query<{ id: number }>(
    `SELECT device_id::int AS id FROM order_line_units
     WHERE order_box_id = $1 AND status = 'packed' ORDER BY device_id`,
    [boxId],
  );
  const data = { order: box.order.number, carton: box.code };
  await applyDeviceAction(tx, principal, meta, {
    deviceIds: devices.map((device) => device.id),
    action: 'unpack_carton',
    data,
  });
  await tx.query(
    `UPDATE order_line_units SET status = 'picked', updated_at = now()
     WHERE order_box_id = $1 AND status = 'packed'`,
    [boxId],
  );
  await tx.query(
    `UPDATE order_boxes SET status = 'open', weight_g = NULL, closed_at = NULL, closed_by = NULL,
       reopened_count = reopened_count + 1, updated_at = now()
     WHERE id = $1`,
    [boxId],
  );
  if (box.order.status === 'fulfilled') {
    // Back to being packed: assigned again, started again by the carton's next scan or close.
    await runTransition(tx, orderStore, {
      id: box.order.id,
      action: 'unpick',
      actor: principal,
      meta,
      data: { carton_reopened: box.code },
    });
  }
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'order_box.reopened',
    entityType: 'order_box',
    entityId: boxId,
    before: { status: 'closed' },
    after: { status: 'open', devices: devices.length },
  });
  return orderBoxRow(tx, boxId);
}
