import {
  OPEN_ORDER_STATUSES,
  orderLifecycle,
  type CreditTerms,
  type ShipTo,
  type OrderDetail,
  type SHIP_METHODS,
  type ShopCatalogue,
  type ShopItem,
  type WebOrder,
  type WebOrderItemType,
  type WebOrderPlaced,
  WEB_ORDER_QUEUE_MAX,
  type checkoutSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ApiError, ConflictError, NotFoundError, ValidationError } from '../../http/errors.js';
import type { Actor, Principal, RequestMeta } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransition, runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import {
  availableStock,
  ListingReservationError,
  reserveListing,
  sellablesBySku,
  type SellableKind,
} from '../pts/index.js';
import { assessCredit, checkCredit, type CreditStanding } from '../retail/index.js';
import { createOrder, validateOrder } from './intake.js';
import { orderStore, writeOrderEvent } from './order-lifecycle.js';
import { orderDetail } from './orders.service.js';

/*
 * Web orders (DOMAIN.md 4.1 /dashboard/web-order, 2.2 Cart, 7 Shop). Who may buy: a retailer's
 * portal user (retailer_portal_users) buys from the retailer channel; an agent (user type agent
 * holding agent.cart) linked there to the dealer they work for buys from the web channel. Either
 * way the order's customer is that retailer: its credit, its default shipping address, its price
 * tier's listings. A checkout is one pending order (source web, wholesale) at the listings'
 * prices, its units held on the listings' caps until staff approve it (ready), reject it, or the
 * hold passes and the sweep cancels it.
 */

/** A signed-in person's request: a web order is placed and decided by people, never by a system. */
type ByPerson = { readonly actor: Principal; readonly meta: RequestMeta };

type Customer = {
  retailerId: number;
  name: string;
  channel: 'retailer' | 'web';
  priceTier: string;
  creditTerms: CreditTerms;
};

/** The account the caller buys for, or null when they are no retailer's user or shopping agent. */
async function customerOf(db: Queryable, actor: Principal): Promise<Customer | null> {
  if (actor.type === 'agent' && !actor.permissions.includes('agent.cart')) return null;
  const [row] = await db.query<{
    id: number;
    name: string;
    price_tier: string;
    credit_terms: Customer['creditTerms'];
  }>(
    `SELECT r.id::int AS id, r.name, r.price_tier, r.credit_terms
     FROM retailer_portal_users p JOIN retailers r ON r.id = p.retailer_id
     WHERE p.user_id = $1`,
    [actor.userId],
  );
  if (!row) return null;
  return {
    retailerId: row.id,
    name: row.name,
    channel: actor.type === 'agent' ? 'web' : 'retailer',
    priceTier: row.price_tier,
    creditTerms: row.credit_terms,
  };
}

const NOT_A_CUSTOMER =
  "Checking out is for retailers' portal users and agents linked to a dealer's account.";

const KIND_OF_TYPE: Record<WebOrderItemType, SellableKind> = {
  product: 'variant',
  bundle: 'bundle',
  combo: 'combo',
};

type ListingRow = {
  listing_id: number;
  type: WebOrderItemType;
  sellable_id: number;
  variant_id: number | null;
  sku: string;
  unit_price_cents: number;
  listing_left: number;
  allow_backorder: boolean;
  /** Live, within its dates: on sale now. */
  on_sale: boolean;
  /** On the customer's channel and for their price tier. */
  visible: boolean;
};

/**
 * A listing selling now: live within its dates, or sold out (its last units held by orders, which
 * it still sells).
 */
const ON_SALE = (listing: string) =>
  `(${listing}.status IN ('live', 'sold_out') AND (${listing}.starts_at IS NULL OR ${listing}.starts_at <= now())
    AND (${listing}.ends_at IS NULL OR ${listing}.ends_at > now()))`;

