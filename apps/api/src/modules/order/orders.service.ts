import {
  ADDRESS_EDITABLE_STATUSES,
  orderLifecycle,
  type OrderCreated,
  type OrderCustomer,
  type OrderDetail,
  type OrderHoldReason,
  type OrderStatus,
  type ShipTo,
  type supportOrderSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { createOrder, settleValidation, validateOrder, type IntakeActor } from './intake.js';
import { orderStore, writeOrderEvent } from './order-lifecycle.js';
import { ORDER_ROW_COLUMNS, ORDER_ROW_FROM } from './order-list.store.js';
import { zipProblems } from './us-zip.js';

/**
 * One order (DOMAIN.md 4.7): its record with lines, units and timeline, the customer's PII read
 * in full (audited), the ship-to's edit before the label, hold, release, cancel, and the support
 * order staff create by hand through the intake.
 */

/** An order's record, the customer masked as in the list. */
export async function orderDetail(db: Queryable, id: number): Promise<OrderDetail> {
  const [order] = await db.query<OrderDetail>(
    `SELECT ${ORDER_ROW_COLUMNS}, o.status_before_hold, o.subscriber_id, o.retailer_id,
       o.ship_method, o.priority, o.campaign_id, o.parent_order_id,
       (SELECT p.number FROM orders p WHERE p.id = o.parent_order_id) AS parent_number,
       o.subtotal_cents::int AS subtotal_cents, o.shipping_cents::int AS shipping_cents, o.notes,
       ${isoTextSql('o.approved_at')} AS approved_at,
       ${isoTextSql('o.cancelled_at')} AS cancelled_at, o.payment_status, o.plan_name,
       COALESCE((SELECT json_agg(json_build_object(
           'id', l.id, 'position', l.position,
           'kind', CASE WHEN l.variant_id IS NOT NULL THEN 'variant'
                        WHEN l.bundle_id IS NOT NULL THEN 'bundle' ELSE 'combo' END,
           'sellable_id', COALESCE(l.variant_id, l.bundle_id, l.combo_id),
           'sku', l.sku, 'description', l.description, 'listing_id', l.listing_id,
           'qty', l.qty, 'qty_reserved', l.qty_reserved,
           'unit_price_cents', l.unit_price_cents, 'status', l.status) ORDER BY l.position)
         FROM order_lines l WHERE l.order_id = o.id), '[]') AS lines,
       COALESCE((SELECT json_agg(json_build_object(
           'id', u.id, 'order_line_id', u.order_line_id, 'device_id', u.device_id,
           'imei', (SELECT d.identifier FROM devices d WHERE d.id = u.device_id),
           'iccid', u.iccid,
           'substituted_from', (SELECT v.sku FROM product_variants v
                                WHERE v.id = u.substituted_from_variant_id),
           'substitution_reason', u.substitution_reason, 'status', u.status) ORDER BY u.id)
         FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
         WHERE l.order_id = o.id), '[]') AS units,
       COALESCE((SELECT json_agg(json_build_object(
           'id', e.id, 'at', ${isoTextSql('e.at')}, 'actor_name', e.actor_name, 'type', e.type,
           'from_status', e.from_status, 'to_status', e.to_status, 'data', e.data) ORDER BY e.id)
         FROM order_events e WHERE e.order_id = o.id), '[]') AS events
     FROM ${ORDER_ROW_FROM} WHERE o.id = $1`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no order with id ${id}.`);
  return order;
}

/**
 * The customer's names, addresses and phones in full. Every read is an audit entry
 * (`order.customer_viewed`), in the same transaction as the read.
 */
export async function orderCustomer(
  tx: Transaction,
  { actor, meta }: IntakeActor,
  id: number,
): Promise<OrderCustomer> {
  const [customer] = await tx.query<OrderCustomer & { number: string }>(
    `SELECT o.number,
       CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object(
         'id', s.id, 'external_id', s.external_id, 'first_name', s.first_name,
         'last_name', s.last_name, 'phone', s.phone,
         'service_address', json_build_object('line1', s.service_line1,
           'line2', s.service_line2, 'city', s.service_city, 'state', s.service_state,
           'zip', s.service_zip)) END AS subscriber,
       json_build_object('name', t.name, 'company', t.company, 'line1', t.line1,
         'line2', t.line2, 'city', t.city, 'state', t.state, 'zip', t.zip, 'phone', t.phone)
         AS ship_to
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id
     LEFT JOIN subscribers s ON s.id = o.subscriber_id
     WHERE o.id = $1`,
    [id],
  );
  if (!customer) throw new NotFoundError(`There is no order with id ${id}.`);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'order.customer_viewed',
    entityType: 'order',
    entityId: id,
    after: { number: customer.number, subscriber_id: customer.subscriber?.id ?? null },
  });
  return { subscriber: customer.subscriber, ship_to: customer.ship_to };
}

/** Locks an order and reads its state: 404 when there is none. */
async function lockOrder(tx: Transaction, id: number) {
  const [order] = await tx.query<{ number: string; status: OrderStatus }>(
    `SELECT number, status FROM orders WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no order with id ${id}.`);
  return order;
}

const SHIP_TO_FIELDS = [
  'name',
  'company',
  'line1',
  'line2',
  'city',
  'state',
  'zip',
  'phone',
] as const;

/**
 * Changes where an order goes, until its label is printed. The address is validated again: a
 * ZIP outside the state is a 422 on `zip`, and nothing changes. The timeline and the audit log
 * name the fields changed, never their values (PII).
 */
export async function editShipTo(
  tx: Transaction,
  { actor, meta }: IntakeActor,
  id: number,
  shipTo: ShipTo,
): Promise<OrderDetail> {
  const order = await lockOrder(tx, id);
  if (!ADDRESS_EDITABLE_STATUSES.includes(order.status)) {
    throw new ConflictError(
      `Order ${order.number} is ${orderLifecycle.stateText(order.status)}: its address can no longer change.`,
    );
  }
  const problems = zipProblems(shipTo);
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const [before] = await tx.query<Record<(typeof SHIP_TO_FIELDS)[number], string | null>>(
    `SELECT name, company, line1, line2, city, state, zip, phone FROM order_ship_to
     WHERE order_id = $1`,
    [id],
  );
  const changed = SHIP_TO_FIELDS.filter(
    (field) => (before?.[field] ?? null) !== (shipTo[field] ?? null),
  );
  if (changed.length > 0) {
    await tx.query(
      `UPDATE order_ship_to SET name = $2, company = $3, line1 = $4, line2 = $5, city = $6,
         state = $7, zip = $8, phone = $9, updated_at = now()
       WHERE order_id = $1`,
      [
        id,
        shipTo.name,
        shipTo.company ?? null,
        shipTo.line1,
        shipTo.line2 ?? null,
        shipTo.city,
        shipTo.state,
        shipTo.zip,
        shipTo.phone ?? null,
      ],
    );
    await tx.query(`UPDATE orders SET updated_at = now() WHERE id = $1`, [id]);
    await writeOrderEvent(tx, id, actor, 'address_edited', { fields: changed });
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'order.address_edited',
      entityType: 'order',
      entityId: id,
      after: { number: order.number, fields: changed },
    });
  }
  return orderDetail(tx, id);
}

/** Puts an order on hold by hand, with the reason and an optional note. */
export async function holdOrder(
  tx: Transaction,
  { actor, meta }: IntakeActor,
  id: number,
  reason: OrderHoldReason,
  note: string | null | undefined,
): Promise<OrderDetail> {
  await runTransition(tx, orderStore, {
    id,
    action: 'hold',
    actor,
    meta,
    reason,
    data: note ? { note } : {},
    columns: { hold_note: note ?? null },
  });
  return orderDetail(tx, id);
}

/**
 * Releases a held order after validating it again: it is ready, or it stays on hold and the 409
 * says what validation found.
 */
export async function releaseOrder(
  tx: Transaction,
  by: IntakeActor,
  id: number,
): Promise<OrderDetail> {
  const step = await runTransition(tx, orderStore, {
    id,
    action: 'release',
    actor: by.actor,
    meta: by.meta,
  });
  const failure = await validateOrder(tx, by, id);
  if (failure) {
    throw new ConflictError(`Order ${step.label} stays on hold: ${failure.note}`);
  }
  if (step.to === 'pending') await settleValidation(tx, by, id, null);
  return orderDetail(tx, id);
}

/**
 * Cancels an order not yet assigned (its listing units go back); an order in fulfilment gets a
 * cancellation request instead, which fulfilment settles.
 */
export async function cancelOrder(
  tx: Transaction,
  { actor, meta }: IntakeActor,
  id: number,
  reason: string | null | undefined,
): Promise<OrderDetail> {
  const order = await lockOrder(tx, id);
  const requested = orderLifecycle.actions.request_cancel.from as readonly OrderStatus[];
  await runTransition(tx, orderStore, {
    id,
    action: requested.includes(order.status) ? 'request_cancel' : 'cancel',
    actor,
    meta,
    reason,
  });
  return orderDetail(tx, id);
}

/**
 * A support order staff create for a subscriber (DOMAIN.md 5.2 step 1, source `support`): each
 * line from a listing, at its price. It goes through the intake, so it is validated as a
 * carrier's order is.
 */
export async function createSupportOrder(
  tx: Transaction,
  by: IntakeActor,
  input: z.output<typeof supportOrderSchema>,
): Promise<OrderCreated> {
  const listings = await tx.query<{
    id: number;
    kind: 'variant' | 'bundle' | 'combo';
    sellable_id: number;
    price_cents: number;
  }>(
    `SELECT id, CASE WHEN variant_id IS NOT NULL THEN 'variant'
                     WHEN bundle_id IS NOT NULL THEN 'bundle' ELSE 'combo' END AS kind,
       COALESCE(variant_id, bundle_id, combo_id) AS sellable_id, price_cents::int AS price_cents
     FROM pts_listings WHERE id = ANY ($1::bigint[])`,
    [input.lines.map((line) => line.listing_id)],
  );
  const byId = new Map(listings.map((listing) => [listing.id, listing]));
  const problems: Record<string, string[]> = {};
  input.lines.forEach((line, n) => {
    if (!byId.has(line.listing_id)) {
      problems[`lines.${n}.listing_id`] = [`There is no listing with id ${line.listing_id}.`];
    }
  });
  if (input.sim_swap && input.fulfilment_type !== 'existing_customer') {
    problems.sim_swap = ["Only an existing customer's device change swaps the SIM."];
  }
  if (input.payment_status && input.fulfilment_type !== 'prepaid') {
    problems.payment_status = ['Only a prepaid order carries a payment status.'];
  }
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const name = `${input.first_name} ${input.last_name}`;
  return createOrder(tx, by, {
    source: 'support',
    fulfilmentType: input.fulfilment_type ?? 'support',
    clientCarrierId: input.client_carrier_id,
    program: input.program,
    customer: {
      subscriber: {
        externalId: input.external_id ?? null,
        firstName: input.first_name,
        lastName: input.last_name,
        phone: input.phone ?? null,
        serviceAddress: input.service_address,
      },
    },
    shipTo: input.ship_to ?? { ...input.service_address, name, phone: input.phone ?? null },
    shipMethod: input.ship_method,
    priority: input.priority,
    notes: input.notes ?? null,
    simSwap: input.sim_swap ?? false,
    ...(input.payment_status && { paymentStatus: input.payment_status }),
    lines: input.lines.map((line) => {
      const listing = byId.get(line.listing_id)!;
      return {
        sellable: { kind: listing.kind, id: listing.sellable_id },
        listingId: listing.id,
        qty: line.qty,
        unitPriceCents: listing.price_cents,
      };
    }),
  });
}
