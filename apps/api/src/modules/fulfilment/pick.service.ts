import {
  canAccess,
  FULFILMENT_TYPES,
  orderLifecycle,
  parseDeviceId,
  parseIccid,
  PICK_QUEUE_ACCESS,
  PICK_QUEUE_NAMES,
  pickQueueOf,
  pickQueueTypes,
  SIM_KIT_TYPES,
  type FulfilmentOrderRow,
  type FulfilmentType,
  type OrderHoldReason,
  type OrderStatus,
  type PaymentStatus,
  type PickOrder,
  type PickQueue,
  type PickScanAnswer,
  type PickScanResult,
} from '@inventory/contract';
import { beforeCommit, type Queryable, type Transaction } from '../../db/db.js';
import { ConflictError, ForbiddenError, NotFoundError } from '../../http/errors.js';
import { accessSubjectOf, type Acting, type Actor } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { deviceLifecycleStore } from '../devices/index.js';
import { putBackIntoInventoryBoxes } from '../inventory/index.js';
import { orderStore, writeOrderEvent } from '../order/index.js';
import { simStore } from '../sim/index.js';
import {
  cancelOpenUpdates,
  carrierUpdateRow,
  LATEST_UPDATE,
  openCarrierUpdate,
  writeUpdateEvents,
} from './carrier-updates.js';
import { fulfilmentOrderRow } from './fulfilment-lists.store.js';
import { SIM_ONLY_UNIT_SQL } from './sim-units.js';

/**
 * The pick station (DOMAIN.md 4.14 `/fulfill/need-to-fulfill` and the queues of their own,
 * `/fulfill/prepaid`, `/fulfill/existing-customer`, `/fulfill/ota-orders`, `/fulfill/replacement`;
 * 5.2 step 4): a worker's assigned orders of one queue, scanned unit by unit; an order of another
 * queue is refused with the queue it belongs to. An IMEI must match a unit's variant rule and
 * carry no hold (the blacklist is checked again here); the reserved device, or any other matching
 * one in stock (the reservation swaps). An ICCID pairs an in-stock SIM of the order's carrier
 * with a picked unit when the order ships a SIM kit. When every unit is picked (and paired) and
 * the accessories are confirmed the order is fulfilled, and an OTA or existing-customer order
 * opens its report to the carrier. Each scan is one transaction on the order's row lock.
 */

const SIM_KIT_TYPES_SQL = `ARRAY[${SIM_KIT_TYPES.map((type) => `'${type}'`).join(', ')}]::text[]`;

/** Whether an order over `orders o` ships a SIM: a kit, or an existing customer's SIM swap. */
const SIM_KIT_SQL = `(o.fulfilment_type = ANY (${SIM_KIT_TYPES_SQL})
  OR (o.fulfilment_type = 'existing_customer' AND o.sim_swap))`;

/** The queue of an order, over `orders o`. */
const QUEUE_SQL = `CASE o.fulfilment_type ${FULFILMENT_TYPES.map(
  (type) => `WHEN '${type}' THEN '${pickQueueOf(type)}'`,
).join(' ')} END`;

/** A variant in words, over `v` and its product `p`. */
const VARIANT_TEXT = `concat_ws(' ', p.name,
  CASE WHEN v.capacity_gb IS NOT NULL THEN v.capacity_gb || ' GB' END,
  (SELECT c.name FROM colors c WHERE c.id = v.color_id), v.grade, v.carrier_lock)`;