const LISTING_SQL = `
  SELECT l.id::int AS listing_id,
    CASE WHEN l.variant_id IS NOT NULL THEN 'product'
      WHEN l.bundle_id IS NOT NULL THEN 'bundle' ELSE 'combo' END AS type,
    COALESCE(l.variant_id, l.bundle_id, l.combo_id)::int AS sellable_id,
    l.variant_id::int AS variant_id,
    COALESCE((SELECT v.sku FROM product_variants v WHERE v.id = l.variant_id),
      (SELECT b.sku FROM bundles b WHERE b.id = l.bundle_id),
      (SELECT c.sku FROM combos c WHERE c.id = l.combo_id)) AS sku,
    l.price_cents::int AS unit_price_cents,
    (l.qty_pushed - l.qty_reserved - l.qty_sold)::int AS listing_left, l.allow_backorder,
    ${ON_SALE('l')} AS on_sale,
    l.channel = $1 AND (cardinality(l.visibility) = 0 OR $2 = ANY (l.visibility)) AS visible
  FROM pts_listings l`;

const sellableOf = (row: ListingRow) => ({ kind: KIND_OF_TYPE[row.type], id: row.sellable_id });
const stockKey = (row: ListingRow) => `${KIND_OF_TYPE[row.type]}:${row.sellable_id}`;

/** What can be bought of a listing now: what it has left, capped by the sellable stock. */
const canBuy = (row: ListingRow, stock: number) =>
  Math.max(0, row.allow_backorder ? stock : Math.min(row.listing_left, stock));

/** How many listings the shop shows: the first by SKU. */
const SHOP_SIZE = 200;

/**
 * The caller's shop: the listings on sale (sold-out ones too) of their channel visible to their
 * price tier, with the price and what can be bought now. A caller who is no customer gets no
 * customer and no items.
 */
