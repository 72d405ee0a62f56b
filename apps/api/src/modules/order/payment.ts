import { PAYMENT_CHANGES, type PaymentStatus } from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { writeOrderEvent } from './order-lifecycle.js';

/**
 * A prepaid order's payment (DOMAIN.md 4.14 `/fulfill/prepaid`, migration 0075): set at intake
 * from what the channel reports, changed as the carrier reports it (its API, or staff writing down
 * what it said) along `PAYMENT_CHANGES`. Each change locks the order's row, as a pick scan does, so
 * a change and a pick take turns: a pick never reads a payment a change is replacing. The change
 * is on the order's timeline and audited; the same status again changes nothing.
 */
export async function changePayment(
  tx: Transaction,
  acting: Acting,
  orderId: number,
  status: PaymentStatus,
  details: { readonly by: 'carrier' | 'staff'; readonly note?: string | null | undefined },
): Promise<{ changed: boolean }> {
  const [order] = await tx.query<{
    number: string;
    fulfilment_type: string;
    payment_status: PaymentStatus | null;
  }>(`SELECT number, fulfilment_type, payment_status FROM orders WHERE id = $1 FOR UPDATE`, [
    orderId,
  ]);
  if (!order) throw new NotFoundError(`There is no order with id ${orderId}.`);
  if (order.fulfilment_type !== 'prepaid') {
    throw new ConflictError(`${order.number} is not a prepaid order: it carries no payment.`);
  }
  const was = order.payment_status;
  if (was === status) return { changed: false };
  if (was !== null && !PAYMENT_CHANGES[was].includes(status)) {
    throw new ConflictError(
      `${order.number}'s payment is ${was}: it cannot become ${status}` +
        (PAYMENT_CHANGES[was].length > 0
          ? ` (only ${PAYMENT_CHANGES[was].join(' or ')}).`
          : ', a refund is final.'),
    );
  }
  await tx.query(`UPDATE orders SET payment_status = $2, updated_at = now() WHERE id = $1`, [
    orderId,
    status,
  ]);
  const data = {
    from: was,
    to: status,
    by: details.by,
    ...(details.note && { note: details.note }),
  };
  await writeOrderEvent(tx, orderId, acting.actor, 'payment_changed', data);
  await recordAudit(tx, {
    ...auditActor(acting.actor, acting.meta),
    action: 'order.payment_changed',
    entityType: 'order',
    entityId: orderId,
    before: { payment_status: was },
    after: {
      number: order.number,
      payment_status: status,
      ...(details.note && { note: details.note }),
    },
  });
  return { changed: true };
}