/** An order as the station shows it, over `orders o`. */
const PICK_ORDER_COLUMNS = `o.id::int AS id, o.number, o.status, o.fulfilment_type,
  (SELECT vc.name FROM vendors vc WHERE vc.id = o.client_carrier_id) AS client_carrier,
  COALESCE((SELECT t.city || ', ' || t.state FROM order_ship_to t WHERE t.order_id = o.id), '')
    AS place,
  ${isoTextSql('o.sla_due_at')} AS sla_due_at, o.assignee_id::int AS assignee_id,
  COALESCE((SELECT json_agg(json_build_object(
      'id', u.id, 'order_line_id', u.order_line_id, 'sku', COALESCE(v.sku, l.sku),
      'description', COALESCE(${VARIANT_TEXT}, l.description), 'status', u.status,
      'device_id', u.device_id, 'imei', d.identifier, 'box_code', ib.code,
      'location_code', loc.code, 'sim_required', ${SIM_KIT_SQL} OR p.kind = 'sim_kit',
      'sim_only', p.kind = 'sim_kit', 'iccid', u.iccid) ORDER BY loc.code NULLS LAST, ib.code, u.id)
    FROM order_lines l
    JOIN order_line_units u ON u.order_line_id = l.id
      AND u.status IN ('allocated', 'picked', 'packed', 'shipped')
    LEFT JOIN product_variants v ON v.id = u.variant_id
    LEFT JOIN products p ON p.id = v.product_id
    LEFT JOIN devices d ON d.id = u.device_id
    LEFT JOIN inventory_boxes ib ON ib.id = COALESCE(d.inventory_box_id, u.picked_from_box_id)
    LEFT JOIN locations loc ON loc.id = ib.location_id
    WHERE l.order_id = o.id), '[]') AS units,
  COALESCE((SELECT json_agg(a ORDER BY a.sku) FROM (
      SELECT v.sku, p.name AS description, l.qty AS qty
      FROM order_lines l JOIN product_variants v ON v.id = l.variant_id
      JOIN products p ON p.id = v.product_id
      WHERE l.order_id = o.id AND p.kind NOT IN ('device', 'sim_kit')
      UNION ALL
      SELECT v.sku, p.name, l.qty * c.qty
      FROM order_lines l JOIN bundle_components c ON c.bundle_id = l.bundle_id
      JOIN product_variants v ON v.id = c.variant_id JOIN products p ON p.id = v.product_id
      WHERE l.order_id = o.id AND p.kind <> 'device') a), '[]') AS accessories,
  o.accessories_confirmed_at IS NOT NULL AS accessories_confirmed,
  ${QUEUE_SQL} AS queue, o.total_cents::int AS total_cents, o.sim_swap, o.payment_status,
  o.plan_name,
  o.fulfilment_type = 'prepaid' AND COALESCE((SELECT k.pre_activation FROM client_carrier_links k
    WHERE k.client_carrier_id = o.client_carrier_id), false) AS pre_activation,
  o.mdn, (SELECT p.number FROM orders p WHERE p.id = o.parent_order_id) AS parent_number,
  CASE WHEN o.fulfilment_type = 'existing_customer' THEN (
    SELECT d.identifier FROM orders e JOIN order_lines l ON l.order_id = e.id
    JOIN order_line_units u ON u.order_line_id = l.id JOIN devices d ON d.id = u.device_id
    WHERE e.subscriber_id = o.subscriber_id AND e.id <> o.id AND u.status = 'shipped'
    ORDER BY e.id DESC, u.id LIMIT 1) END AS current_imei,
  (SELECT json_build_object('id', c.id, 'kind', c.kind, 'status', c.status,
     'message', c.message, 'attempts', c.attempts,
     'submitted_at', ${isoTextSql('c.submitted_at')},
     'answered_at', ${isoTextSql('c.answered_at')})
   FROM (${LATEST_UPDATE}) c) AS carrier_update,
  order_label_blocker(o.id) AS label_blocker`;