export async function shopCatalogue(db: Queryable, actor: Principal): Promise<ShopCatalogue> {
  const customer = await customerOf(db, actor);
  if (!customer) return { customer: null, items: [] };
  const rows = await db.query<ListingRow>(
    `SELECT * FROM (${LISTING_SQL}
       WHERE l.channel = $1 AND l.status IN ('live', 'sold_out')) x
     WHERE on_sale AND visible ORDER BY sku, listing_id LIMIT ${SHOP_SIZE}`,
    [customer.channel, customer.priceTier],
  );
  const [names, stock] = await Promise.all([
    sellablesBySku(
      db,
      rows.map((row) => row.sku),
    ),
    availableStock(db, rows.map(sellableOf)),
  ]);
  const items: ShopItem[] = rows.map((row) => ({
    listing_id: row.listing_id,
    type: row.type,
    sellable_id: row.sellable_id,
    variant_id: row.variant_id,
    sku: row.sku,
    name: names.get(row.sku)?.name ?? row.sku,
    unit_price_cents: row.unit_price_cents,
    available: canBuy(row, stock.get(stockKey(row)) ?? 0),
  }));
  return {
    customer: {
      retailer_id: customer.retailerId,
      name: customer.name,
      channel: customer.channel,
      credit_terms: customer.creditTerms,
    },
    items,
  };
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The value of a retailer's open orders besides the one at hand. */
export async function openExposure(
  tx: Queryable,
  retailerId: number,
  exceptOrderId: number | null,
) {
  const [row] = await tx.query<{ cents: number }>(
    `SELECT COALESCE(sum(total_cents), 0)::float8 AS cents FROM orders
     WHERE retailer_id = $1 AND status = ANY ($2::text[]) AND id IS DISTINCT FROM $3`,
    [retailerId, OPEN_ORDER_STATUSES, exceptOrderId],
  );
  return Number(row!.cents);
}

/** A credit standing that refuses an order, in words; null when it may go ahead. */
export const creditRefusal = (standing: CreditStanding) =>
  standing.decision === 'inactive' || standing.decision === 'over_limit' ? standing.reason : null;

/**
 * Where a retailer's orders ship: its default shipping address (else its first), with its main
 * contact's phone, addressed to the retailer by name; null when it has no shipping address.
 */
export async function retailerShipTo(
  tx: Queryable,
  retailerId: number,
  name: string,
): Promise<ShipTo | null> {
  const [address] = await tx.query<{
    line1: string;
    line2: string | null;
    city: string;
    state: ShipTo['state'];
    zip: string;
    phone: string | null;
  }>(
    `SELECT a.line1, a.line2, a.city, a.state, a.zip,
       (SELECT c.phone FROM retailer_contacts c WHERE c.retailer_id = a.retailer_id
        ORDER BY c.is_main DESC, c.id LIMIT 1) AS phone
     FROM retailer_addresses a WHERE a.retailer_id = $1 AND a.kind = 'shipping'
     ORDER BY a.is_default DESC, a.id LIMIT 1`,
    [retailerId],
  );
  return address ? { name, company: null, ...address } : null;
}

/**
 * Checks the cart out (DOMAIN.md 5.2 step 1): one pending web order for the caller's retailer,
 * each line at its listing's price now, the listings' units held until approval or expiry.
 * 403 for a caller who is no customer; 422 for what is not in their shop; 409 when a listing is
 * no longer on sale or sold out, its price changed from what the buyer saw, the stock is short,
 * the credit limit is passed or the retailer has nowhere to ship to. All or nothing.
 */
export async function checkout(
  tx: Transaction,
  by: ByPerson,
  input: z.output<typeof checkoutSchema>,
): Promise<WebOrderPlaced> {
  const customer = await customerOf(tx, by.actor);
  if (!customer) throw new ApiError(403, NOT_A_CUSTOMER);
  const problems: Record<string, string[]> = {};
  const seen = new Set<number>();
  input.items.forEach((item, n) => {
    if (seen.has(item.id)) problems[`items.${n}`] = ['This item is in the cart twice.'];
    seen.add(item.id);
  });
  const rows = await tx.query<ListingRow>(`${LISTING_SQL} WHERE l.id = ANY ($3::bigint[])`, [
    customer.channel,
    customer.priceTier,
    input.items.map((item) => item.id),
  ]);
  const listings = new Map(rows.map((row) => [row.listing_id, row]));
  input.items.forEach((item, n) => {
    const listing = listings.get(item.id);
    const add = (message: string) => (problems[`items.${n}`] ??= []).push(message);
    if (!listing?.visible) add('This item is not sold in your shop.');
    else if (listing.type !== item.type) add(`Item ${listing.sku} is a ${listing.type}.`);
    else if (item.variant_id != null && item.variant_id !== listing.variant_id) {
      add(`Item ${listing.sku} is not that variant.`);
    }
  });
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);

  const lines = input.items.map((item) => ({ item, listing: listings.get(item.id)! }));
  const stock = await availableStock(
    tx,
    lines.map(({ listing }) => sellableOf(listing)),
  );
  const conflicts: string[] = [];
  for (const { item, listing } of lines) {
    if (!listing.on_sale) conflicts.push(`${listing.sku} is no longer on sale.`);
    else if (
      item.unit_price_cents !== undefined &&
      item.unit_price_cents !== listing.unit_price_cents
    ) {
      conflicts.push(
        `The price of ${listing.sku} changed from ${dollars(item.unit_price_cents)} to ${dollars(listing.unit_price_cents)}: check your cart again.`,
      );
    } else {
      const left = canBuy(listing, stock.get(stockKey(listing)) ?? 0);
      if (left < item.quantity) {
        conflicts.push(
          left === 0
            ? `${listing.sku} is sold out.`
            : `${listing.sku}: only ${left} can be bought now, not ${item.quantity}.`,
        );
      }
    }
  }
  if (conflicts.length > 0) throw new ConflictError(conflicts.join(' '));

  const total = lines.reduce(
    (sum, { item, listing }) => sum + item.quantity * listing.unit_price_cents,
    0,
  );
  // Locks the retailer: two checkouts of one retailer are checked against its limit in turn.
  const credit = await checkCredit(tx, customer.retailerId, {
    openExposureCents: await openExposure(tx, customer.retailerId, null),
    orderCents: total,
  });
  const refused = creditRefusal(credit);
  if (refused) throw new ConflictError(refused);
  const shipTo = await retailerShipTo(tx, customer.retailerId, customer.name);
  if (!shipTo) {
    throw new ConflictError(
      `${customer.name} has no shipping address: ask your account manager to add one.`,
    );
  }

  const order = await createOrder(tx, by, {
    source: 'web',
    fulfilmentType: 'wholesale',
    clientCarrierId: null,
    program: null,
    customer: { retailerId: customer.retailerId },
    shipTo,
    lines: lines.map(({ item, listing }) => ({
      sellable: sellableOf(listing),
      listingId: listing.listing_id,
      qty: item.quantity,
      unitPriceCents: listing.unit_price_cents,
    })),
    awaitsApproval: true,
  });

  // The listings' units, in listing id order so that two checkouts of the same listings never
  // deadlock; each is one guarded update, so racing checkouts never hold more than was pushed.
  for (const { item, listing } of [...lines].sort(
    (a, b) => a.listing.listing_id - b.listing.listing_id,
  )) {
    try {
      await reserveListing(tx, by, listing.listing_id, item.quantity, {
        type: 'order',
        id: order.id,
      });
    } catch (error) {
      if (!(error instanceof ListingReservationError)) throw error;
      if (error.reason !== 'not_enough') {
        throw new ConflictError(`${listing.sku} is no longer on sale.`);
      }
      const [now] = await tx.query<{ left: number }>(
        `SELECT GREATEST(qty_pushed - qty_reserved - qty_sold, 0)::int AS left
         FROM pts_listings WHERE id = $1`,
        [listing.listing_id],
      );
      throw new ConflictError(
        now!.left === 0
          ? `${listing.sku} is sold out.`
          : `${listing.sku}: only ${now!.left} left, not ${item.quantity}.`,
      );
    }
  }
  await tx.query(
    `UPDATE order_lines SET qty_reserved = qty WHERE order_id = $1 AND listing_id IS NOT NULL`,
    [order.id],
  );
  const [placed] = await tx.query<{ expires_at: string }>(
    `INSERT INTO web_orders (order_id, placed_by, channel, expires_at)
     SELECT $1, $2, $3, now() + make_interval(hours => s.web_order_hold_hours)
     FROM order_settings s
     RETURNING ${isoTextSql('expires_at')} AS expires_at`,
    [order.id, by.actor.userId, customer.channel],
  );
  await writeOrderEvent(tx, order.id, by.actor, 'awaiting_approval', {
    channel: customer.channel,
    expires_at: placed!.expires_at,
  });
  const sold = await tx.query<WebOrderPlaced['lines'][number]>(
    `SELECT sku, description, qty, unit_price_cents::float8 AS unit_price_cents
     FROM order_lines WHERE order_id = $1 ORDER BY position`,
    [order.id],
  );
  return {
    id: order.id,
    number: order.number,
    status: order.status,
    total_cents: total,
    expires_at: placed!.expires_at,
    lines: sold.map((line) => ({ ...line, unit_price_cents: Number(line.unit_price_cents) })),
  };
}

