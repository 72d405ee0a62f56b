import {
  CANCEL_REQUEST_PAGE_MAX,
  cancelRequestLifecycle,
  OPEN_CANCEL_REQUEST_STATUSES,
  orderLifecycle,
  type CancelRequest,
  type CancelRequestAction,
  type CancelRequestStatus,
  type CancelStage,
  type CANCEL_REQUEST_VIEWS,
  type createCancelRequestSchema,
  type OrderStatus,
  type PackageStatus,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  uniqueViolationAs,
  ValidationError,
} from '../../http/errors.js';
import type { Acting, Actor } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import {
  runTransition,
  timelineWriter,
  TRANSACTION_TIME,
  type LifecycleStore,
} from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { unpickUnits } from '../fulfilment/index.js';
import { cancelOrder, orderStore, releaseReservedUnits } from '../order/index.js';
import { openRma } from '../rma/index.js';
import {
  carrierAdapter,
  carrierRefOf,
  shippingSettings,
  voidLabel,
  type LabelDesk,
} from '../shipment/index.js';

/**
 * Cancellation requests (DOMAIN.md 3.7 CancelRequest, 4.16): asked for by anyone who may cancel,
 * decided by a manager (a client carrier's before the label decides itself), carried out by the
 * stage the order is in at the decision, in the decision's transaction:
 * - before the label: the order module's own cancellation (`cancelOrder`); an order in fulfilment
 *   then has its picked units put back and its reservations released, and is cancelled;
 * - labelled: the label desk's void (`voidLabel`: once, the package row locked), then as above;
 * - shipped: the carrier is asked to intercept the parcel; one that offers no intercept leaves a
 *   return to be made (an RMA), and the request says so.
 * Locks are taken request, package, order, in that order, as the label desk takes package, order.
 */

export const cancelRequestStore: LifecycleStore<CancelRequestStatus, CancelRequestAction, never> = {
  lifecycle: cancelRequestLifecycle,
  table: 'cancel_requests',
  label: `'cancellation ' || id`,
  columns: [
    'stage',
    'package_id',
    'carrier_answer',
    'rma_id',
    'deny_reason',
    'decided_by',
    'decided_at',
  ],
  effects: {},
  writeEvents: timelineWriter('cancel_request_events', 'cancel_request_id'),
};

/** The states of an order before its label: cancelled by the order module's own cancellation. */
const PRE_LABEL: readonly OrderStatus[] = [
  'pending',
  'ready',
  'on_hold',
  'substitution_pending',
  'assigned',
  'in_progress',
  'fulfilled',
];

/** A parcel on its way: a cancellation asks the carrier to intercept it. */
const ON_ITS_WAY: readonly PackageStatus[] = [
  'scanned_out',
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'available_for_pickup',
  'exception',
];

type OrderState = {
  id: number;
  number: string;
  status: OrderStatus;
  package_id: number | null;
  package_status: PackageStatus | null;
  carrier: 'usps' | 'ups' | null;
  tracking_number: string | null;
};

/**
 * The order's stage, or null when nothing is left to cancel. An order whose cancellation was asked
 * for on the order page is labelled while its label stands, else before the label.
 */
function stageOf(order: OrderState): CancelStage | null {
  if (order.package_status && ON_ITS_WAY.includes(order.package_status)) return 'shipped';
  if (order.status === 'labeled') return 'labeled';
  if (order.status === 'cancel_requested') return order.package_id ? 'labeled' : 'pre_label';
  return PRE_LABEL.includes(order.status) ? 'pre_label' : null;
}

/** The order with its live package, the package locked first when `lock`, then the order. */
async function orderState(tx: Transaction, where: 'o.id = $1' | 'o.number = $1', key: unknown) {
  await tx.query(
    `SELECT p.id FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE ${where} AND p.status <> 'voided' FOR UPDATE OF p`,
    [key],
  );
  const [order] = await tx.query<OrderState>(
    `SELECT o.id::int AS id, o.number, o.status, p.id::int AS package_id,
       p.status AS package_status, p.carrier, p.tracking_number
     FROM orders o
     LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
     WHERE ${where} FOR UPDATE OF o`,
    [key],
  );
  return order ?? null;
}