/** What the station reads of one order. */
export async function pickOrder(db: Queryable, id: number): Promise<PickOrder> {
  const [order] = await db.query<PickOrder>(
    `SELECT ${PICK_ORDER_COLUMNS} FROM orders o WHERE o.id = $1`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no order with id ${id}.`);
  return order;
}

/** Who works a queue: the station's right, and the OTA queue's own for OTA orders. */
function checkQueueAccess(actor: Actor, queue: PickQueue) {
  const access = PICK_QUEUE_ACCESS[queue];
  if (!canAccess(accessSubjectOf(actor), access)) {
    throw new ForbiddenError(access, `You cannot pick the orders of ${PICK_QUEUE_NAMES[queue]}.`);
  }
}

/** An order of another queue than the station's: refused, saying where it is picked. */
function checkQueue(order: { number: string; fulfilment_type: FulfilmentType }, queue: PickQueue) {
  const belongs = pickQueueOf(order.fulfilment_type);
  if (belongs !== queue) {
    throw new ConflictError(
      `${order.number} is an order of ${PICK_QUEUE_NAMES[belongs]}, not of ${PICK_QUEUE_NAMES[queue]}: pick it there.`,
    );
  }
}

/** The worker's assigned and started orders of a queue, most urgent first. */
export function myPicks(db: Queryable, actor: Actor, queue: PickQueue) {
  checkQueueAccess(actor, queue);
  return db.query<PickOrder>(
    `SELECT ${PICK_ORDER_COLUMNS} FROM orders o
     WHERE o.assignee_id = $1 AND o.status IN ('assigned', 'in_progress')
       AND o.fulfilment_type = ANY ($2::text[])
     ORDER BY COALESCE(o.sla_due_at, 'infinity'::timestamptz), o.id
     LIMIT 200`,
    [actor.userId, pickQueueTypes(queue)],
  );
}

const notYours = (what: string | number) =>
  new NotFoundError(`You have no order ${typeof what === 'number' ? `with id ${what}` : what}.`);

/** An order number as scanned: "SO-0000123", "so123", "123". */
const orderNumberOf = (scanned: string) => {
  const match = /^(SO-?)?0*([0-9]+)$/i.exec(scanned.trim());
  return match ? `SO-${match[2]!.padStart(7, '0')}` : scanned.trim();
};

/**
 * One of the worker's orders by its scanned number; another worker's is a 404, one of another
 * queue a 409 naming its queue.
 */
export async function pickLookup(
  db: Queryable,
  actor: Actor,
  number: string,
  queue: PickQueue,
): Promise<PickOrder> {
  checkQueueAccess(actor, queue);
  const [order] = await db.query<PickOrder>(
    `SELECT ${PICK_ORDER_COLUMNS} FROM orders o WHERE o.number = $1 AND o.assignee_id = $2`,
    [orderNumberOf(number), actor.userId],
  );
  if (!order) throw notYours(orderNumberOf(number));
  checkQueue(order, queue);
  return order;
}

type LockedOrder = {
  id: number;
  number: string;
  status: OrderStatus;
  fulfilment_type: FulfilmentType;
  assignee_id: number | null;
  client_carrier_id: number | null;
  sim_kit: boolean;
  /** The order has SIM kit units that ship a SIM alone (sim-units.ts). */
  sim_units: boolean;
  payment_status: PaymentStatus | null;
};

/**
 * Locks one of the worker's orders of the station's queue: scans of one order take turns. Left
 * out, the queue is the order's own (an order fulfilled by the shipping area's helper).
 */
async function lockMyOrder(tx: Transaction, actor: Actor, id: number, queue?: PickQueue) {
  const [order] = await tx.query<LockedOrder>(
    `SELECT o.id::int AS id, o.number, o.status, o.fulfilment_type,
       o.assignee_id::int AS assignee_id, o.client_carrier_id::int AS client_carrier_id,
       ${SIM_KIT_SQL} AS sim_kit, EXISTS (
         SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
         WHERE l.order_id = o.id AND u.status IN ('allocated', 'picked', 'packed')
           AND ${SIM_ONLY_UNIT_SQL}) AS sim_units,
       o.payment_status
     FROM orders o WHERE o.id = $1 FOR UPDATE`,
    [id],
  );
  if (!order || order.assignee_id !== actor.userId) throw notYours(id);
  const station = queue ?? pickQueueOf(order.fulfilment_type);
  checkQueueAccess(actor, station);
  checkQueue(order, station);
  return order;
}

/**
 * A prepaid order is picked only once its payment is captured (DOMAIN.md 4.14 /fulfill/prepaid):
 * a 409 saying where the payment stands. Read on the order's locked row, which a payment change
 * locks too, so a pick and a change take turns.
 */
function checkPaid(order: LockedOrder) {
  if (order.fulfilment_type !== 'prepaid' || order.payment_status === 'captured') return;
  throw new ConflictError(
    `${order.number}'s payment is ${order.payment_status ?? 'not reported'}, not captured: a prepaid order is picked once the carrier captures its payment.`,
  );
}

/**
 * Moves the order on after a pick: assigned → in progress at its first unit, in progress →
 * fulfilled once nothing is left to pick, pair or confirm. Answers whether it is fulfilled now.
 */
async function settlePick(tx: Transaction, acting: Acting, order: LockedOrder): Promise<boolean> {
  const { actor, meta } = acting;
  if (order.status === 'assigned') {
    await runTransition(tx, orderStore, { id: order.id, action: 'start_pick', actor, meta });
  }
  const [left] = await tx.query<{ to_pick: number; to_pair: number; to_confirm: boolean }>(
    `SELECT
       (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
        WHERE l.order_id = o.id AND u.status = 'allocated') AS to_pick,
       (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
        WHERE l.order_id = o.id AND u.status = 'picked' AND u.iccid IS NULL AND $2) AS to_pair,
       o.accessories_confirmed_at IS NULL AND EXISTS (
         SELECT 1 FROM order_lines l
         LEFT JOIN bundle_components c ON c.bundle_id = l.bundle_id
         JOIN product_variants v ON v.id = COALESCE(l.variant_id, c.variant_id)
         JOIN products p ON p.id = v.product_id
         WHERE l.order_id = o.id AND p.kind <> 'device'
           AND NOT (p.kind = 'sim_kit' AND c.variant_id IS NULL)) AS to_confirm
     FROM orders o WHERE o.id = $1`,
    [order.id, order.sim_kit],
  );
  if (!left || left.to_pick > 0 || left.to_pair > 0 || left.to_confirm) return false;
  await runTransition(tx, orderStore, { id: order.id, action: 'fulfil', actor, meta });
  // The last unit picked: the carrier's pairing or device change is opened with it.
  await openCarrierUpdate(tx, acting, order.id);
  return true;
}

