import {
  orderLifecycle,
  SHIPMENT_BOARD_SHIPPED_LIMIT,
  SHIPPING_SERVICE_INFO,
  WHOLESALE_SHIPMENT_STATUS_WORDS,
  type CreateShipmentInput,
  type DockScanAnswer,
  type DockScanInput,
  type DockScanResult,
  type OrderBoxStatus,
  type OrderStatus,
  type PickupInput,
  type ShipmentBillInput,
  type ShipmentMode,
  type ShipmentReadyOrder,
  type ShippingService,
  type WholesaleShipment,
  type WholesaleShipmentBoard,
  type WholesaleShipmentDetail,
  type WholesaleShipmentStatus,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { orderStore } from '../order/index.js';
import { carrierAdapter, shipOrders, shippingSettings, type Desk } from '../shipment/index.js';
import { ORDER_BOX_COLUMNS } from './order-boxes.service.js';

/**
 * Wholesale shipments (DOMAIN.md 4.7 /shipment and /shipment/scan-out-to-ship): a fulfilled
 * wholesale order's closed cartons ship together, as freight under a bill of lading or as parcels
 * with a carrier label per carton (the label desk's carrier adapter). With its BOL or labels the
 * order is labeled; a person checks the shipment (contents verified); at the dock each carton's
 * label is scanned (onto the pallet being loaded, if any), and the carrier's pickup ships it:
 * cartons scanned out, shipment in transit, devices and order shipped through the dock's own
 * `shipOrders`. Cartons not scanned stop the pickup unless a manager let the shipment go without
 * them (who and why kept). The shipment is locked before its cartons, by every action.
 */

/** Whether a shipment may leave: a BOL (freight) or every carton labelled (parcel). */
const HAS_TRACKING_SQL = `CASE s.mode WHEN 'freight' THEN s.bol_number IS NOT NULL
  ELSE NOT EXISTS (SELECT 1 FROM order_boxes b WHERE b.shipment_id = s.id
                   AND b.tracking_number IS NULL) END`;

const SHIPMENT_COLUMNS = `s.id::int AS id, s.number, s.order_id::int AS order_id,
  o.number AS order_number, o.status AS order_status,
  (SELECT r.name FROM retailers r WHERE r.id = o.retailer_id) AS retailer,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
    AS place,
  s.mode, s.carrier, s.service, s.bol_number, s.pro_number,
  ARRAY(SELECT b.tracking_number FROM order_boxes b
        WHERE b.shipment_id = s.id AND b.tracking_number IS NOT NULL ORDER BY b.seq)
    AS tracking_numbers,
  ${HAS_TRACKING_SQL} AS has_tracking,
  to_char(s.ship_date, 'YYYY-MM-DD') AS ship_date, s.status,
  c.boxes, c.boxes_scanned, c.weight_g,
  (SELECT count(*)::int FROM order_line_units u JOIN order_boxes b ON b.id = u.order_box_id
   WHERE b.shipment_id = s.id) AS units,
  ${isoTextSql('s.checked_at')} AS checked_at,
  (SELECT x.name FROM users x WHERE x.id = s.checked_by) AS checked_by_name,
  s.pickup_carrier, s.driver_name, ${isoTextSql('s.picked_up_at')} AS picked_up_at,
  (SELECT x.name FROM users x WHERE x.id = s.confirmed_by) AS confirmed_by_name,
  (SELECT x.name FROM users x WHERE x.id = s.override_by) AS override_by_name, s.override_reason,
  ${isoTextSql('s.created_at')} AS created_at,
  (SELECT x.name FROM users x WHERE x.id = s.created_by) AS created_by_name`;

const SHIPMENT_FROM = `wholesale_shipments s JOIN orders o ON o.id = s.order_id
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS boxes, count(b.dock_scanned_at)::int AS boxes_scanned,
      COALESCE(sum(b.weight_g), 0)::int AS weight_g
    FROM order_boxes b WHERE b.shipment_id = s.id) c`;

const shipmentsWhere = (db: Queryable, where: string, params: unknown[] = []) =>
  db.query<WholesaleShipment>(
    `SELECT ${SHIPMENT_COLUMNS} FROM ${SHIPMENT_FROM} WHERE ${where}`,
    params,
  );

export async function shipmentRow(db: Queryable, id: number): Promise<WholesaleShipment> {
  const [row] = await shipmentsWhere(db, 's.id = $1', [id]);
  if (!row) throw new NotFoundError(`There is no wholesale shipment with id ${id}.`);
  return row;
}

export async function shipmentDetail(db: Queryable, id: number): Promise<WholesaleShipmentDetail> {
  const shipment = await shipmentRow(db, id);
  const [boxes, pallets] = await Promise.all([
    db.query<WholesaleShipmentDetail['boxes'][number]>(
      `SELECT ${ORDER_BOX_COLUMNS} FROM order_boxes b WHERE b.shipment_id = $1 ORDER BY b.seq`,
      [id],
    ),
    db.query<WholesaleShipmentDetail['pallets'][number]>(
      `SELECT p.id::int AS id, p.code,
         (SELECT count(*)::int FROM order_boxes b WHERE b.pallet_id = p.id) AS boxes,
         ${isoTextSql('p.closed_at')} AS closed_at
       FROM wholesale_pallets p WHERE p.shipment_id = $1 ORDER BY p.id`,
      [id],
    ),
  ]);
  return { shipment, boxes, pallets };
}

/** Fulfilled wholesale orders whose cartons are all closed and in no shipment yet. */
const READY_SQL = `SELECT o.id::int AS order_id, o.number,
    (SELECT r.name FROM retailers r WHERE r.id = o.retailer_id) AS retailer,
    COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
      AS place,
    c.boxes, c.weight_g,
    (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
     WHERE l.order_id = o.id AND u.status = 'packed') AS units
  FROM orders o
  CROSS JOIN LATERAL (
    SELECT count(*)::int AS boxes, COALESCE(sum(b.weight_g), 0)::int AS weight_g,
      count(*) FILTER (WHERE b.status = 'open') AS open
    FROM order_boxes b WHERE b.order_id = o.id) c
  WHERE o.fulfilment_type = 'wholesale' AND o.status = 'fulfilled'
    AND c.boxes > 0 AND c.open = 0
    AND NOT EXISTS (SELECT 1 FROM wholesale_shipments s WHERE s.order_id = o.id)
    AND NOT EXISTS (SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
                    WHERE l.order_id = o.id AND u.status = 'picked')`;

/** What /shipment shows: orders ready for a shipment, those being prepared, those on their way. */
export async function shipmentBoard(db: Queryable): Promise<WholesaleShipmentBoard> {
  const [ready, open, shipped] = await Promise.all([
    db.query<ShipmentReadyOrder>(
      `${READY_SQL} ORDER BY COALESCE(o.sla_due_at, 'infinity'::timestamptz), o.id LIMIT 200`,
    ),
    shipmentsWhere(db, "s.status = 'open' ORDER BY s.ship_date, s.id"),
    shipmentsWhere(db, "s.status <> 'open' ORDER BY s.picked_up_at DESC, s.id DESC LIMIT $1", [
      SHIPMENT_BOARD_SHIPPED_LIMIT,
    ]),
  ]);
  return { ready, open, shipped };
}

type LockedShipment = {
  id: number;
  number: string;
  order_id: number;
  order_number: string;
  order_status: OrderStatus;
  mode: ShipmentMode;
  carrier: string;
  bol_number: string | null;
  status: WholesaleShipmentStatus;
  checked: boolean;
  override: boolean;
  has_tracking: boolean;
};

/** Locks a shipment (FOR SHARE while its cartons are scanned, FOR UPDATE to change it); 404. */
async function lockShipment(
  tx: Transaction,
  id: number,
  mode: 'SHARE' | 'UPDATE',
): Promise<LockedShipment> {
  const [shipment] = await tx.query<LockedShipment>(
    `SELECT s.id::int AS id, s.number, s.order_id::int AS order_id, o.number AS order_number,
       o.status AS order_status, s.mode, s.carrier, s.bol_number, s.status,
       s.checked_at IS NOT NULL AS checked, s.override_by IS NOT NULL AS override,
       ${HAS_TRACKING_SQL} AS has_tracking
     FROM wholesale_shipments s JOIN orders o ON o.id = s.order_id
     WHERE s.id = $1 FOR ${mode} OF s`,
    [id],
  );
  if (!shipment) throw new NotFoundError(`There is no wholesale shipment with id ${id}.`);
  return shipment;
}

function checkOpen(shipment: LockedShipment) {
  if (shipment.status !== 'open') {
    throw new ConflictError(
      `${shipment.number} is ${WHOLESALE_SHIPMENT_STATUS_WORDS[shipment.status]}: it changes no more.`,
    );
  }
}

/** With its BOL or labels the order is labelled: its cartons may leave once checked. */
async function labelOrder(tx: Transaction, { principal, meta }: Desk, id: number) {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  if (!shipment.has_tracking || shipment.order_status !== 'fulfilled') return;
  await runTransition(tx, orderStore, {
    id: shipment.order_id,
    action: 'label',
    actor: principal,
    meta,
    data: {
      shipment: shipment.number,
      ...(shipment.bol_number ? { bol: shipment.bol_number } : {}),
    },
  });
}

type ShipTo = {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  city: string;
  state: string;
  zip: string;
};

/** Buys a parcel label per carton from the carrier adapter; a retry gets the same label. */
async function labelCartons(
  tx: Transaction,
  shipmentId: number,
  order: { id: number; number: string },
  service: ShippingService,
) {
  const settings = await shippingSettings(tx);
  const adapter = carrierAdapter(settings);
  const [shipTo] = await tx.query<ShipTo>(
    `SELECT name, company, line1, line2, city, state, zip FROM order_ship_to WHERE order_id = $1`,
    [order.id],
  );
  if (!shipTo) throw new ConflictError(`${order.number} has no ship-to address to label.`);
  const boxes = await tx.query<{ id: number; code: string; seq: number; weight_g: number }>(
    `SELECT id::int AS id, code, seq, weight_g FROM order_boxes
     WHERE shipment_id = $1 ORDER BY seq`,
    [shipmentId],
  );
  for (const box of boxes) {
    const label = await adapter.createLabel({
      idempotencyKey: `wholesale-${shipmentId}-${box.id}`,
      orderId: order.id,
      generation: box.seq,
      service,
      weightG: box.weight_g,
      shipFrom: settings.ship_from,
      shipTo,
      reference: `${order.number} ${box.code}`,
    });
    await tx.query('UPDATE order_boxes SET tracking_number = $2 WHERE id = $1', [
      box.id,
      label.trackingNumber,
    ]);
  }
}

/**
 * Creates the shipment of a fulfilled wholesale order: every carton, all closed, goes in it.
 * Freight names its carrier (and may carry its BOL now); parcel buys a label per carton for the
 * service. With its BOL or labels the order is labeled.
 */
export async function createShipment(
  tx: Transaction,
  desk: Desk,
  input: CreateShipmentInput,
): Promise<WholesaleShipmentDetail> {
  const { principal, meta } = desk;
  const [order] = await tx.query<{
    id: number;
    number: string;
    status: OrderStatus;
    fulfilment_type: string;
    shipment_number: string | null;
  }>(
    `SELECT o.id::int AS id, o.number, o.status, o.fulfilment_type,
       (SELECT s.number FROM wholesale_shipments s WHERE s.order_id = o.id) AS shipment_number
     FROM orders o WHERE o.id = $1 FOR UPDATE`,
    [input.order_id],
  );
  if (!order || order.fulfilment_type !== 'wholesale') {
    throw new NotFoundError(`There is no wholesale order with id ${input.order_id}.`);
  }
  if (order.shipment_number) {
    throw new ConflictError(`${order.number} ships in ${order.shipment_number} already.`);
  }
  if (order.status !== 'fulfilled') {
    throw new ConflictError(
      `${order.number} is ${orderLifecycle.stateText(order.status)}: a shipment is made once every carton is packed and the order fulfilled.`,
    );
  }
  const boxes = await tx.query<{ id: number; code: string; status: OrderBoxStatus }>(
    `SELECT id::int AS id, code, status FROM order_boxes WHERE order_id = $1 ORDER BY id FOR UPDATE`,
    [order.id],
  );
  const open = boxes.filter((box) => box.status !== 'closed');
  if (boxes.length === 0 || open.length > 0) {
    throw new ConflictError(
      boxes.length === 0
        ? `${order.number} has no cartons: pack it on /order/box first.`
        : `${open.map((box) => box.code).join(', ')} ${open.length === 1 ? 'is' : 'are'} not closed: close every carton first.`,
    );
  }
  const parcel = input.mode === 'parcel';
  if (parcel && !input.service) throw fieldError('service', 'Choose the carrier service.');
  const carrier = parcel ? SHIPPING_SERVICE_INFO[input.service!].carrier : input.carrier?.trim();
  if (!carrier) throw fieldError('carrier', 'Enter the freight carrier.');
  if (parcel && input.bol_number) {
    throw fieldError('bol_number', 'A parcel shipment has a label per carton, not a BOL.');
  }
  const [made] = await tx.query<{ id: number; number: string }>(
    `INSERT INTO wholesale_shipments (order_id, mode, carrier, service, bol_number, pro_number,
       ship_date, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::date, order_business_day(now())), $8)
     RETURNING id::int AS id, number`,
    [
      order.id,
      input.mode,
      carrier,
      parcel ? input.service : null,
      input.bol_number || null,
      input.pro_number || null,
      input.ship_date ?? null,
      principal.userId,
    ],
  );
  const id = made!.id;
  await tx.query(
    'UPDATE order_boxes SET shipment_id = $2, updated_at = now() WHERE order_id = $1',
    [order.id, id],
  );
  if (parcel) await labelCartons(tx, id, order, input.service!);
  await labelOrder(tx, desk, id);
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'wholesale_shipment.created',
    entityType: 'wholesale_shipment',
    entityId: id,
    after: {
      number: made!.number,
      order: order.number,
      mode: input.mode,
      carrier,
      cartons: boxes.map((box) => box.code),
      ...(input.bol_number ? { bol: input.bol_number } : {}),
    },
  });
  return shipmentDetail(tx, id);
}

