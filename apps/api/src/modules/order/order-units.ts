import type { OrderStatus } from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import type { Acting } from '../../http/principal.js';
import { runTransitions, type TransitionStep } from '../../toolkit/lifecycle.js';
import { deviceLifecycleStore } from '../devices/index.js';

/**
 * An order's units (`order_line_units`) as its lifecycle leaves the pick: unassigning an order or
 * putting an assigned one on hold gives its reserved devices back to stock (DOMAIN.md 4.14), so
 * that nothing stays reserved for an order nobody picks.
 */

/**
 * Cancels the allocated units of the orders and releases their devices' reservations, in the
 * caller's transaction. A reserved device held meanwhile (a blacklist listing) stays held, and
 * goes back to stock rather than to a reservation when the hold is cleared.
 */
export async function releaseReservedUnits(
  tx: Transaction,
  { actor, meta }: Acting,
  orderIds: readonly number[],
): Promise<number[]> {
  if (orderIds.length === 0) return [];
  const released = await tx.query<{ device_id: number | null }>(
    `UPDATE order_line_units u SET status = 'cancelled', updated_at = now()
     FROM order_lines l
     WHERE l.id = u.order_line_id AND l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated'
     RETURNING u.device_id`,
    [orderIds],
  );
  const deviceIds = released.flatMap((row) => (row.device_id === null ? [] : [row.device_id]));
  if (deviceIds.length === 0) return [];
  await tx.query(
    `UPDATE devices SET status_before_hold = 'in_stock'
     WHERE id = ANY ($1::bigint[]) AND status = 'hold' AND status_before_hold = 'reserved'`,
    [deviceIds],
  );
  await runTransitions(tx, deviceLifecycleStore, {
    ids: deviceIds,
    action: 'release_reservation',
    actor,
    meta,
    skipRefused: true,
    data: { orders: orderIds },
  });
  return deviceIds;
}

/**
 * What leaving the pick does to the orders themselves: no assignee, nothing confirmed, and a
 * held one is released to the assignment queue (`ready`), since its reservations are gone.
 */
export async function leaveThePick(
  tx: Transaction,
  steps: readonly TransitionStep<OrderStatus>[],
  acting: Acting,
) {
  const ids = steps.filter((step) => step.from === 'assigned').map((step) => step.id);
  if (ids.length === 0) return;
  await releaseReservedUnits(tx, acting, ids);
  await tx.query(
    `UPDATE orders SET assignee_id = NULL, assigned_at = NULL, assigned_by = NULL,
       accessories_confirmed_at = NULL,
       status_before_hold = CASE WHEN status = 'on_hold' THEN 'ready' ELSE status_before_hold END
     WHERE id = ANY ($1::bigint[])`,
    [ids],
  );
}