type QueueRow = {
  id: number;
  number: string;
  status: WebOrder['status'];
  retailer_id: number;
  customer: string;
  retailer_status: 'active' | 'inactive';
  credit_terms: WebOrder['credit_terms'];
  credit_limit_cents: number;
  exposure_cents: number;
  placed_by: string | null;
  channel: WebOrder['channel'];
  total_cents: number;
  ship_method: WebOrder['ship_method'];
  created_at: string;
  expires_at: string;
  lines: {
    sku: string;
    description: string;
    qty: number;
    qty_reserved: number;
    unit_price_cents: number;
    listing_left: number | null;
    listing_on_sale: boolean | null;
    in_stock: number;
  }[];
};

/** What is short of a web order's lines now, in words (empty when all can go). */
function shortages(lines: QueueRow['lines']): string[] {
  return lines.flatMap((line) => [
    ...(line.listing_on_sale === false ? [`${line.sku}: its listing is no longer on sale.`] : []),
    ...(line.qty_reserved < line.qty
      ? [`${line.sku}: ${line.qty_reserved} of ${line.qty} held on its listing.`]
      : []),
    ...(line.in_stock < line.qty
      ? [`${line.sku}: ${line.in_stock} in stock, ${line.qty} ordered.`]
      : []),
  ]);
}

const QUEUE_FROM = `orders o JOIN web_orders w ON w.order_id = o.id
  WHERE o.status = 'pending' AND o.source = 'web'`;

/**
 * Pending web orders, oldest first (at most WEB_ORDER_QUEUE_MAX: orders wait no longer than the
 * hold), each with its lines' listing and stock now and its customer's credit standing. Expired
 * holds are cancelled first, so the queue never offers one.
 */