type ScannedDevice = {
  id: number;
  identifier: string;
  status: string;
  hold_reason: string | null;
  box_id: number | null;
  box_status: string | null;
  blacklisted: boolean;
  /** The open unit holding the device, on any order. */
  unit_id: number | null;
  unit_status: string | null;
  unit_order: string | null;
  unit_order_id: number | null;
  /** The unit of this order the device fills: its own, a device-less one, or one to swap. */
  match_unit_id: number | null;
  match_device_id: number | null;
  to_pick: number;
};

const SCANNED_DEVICE_SQL = `
  SELECT d.id::int AS id, d.identifier, d.status, d.hold_reason,
    d.inventory_box_id::int AS box_id,
    (SELECT b.status FROM inventory_boxes b WHERE b.id = d.inventory_box_id) AS box_status,
    EXISTS (SELECT 1 FROM blacklist_entries be WHERE be.cleared_at IS NULL
            AND be.imei IN (d.imei, d.imei2)) AS blacklisted,
    ou.id::int AS unit_id, ou.status AS unit_status, ou.number AS unit_order,
    ou.order_id::int AS unit_order_id,
    mu.id::int AS match_unit_id, mu.device_id::int AS match_device_id,
    (SELECT count(*)::int FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
     WHERE l.order_id = $2 AND u.status = 'allocated') AS to_pick
  FROM devices d
  LEFT JOIN LATERAL (
    SELECT u.id, u.status, l.order_id, o.number FROM order_line_units u
    JOIN order_lines l ON l.id = u.order_line_id JOIN orders o ON o.id = l.order_id
    WHERE u.device_id = d.id AND u.status IN ('allocated', 'picked', 'packed')
  ) ou ON true
  LEFT JOIN LATERAL (
    SELECT u.id, u.device_id FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
    WHERE l.order_id = $2 AND u.status = 'allocated'
      AND device_matches_variant(d.model_id, d.grade, d.color_id, d.capacity_gb, d.carrier_lock,
                                 u.variant_id)
    -- A swap takes a unit whose reserved device its line did not name (decision 0056) first.
    ORDER BY (u.device_id = d.id) IS TRUE DESC, u.device_id IS NULL DESC,
      u.device_id IS NOT DISTINCT FROM l.requested_device_id, u.id
    LIMIT 1
  ) mu ON true
  WHERE d.identifier = $1 OR d.imei2 = $1
  LIMIT 1`;

type ScanOutcome = { result: PickScanResult; message: string };

/** A device picked for an order's unit: which device, into which unit, and whether it swapped. */
export type DevicePick = ScanOutcome & {
  readonly picked?: {
    readonly deviceId: number;
    readonly identifier: string;
    readonly unitId: number;
    readonly swapped: boolean;
  };
};

/** An IMEI (or MEID) scanned for the order: picked at the pick station, settled there. */
async function scanDevice(
  tx: Transaction,
  acting: Acting,
  order: LockedOrder,
  code: string,
  station: string | null,
): Promise<ScanOutcome> {
  const pick = await pickDevice(tx, acting, order, code, station ? { station } : {});
  if (!pick.picked) return pick;
  const fulfilled = await settlePick(tx, acting, order);
  const pair = order.sim_kit ? ' Scan its ICCID.' : '';
  return {
    result: pick.result,
    message: fulfilled
      ? `${pick.picked.identifier} picked: ${order.number} is fulfilled.`
      : `${pick.message}${pair}`,
  };
}

/**
 * Picks the device of an IMEI (or MEID) for one of the order's units waiting for a device (the
 * order locked by the caller): the unit reserved for it, or another matching one whose reserved
 * device goes back to stock; a held, blacklisted (held now), reserved-elsewhere or unavailable
 * device is refused with its reason. The pick station and the order box station (wholesale
 * cartons) both pick through it; each settles the order its own way. `data` goes on the device's
 * timeline with the order.
 */