/** Attaches a freight shipment's BOL (and PRO) number: the order is labeled with it. */
export async function attachBill(
  tx: Transaction,
  desk: Desk,
  id: number,
  input: ShipmentBillInput,
): Promise<WholesaleShipmentDetail> {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  checkOpen(shipment);
  if (shipment.mode !== 'freight') {
    throw new ConflictError(`${shipment.number} goes by parcel: its cartons carry labels, no BOL.`);
  }
  await tx.query(
    `UPDATE wholesale_shipments SET bol_number = $2, pro_number = COALESCE($3, pro_number),
       carrier = COALESCE($4, carrier), updated_at = now()
     WHERE id = $1`,
    [id, input.bol_number, input.pro_number || null, input.carrier?.trim() || null],
  );
  await labelOrder(tx, desk, id);
  await recordAudit(tx, {
    ...auditActor(desk.principal, desk.meta),
    action: 'wholesale_shipment.bill_attached',
    entityType: 'wholesale_shipment',
    entityId: id,
    before: { bol: shipment.bol_number },
    after: { bol: input.bol_number, pro: input.pro_number ?? null },
  });
  return shipmentDetail(tx, id);
}

/** The shipment checked: its contents verified now, by the caller. A repeat changes nothing. */
export async function checkShipment(
  tx: Transaction,
  { principal, meta }: Desk,
  id: number,
): Promise<WholesaleShipmentDetail> {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  checkOpen(shipment);
  if (!shipment.checked) {
    await tx.query(
      `UPDATE wholesale_shipments SET checked_at = now(), checked_by = $2, updated_at = now()
       WHERE id = $1`,
      [id, principal.userId],
    );
    await recordAudit(tx, {
      ...auditActor(principal, meta),
      action: 'wholesale_shipment.checked',
      entityType: 'wholesale_shipment',
      entityId: id,
      after: { number: shipment.number, order: shipment.order_number },
    });
  }
  return shipmentDetail(tx, id);
}

