import {
  OPEN_RESHIP_STATUSES,
  orderLifecycle,
  RESHIP_PAGE_MAX,
  reshipLifecycle,
  type createReshipSchema,
  type OrderStatus,
  type Reship,
  type ReshipAction,
  type ReshipCandidate,
  type ReshipStatus,
  type RESHIP_VIEWS,
  type ShipTo,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  fieldError,
  ForbiddenError,
  NotFoundError,
  uniqueViolationAs,
  ValidationError,
} from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import {
  runTransition,
  timelineWriter,
  TRANSACTION_TIME,
  type LifecycleStore,
} from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { createOrder, orderStore, zipProblems, type IntakeLine } from '../order/index.js';

/**
 * Reship requests (DOMAIN.md 3.7 Reship, 4.16): asked for on a returned, lost or damaged order,
 * with the reason and who bears the cost; a parcel that came back undeliverable needs a new
 * address; an order reshipped before (itself or up its chain of parents) needs a manager. The
 * approval creates the child order through the order intake, in its transaction, and the original
 * order is reshipped. The request's row is locked first: two approvals make one child order.
 */

export const reshipStore: LifecycleStore<ReshipStatus, ReshipAction, never> = {
  lifecycle: reshipLifecycle,
  table: 'reships',
  label: `'reship ' || id`,
  columns: ['new_order_id', 'deny_reason', 'decided_by', 'decided_at'],
  effects: {},
  writeEvents: timelineWriter('reship_events', 'reship_id'),
};

/** What may be reshipped: a parcel back, lost, or delivered damaged or wrong. */
const RESHIPPABLE: readonly OrderStatus[] = orderLifecycle.actions.reship.from;

/** The newest parcel's status that says it was undeliverable. */
const UNDELIVERABLE = ['return_to_sender', 'returned'];

/** The held permission that lets a person approve an order's second reship. */
const MANAGER_PERMISSION = 'order.reship-approve' as const;

const RESHIP_SQL = `
  SELECT r.id::int AS id, r.status, r.original_order_id::int AS original_order_id,
    o.number AS original_order_number, o.status AS original_order_status, r.reason, r.cost_owner,
    r.earlier_reships, r.device_id::int AS device_id,
    (SELECT d.identifier FROM devices d WHERE d.id = r.device_id) AS imei,
    CASE WHEN r.ship_to IS NULL THEN NULL
      ELSE (r.ship_to ->> 'city') || ', ' || (r.ship_to ->> 'state') END AS new_place,
    (SELECT p.status FROM packages p WHERE p.order_id = o.id AND p.status <> 'voided'
     ORDER BY p.id DESC LIMIT 1) AS tracking_status,
    r.note, r.deny_reason, r.new_order_id::int AS new_order_id, n.number AS new_order_number,
    n.status AS new_order_status, r.requested_by_name AS requested_by,
    (SELECT u.name FROM users u WHERE u.id = r.decided_by) AS decided_by,
    ${isoTextSql('r.created_at')} AS created_at,
    COALESCE((SELECT json_agg(json_build_object('id', e.id, 'at', ${isoTextSql('e.at')},
        'actor_name', e.actor_name, 'type', e.type, 'from_status', e.from_status,
        'to_status', e.to_status, 'data', e.data) ORDER BY e.id)
      FROM reship_events e WHERE e.reship_id = r.id), '[]') AS events
  FROM reships r JOIN orders o ON o.id = r.original_order_id
  LEFT JOIN orders n ON n.id = r.new_order_id`;

export async function reship(db: Queryable, id: number): Promise<Reship> {
  const [row] = await db.query<Reship>(`${RESHIP_SQL} WHERE r.id = $1`, [id]);
  if (!row) throw new NotFoundError(`There is no reship request with id ${id}.`);
  return row;
}

