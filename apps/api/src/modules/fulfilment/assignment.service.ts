import type {
  AssignmentDemand,
  AssignmentOverview,
  autoAssignSchema,
  FulfilmentOrderRow,
  OrderAssignmentResult,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import type { Acting } from '../../http/principal.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { deviceLifecycleStore } from '../devices/index.js';
import { orderStore, writeOrderEvent } from '../order/index.js';
import { fulfilmentOrderRow } from './fulfilment-lists.store.js';
import { reserveUnits } from './reservation.js';
import { allocateSimUnits } from './sim-units.js';

/**
 * Assignment (DOMAIN.md 4.14 `/fulfill/assignment`, 5.2 step 3): ready orders given to a worker in
 * batches, each unit's device reserved at once (oldest box first); an order short of stock goes to
 * the backlog `no_stock` and keeps nothing reserved.
 */

/** Who picks: active staff whose roles grant the fulfilment queues. */
const WORKERS_SQL = `
  SELECT u.id::int AS id, u.name FROM users u
  WHERE u.status = 'active' AND EXISTS (
    SELECT 1 FROM user_roles ur
    JOIN role_permissions rp ON rp.role_id = ur.role_id
    JOIN permissions pm ON pm.id = rp.permission_id
    WHERE ur.user_id = u.id AND pm.name = 'order.fulfill-processing')`;

/** The worker an order goes to: 422 on `assignee_id` unless they may pick. */
async function workerOf(db: Queryable, id: number) {
  const [worker] = await db.query<{ id: number; name: string }>(`${WORKERS_SQL} AND u.id = $1`, [
    id,
  ]);
  if (!worker) {
    throw fieldError('assignee_id', 'Choose an active user who works the fulfilment queues.');
  }
  return worker;
}

/** The ready orders' demand against available stock, per model and variant (model, SKU order). */
export const readyDemand = (db: Queryable) =>
  db.query<AssignmentDemand>(
    `WITH ready AS (SELECT array_agg(id) AS ids FROM orders WHERE status = 'ready'),
     wanted AS (
       SELECT r.variant_ids[1] AS variant_id, count(DISTINCT r.order_id)::int AS orders,
         sum(r.units)::int AS units
       FROM ready, order_unit_rules(ready.ids) r
       GROUP BY r.variant_ids[1]
     )
     SELECT m.id::int AS model_id, m.name AS model, v.id::int AS variant_id, v.sku,
       concat_ws(' ', p.name, CASE WHEN v.capacity_gb IS NOT NULL THEN v.capacity_gb || ' GB' END,
         (SELECT c.name FROM colors c WHERE c.id = v.color_id), v.grade, v.carrier_lock)
         AS description,
       w.orders, w.units, s.available::int AS available
     FROM wanted w
     JOIN product_variants v ON v.id = w.variant_id
     JOIN products p ON p.id = v.product_id
     JOIN device_models m ON m.id = p.model_id
     JOIN variant_sellable_stock(ARRAY(SELECT variant_id FROM wanted)) s
       ON s.variant_id = w.variant_id
     ORDER BY m.name, v.sku`,
  );

/** The queues, demand against stock per variant, and the workers with their load. */
export async function assignmentOverview(db: Queryable): Promise<AssignmentOverview> {
  const [queues, demand, workers] = await Promise.all([
    db.query<AssignmentOverview['queues'][number]>(
      `SELECT o.fulfilment_type, count(*)::int AS orders,
         COALESCE(sum((SELECT sum(r.units) FROM order_unit_rules(ARRAY[o.id]) r)), 0)::int AS units,
         ${isoTextSql('min(o.sla_due_at)')} AS next_due_at,
         count(*) FILTER (WHERE o.sla_due_at < now())::int AS breached
       FROM orders o WHERE o.status = 'ready'
       GROUP BY o.fulfilment_type ORDER BY o.fulfilment_type`,
    ),
    readyDemand(db),
    db.query<AssignmentOverview['workers'][number]>(
      `SELECT w.id, w.name,
         (SELECT count(*)::int FROM orders o WHERE o.assignee_id = w.id AND o.status = 'assigned')
           AS assigned,
         (SELECT count(*)::int FROM orders o WHERE o.assignee_id = w.id
            AND o.status = 'in_progress') AS in_progress,
         (SELECT count(*)::int FROM orders o JOIN order_lines l ON l.order_id = o.id
            JOIN order_line_units u ON u.order_line_id = l.id
          WHERE o.assignee_id = w.id AND o.status IN ('assigned', 'in_progress')
            AND u.status IN ('allocated', 'picked')) AS units
       FROM (${WORKERS_SQL}) w ORDER BY w.name, w.id`,
    ),
  ]);
  return { queues, demand, workers };
}

/**
 * Assigns ready orders to a worker: locks them (in id order; those no longer ready are skipped),
 * reserves a device per unit for the whole batch, moves the reserved devices and the complete
 * orders in one run each, and puts the short ones on hold `no_stock`.
 */
export async function assignOrders(
  tx: Transaction,
  acting: Acting,
  assigneeId: number,
  orderIds: readonly number[],
): Promise<OrderAssignmentResult> {
  await workerOf(tx, assigneeId);
  const ids = [...new Set(orderIds)];
  const ready = await tx.query<{ id: number; number: string }>(
    `SELECT id::int AS id, number FROM orders
     WHERE id = ANY ($1::bigint[]) AND status = 'ready' ORDER BY id FOR UPDATE`,
    [ids],
  );
  const numbers = new Map(ready.map((order) => [order.id, order.number]));
  const skippedIds = ids.filter((id) => !numbers.has(id));
  const skipped =
    skippedIds.length === 0
      ? []
      : await tx.query<{ id: number; number: string }>(
          `SELECT id::int AS id, number FROM orders WHERE id = ANY ($1::bigint[]) ORDER BY id`,
          [skippedIds],
        );
  const reservation = await reserveUnits(
    tx,
    ready.map((order) => order.id),
    acting.actor.userId,
  );
  const { actor, meta } = acting;
  await runTransitions(tx, deviceLifecycleStore, {
    ids: reservation.deviceIds,
    action: 'reserve',
    actor,
    meta,
  });
  await runTransitions(tx, orderStore, {
    ids: reservation.complete,
    action: 'assign',
    actor,
    meta,
    data: { assignee_id: assigneeId },
    columns: { assignee_id: assigneeId, assigned_by: actor.userId },
  });
  await allocateSimUnits(tx, reservation.complete, actor.userId);
  if (reservation.passedOver.length > 0) {
    // The order's timeline says why its unit is not the one its line named.
    await tx.query(
      `INSERT INTO order_events (order_id, actor_id, actor_name, type, data)
       SELECT p.order_id, $3, $4, 'requested_unit_unavailable', jsonb_build_object('imei', p.imei,
         'note', 'The requested unit ' || p.imei || ' was not available at assignment (not back '
           || 'in stock yet, held or reserved): another matching unit was reserved.')
       FROM unnest($1::bigint[], $2::text[]) AS p (order_id, imei)`,
      [
        reservation.passedOver.map((row) => row.orderId),
        reservation.passedOver.map((row) => row.imei),
        actor.userId,
        actor.userName,
      ],
    );
  }
  const held = reservation.short.map(({ id, skus }) => ({
    id,
    number: numbers.get(id)!,
    note: `Not enough stock to reserve every unit at assignment: ${skus}.`,
  }));
  await runTransitions(tx, orderStore, {
    ids: held.map((order) => order.id),
    action: 'hold',
    actor,
    meta,
    reason: 'no_stock',
    data: { by: 'assignment' },
    columns: { hold_note: 'Not enough stock to reserve every unit at assignment.' },
  });
  if (held.length > 0) {
    await tx.query(
      `UPDATE orders o SET hold_note = h.note FROM unnest($1::bigint[], $2::text[]) AS h (id, note)
       WHERE o.id = h.id`,
      [held.map((order) => order.id), held.map((order) => order.note)],
    );
  }
  return {
    assignee_id: assigneeId,
    assigned: reservation.complete.map((id) => ({ id, number: numbers.get(id)! })),
    held,
    skipped,
    units_reserved: reservation.deviceIds.length,
  };
}

/**
 * The next `count` ready orders (of a queue, of a model), most urgent first, assigned as a batch.
 * Orders another batch is assigning right now are passed over (SKIP LOCKED), so two leaders
 * auto-assigning at once get different orders.
 */
export async function autoAssign(
  tx: Transaction,
  acting: Acting,
  input: z.output<typeof autoAssignSchema>,
): Promise<OrderAssignmentResult> {
  await workerOf(tx, input.assignee_id);
  const chosen = await tx.query<{ id: number }>(
    `SELECT o.id::int AS id FROM orders o
     WHERE o.status = 'ready'
       AND ($2::text IS NULL OR o.fulfilment_type = $2)
       AND ($3::bigint IS NULL OR EXISTS (
         SELECT 1 FROM order_unit_rules(ARRAY[o.id]) r
         JOIN product_variants v ON v.id = ANY (r.variant_ids)
         JOIN products p ON p.id = v.product_id WHERE p.model_id = $3))
     ORDER BY CASE o.priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END,
       COALESCE(o.sla_due_at, 'infinity'::timestamptz), o.id
     LIMIT $1
     FOR UPDATE OF o SKIP LOCKED`,
    [input.count, input.fulfilment_type ?? null, input.model_id ?? null],
  );
  return assignOrders(
    tx,
    acting,
    input.assignee_id,
    chosen.map((order) => order.id),
  );
}

/** Gives an assigned or started order to another worker (no change of state). */
export async function reassignOrder(
  tx: Transaction,
  acting: Acting,
  id: number,
  assigneeId: number,
): Promise<FulfilmentOrderRow> {
  const worker = await workerOf(tx, assigneeId);
  const [order] = await tx.query<{ number: string; status: string; assignee_id: number | null }>(
    `SELECT number, status, assignee_id::int AS assignee_id FROM orders WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no order with id ${id}.`);
  if (order.status !== 'assigned' && order.status !== 'in_progress') {
    throw new ConflictError(
      `Order ${order.number} is ${order.status.replace(/_/g, ' ')}: only an assigned or started order is reassigned.`,
    );
  }
  if (order.assignee_id !== assigneeId) {
    await tx.query(
      `UPDATE orders SET assignee_id = $2, assigned_at = now(), assigned_by = $3,
         updated_at = now() WHERE id = $1`,
      [id, assigneeId, acting.actor.userId],
    );
    const data = { from_assignee_id: order.assignee_id, assignee_id: assigneeId };
    await writeOrderEvent(tx, id, acting.actor, 'reassigned', { ...data, to: worker.name });
    await recordAudit(tx, {
      ...auditActor(acting.actor, acting.meta),
      action: 'order.reassigned',
      entityType: 'order',
      entityId: id,
      before: { assignee_id: order.assignee_id },
      after: { number: order.number, assignee_id: assigneeId },
    });
  }
  return fulfilmentOrderRow(tx, id);
}

/** Sends an assigned order back to the assignment queue; its reservations are released. */
export async function unassignOrder(
  tx: Transaction,
  { actor, meta }: Acting,
  id: number,
): Promise<FulfilmentOrderRow> {
  await runTransition(tx, orderStore, { id, action: 'unassign', actor, meta });
  return fulfilmentOrderRow(tx, id);
}