export async function webOrderQueue(db: Db): Promise<{ orders: WebOrder[]; total: number }> {
  await expireWebOrders(db);
  const rows = await db.query<QueueRow>(
    `SELECT o.id::int AS id, o.number, o.status, o.retailer_id::int AS retailer_id,
       r.name AS customer, r.status AS retailer_status, r.credit_terms,
       r.credit_limit_cents::float8 AS credit_limit_cents,
       (SELECT COALESCE(sum(x.total_cents), 0) FROM orders x WHERE x.retailer_id = o.retailer_id
        AND x.status = ANY ($1::text[]) AND x.id <> o.id)::float8 AS exposure_cents,
       (SELECT u.name FROM users u WHERE u.id = w.placed_by) AS placed_by, w.channel,
       o.total_cents::float8 AS total_cents, o.ship_method,
       ${isoTextSql('o.created_at')} AS created_at, ${isoTextSql('w.expires_at')} AS expires_at,
       (SELECT json_agg(json_build_object('sku', l.sku, 'description', l.description,
           'qty', l.qty, 'qty_reserved', l.qty_reserved, 'unit_price_cents', l.unit_price_cents,
           'listing_left', p.qty_pushed - p.qty_reserved - p.qty_sold,
           'listing_on_sale', ${ON_SALE('p')},
           'in_stock', pts_sellable_available(l.variant_id, l.bundle_id, l.combo_id))
         ORDER BY l.position)
        FROM order_lines l LEFT JOIN pts_listings p ON p.id = l.listing_id
        WHERE l.order_id = o.id) AS lines
     FROM orders o JOIN web_orders w ON w.order_id = o.id JOIN retailers r ON r.id = o.retailer_id
     WHERE o.status = 'pending' AND o.source = 'web'
     ORDER BY o.created_at, o.id LIMIT ${WEB_ORDER_QUEUE_MAX}`,
    [OPEN_ORDER_STATUSES],
  );
  const [count] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM ${QUEUE_FROM}`,
  );
  const orders = rows.map((row): WebOrder => {
    const credit = assessCredit(
      {
        id: row.retailer_id,
        name: row.customer,
        status: row.retailer_status,
        credit_terms: row.credit_terms,
        credit_limit_cents: Number(row.credit_limit_cents),
      },
      Number(row.exposure_cents),
      Number(row.total_cents),
    );
    const short = shortages(row.lines);
    return {
      id: row.id,
      number: row.number,
      status: row.status,
      retailer_id: row.retailer_id,
      customer: row.customer,
      placed_by: row.placed_by,
      channel: row.channel,
      lines: row.lines.map((line) => ({
        sku: line.sku,
        description: line.description,
        qty: line.qty,
        unit_price_cents: Number(line.unit_price_cents),
        listing_left: line.listing_left === null ? null : Math.max(line.listing_left, 0),
        in_stock: Number(line.in_stock),
      })),
      total_cents: Number(row.total_cents),
      ship_method: row.ship_method,
      credit_terms: row.credit_terms,
      credit_decision: credit.decision,
      credit_note: credit.reason,
      available: short.length === 0,
      availability_note: short.join(' '),
      created_at: row.created_at,
      expires_at: row.expires_at,
    };
  });
  return { orders, total: count!.total };
}

/** Locks a pending-or-decided web order: 404 when the id is no web order. */
async function lockWebOrder(tx: Transaction, id: number) {
  const [order] = await tx.query<{
    number: string;
    status: WebOrder['status'];
    retailer_id: number;
    total_cents: number;
    ship_method: (typeof SHIP_METHODS)[number];
    expired: boolean;
  }>(
    `SELECT o.number, o.status, o.retailer_id::int AS retailer_id,
       o.total_cents::float8 AS total_cents, o.ship_method, w.expires_at <= now() AS expired
     FROM orders o JOIN web_orders w ON w.order_id = o.id WHERE o.id = $1 FOR UPDATE OF o`,
    [id],
  );
  if (!order) throw new NotFoundError(`There is no web order with id ${id}.`);
  if (order.status !== 'pending') {
    throw new ConflictError(
      `Order ${order.number} is ${orderLifecycle.stateText(order.status)}, no longer awaiting approval.`,
    );
  }
  if (order.expired) {
    throw new ConflictError(`Order ${order.number}'s hold has expired: it is being cancelled.`);
  }
  return order;
}

/**
 * Approves a web order: its listings still on sale with its units held, the stock there now
 * (order validation, which checks the address too) and the customer's credit limit not passed.
 * Ready; otherwise a 409 says everything that stops it and the order stays pending.
 */