/** A carton's label as scanned: its OB code, or its parcel label's tracking number. */
const cartonCode = (code: string) => code.trim().toUpperCase().replace(/\s/g, '');

type ScannedBox = {
  id: number;
  code: string;
  status: OrderBoxStatus;
  shipment_id: number | null;
  dock_scanned_at: string | null;
  order_number: string;
};

/**
 * A carton's label scanned at the dock: put on the dock (and on the pallet being loaded) when its
 * shipment is checked and has its BOL or labels; every other case is answered with its reason and
 * writes nothing. Two docks scanning one carton take turns on its lock: one scans it, the other
 * hears it was scanned.
 */
export async function dockScan(
  tx: Transaction,
  { principal, meta }: Desk,
  input: DockScanInput,
): Promise<DockScanAnswer> {
  const code = cartonCode(input.code);
  const station = input.station?.trim() || null;
  const [found] = await tx.query<{ id: number; shipment_id: number | null }>(
    `SELECT id::int AS id, shipment_id::int AS shipment_id FROM order_boxes
     WHERE code = $1 OR tracking_number = $1 LIMIT 1`,
    [code],
  );
  const shipment = found?.shipment_id ? await lockShipment(tx, found.shipment_id, 'SHARE') : null;
  const [box] = found
    ? await tx.query<ScannedBox>(
        `SELECT b.id::int AS id, b.code, b.status, b.shipment_id::int AS shipment_id,
           ${isoTextSql('b.dock_scanned_at')} AS dock_scanned_at, o.number AS order_number
         FROM order_boxes b JOIN orders o ON o.id = b.order_id WHERE b.id = $1 FOR UPDATE OF b`,
        [found.id],
      )
    : [];
  const answer = async (result: DockScanResult, message: string): Promise<DockScanAnswer> => ({
    result,
    message,
    code,
    at: new Date().toISOString(),
    shipment: shipment ? await shipmentDetail(tx, shipment.id) : null,
  });
  if (!box) {
    return answer(
      'unknown',
      `No carton has the label ${code}: keep it off the truck and take it to the packing bench.`,
    );
  }
  if (box.status === 'open') {
    return answer('box_open', `${box.code} is open: close it with its weight at /order/box first.`);
  }
  if (!shipment) {
    return answer(
      'no_shipment',
      `${box.code} (${box.order_number}) is in no shipment: create its shipment on /shipment first.`,
    );
  }
  if (shipment.status !== 'open' || box.status === 'scanned_out') {
    return answer('shipped', `${box.code} left with ${shipment.number} already.`);
  }
  if (box.dock_scanned_at) {
    return answer('already_scanned', `${box.code} is scanned already: nothing changed.`);
  }
  if (!shipment.has_tracking) {
    return answer(
      'no_tracking',
      `${shipment.number} has no ${shipment.mode === 'freight' ? 'BOL' : 'labels'} yet: it cannot ship without them.`,
    );
  }
  if (!shipment.checked) {
    return answer('not_checked', `${shipment.number} is not checked: check its contents first.`);
  }
  await tx.query(
    `UPDATE order_boxes SET dock_scanned_at = now(), dock_scanned_by = $2, dock_station = $3,
       pallet_id = (SELECT p.id FROM wholesale_pallets p
                    WHERE p.shipment_id = $4 AND p.closed_at IS NULL),
       updated_at = now()
     WHERE id = $1`,
    [box.id, principal.userId, station, shipment.id],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'order_box.dock_scanned',
    entityType: 'order_box',
    entityId: box.id,
    after: { code: box.code, shipment: shipment.number, ...(station && { station }) },
  });
  const after = await answer('scanned', '');
  const { boxes, boxes_scanned: scanned } = after.shipment!.shipment;
  return {
    ...after,
    message: `${box.code} scanned: ${scanned} of ${boxes} cartons of ${shipment.number}${scanned === boxes ? ', all on the dock' : ''}.`,
  };
}