export async function pickDevice(
  tx: Transaction,
  acting: Acting,
  order: { readonly id: number; readonly number: string },
  code: string,
  data: Record<string, unknown>,
): Promise<DevicePick> {
  const [device] = await tx.query<ScannedDevice>(SCANNED_DEVICE_SQL, [code, order.id]);
  if (!device) return { result: 'unknown', message: `No device has the IMEI ${code}.` };
  const { actor, meta } = acting;
  if (device.unit_order_id === order.id && device.unit_status !== 'allocated') {
    return { result: 'already_done', message: `${device.identifier} is picked for this order.` };
  }
  if (device.hold_reason !== null) {
    return {
      result: 'held',
      message: `${device.identifier} is on hold (${device.hold_reason.replace(/_/g, ' ')}): it cannot ship. Put it aside and scan another.`,
    };
  }
  if (device.blacklisted) {
    // Listed since it was graded: held now, and whatever unit it was reserved for waits for another.
    await tx.query(
      `UPDATE order_line_units SET device_id = NULL, updated_at = now()
       WHERE device_id = $1 AND status = 'allocated'`,
      [device.id],
    );
    await runTransitions(tx, deviceLifecycleStore, {
      ids: [device.id],
      action: 'hold',
      actor,
      meta,
      reason: 'blacklist',
      skipRefused: true,
      data: { by: 'pick', order: order.number },
    });
    await tx.query(
      `UPDATE devices SET status_before_hold = 'in_stock'
       WHERE id = $1 AND status_before_hold = 'reserved'`,
      [device.id],
    );
    return {
      result: 'blacklisted',
      message: `${device.identifier} is blacklisted: it is on hold now. Put it aside and scan another.`,
    };
  }
  if (device.to_pick === 0) {
    return { result: 'already_done', message: `Every unit of ${order.number} is picked.` };
  }
  if (device.unit_order_id !== null && device.unit_order_id !== order.id) {
    return {
      result: 'not_available',
      message: `${device.identifier} is reserved for ${device.unit_order}: scan the unit reserved for this order or another in stock.`,
    };
  }
  if (device.match_unit_id === null) {
    return {
      result: 'wrong_variant',
      message: `${device.identifier} matches none of the units ${order.number} still needs.`,
    };
  }
  const ownReservation = device.match_device_id === device.id;
  if (!ownReservation && device.status !== 'in_stock') {
    return {
      result: 'not_available',
      message: `${device.identifier} is ${device.status.replace(/_/g, ' ')}, not in stock.`,
    };
  }
  if (device.box_status === 'locked') {
    return {
      result: 'not_available',
      message: `${device.identifier}'s box is being counted: pick it once the count is finished.`,
    };
  }
  const swapped = !ownReservation && device.match_device_id !== null;
  if (swapped) {
    await tx.query(
      `UPDATE order_line_units SET device_id = NULL, updated_at = now() WHERE id = $1`,
      [device.match_unit_id],
    );
    await runTransitions(tx, deviceLifecycleStore, {
      ids: [device.match_device_id!],
      action: 'release_reservation',
      actor,
      meta,
      skipRefused: true,
      data: { by: 'swap', order: order.number, for: device.identifier },
    });
  }
  await runTransitions(tx, deviceLifecycleStore, {
    ids: [device.id],
    action: 'pick',
    actor,
    meta,
    ref: { type: 'order', id: order.id },
    data: { order: order.number, ...data },
  });
  await tx.query(
    `UPDATE order_line_units SET device_id = $2, status = 'picked', picked_from_box_id = $3,
       picked_at = now(), picked_by = $4, updated_at = now()
     WHERE id = $1`,
    [device.match_unit_id, device.id, device.box_id, actor.userId],
  );
  if (device.box_id !== null) {
    // With the box's count, at the end (takeOutOfInventoryBoxes): a box row locked now and again
    // there by pickers of one batch locks their transactions in a circle.
    const boxId = device.box_id;
    beforeCommit(tx, `box ${boxId} picked from`, () => ({
      state: null,
      run: () =>
        tx.query(
          `UPDATE inventory_boxes SET status = 'partially_picked', updated_at = now()
           WHERE id = $1 AND status = 'located'`,
          [boxId],
        ),
    }));
  }
  return {
    result: swapped ? 'swapped' : 'picked',
    message: `${device.identifier} picked${swapped ? ' in place of the reserved unit, which is back in stock' : ''}.`,
    picked: {
      deviceId: device.id,
      identifier: device.identifier,
      unitId: device.match_unit_id!,
      swapped,
    },
  };
}

type ScannedSim = {
  id: number;
  iccid: string;
  status: string;
  client_carrier_id: number;
  carrier: string | null;
  on_this_order: boolean;
  /** The unit the SIM goes to: a SIM-only one waiting, or a picked device without its SIM. */
  pair_unit_id: number | null;
  pair_unit_status: string | null;
  pair_device_id: number | null;
  /** Device units still to pick, whose SIMs wait for them. */
  waiting_units: number;
};

/**
 * An ICCID scanned for the order: picked as a SIM-only unit of a SIM kit line, or paired with a
 * picked unit when the order ships a SIM kit with each device.
 */