const CANCEL_REQUEST_SQL = `
  SELECT c.id::int AS id, c.status, c.order_id::int AS order_id, o.number AS order_number,
    o.status AS order_status, c.stage, c.requester, c.reason,
    (SELECT p.tracking_number FROM packages p WHERE p.id = c.package_id) AS tracking_number,
    c.carrier_answer, (SELECT r.number FROM rmas r WHERE r.id = c.rma_id) AS rma_number,
    c.rma_id::int AS rma_id, c.deny_reason, c.requested_by_name AS requested_by,
    (SELECT u.name FROM users u WHERE u.id = c.decided_by) AS decided_by,
    ${isoTextSql('c.created_at')} AS created_at, ${isoTextSql('c.updated_at')} AS updated_at,
    COALESCE((SELECT json_agg(json_build_object('id', e.id, 'at', ${isoTextSql('e.at')},
        'actor_name', e.actor_name, 'type', e.type, 'from_status', e.from_status,
        'to_status', e.to_status, 'data', e.data) ORDER BY e.id)
      FROM cancel_request_events e WHERE e.cancel_request_id = c.id), '[]') AS events
  FROM cancel_requests c JOIN orders o ON o.id = c.order_id`;

export async function cancelRequest(db: Queryable, id: number): Promise<CancelRequest> {
  const [row] = await db.query<CancelRequest>(`${CANCEL_REQUEST_SQL} WHERE c.id = $1`, [id]);
  if (!row) throw new NotFoundError(`There is no cancellation request with id ${id}.`);
  return row;
}