/** Starts a pallet: the cartons scanned next go onto it. One pallet is loaded at a time. */
export async function openPallet(
  tx: Transaction,
  { principal, meta }: Desk,
  id: number,
): Promise<WholesaleShipmentDetail> {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  checkOpen(shipment);
  const [open] = await tx.query<{ code: string }>(
    'SELECT code FROM wholesale_pallets WHERE shipment_id = $1 AND closed_at IS NULL',
    [id],
  );
  if (open) throw new ConflictError(`Pallet ${open.code} is being loaded: close it first.`);
  const [made] = await tx.query<{ id: number; code: string }>(
    `INSERT INTO wholesale_pallets (shipment_id, opened_by) VALUES ($1, $2)
     RETURNING id::int AS id, code`,
    [id, principal.userId],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'wholesale_shipment.pallet_opened',
    entityType: 'wholesale_shipment',
    entityId: id,
    after: { pallet: made!.code },
  });
  return shipmentDetail(tx, id);
}

/** Closes the pallet being loaded; an empty one is a 409. */
export async function closePallet(
  tx: Transaction,
  { principal, meta }: Desk,
  id: number,
): Promise<WholesaleShipmentDetail> {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  checkOpen(shipment);
  const [open] = await tx.query<{ id: number; code: string; boxes: number }>(
    `SELECT p.id::int AS id, p.code,
       (SELECT count(*)::int FROM order_boxes b WHERE b.pallet_id = p.id) AS boxes
     FROM wholesale_pallets p WHERE p.shipment_id = $1 AND p.closed_at IS NULL`,
    [id],
  );
  if (!open) throw new ConflictError(`${shipment.number} has no pallet being loaded.`);
  if (open.boxes === 0) {
    throw new ConflictError(`Pallet ${open.code} is empty: scan cartons onto it first.`);
  }
  await tx.query('UPDATE wholesale_pallets SET closed_at = now(), closed_by = $2 WHERE id = $1', [
    open.id,
    principal.userId,
  ]);
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'wholesale_shipment.pallet_closed',
    entityType: 'wholesale_shipment',
    entityId: id,
    after: { pallet: open.code, cartons: open.boxes },
  });
  return shipmentDetail(tx, id);
}