export async function listReships(db: Queryable, view: (typeof RESHIP_VIEWS)[number] = 'open') {
  const statuses = [...OPEN_RESHIP_STATUSES];
  const open = view === 'open';
  const [reships, [count]] = await Promise.all([
    db.query<Reship>(
      `${RESHIP_SQL} WHERE (r.status = ANY ($1::text[])) = $2
       ORDER BY r.created_at DESC, r.id DESC LIMIT ${RESHIP_PAGE_MAX}`,
      [statuses, open],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM reships WHERE (status = ANY ($1::text[])) = $2`,
      [statuses, open],
    ),
  ]);
  return { reships, total: count?.total ?? 0 };
}

/** The order's reships made so far, up its chain of parents (a reship of a reship counts). */
const EARLIER_RESHIPS_SQL = `
  WITH RECURSIVE chain AS (
    SELECT id, parent_order_id FROM orders WHERE id = $1
    UNION ALL
    SELECT o.id, o.parent_order_id FROM orders o JOIN chain c ON o.id = c.parent_order_id
  )
  SELECT count(*)::int AS n FROM reships r
  WHERE r.original_order_id IN (SELECT id FROM chain) AND r.status = 'order_created'`;

/** An order as a reship request needs it; `lock` locks its row. */
async function candidateOf(db: Queryable, number: string, lock = false): Promise<ReshipCandidate> {
  const [order] = await db.query<Omit<ReshipCandidate, 'earlier_reships'>>(
    `SELECT o.id::int AS order_id, o.number AS order_number, o.status AS order_status,
       p.status AS tracking_status, COALESCE(p.status = ANY ($2::text[]), false) AS undeliverable,
       COALESCE((SELECT json_agg(json_build_object('device_id', d.id, 'imei', d.identifier)
           ORDER BY d.id)
         FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
         JOIN devices d ON d.id = u.device_id
         WHERE l.order_id = o.id AND d.status = 'returned'), '[]') AS returned_units
     FROM orders o
     LEFT JOIN LATERAL (SELECT status FROM packages WHERE order_id = o.id AND status <> 'voided'
                        ORDER BY id DESC LIMIT 1) p ON true
     WHERE o.number = $1 ${lock ? 'FOR UPDATE OF o' : ''}`,
    [number.toUpperCase(), UNDELIVERABLE],
  );
  if (!order) throw new NotFoundError(`There is no order ${number}.`);
  const [earlier] = await db.query<{ n: number }>(EARLIER_RESHIPS_SQL, [order.order_id]);
  return { ...order, earlier_reships: earlier!.n };
}

export const reshipCandidate = (db: Queryable, number: string) => candidateOf(db, number);

const duplicateReship = uniqueViolationAs({
  reships_one_open: ['order_number', 'This order has a reship request waiting already.'],
});

/** The address fields compared when a new one must differ (case and spaces aside). */
const addressKeyOf = (address: Pick<ShipTo, 'line1' | 'line2' | 'city' | 'zip'>) =>
  [address.line1, address.line2 ?? '', address.city, address.zip.slice(0, 5)]
    .map((part) => part.replace(/\s+/g, ' ').trim().toUpperCase())
    .join('|');

export async function createReship(
  tx: Transaction,
  { actor, meta }: Acting,
  input: z.output<typeof createReshipSchema>,
): Promise<Reship> {
  const order = await candidateOf(tx, input.order_number, true);
  if (!RESHIPPABLE.includes(order.order_status)) {
    throw new ConflictError(
      `Order ${order.order_number} is ${orderLifecycle.stateText(order.order_status)}: only a returned, lost or delivered order ships again.`,
    );
  }
  const shipTo = input.ship_to ?? null;
  if (order.undeliverable) {
    if (!shipTo) {
      throw fieldError(
        'ship_to',
        'The parcel came back undeliverable: enter the corrected address.',
      );
    }
    const [old] = await tx.query<ShipTo>(
      `SELECT line1, line2, city, zip FROM order_ship_to WHERE order_id = $1`,
      [order.order_id],
    );
    if (old && addressKeyOf(old) === addressKeyOf(shipTo)) {
      throw fieldError('ship_to.line1', 'The parcel came back from this address: correct it.');
    }
  }
  if (shipTo) {
    const problems = zipProblems(shipTo);
    if (problems.zip) throw new ValidationError({ 'ship_to.zip': problems.zip });
  }
  const imei = input.same_unit_imei ?? null;
  const unit = imei ? order.returned_units.find((found) => found.imei === imei) : null;
  if (imei && !unit) {
    throw fieldError('same_unit_imei', `${imei} is no unit of this order that came back.`);
  }
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO reships (original_order_id, reason, cost_owner, earlier_reships, device_id,
         ship_to, note, requested_by, requested_by_name)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9) RETURNING id::int AS id`,
      [
        order.order_id,
        input.reason,
        input.cost_owner,
        order.earlier_reships,
        unit?.device_id ?? null,
        shipTo ? JSON.stringify(shipTo) : null,
        input.note ?? null,
        actor.userId,
        actor.userName,
      ],
    )
    .catch(duplicateReship);
  const id = created!.id;
  await tx.query(
    `INSERT INTO reship_events (reship_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'requested', 'requested', $4::jsonb)`,
    [
      id,
      actor.userId,
      actor.userName,
      JSON.stringify({
        order: order.order_number,
        reason: input.reason,
        address_changed: !!shipTo,
      }),
    ],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'reship.requested',
    entityType: 'reship',
    entityId: id,
    after: { order: order.order_number, reason: input.reason, cost_owner: input.cost_owner },
  });
  return reship(tx, id);
}

/** Locks a request; its second reship or later needs a manager (403). */
async function lockReship(tx: Transaction, { actor }: Acting, id: number) {
  const [row] = await tx.query<{ earlier_reships: number }>(
    `SELECT earlier_reships FROM reships WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no reship request with id ${id}.`);
  if (row.earlier_reships > 0 && !actor.permissions.includes(MANAGER_PERMISSION)) {
    throw new ForbiddenError(
      { permission: 'order.manually-reship', andPermission: MANAGER_PERMISSION },
      'This order was reshipped before: a manager decides its next reship.',
    );
  }
}

type OriginalOrder = {
  id: number;
  number: string;
  fulfilment_type: Parameters<typeof createOrder>[2]['fulfilmentType'];
  client_carrier_id: number | null;
  program: Parameters<typeof createOrder>[2]['program'];
  subscriber_id: number | null;
  retailer_id: number | null;
  ship_method: NonNullable<Parameters<typeof createOrder>[2]['shipMethod']>;
  ship_to: ShipTo;
  new_ship_to: ShipTo | null;
  reason: string;
  imei: string | null;
};

/**
 * The child order: the original's customer, lines and ship method, at no price, high priority. The
 * returned unit the request names is its line's requested device: the assignment reserves it if
 * it is back in stock by then and otherwise ships another matching unit rather than keep the
 * customer waiting for a parcel still on its way back or in inspection.
 */
async function createChildOrder(tx: Transaction, acting: Acting, id: number) {
  const [original] = await tx.query<OriginalOrder>(
    `SELECT o.id::int AS id, o.number, o.fulfilment_type, o.client_carrier_id::int AS
       client_carrier_id, o.program, o.subscriber_id::int AS subscriber_id,
       o.retailer_id::int AS retailer_id, o.ship_method,
       json_build_object('name', t.name, 'company', t.company, 'line1', t.line1,
         'line2', t.line2, 'city', t.city, 'state', t.state, 'zip', t.zip, 'phone', t.phone)
         AS ship_to,
       r.ship_to AS new_ship_to, r.reason,
       (SELECT d.identifier FROM devices d WHERE d.id = r.device_id) AS imei
     FROM reships r JOIN orders o ON o.id = r.original_order_id
     JOIN order_ship_to t ON t.order_id = o.id
     WHERE r.id = $1`,
    [id],
  );
  const lines = await tx.query<{
    variant_id: number | null;
    bundle_id: number | null;
    combo_id: number | null;
    listing_id: number | null;
    qty: number;
    device_id: number | null;
  }>(
    `SELECT l.variant_id::int AS variant_id, l.bundle_id::int AS bundle_id,
       l.combo_id::int AS combo_id, l.listing_id::int AS listing_id, l.qty,
       -- The returned unit the request names, on the line it shipped on.
       (SELECT r.device_id::int FROM reships r
        WHERE r.id = $2 AND EXISTS (SELECT 1 FROM order_line_units u
                                    WHERE u.order_line_id = l.id AND u.device_id = r.device_id))
         AS device_id
     FROM order_lines l WHERE l.order_id = $1 ORDER BY l.position`,
    [original!.id, id],
  );
  const order = original!;
  const created = await createOrder(tx, acting, {
    source: 'reship',
    fulfilmentType: order.fulfilment_type,
    clientCarrierId: order.client_carrier_id,
    program: order.program,
    customer:
      order.retailer_id !== null
        ? { retailerId: order.retailer_id }
        : { subscriberId: order.subscriber_id! },
    shipTo: order.new_ship_to ?? order.ship_to,
    shipMethod: order.ship_method,
    priority: 'high',
    parentOrderId: order.id,
    notes:
      `Reship of ${order.number} (${order.reason.replace(/_/g, ' ')})` +
      (order.imei
        ? `: the returned unit ${order.imei} ships if it is back in stock at assignment, else another matching unit does.`
        : '.'),
    lines: lines.map((line): IntakeLine => ({
      sellable:
        line.variant_id !== null
          ? { kind: 'variant', id: line.variant_id }
          : line.bundle_id !== null
            ? { kind: 'bundle', id: line.bundle_id }
            : { kind: 'combo', id: line.combo_id! },
      listingId: line.listing_id,
      qty: line.qty,
      unitPriceCents: 0,
      requestedDeviceId: line.device_id,
    })),
  });
  return { ...created, parentOrderId: order.id };
}

/**
 * Approves a request: the child order is created and the original order reshipped, in one
 * transaction. A second approval at the same moment waits on the request's row and then finds it
 * decided (409).
 */
export async function approveReship(tx: Transaction, acting: Acting, id: number): Promise<Reship> {
  const { actor, meta } = acting;
  await lockReship(tx, acting, id);
  await runTransition(tx, reshipStore, {
    id,
    action: 'approve',
    actor,
    meta,
    columns: { decided_by: actor.userId, decided_at: TRANSACTION_TIME },
  });
  const child = await createChildOrder(tx, acting, id);
  await runTransition(tx, orderStore, {
    id: child.parentOrderId,
    action: 'reship',
    actor,
    meta,
    data: { reship: id, new_order: child.number },
  });
  await runTransition(tx, reshipStore, {
    id,
    action: 'create_order',
    actor,
    meta,
    data: { order: child.number },
    columns: { new_order_id: child.id },
  });
  return reship(tx, id);
}

export async function denyReship(
  tx: Transaction,
  acting: Acting,
  id: number,
  reason: string,
): Promise<Reship> {
  await lockReship(tx, acting, id);
  await runTransition(tx, reshipStore, {
    id,
    action: 'deny',
    actor: acting.actor,
    meta: acting.meta,
    reason,
    columns: {
      deny_reason: reason,
      decided_by: acting.actor.userId,
      decided_at: TRANSACTION_TIME,
    },
  });
  return reship(tx, id);
}