async function scanSim(
  tx: Transaction,
  acting: Acting,
  order: LockedOrder,
  iccid: string,
  station: string | null,
): Promise<ScanOutcome> {
  if (!order.sim_kit && !order.sim_units) {
    return { result: 'sim_not_needed', message: `${order.number} ships no SIM.` };
  }
  const [sim] = await tx.query<ScannedSim>(
    `SELECT s.id::int AS id, s.iccid, s.status, s.client_carrier_id::int AS client_carrier_id,
       (SELECT v.name FROM vendors v WHERE v.id = s.client_carrier_id) AS carrier,
       EXISTS (SELECT 1 FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
               WHERE l.order_id = $2 AND u.iccid = s.iccid
                 AND u.status IN ('allocated', 'picked', 'packed')) AS on_this_order,
       pu.id::int AS pair_unit_id, pu.status AS pair_unit_status,
       pu.device_id::int AS pair_device_id,
       (SELECT count(*)::int FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
        WHERE l.order_id = $2 AND u.status = 'allocated' AND NOT ${SIM_ONLY_UNIT_SQL})
         AS waiting_units
     FROM sim_cards s
     LEFT JOIN LATERAL (
       SELECT u.id, u.device_id, u.status
       FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
       WHERE l.order_id = $2 AND u.iccid IS NULL
         AND ((u.status = 'allocated' AND ${SIM_ONLY_UNIT_SQL}) OR (u.status = 'picked' AND $3))
       ORDER BY u.id LIMIT 1
     ) pu ON true
     WHERE s.iccid = $1`,
    [iccid, order.id, order.sim_kit],
  );
  if (!sim) return { result: 'unknown', message: `No SIM has the ICCID ${iccid}.` };
  if (sim.on_this_order) {
    return { result: 'already_done', message: `${iccid} is paired with this order already.` };
  }
  if (sim.status !== 'in_stock') {
    return {
      result: 'sim_not_in_stock',
      message: `${iccid} is ${sim.status.replace(/_/g, ' ')}, not in stock.`,
    };
  }
  if (sim.client_carrier_id !== order.client_carrier_id) {
    return {
      result: 'sim_wrong_carrier',
      message: `${iccid} is a SIM of ${sim.carrier ?? 'another carrier'}, not of this order's carrier.`,
    };
  }
  if (sim.pair_unit_id === null) {
    return sim.waiting_units > 0
      ? { result: 'device_first', message: 'Scan the device first, then its SIM.' }
      : { result: 'already_done', message: `Every unit of ${order.number} has its SIM.` };
  }
  const { actor, meta } = acting;
  await runTransitions(tx, simStore, {
    ids: [sim.id],
    action: 'allocate_to_order',
    actor,
    meta,
    ref: { type: 'order', id: order.id },
    data: { order: order.number, ...(station && { station }) },
    columns: { order_id: order.id, device_id: sim.pair_device_id },
  });
  // A SIM-only unit is picked with its SIM; a device's unit, picked already, takes its SIM.
  const alone = sim.pair_unit_status === 'allocated';
  await tx.query(
    `UPDATE order_line_units SET iccid = $2, updated_at = now(),
       status = CASE WHEN $3 THEN 'picked' ELSE status END,
       picked_at = CASE WHEN $3 THEN now() ELSE picked_at END,
       picked_by = CASE WHEN $3 THEN $4::bigint ELSE picked_by END
     WHERE id = $1`,
    [sim.pair_unit_id, sim.iccid, alone, actor.userId],
  );
  const fulfilled = await settlePick(tx, acting, order);
  return {
    result: alone ? 'picked' : 'sim_paired',
    message: fulfilled
      ? `${iccid} ${alone ? 'picked' : 'paired'}: ${order.number} is fulfilled.`
      : alone
        ? `${iccid} picked: the SIM ships alone.`
        : `${iccid} paired with the picked unit.`,
  };
}

/**
 * One scan at the station for one of the worker's orders: an ICCID (19-20 digits from 89) or a
 * device's IMEI or MEID. Answers the result and the order as it is after the scan.
 */
export async function pickScan(
  tx: Transaction,
  acting: Acting,
  id: number,
  code: string,
  station: string | null,
  queue?: PickQueue,
): Promise<PickScanAnswer> {
  const order = await lockMyOrder(tx, acting.actor, id, queue);
  if (order.status === 'assigned' || order.status === 'in_progress') checkPaid(order);
  const outcome = await scanOrder(tx, acting, order, code, station);
  return { code, ...outcome, order: await pickOrder(tx, id) };
}