/** A manager lets the shipment leave with cartons not scanned at the dock: who and why kept. */
export async function overrideShipment(
  tx: Transaction,
  { principal, meta }: Desk,
  id: number,
  reason: string,
): Promise<WholesaleShipmentDetail> {
  const shipment = await lockShipment(tx, id, 'UPDATE');
  checkOpen(shipment);
  await tx.query(
    `UPDATE wholesale_shipments SET override_by = $2, override_reason = $3, updated_at = now()
     WHERE id = $1`,
    [id, principal.userId, reason],
  );
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'wholesale_shipment.override',
    entityType: 'wholesale_shipment',
    entityId: id,
    after: { number: shipment.number, reason },
  });
  return shipmentDetail(tx, id);
}

/** At most this many missing cartons are named in a pickup's 409. */
const NAMED_CARTONS = 5;

/**
 * The carrier took the shipment: checked, with its BOL or labels, every carton scanned at the
 * dock (or a manager's override). Its cartons scan out, the shipment is in transit, and the order
 * and its devices ship as at the parcel dock (`shipOrders`).
 */
export async function confirmPickup(
  tx: Transaction,
  desk: Desk,
  id: number,
  input: PickupInput,
): Promise<WholesaleShipmentDetail> {
  const { principal, meta } = desk;
  const shipment = await lockShipment(tx, id, 'UPDATE');
  if (shipment.status !== 'open') {
    throw new ConflictError(`${shipment.number} is picked up already.`);
  }
  if (!shipment.has_tracking) {
    throw new ConflictError(
      `${shipment.number} cannot ship without its ${shipment.mode === 'freight' ? 'BOL number' : 'carton labels'}.`,
    );
  }
  if (!shipment.checked) {
    throw new ConflictError(`${shipment.number} is not checked: check its contents first.`);
  }
  const boxes = await tx.query<{ id: number; code: string; scanned: boolean }>(
    `SELECT id::int AS id, code, dock_scanned_at IS NOT NULL AS scanned FROM order_boxes
     WHERE shipment_id = $1 ORDER BY id FOR UPDATE`,
    [id],
  );
  const missing = boxes.filter((box) => !box.scanned).map((box) => box.code);
  if (missing.length > 0 && !shipment.override) {
    const more =
      missing.length > NAMED_CARTONS ? ` and ${missing.length - NAMED_CARTONS} more` : '';
    throw new ConflictError(
      `${shipment.number}: ${missing.slice(0, NAMED_CARTONS).join(', ')}${more} not scanned at the dock. Scan them, or a manager lets the shipment go without them.`,
    );
  }
  if (shipment.order_status !== 'labeled') {
    throw new ConflictError(
      `Order ${shipment.order_number} is ${orderLifecycle.stateText(shipment.order_status)}: it does not ship now.`,
    );
  }
  const units = await tx.query<{ device_id: number | null; iccid: string | null }>(
    `SELECT u.device_id::int AS device_id, u.iccid FROM order_line_units u
     JOIN order_boxes b ON b.id = u.order_box_id
     WHERE b.shipment_id = $1 AND u.status = 'packed' ORDER BY u.device_id`,
    [id],
  );
  await tx.query(
    `UPDATE order_boxes SET status = 'scanned_out', scanned_out_at = now(), updated_at = now()
     WHERE shipment_id = $1`,
    [id],
  );
  await tx.query(
    `UPDATE wholesale_shipments SET status = 'in_transit', pickup_carrier = $2, driver_name = $3,
       picked_up_at = COALESCE($4::timestamptz, now()), confirmed_by = $5, updated_at = now()
     WHERE id = $1`,
    [id, input.carrier, input.driver_name, input.picked_up_at ?? null, principal.userId],
  );
  await shipOrders(tx, desk, [shipment.order_id], units, {
    shipment: shipment.number,
    carrier: input.carrier,
    ...(shipment.bol_number ? { bol: shipment.bol_number } : {}),
    ...(missing.length > 0 ? { not_scanned: missing } : {}),
  });
  await recordAudit(tx, {
    ...auditActor(principal, meta),
    action: 'wholesale_shipment.picked_up',
    entityType: 'wholesale_shipment',
    entityId: id,
    before: { status: 'open' },
    after: {
      status: 'in_transit',
      carrier: input.carrier,
      driver: input.driver_name,
      cartons: boxes.length,
      devices: units.length,
      ...(missing.length > 0 ? { not_scanned: missing } : {}),
    },
  });
  return shipmentDetail(tx, id);
}
