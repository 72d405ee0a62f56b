import {
  addressKey,
  BENEFIT_TYPES,
  type FulfilmentType,
  type OrderCreated,
  type OrderHoldReason,
  type OrderProgram,
  type OrderSource,
  type ORDER_PRIORITIES,
  type PaymentStatus,
  type SHIP_METHODS,
  type ShipTo,
  type UsAddress,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import { ConflictError, ValidationError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { runTransition } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { ListingReservationError, reserveListing } from '../pts/index.js';
import { orderStore } from './order-lifecycle.js';
import { serviceAddressProblems, zipProblems } from './us-zip.js';

/**
 * Order intake (DOMAIN.md 5.2 steps 1-2), the one way every channel creates an order: the
 * subscriber (or retailer), the order with its ship-to and lines at the prices the channel
 * resolved, the listings' units reserved, and validation, all in the caller's transaction. An
 * order that fails validation is kept, on hold with the reason, for the backlog queue.
 */

/** Who creates the order: the signed-in caller of the channel's request. */
export type IntakeActor = Acting;

/** A sellable: one of a product variant, a bundle or a combo (migration 0033). */
export type Sellable =
  | { readonly kind: 'variant'; readonly id: number }
  | { readonly kind: 'bundle'; readonly id: number }
  | { readonly kind: 'combo'; readonly id: number };

export type IntakeLine = {
  readonly sellable: Sellable;
  /** The listing whose cap the line takes units of; none for an order outside any listing. */
  readonly listingId: number | null;
  readonly qty: number;
  /** The price the channel resolved (listing, government plan, offer), kept as sold. */
  readonly unitPriceCents: number;
  /**
   * The device one of the line's units should ship (a reship of the unit that came back): the
   * assignment reserves it if it is available then, else any matching one (reservation.ts).
   */
  readonly requestedDeviceId?: number | null;
};

/** A subscriber as the carrier enrols them (PII); the service address already normalised. */
export type SubscriberIntake = {
  readonly externalId: string | null;
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string | null;
  readonly serviceAddress: UsAddress;
};

export type OrderIntake = {
  readonly source: OrderSource;
  readonly fulfilmentType: FulfilmentType;
  /** A vendor of type carrier-client; required for a subscriber's order. */
  readonly clientCarrierId: number | null;
  readonly program: OrderProgram | null;
  /** A subscriber as the channel gives them, one already kept (a support order), or a retailer. */
  readonly customer:
    | { readonly subscriber: SubscriberIntake }
    | { readonly subscriberId: number }
    | { readonly retailerId: number };
  readonly shipTo: ShipTo;
  readonly shipMethod?: (typeof SHIP_METHODS)[number];
  readonly priority?: (typeof ORDER_PRIORITIES)[number];
  readonly slaDueAt?: Date | null;
  /** The channel's reference (the carrier's order number): unique per client carrier. */
  readonly externalRef?: string | null;
  readonly campaignId?: number | null;
  readonly parentOrderId?: number | null;
  /** An existing customer's device change that swaps the SIM too (migration 0058). */
  readonly simSwap?: boolean;
  readonly shippingCents?: number;
  /**
   * A prepaid order's payment as the channel reports it (migration 0075). Left out, it was taken
   * where the order was sold (a campaign billed to the client, an order staff enter once paid, a
   * reship at no price): captured. Other orders carry none.
   */
  readonly paymentStatus?: PaymentStatus;
  /** The plan a prepaid customer bought, as the channel priced it. */
  readonly planName?: string | null;
  readonly notes?: string | null;
  readonly lines: readonly IntakeLine[];
  /**
   * A cart's checkout (web-orders.service.ts): the order stays pending, unvalidated and with no
   * units reserved, for the caller to reserve and for staff to approve on /dashboard/web-order.
   */
  readonly awaitsApproval?: boolean;
};

/** A sellable's SKU and its name as sold (kept on the line). */
const SELLABLE_SQL = `
  SELECT s.n, s.kind, s.id,
    CASE s.kind
      WHEN 'variant' THEN (SELECT v.sku FROM product_variants v WHERE v.id = s.id)
      WHEN 'bundle' THEN (SELECT b.sku FROM bundles b WHERE b.id = s.id)
      ELSE (SELECT c.sku FROM combos c WHERE c.id = s.id) END AS sku,
    CASE s.kind
      WHEN 'variant' THEN (
        SELECT concat_ws(' ', p.name,
          CASE WHEN v.capacity_gb IS NOT NULL THEN v.capacity_gb || ' GB' END,
          (SELECT co.name FROM colors co WHERE co.id = v.color_id), v.grade, v.carrier_lock)
        FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = s.id)
      WHEN 'bundle' THEN (SELECT b.name FROM bundles b WHERE b.id = s.id)
      ELSE (SELECT c.name FROM combos c WHERE c.id = s.id) END AS description,
    (SELECT l.id FROM pts_listings l WHERE l.id = s.listing_id) AS listing_id,
    (SELECT CASE s.kind WHEN 'variant' THEN l.variant_id WHEN 'bundle' THEN l.bundle_id
       ELSE l.combo_id END FROM pts_listings l WHERE l.id = s.listing_id) AS listing_sellable
  FROM unnest($1::int[], $2::text[], $3::bigint[], $4::bigint[]) AS s (n, kind, id, listing_id)`;

type SellableRow = {
  n: number;
  kind: Sellable['kind'];
  id: number;
  sku: string | null;
  description: string | null;
  listing_id: number | null;
  listing_sellable: number | null;
};

/** Refuses (422) what no order can be made of: unknown carrier, retailer, items or listings. */
async function checkReferences(tx: Transaction, input: OrderIntake): Promise<SellableRow[]> {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (input.lines.length === 0) add('lines', 'Add at least one item.');
  if (!('retailerId' in input.customer)) {
    if (input.clientCarrierId === null) add('client_carrier_id', 'Choose the client carrier.');
    if (input.program === null) add('program', 'Choose the programme.');
  }
  if (input.clientCarrierId !== null) {
    const [carrier] = await tx.query(
      `SELECT 1 FROM vendors WHERE id = $1 AND type = 'carrier-client' AND active`,
      [input.clientCarrierId],
    );
    if (!carrier) add('client_carrier_id', 'Choose an active client carrier.');
  }
  if ('retailerId' in input.customer) {
    const [retailer] = await tx.query(`SELECT 1 FROM retailers WHERE id = $1`, [
      input.customer.retailerId,
    ]);
    if (!retailer) add('retailer_id', 'Choose a retailer.');
  }
  const rows = await tx.query<SellableRow>(SELLABLE_SQL, [
    input.lines.map((_, n) => n),
    input.lines.map((line) => line.sellable.kind),
    input.lines.map((line) => line.sellable.id),
    input.lines.map((line) => line.listingId),
  ]);
  for (const row of rows) {
    const line = input.lines[row.n]!;
    if (row.sku === null) add(`lines.${row.n}`, `There is no ${row.kind} with id ${row.id}.`);
    else if (line.listingId !== null && row.listing_id === null) {
      add(`lines.${row.n}`, `There is no listing with id ${line.listingId}.`);
    } else if (line.listingId !== null && row.listing_sellable !== row.id) {
      add(`lines.${row.n}`, `Listing ${line.listingId} does not sell ${row.sku}.`);
    }
  }
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  return rows;
}

/** Keeps the subscriber: one row per carrier and enrolment number, brought up to date. */
async function keepSubscriber(
  tx: Transaction,
  carrierId: number,
  program: OrderProgram,
  subscriber: SubscriberIntake,
): Promise<number> {
  const address = subscriber.serviceAddress;
  const values = [
    carrierId,
    program,
    subscriber.externalId,
    subscriber.firstName,
    subscriber.lastName,
    subscriber.phone,
    address.line1,
    address.line2 ?? null,
    address.city,
    address.state,
    address.zip,
    addressKey(address),
  ];
  const [row] = await tx.query<{ id: number }>(
    `INSERT INTO subscribers (client_carrier_id, program, external_id, first_name, last_name, phone,
       service_line1, service_line2, service_city, service_state, service_zip, service_address_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (client_carrier_id, external_id) WHERE external_id IS NOT NULL DO UPDATE SET
       program = EXCLUDED.program, first_name = EXCLUDED.first_name,
       last_name = EXCLUDED.last_name, phone = EXCLUDED.phone,
       service_line1 = EXCLUDED.service_line1, service_line2 = EXCLUDED.service_line2,
       service_city = EXCLUDED.service_city, service_state = EXCLUDED.service_state,
       service_zip = EXCLUDED.service_zip, service_address_key = EXCLUDED.service_address_key,
       updated_at = now()
     RETURNING id`,
    values,
  );
  return row!.id;
}

/** Why an order cannot go ahead: the first reason by precedence, and every finding in words. */
export type ValidationFailure = { readonly reason: OrderHoldReason; readonly note: string };

type OrderFacts = {
  id: number;
  client_carrier_id: number | null;
  program: OrderProgram | null;
  fulfilment_type: FulfilmentType;
  parent_order_id: number | null;
  subscriber_id: number | null;
  external_id: string | null;
  service_address_key: string | null;
  service_line1: string | null;
  service_line2: string | null;
  service_city: string | null;
  service_state: string | null;
  service_zip: string | null;
  ship_state: string;
  ship_zip: string;
};

const describe = (problems: Record<string, string[]>) => Object.values(problems).flat().join(' ');

/**
 * Validates an order (DOMAIN.md 5.2 step 2) and reserves what its lines still lack of their
 * listings' caps: the ship-to's ZIP lies in its state; a subscriber's service address too, and
 * it is no PO box; no other open benefit order of the same carrier programme for the same
 * subscriber or service address; the listings have the units and the sellables the stock.
 * Answers null when the order may go ahead, else why not (address before duplicate before stock).
 */
export async function validateOrder(
  tx: Transaction,
  by: IntakeActor,
  orderId: number,
): Promise<ValidationFailure | null> {
  const [order] = await tx.query<OrderFacts>(
    `SELECT o.id, o.client_carrier_id, o.program, o.fulfilment_type, o.parent_order_id,
       o.subscriber_id, s.external_id, s.service_address_key, s.service_line1, s.service_line2,
       s.service_city, s.service_state, s.service_zip, t.state AS ship_state, t.zip AS ship_zip
     FROM orders o JOIN order_ship_to t ON t.order_id = o.id
     LEFT JOIN subscribers s ON s.id = o.subscriber_id
     WHERE o.id = $1`,
    [orderId],
  );
  if (!order) throw new Error(`Order ${orderId} has no ship-to.`);
  const found: { reason: OrderHoldReason; words: string }[] = [];

  const shipTo = zipProblems({
    state: order.ship_state as UsAddress['state'],
    zip: order.ship_zip,
  });
  if (Object.keys(shipTo).length > 0) {
    found.push({ reason: 'address', words: `Ship-to: ${describe(shipTo)}` });
  }
  if (order.service_line1 !== null) {
    const service = serviceAddressProblems({
      line1: order.service_line1,
      line2: order.service_line2,
      city: order.service_city!,
      state: order.service_state as UsAddress['state'],
      zip: order.service_zip!,
    });
    if (Object.keys(service).length > 0) {
      found.push({ reason: 'address', words: `Service address: ${describe(service)}` });
    }
  }

  if (
    order.subscriber_id !== null &&
    order.parent_order_id === null &&
    BENEFIT_TYPES.includes(order.fulfilment_type)
  ) {
    // Two intakes for one subscriber or address at once: the second waits for the first's commit.
    const keys = [`id:${order.external_id ?? `#${order.subscriber_id}`}`];
    keys.push(`address:${order.service_address_key}`);
    for (const key of keys.sort()) {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
        `order-benefit:${order.client_carrier_id}:${key}`,
      ]);
    }
    const others = await tx.query<{ number: string; same: 'subscriber' | 'address' }>(
      `SELECT o.number,
         CASE WHEN o.subscriber_id = $2 OR s.external_id = $3 THEN 'subscriber' ELSE 'address' END
           AS same
       FROM subscribers s JOIN orders o ON o.subscriber_id = s.id
       WHERE s.client_carrier_id = $4
         AND (s.id = $2 OR s.external_id = $3 OR s.service_address_key = $5)
         AND o.id <> $1 AND o.client_carrier_id = $4 AND o.program = $6
         AND o.parent_order_id IS NULL AND o.fulfilment_type = ANY ($7::text[])
         AND o.status NOT IN ('cancelled', 'closed')
       ORDER BY o.id LIMIT 3`,
      [
        order.id,
        order.subscriber_id,
        order.external_id,
        order.client_carrier_id,
        order.service_address_key,
        order.program,
        BENEFIT_TYPES,
      ],
    );
    if (others.length > 0) {
      const named = others.map(({ number, same }) => `${number} (same ${same})`).join(', ');
      found.push({
        reason: 'duplicate_benefit',
        words: `One benefit per subscriber and address: open order ${named}.`,
      });
    }
  }

  // Listing caps, in listing id order (two intakes of the same listings never deadlock), then
  // stock, counted up to what each line needs. Stock is of devices: an accessory or SIM kit is
  // counted stock the pick confirms by hand, which no order reserves.
  const lines = await tx.query<{
    id: number;
    sku: string;
    listing_id: number | null;
    qty: number;
    qty_reserved: number;
    available: number;
  }>(
    `SELECT l.id, l.sku, l.listing_id, l.qty, l.qty_reserved,
       CASE WHEN (SELECT p.kind FROM product_variants v JOIN products p ON p.id = v.product_id
                  WHERE v.id = l.variant_id) <> 'device' THEN l.qty
         ELSE pts_sellable_up_to(l.variant_id, l.bundle_id, l.combo_id, l.qty)::int END AS available
     FROM order_lines l WHERE l.order_id = $1
     ORDER BY l.listing_id NULLS LAST, l.position`,
    [orderId],
  );
  for (const line of lines) {
    const missing = line.qty - line.qty_reserved;
    if (line.listing_id === null || missing === 0) continue;
    try {
      await reserveListing(tx, by, line.listing_id, missing, { type: 'order', id: orderId });
      await tx.query(`UPDATE order_lines SET qty_reserved = qty WHERE id = $1`, [line.id]);
    } catch (error) {
      if (!(error instanceof ListingReservationError)) throw error;
      found.push({ reason: 'no_stock', words: `${line.sku}: ${error.message}` });
    }
  }
  for (const line of lines) {
    if (line.available < line.qty) {
      found.push({
        reason: 'no_stock',
        words: `${line.sku}: ${line.available} in stock, ${line.qty} needed.`,
      });
    }
  }

  if (found.length === 0) return null;
  const precedence: OrderHoldReason[] = ['address', 'duplicate_benefit', 'no_stock'];
  const reason = precedence.find((candidate) => found.some((f) => f.reason === candidate))!;
  return { reason, note: found.map((f) => f.words).join(' ') };
}

/** Moves a pending order to ready, or on hold with why: what intake and release end with. */
export async function settleValidation(
  tx: Transaction,
  { actor, meta }: IntakeActor,
  orderId: number,
  failure: ValidationFailure | null,
) {
  return failure
    ? runTransition(tx, orderStore, {
        id: orderId,
        action: 'hold',
        actor,
        meta,
        reason: failure.reason,
        data: { note: failure.note, by: 'validation' },
        columns: { hold_note: failure.note },
      })
    : runTransition(tx, orderStore, { id: orderId, action: 'validate', actor, meta });
}

/**
 * Creates an order from any channel and validates it, in the caller's transaction. 422 for what
 * no order can be made of (an unknown item, listing, carrier or retailer, no lines), 409 for a
 * client carrier's reference already used; every other problem leaves the order on hold with
 * its reason. Answers the order's number and where validation left it.
 */
export async function createOrder(
  tx: Transaction,
  by: IntakeActor,
  input: OrderIntake,
): Promise<OrderCreated> {
  const sellables = await checkReferences(tx, input);
  const subscriberId =
    'subscriber' in input.customer
      ? await keepSubscriber(tx, input.clientCarrierId!, input.program!, input.customer.subscriber)
      : 'subscriberId' in input.customer
        ? input.customer.subscriberId
        : null;
  const subtotal = input.lines.reduce((sum, line) => sum + line.qty * line.unitPriceCents, 0);
  const shipping = input.shippingCents ?? 0;
  const inserted = await tx
    .query<{ id: number; number: string }>(
      `INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
         retailer_id, ship_method, priority, sla_due_at, external_ref, campaign_id,
         parent_order_id, subtotal_cents, shipping_cents, total_cents, notes, created_by, sim_swap,
         payment_status, plan_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $13::bigint + $14::bigint, $15, $16, $17, $18, $19)
       RETURNING id, number`,
      [
        input.source,
        input.fulfilmentType,
        input.clientCarrierId,
        input.program,
        subscriberId,
        'retailerId' in input.customer ? input.customer.retailerId : null,
        input.shipMethod ?? 'ground',
        input.priority ?? 'normal',
        input.slaDueAt ?? null,
        input.externalRef ?? null,
        input.campaignId ?? null,
        input.parentOrderId ?? null,
        subtotal,
        shipping,
        input.notes ?? null,
        by.actor.userId,
        input.simSwap ?? false,
        input.fulfilmentType === 'prepaid' ? (input.paymentStatus ?? 'captured') : null,
        input.fulfilmentType === 'prepaid' ? (input.planName ?? null) : null,
      ],
    )
    .catch((error: unknown) => {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === '23505' && constraint === 'orders_external_ref_key') {
        throw new ConflictError(
          `The client carrier's order ${input.externalRef} is received already.`,
        );
      }
      throw error;
    });
  const order = inserted[0]!;
  const { shipTo } = input;
  await tx.query(
    `INSERT INTO order_ship_to (order_id, name, company, line1, line2, city, state, zip, phone)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      order.id,
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
  // The lines' listings locked first, in id order: a line's foreign key takes a share lock on its
  // listing, and the sale of a listing's last unit (sold out) then needs the whole row, which two
  // intakes holding share locks on it would each wait for (a deadlock).
  await tx.query(
    `SELECT id FROM pts_listings WHERE id = ANY ($1::bigint[]) ORDER BY id FOR UPDATE`,
    [sellables.flatMap((row) => (row.listing_id === null ? [] : [row.listing_id]))],
  );
  await tx.query(
    `INSERT INTO order_lines (order_id, position, variant_id, bundle_id, combo_id, sku,
       description, listing_id, qty, unit_price_cents, requested_device_id)
     SELECT $1, s.n + 1, s.variant_id, s.bundle_id, s.combo_id, s.sku, s.description,
       s.listing_id, s.qty, s.price, s.device_id
     FROM unnest($2::int[], $3::bigint[], $4::bigint[], $5::bigint[], $6::text[], $7::text[],
       $8::bigint[], $9::int[], $10::bigint[], $11::bigint[])
       AS s (n, variant_id, bundle_id, combo_id, sku, description, listing_id, qty, price,
         device_id)`,
    [
      order.id,
      sellables.map((row) => row.n),
      ...(['variant', 'bundle', 'combo'] as const).map((kind) =>
        sellables.map((row) => (row.kind === kind ? row.id : null)),
      ),
      sellables.map((row) => row.sku),
      sellables.map((row) => row.description ?? row.sku),
      sellables.map((row) => row.listing_id),
      sellables.map((row) => input.lines[row.n]!.qty),
      sellables.map((row) => input.lines[row.n]!.unitPriceCents),
      sellables.map((row) => input.lines[row.n]!.requestedDeviceId ?? null),
    ],
  );
  const data = { source: input.source, fulfilment_type: input.fulfilmentType };
  await tx.query(
    `INSERT INTO order_events (order_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'received', 'pending', $4::jsonb)`,
    [order.id, by.actor.userId, by.actor.userName, JSON.stringify(data)],
  );
  await recordAudit(tx, {
    ...auditActor(by.actor, by.meta),
    action: 'order.created',
    entityType: 'order',
    entityId: order.id,
    after: {
      number: order.number,
      ...data,
      lines: input.lines.length,
      total_cents: subtotal + shipping,
    },
  });
  if (input.awaitsApproval) {
    return { ...order, status: 'pending', hold_reason: null, hold_note: null };
  }
  const failure = await validateOrder(tx, by, order.id);
  const step = await settleValidation(tx, by, order.id, failure);
  return {
    id: order.id,
    number: order.number,
    status: step.to,
    hold_reason: failure?.reason ?? null,
    hold_note: failure?.note ?? null,
  };
}