export async function approveWebOrder(
  tx: Transaction,
  by: ByPerson,
  id: number,
): Promise<OrderDetail> {
  const order = await lockWebOrder(tx, id);
  const lines = await tx.query<QueueRow['lines'][number]>(
    `SELECT l.sku, l.qty, l.qty_reserved,
       ${ON_SALE('p')} AS listing_on_sale
     FROM order_lines l LEFT JOIN pts_listings p ON p.id = l.listing_id
     WHERE l.order_id = $1 ORDER BY l.position`,
    [id],
  );
  const found = lines.flatMap((line) => [
    ...(line.listing_on_sale === false ? [`${line.sku}: its listing is no longer on sale.`] : []),
    ...(line.qty_reserved < line.qty
      ? [`${line.sku}: ${line.qty_reserved} of ${line.qty} held on its listing.`]
      : []),
  ]);
  const credit = await checkCredit(tx, order.retailer_id, {
    openExposureCents: await openExposure(tx, order.retailer_id, id),
    orderCents: Number(order.total_cents),
  });
  const refused = creditRefusal(credit);
  if (refused) found.push(refused);
  const failure = await validateOrder(tx, by, id);
  if (failure) found.push(failure.note);
  if (found.length > 0) {
    throw new ConflictError(`Order ${order.number} cannot be approved: ${found.join(' ')}`);
  }
  await runTransition(tx, orderStore, {
    id,
    action: 'validate',
    actor: by.actor,
    meta: by.meta,
    data: { by: 'web_order_approval', credit: credit.decision },
  });
  return orderDetail(tx, id);
}

/** Rejects a pending web order with the reason: cancelled, its listing units given back. */
export async function rejectWebOrder(
  tx: Transaction,
  by: ByPerson,
  id: number,
  reason: string,
): Promise<OrderDetail> {
  const [web] = await tx.query('SELECT 1 FROM web_orders WHERE order_id = $1', [id]);
  if (!web) throw new NotFoundError(`There is no web order with id ${id}.`);
  await runTransition(tx, orderStore, {
    id,
    action: 'reject',
    actor: by.actor,
    meta: by.meta,
    reason,
  });
  return orderDetail(tx, id);
}

/** Changes how a pending web order ships (timeline and audit name the change). */
export async function changeWebOrderShipMethod(
  tx: Transaction,
  { actor, meta }: ByPerson,
  id: number,
  shipMethod: (typeof SHIP_METHODS)[number],
): Promise<OrderDetail> {
  const order = await lockWebOrder(tx, id);
  if (order.ship_method !== shipMethod) {
    await tx.query(`UPDATE orders SET ship_method = $2, updated_at = now() WHERE id = $1`, [
      id,
      shipMethod,
    ]);
    const change = { from: order.ship_method, to: shipMethod };
    await writeOrderEvent(tx, id, actor, 'ship_method_changed', change);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'order.ship_method_changed',
      entityType: 'order',
      entityId: id,
      before: { ship_method: order.ship_method },
      after: { number: order.number, ship_method: shipMethod },
    });
  }
  return orderDetail(tx, id);
}

/** The server itself, as the actor of an expiry: no account, so it runs only unguarded steps. */
const HOLD_EXPIRY: Actor = {
  userId: null,
  userName: 'system: web order hold expired',
  roles: [],
  permissions: [],
  roleKeys: [],
};
const SWEEP_META: RequestMeta = { ip: '', userAgent: null, requestId: 'web-order-sweep' };

/** How many expired web orders one sweep cancels; the next sweep takes the rest. */
const SWEEP_BATCH = 200;

/**
 * Cancels the pending web orders whose hold has passed and gives their units back (the lifecycle's
 * `expire`). Several app servers may sweep at once: each takes only orders no other transaction
 * holds (SKIP LOCKED), and the lifecycle moves an order only while it is still pending, so no
 * order's units are given back twice. Answers how many it cancelled.
 */
export async function expireWebOrders(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT o.id::int AS id FROM ${QUEUE_FROM} AND w.expires_at <= now()
       ORDER BY o.id LIMIT ${SWEEP_BATCH} FOR UPDATE OF o SKIP LOCKED`,
    );
    if (due.length === 0) return 0;
    const steps = await runTransitions(tx, orderStore, {
      ids: due.map((row) => row.id),
      action: 'expire',
      actor: HOLD_EXPIRY,
      meta: SWEEP_META,
      skipRefused: true,
      data: { reason: 'Not approved before its hold expired.' },
    });
    return steps.length;
  });
}