async function scanOrder(
  tx: Transaction,
  acting: Acting,
  order: LockedOrder,
  code: string,
  station: string | null,
): Promise<ScanOutcome> {
  if (order.status === 'fulfilled') {
    return { result: 'order_fulfilled', message: `${order.number} is fulfilled already.` };
  }
  if (order.status !== 'assigned' && order.status !== 'in_progress') {
    return {
      result: 'not_pickable',
      message: `${order.number} is ${orderLifecycle.stateText(order.status)}: it is not picked now.`,
    };
  }
  const scanned = code.replace(/\s/g, '');
  if (/^89\d{17,18}$/.test(scanned)) {
    const parsed = parseIccid(scanned);
    if (!parsed.ok) return { result: 'invalid', message: parsed.message };
    return scanSim(tx, acting, order, parsed.value.iccid, station);
  }
  const parsed = parseDeviceId(scanned);
  if (!parsed.ok) return { result: 'invalid', message: parsed.message };
  return scanDevice(tx, acting, order, parsed.value.value, station);
}

/** The worker confirms the accessories are packed: the order is fulfilled when all is picked. */
export async function confirmAccessories(
  tx: Transaction,
  acting: Acting,
  id: number,
): Promise<PickOrder> {
  const order = await lockMyOrder(tx, acting.actor, id);
  if (order.status !== 'assigned' && order.status !== 'in_progress') {
    throw new ConflictError(
      `${order.number} is ${orderLifecycle.stateText(order.status)}: its accessories are not picked now.`,
    );
  }
  checkPaid(order);
  await tx.query(
    `UPDATE orders SET accessories_confirmed_at = COALESCE(accessories_confirmed_at, now()),
       updated_at = now() WHERE id = $1`,
    [id],
  );
  await settlePick(tx, acting, order);
  return pickOrder(tx, id);
}

/**
 * Puts an order's picked units back: each device into the box it was picked from (or in stock in
 * no box when that box takes no more), its SIM back to stock, the unit waiting for a device again.
 */
export async function unpickUnits(
  tx: Transaction,
  acting: Acting,
  orderId: number,
  number: string,
) {
  const units = await tx.query<{
    id: number;
    device_id: number | null;
    box_id: number | null;
    sim_id: number | null;
  }>(
    `SELECT u.id::int AS id, u.device_id::int AS device_id,
       u.picked_from_box_id::int AS box_id,
       (SELECT s.id::int FROM sim_cards s WHERE s.iccid = u.iccid) AS sim_id
     FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
     WHERE l.order_id = $1 AND u.status = 'picked' ORDER BY u.id`,
    [orderId],
  );
  const { actor, meta } = acting;
  const data = { order: number };
  const placed = await putBackIntoInventoryBoxes(
    tx,
    units.flatMap((unit) =>
      unit.device_id === null ? [] : [{ deviceId: unit.device_id, boxId: unit.box_id }],
    ),
  );
  for (const [boxId, deviceIds] of placed.byBox) {
    await runTransitions(tx, deviceLifecycleStore, {
      ids: deviceIds,
      action: 'unpick',
      actor,
      meta,
      data,
      columns: { inventory_box_id: boxId },
    });
  }
  await runTransitions(tx, deviceLifecycleStore, {
    ids: placed.boxless,
    action: 'unpick',
    actor,
    meta,
    data,
  });
  await placed.recount();
  await runTransitions(tx, simStore, {
    ids: units.flatMap((unit) => (unit.sim_id === null ? [] : [unit.sim_id])),
    action: 'release_from_order',
    actor,
    meta,
    skipRefused: true,
    data,
  });
  await tx.query(
    `UPDATE order_line_units SET status = 'allocated', device_id = NULL, iccid = NULL,
       picked_from_box_id = NULL, picked_at = NULL, picked_by = NULL, updated_at = now()
     WHERE id = ANY ($1::bigint[])`,
    [units.map((unit) => unit.id)],
  );
  await tx.query(`UPDATE orders SET accessories_confirmed_at = NULL WHERE id = $1`, [orderId]);
  await cancelOpenUpdates(tx, orderId);
}

/** Locks an order of the pipeline: a labeled one is refused (its label is voided first). */
async function lockPipelineOrder(tx: Transaction, id: number) {
  const [order] = await tx.query<{ number: string; status: OrderStatus }>(
    `SELECT number, status FROM orders WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no order with id ${id}.`);
  if (order.status === 'labeled') {
    throw new ConflictError(`${order.number} is labeled: void the label first.`);
  }
  return order;
}

/** Unpicks a started or fulfilled order (`/fulfill/order`): it is assigned again, to be picked. */
export async function unpickOrder(
  tx: Transaction,
  acting: Acting,
  id: number,
): Promise<FulfilmentOrderRow> {
  const order = await lockPipelineOrder(tx, id);
  await runTransition(tx, orderStore, {
    id,
    action: 'unpick',
    actor: acting.actor,
    meta: acting.meta,
  });
  await unpickUnits(tx, acting, id, order.number);
  return fulfilmentOrderRow(tx, id);
}

