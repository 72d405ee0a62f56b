import {
  type CarrierOrder,
  type PaymentStatus,
  type carrierOrderRequestSchema,
  type CARRIER_FULFILMENT_TYPES,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import {
  clientCarrierActor,
  type ClientCarrierCaller,
  type RequestMeta,
} from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { decodeCursor, encodeCursor } from '../../toolkit/cursor.js';
import { runIdempotent } from '../../toolkit/idempotency.js';
import { effectivePlanPrice } from '../pricing/index.js';
import { sellablesBySku } from '../pts/index.js';
import { createOrder, type IntakeLine } from './intake.js';
import { changePayment } from './payment.js';

type CarrierOrderRequest = z.output<typeof carrierOrderRequestSchema>;

/** An order as its carrier reads it: one statement for one order or a page of them. */
const CARRIER_ORDER_SQL = `
  SELECT o.id, o.number, o.external_ref, o.program, o.status, o.hold_reason, o.hold_note,
    o.total_cents::int AS total_cents, o.payment_status,
    (SELECT COALESCE(json_agg(json_build_object('sku', l.sku, 'description', l.description,
       'qty', l.qty, 'unit_price_cents', l.unit_price_cents::int) ORDER BY l.position), '[]')
     FROM order_lines l WHERE l.order_id = o.id) AS lines,
    ${isoTextSql('o.created_at')} AS created_at, ${isoTextSql('o.updated_at')} AS updated_at,
    ${isoTextSql('o.shipped_at')} AS shipped_at, ${isoTextSql('o.cancelled_at')} AS cancelled_at
  FROM orders o`;

type CarrierOrderRow = CarrierOrder & { id: number };
const withoutId = ({ id: _id, ...order }: CarrierOrderRow): CarrierOrder => order;

async function carrierOrderByRef(db: Queryable, caller: ClientCarrierCaller, ref: string) {
  const [order] = await db.query<CarrierOrderRow>(
    `${CARRIER_ORDER_SQL} WHERE o.client_carrier_id = $1 AND o.external_ref = $2`,
    [caller.clientCarrierId, ref],
  );
  return order ?? null;
}

/** One of the caller's orders by its reference; another carrier's is as unknown as none (404). */
export async function getCarrierOrder(db: Queryable, caller: ClientCarrierCaller, ref: string) {
  const order = await carrierOrderByRef(db, caller, ref);
  if (!order) throw new NotFoundError(`You have no order with the reference ${ref}.`);
  return withoutId(order);
}

/** The caller's orders in the order they last changed, after a page's `next`. */
export async function listCarrierOrderChanges(
  db: Queryable,
  caller: ClientCarrierCaller,
  query: { after?: string | undefined; limit?: number | undefined },
) {
  const limit = query.limit ?? 100;
  const after = decodeCursor(query.after);
  const from = after.kind === 'after' ? after : null;
  const rows = await db.query<CarrierOrderRow & { changed: string }>(
    `${CARRIER_ORDER_SQL.replace('SELECT o.id,', 'SELECT o.id, o.updated_at::text AS changed,')}
     WHERE o.client_carrier_id = $1 AND o.external_ref IS NOT NULL
       AND ($2::timestamptz IS NULL OR (o.updated_at, o.id) > ($2::timestamptz, $3::bigint))
     ORDER BY o.updated_at, o.id LIMIT $4`,
    [caller.clientCarrierId, from?.key ?? null, from?.id ?? null, limit],
  );
  const last = rows.at(-1);
  return {
    items: rows.map(({ changed: _changed, ...order }) => withoutId(order)),
    next: last && rows.length === limit ? encodeCursor('after', last.changed, last.id) : null,
  };
}

const fulfilmentOf = (request: CarrierOrderRequest): (typeof CARRIER_FULFILMENT_TYPES)[number] =>
  request.fulfilment_type ?? (request.program === 'prepaid' ? 'prepaid' : 'new_lifeline');

/**
 * The lines of a carrier's order: each SKU a device variant, priced by the carrier's plan for the
 * subscriber's programme and state today, taken from the variant's live carrier listing when
 * there is one; and the plan the first line's price names (what a prepaid customer bought). 422
 * for what no order can be made of (unknown SKU, no price in effect).
 */
async function pricedLines(
  tx: Transaction,
  caller: ClientCarrierCaller,
  request: CarrierOrderRequest,
): Promise<{ lines: IntakeLine[]; planName: string | null }> {
  const sellables = await sellablesBySku(
    tx,
    request.items.map((item) => item.sku),
  );
  const [today] = await tx.query<{ day: string }>('SELECT plan_price_today()::text AS day');
  const errors: Record<string, string[]> = {};
  const lines: IntakeLine[] = [];
  let planName: string | null = null;
  for (const [n, item] of request.items.entries()) {
    const sellable = sellables.get(item.sku.trim().toUpperCase());
    if (!sellable || sellable.kind !== 'variant' || sellable.status !== 'active') {
      errors[`items.${n}.sku`] = [`${item.sku} is not a device SKU on sale.`];
      continue;
    }
    const [variant] = await tx.query<{ model_id: number; listing_id: number | null }>(
      `SELECT p.model_id::int AS model_id,
         (SELECT l.id::int FROM pts_listings l WHERE l.variant_id = v.id AND l.channel = 'carrier'
          AND l.status = 'live' ORDER BY l.id LIMIT 1) AS listing_id
       FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = $1`,
      [sellable.id],
    );
    const price = await effectivePlanPrice(
      tx,
      {
        carrierId: caller.clientCarrierId,
        programme: request.program,
        state: request.subscriber.service_address.state,
        modelId: variant!.model_id,
        variantId: sellable.id,
      },
      today!.day,
    );
    if (!price) {
      errors[`items.${n}.sku`] = [
        `No ${request.program} price of yours for ${sellable.sku} in ${request.subscriber.service_address.state} is in effect today.`,
      ];
      continue;
    }
    planName ??= price.plan_name;
    lines.push({
      sellable: { kind: 'variant', id: sellable.id },
      listingId: variant!.listing_id,
      qty: item.qty,
      unitPriceCents: price.device_price_cents,
    });
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { lines, planName };
}

/**
 * Takes a carrier's approved enrolment as an order, once per idempotency key (decision 0025):
 * priced by the carrier's plan, then through the one intake every channel uses (validation,
 * listing caps, stock; what fails goes on hold, the order is kept). A reference already used is a
 * 409 naming the order, whatever the key.
 */
export async function createCarrierOrder(
  db: Db,
  caller: ClientCarrierCaller,
  idempotencyKey: string | undefined,
  request: CarrierOrderRequest,
  meta: RequestMeta,
): Promise<{ order: CarrierOrder; replayed: boolean }> {
  const { data, replayed } = await runIdempotent(
    db,
    caller,
    idempotencyKey,
    { method: 'POST', path: '/carrier/orders', body: request },
    async (tx) => {
      const existing = await carrierOrderByRef(tx, caller, request.external_ref);
      if (existing) {
        throw new ConflictError(
          `Your order ${request.external_ref} was taken already as ${existing.number}; read it with GET /carrier/orders/${request.external_ref}.`,
        );
      }
      const { subscriber } = request;
      const fulfilmentType = fulfilmentOf(request);
      if (request.payment_status && fulfilmentType !== 'prepaid') {
        throw new ValidationError({
          payment_status: ['Only a prepaid order carries a payment status.'],
        });
      }
      const { lines, planName } = await pricedLines(tx, caller, request);
      const created = await createOrder(
        tx,
        { actor: clientCarrierActor(caller), meta },
        {
          source: 'carrier_api',
          fulfilmentType,
          clientCarrierId: caller.clientCarrierId,
          program: request.program,
          customer: {
            subscriber: {
              externalId: subscriber.external_id,
              firstName: subscriber.first_name,
              lastName: subscriber.last_name,
              phone: subscriber.phone ?? null,
              serviceAddress: subscriber.service_address,
            },
          },
          shipTo: request.ship_to ?? {
            name: `${subscriber.first_name} ${subscriber.last_name}`,
            company: null,
            ...subscriber.service_address,
            phone: subscriber.phone ?? null,
          },
          ...(request.ship_method && { shipMethod: request.ship_method }),
          externalRef: request.external_ref,
          // Sent once paid unless the carrier says the card is only authorised.
          paymentStatus: request.payment_status ?? 'captured',
          planName,
          lines,
        },
      );
      const [order] = await tx.query<CarrierOrderRow>(`${CARRIER_ORDER_SQL} WHERE o.id = $1`, [
        created.id,
      ]);
      return withoutId(order!);
    },
  );
  return { order: data, replayed };
}

/**
 * The carrier reports where a prepaid order's payment stands (its capture after an
 * authorisation, a decline, a refund): the same status again is a no-op, a change the payment
 * cannot take a 409. Answers the order as the carrier reads it.
 */
export async function reportCarrierPayment(
  db: Db,
  caller: ClientCarrierCaller,
  ref: string,
  payment: { status: PaymentStatus; reference?: string | null | undefined },
  meta: RequestMeta,
): Promise<CarrierOrder> {
  return db.transaction(async (tx) => {
    const order = await carrierOrderByRef(tx, caller, ref);
    if (!order) throw new NotFoundError(`You have no order with the reference ${ref}.`);
    const { changed } = await changePayment(
      tx,
      { actor: clientCarrierActor(caller), meta },
      order.id,
      payment.status,
      { by: 'carrier', note: payment.reference },
    );
    return changed ? getCarrierOrder(tx, caller, ref) : withoutId(order);
  });
}