/** Open or closed requests, newest first. */
export async function listCancelRequests(
  db: Queryable,
  view: (typeof CANCEL_REQUEST_VIEWS)[number] = 'open',
) {
  const open = view === 'open';
  const statuses = [...OPEN_CANCEL_REQUEST_STATUSES];
  const [requests, [count]] = await Promise.all([
    db.query<CancelRequest>(
      `${CANCEL_REQUEST_SQL}
       WHERE (c.status = ANY ($1::text[])) = $2
       ORDER BY c.created_at DESC, c.id DESC LIMIT ${CANCEL_REQUEST_PAGE_MAX}`,
      [statuses, open],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM cancel_requests WHERE (status = ANY ($1::text[])) = $2`,
      [statuses, open],
    ),
  ]);
  return { requests, total: count?.total ?? 0 };
}

const duplicateRequest = uniqueViolationAs({
  cancel_requests_one_open: ['order_number', 'This order has a cancellation request open already.'],
});

/**
 * Records a request with the order's stage. A client carrier's request before the label is
 * carried out at once, by whoever entered it.
 */
export async function createCancelRequest(
  tx: Transaction,
  desk: LabelDesk,
  input: z.output<typeof createCancelRequestSchema>,
): Promise<CancelRequest> {
  const { principal: actor, meta } = desk;
  const order = await orderState(tx, 'o.number = $1', input.order_number.toUpperCase());
  if (!order) throw new NotFoundError(`There is no order ${input.order_number}.`);
  const stage = stageOf(order);
  if (!stage) {
    throw new ConflictError(
      `Order ${order.number} is ${orderLifecycle.stateText(order.status)}: there is nothing to cancel.`,
    );
  }
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO cancel_requests (order_id, stage, requester, reason, requested_by,
         requested_by_name)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::int AS id`,
      [order.id, stage, input.requester, input.reason, actor.userId, actor.userName],
    )
    .catch(duplicateRequest);
  const id = created!.id;
  await tx.query(
    `INSERT INTO cancel_request_events (cancel_request_id, actor_id, actor_name, type, to_status,
       data)
     VALUES ($1, $2, $3, 'requested', 'requested', $4::jsonb)`,
    [id, actor.userId, actor.userName, JSON.stringify({ order: order.number, stage })],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'cancel_request.requested',
    entityType: 'cancel_request',
    entityId: id,
    after: { order: order.number, stage, requester: input.requester },
  });
  if (input.requester === 'carrier' && stage === 'pre_label') {
    await runTransition(tx, cancelRequestStore, {
      id,
      action: 'approve_automatically',
      actor,
      meta,
      columns: { decided_at: TRANSACTION_TIME },
    });
    await carryOut(tx, desk, id, { order_id: order.id, reason: input.reason });
  }
  return cancelRequest(tx, id);
}

/** Locks a request: 404 when there is none. */
async function lockRequest(tx: Transaction, id: number) {
  const [request] = await tx.query<{ order_id: number; reason: string }>(
    `SELECT order_id::int AS order_id, reason FROM cancel_requests WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!request) throw new NotFoundError(`There is no cancellation request with id ${id}.`);
  return request;
}

/**
 * Approves a request and carries it out. The request's row is locked first, so of two approvals
 * at the same moment the second finds it approved already (409) and voids nothing.
 */
export async function approveCancelRequest(
  tx: Transaction,
  desk: LabelDesk,
  id: number,
): Promise<CancelRequest> {
  const request = await lockRequest(tx, id);
  await runTransition(tx, cancelRequestStore, {
    id,
    action: 'approve',
    actor: desk.principal,
    meta: desk.meta,
    columns: { decided_by: desk.principal.userId, decided_at: TRANSACTION_TIME },
  });
  await carryOut(tx, desk, id, request);
  return cancelRequest(tx, id);
}

export async function denyCancelRequest(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
  reason: string,
): Promise<CancelRequest> {
  await lockRequest(tx, id);
  await runTransition(tx, cancelRequestStore, {
    id,
    action: 'deny',
    actor,
    meta,
    reason,
    columns: { deny_reason: reason, decided_by: actor.userId, decided_at: TRANSACTION_TIME },
  });
  return cancelRequest(tx, id);
}

/** An order in fulfilment cancelled: its picked units back in their boxes, reservations freed. */
async function finishCancellation(tx: Transaction, acting: Acting, order: OrderState) {
  await unpickUnits(tx, acting, order.id, order.number);
  await releaseReservedUnits(tx, acting, [order.id]);
  await runTransition(tx, orderStore, {
    id: order.id,
    action: 'confirm_cancel',
    actor: acting.actor,
    meta: acting.meta,
  });
}

/** Carries an approved request out by the stage its order is in now. */
async function carryOut(
  tx: Transaction,
  desk: LabelDesk,
  id: number,
  { order_id: orderId, reason }: { order_id: number; reason: string },
) {
  const acting: Acting = { actor: desk.principal, meta: desk.meta };
  const order = (await orderState(tx, 'o.id = $1', orderId))!;
  const stage = stageOf(order);
  if (!stage) {
    throw new ConflictError(
      `Order ${order.number} is ${orderLifecycle.stateText(order.status)} now: there is nothing to cancel.`,
    );
  }
  const step = (action: CancelRequestAction, columns: Record<string, unknown> = {}) =>
    runTransition(tx, cancelRequestStore, {
      id,
      action,
      actor: desk.principal,
      meta: desk.meta,
      data: { order: order.number },
      columns: { stage, ...columns },
    });
  if (stage === 'shipped') {
    const carrier = carrierAdapter(await shippingSettings(tx), desk.carrier);
    const carrierRef = await carrierRefOf(tx, order.package_id!);
    const answer = await carrier.intercept({
      carrier: order.carrier!,
      trackingNumber: order.tracking_number!,
      ...(carrierRef && { carrierRef }),
    });
    if (answer.accepted) {
      await step('request_intercept', {
        package_id: order.package_id,
        carrier_answer: answer.message,
      });
      return;
    }
    await step('require_return', {
      package_id: order.package_id,
      carrier_answer: answer.message,
      rma_id: await rmaForTheReturn(tx, desk.principal, order, reason),
    });
    return;
  }
  if (order.status !== 'cancel_requested') await cancelOrder(tx, acting, orderId, reason);
  const [after] = await tx.query<{ status: OrderStatus }>(
    `SELECT status FROM orders WHERE id = $1`,
    [orderId],
  );
  if (after!.status === 'cancel_requested') {
    if (stage === 'labeled') {
      await voidLabel(tx, desk, order.package_id!, `Cancelled: ${reason}`);
      await step('void_label', { package_id: order.package_id });
    }
    await finishCancellation(tx, acting, order);
  }
  await step('complete');
}

/**
 * The RMA that expects back the devices of a shipped order the carrier could not intercept, so
 * the returns desk receives them against it. None when the order shipped no device (SIMs and
 * accessories come back through unpack) or when its devices are on an open RMA already, which
 * expects them: both refusals of `openRma` are read before it writes anything.
 */
async function rmaForTheReturn(
  tx: Transaction,
  actor: Actor,
  order: OrderState,
  reason: string,
): Promise<number | null> {
  try {
    const rma = await openRma(tx, actor, {
      orderId: order.id,
      deviceId: null,
      reason: 'cancelled_after_shipping',
      note: `Cancelled after shipping: ${reason}`,
    });
    return rma.id;
  } catch (error) {
    if (error instanceof ValidationError || error instanceof ConflictError) return null;
    throw error;
  }
}

/** Cancels an intercepted order once its parcel is back with us. */
export async function completeCancelRequest(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
): Promise<CancelRequest> {
  const request = await lockRequest(tx, id);
  const current = await cancelRequest(tx, id);
  if (current.status !== 'intercept_requested') {
    throw new ConflictError(
      `Cancellation ${id} is ${cancelRequestLifecycle.stateText(current.status)}: only an intercepted order is cancelled on its return.`,
    );
  }
  await runTransition(tx, orderStore, {
    id: request.order_id,
    action: 'cancel_return',
    actor,
    meta,
    data: { cancel_request: id },
  });
  await runTransition(tx, cancelRequestStore, { id, action: 'complete', actor, meta });
  return cancelRequest(tx, id);
}