/**
 * Pushes an order in fulfilment to the backlog with the problem found (a damaged unit, the wrong
 * colour): what was picked goes back, the reservations are released, and the order waits on
 * hold; released, it goes back to the assignment queue.
 */
export async function pushToBacklog(
  tx: Transaction,
  acting: Acting,
  id: number,
  reason: OrderHoldReason,
  note: string | null | undefined,
): Promise<FulfilmentOrderRow> {
  const order = await lockPipelineOrder(tx, id);
  const { actor, meta } = acting;
  if (order.status === 'in_progress' || order.status === 'fulfilled') {
    await runTransition(tx, orderStore, { id, action: 'unpick', actor, meta });
    await unpickUnits(tx, acting, id, order.number);
  }
  await runTransition(tx, orderStore, {
    id,
    action: 'hold',
    actor,
    meta,
    reason,
    data: { by: 'fulfilment', ...(note && { note }) },
    columns: { hold_note: note ?? null },
  });
  return fulfilmentOrderRow(tx, id);
}

/**
 * Records the MDN of a prepaid line we pre-activated (DOMAIN.md 4.14 /fulfill/prepaid): the label
 * waits for it. The worker's own order, picked or still being picked.
 */
export async function recordMdn(
  tx: Transaction,
  acting: Acting,
  id: number,
  mdn: string,
): Promise<PickOrder> {
  const order = await lockMyOrder(tx, acting.actor, id, 'prepaid');
  const before = await pickOrder(tx, id);
  if (!before.pre_activation) {
    throw new ConflictError(
      `${order.number}'s line is activated by the customer: it takes no MDN at the station.`,
    );
  }
  if (!['assigned', 'in_progress', 'fulfilled'].includes(order.status)) {
    throw new ConflictError(
      `${order.number} is ${orderLifecycle.stateText(order.status)}: its MDN is recorded before the label.`,
    );
  }
  await tx.query(
    `UPDATE orders SET mdn = $2, mdn_recorded_at = now(), mdn_recorded_by = $3, updated_at = now()
     WHERE id = $1`,
    [id, mdn, acting.actor.userId],
  );
  await writeOrderEvent(tx, id, acting.actor, 'mdn_recorded', { mdn, was: before.mdn });
  return pickOrder(tx, id);
}

/**
 * Re-pairs an OTA order whose pairing failed with another SIM (DOMAIN.md 4.14 /fulfill/ota-orders):
 * its SIMs go back to stock and its units wait for an ICCID, the devices stay picked; the order is
 * started again for its worker, whose next ICCID scans fulfil it and open a new pairing.
 */
export async function rePairOrder(
  tx: Transaction,
  acting: Acting,
  updateId: number,
): Promise<FulfilmentOrderRow> {
  const { actor, meta } = acting;
  const update = await carrierUpdateRow(tx, updateId);
  const order = await lockPipelineOrder(tx, update.order_id);
  const [latest] = await tx.query<{ id: number }>(
    `SELECT max(id)::int AS id FROM carrier_updates WHERE order_id = $1 AND status <> 'cancelled'`,
    [update.order_id],
  );
  if (update.kind !== 'pairing') {
    throw new ConflictError(`${order.number} reports a device change: it has no SIM to re-pair.`);
  }
  if (update.status !== 'failed' || latest?.id !== update.id || order.status !== 'fulfilled') {
    throw new ConflictError(
      `Only the failed pairing of a fulfilled order is re-paired: ${order.number} is ${orderLifecycle.stateText(order.status)}, this pairing ${update.status}.`,
    );
  }
  const data = { sim_only: true, carrier_update_id: update.id };
  await runTransition(tx, orderStore, { id: update.order_id, action: 'unpick', actor, meta, data });
  await runTransition(tx, orderStore, { id: update.order_id, action: 'start_pick', actor, meta });
  const units = await tx.query<{ id: number; sim_id: number | null }>(
    `SELECT u.id::int AS id, (SELECT s.id::int FROM sim_cards s WHERE s.iccid = u.iccid) AS sim_id
     FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
     WHERE l.order_id = $1 AND u.status = 'picked' AND u.iccid IS NOT NULL`,
    [update.order_id],
  );
  await runTransitions(tx, simStore, {
    ids: units.flatMap((unit) => (unit.sim_id === null ? [] : [unit.sim_id])),
    action: 'release_from_order',
    actor,
    meta,
    skipRefused: true,
    data: { order: order.number, re_pair: true },
  });
  await tx.query(
    `UPDATE order_line_units SET iccid = NULL, updated_at = now() WHERE id = ANY ($1::bigint[])`,
    [units.map((unit) => unit.id)],
  );
  await writeUpdateEvents(tx, actor, [update], 're_paired');
  return fulfilmentOrderRow(tx, update.order_id);
}
