import {
  orderLifecycle,
  type OrderAction,
  type OrderHoldReason,
  type OrderStatus,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import type { Acting, Actor } from '../../http/principal.js';
import { timelineWriter, type LifecycleStore } from '../../toolkit/lifecycle.js';
import { releaseListing } from '../pts/index.js';
import { leaveThePick } from './order-units.js';

/**
 * The order lifecycle's records (DOMAIN.md 3.2, decision 0014): `orders` with its timeline
 * `order_events`. Approval stamps approved_at once (the daily report counts first approvals);
 * a cancellation stamps cancelled_at and gives the lines' reserved listing units back.
 */

/** Gives back the listing units the orders' lines hold, listing by listing in id order. */
async function releaseReservations(tx: Transaction, acting: Acting, orderIds: readonly number[]) {
  const held = await tx.query<{ listing_id: number; qty: number }>(
    `WITH lines AS (
       SELECT id, listing_id, qty_reserved FROM order_lines
       WHERE order_id = ANY ($1::bigint[]) FOR UPDATE
     ), cleared AS (
       UPDATE order_lines l SET qty_reserved = 0, status = 'cancelled'
       FROM lines WHERE l.id = lines.id
     )
     SELECT listing_id, sum(qty_reserved)::int AS qty FROM lines
     WHERE listing_id IS NOT NULL AND qty_reserved > 0
     GROUP BY listing_id ORDER BY listing_id`,
    [orderIds],
  );
  for (const { listing_id, qty } of held) await releaseListing(tx, acting, listing_id, qty);
}

/** Cancelled, rejected or expired: stamped, and the lines' listing units given back. */
const CANCELLED = {
  set: 'cancelled_at = now()',
  write: (tx: Transaction, steps: readonly { id: number }[], acting: Acting) =>
    releaseReservations(
      tx,
      acting,
      steps.map((step) => step.id),
    ),
};

export const orderStore: LifecycleStore<OrderStatus, OrderAction, OrderHoldReason> = {
  lifecycle: orderLifecycle,
  table: 'orders',
  label: 'number',
  columns: ['hold_note', 'assignee_id', 'assigned_by'],
  effects: {
    validate: 'approved_at = COALESCE(approved_at, now()), hold_note = NULL',
    release: 'hold_note = NULL',
    // Ready with its new variant: approved now if validation had held it on intake.
    substitute: 'approved_at = COALESCE(approved_at, now()), hold_note = NULL',
    // An assigned order pushed to the backlog or unassigned gives its reserved devices back.
    hold: { write: leaveThePick },
    assign: 'assigned_at = now(), accessories_confirmed_at = NULL',
    unassign: { write: leaveThePick },
    // Scanned out at the dock: the daily report counts shipping by this time (decision 0029).
    ship: 'shipped_at = now()',
    cancel: CANCELLED,
    reject: CANCELLED,
    expire: CANCELLED,
    // A cancellation carried out or ended by the parcel's return (the reship area's steps).
    confirm_cancel: CANCELLED,
    cancel_return: CANCELLED,
  },
  writeEvents: timelineWriter('order_events', 'order_id'),
};

/** Writes one event on an order's timeline that is no step of its lifecycle (an address edit). */
export const writeOrderEvent = (
  tx: Transaction,
  orderId: number,
  actor: Pick<Actor, 'userId' | 'userName'>,
  type: string,
  data: Record<string, unknown>,
) =>
  tx.query(
    `INSERT INTO order_events (order_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [orderId, actor.userId, actor.userName, type, JSON.stringify(data)],
  );
