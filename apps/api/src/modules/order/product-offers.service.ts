import {
  OPEN_PRODUCT_OFFER_STATUSES,
  PRODUCT_OFFER_PAGE_MAX,
  productOfferLifecycle,
  type counterProductOfferSchema,
  type createProductOfferSchema,
  type ProductOffer,
  type ProductOfferAction,
  type ProductOfferConverted,
  type ProductOfferStatus,
  type PRODUCT_OFFER_VIEWS,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  ValidationError,
} from '../../http/errors.js';
import type { Acting, Actor, Principal, RequestMeta } from '../../http/principal.js';
import { businessDayEndSql, isoTextSql } from '../../http/sql.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import {
  runTransition,
  runTransitions,
  timelineWriter,
  type LifecycleStore,
  type TransitionStep,
} from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { releaseListing, reserveListing, type SellableKind } from '../pts/index.js';
import { checkCredit } from '../retail/index.js';
import { createOrder, settleValidation, validateOrder } from './intake.js';
import { writeOrderEvent } from './order-lifecycle.js';
import { creditRefusal, openExposure, retailerShipTo } from './web-orders.service.js';

/*
 * Product offers (DOMAIN.md 4.1 /dashboard/product-offer): a retailer's quote for a listing of the
 * retailer channel, entered by staff on its behalf. Accepting holds the units on the listing
 * (reserveListing, `qty_reserved` on the offer); rejecting or expiring an accepted offer gives them
 * back; converting creates the order (source offer, wholesale) and hands it the held units: its
 * line starts with `qty_reserved = qty`, so validation, which reserves only what a line lacks,
 * reserves nothing twice.
 */

/** A signed-in person's request: offers are entered and answered by people. */
type ByPerson = { readonly actor: Principal; readonly meta: RequestMeta };

/** Gives back the units held by the steps' offers that were accepted, listing by listing. */
async function releaseHeld(
  tx: Transaction,
  steps: readonly TransitionStep<ProductOfferStatus>[],
  acting: Acting,
) {
  const held = steps.filter((step) => step.from === 'accepted').map((step) => step.id);
  if (held.length === 0) return;
  const rows = await tx.query<{ id: number; listing_id: number; qty: number }>(
    `SELECT id::int AS id, listing_id::int AS listing_id, qty FROM product_offers
     WHERE id = ANY ($1::bigint[]) ORDER BY listing_id, id`,
    [held],
  );
  for (const row of rows) {
    await releaseListing(tx, acting, row.listing_id, row.qty, { type: 'offer', id: row.id });
  }
}

const RELEASE = { set: 'qty_reserved = 0', write: releaseHeld };

export const productOfferStore: LifecycleStore<ProductOfferStatus, ProductOfferAction, never> = {
  lifecycle: productOfferLifecycle,
  table: 'product_offers',
  label: `'offer ' || id`,
  columns: ['unit_price_cents', 'qty', 'reject_reason'],
  effects: {
    accept: {
      set: 'qty_reserved = qty',
      write: async (tx, steps, acting) => {
        const rows = await tx.query<{ id: number; listing_id: number; qty: number }>(
          `SELECT id::int AS id, listing_id::int AS listing_id, qty FROM product_offers
           WHERE id = ANY ($1::bigint[]) ORDER BY listing_id, id`,
          [steps.map((step) => step.id)],
        );
        for (const row of rows) {
          await reserveListing(tx, acting, row.listing_id, row.qty, { type: 'offer', id: row.id });
        }
      },
    },
    reject: RELEASE,
    expire: RELEASE,
    // The order made from the offer holds its units from now on (`convertOffer`).
    convert: 'qty_reserved = 0',
  },
  writeEvents: timelineWriter('product_offer_events', 'offer_id'),
};

/** A listing's sellable: its kind, id, SKU and name. */
const SELLABLE_COLUMNS = (listing: string) => `
  CASE WHEN ${listing}.variant_id IS NOT NULL THEN 'variant'
    WHEN ${listing}.bundle_id IS NOT NULL THEN 'bundle' ELSE 'combo' END AS sellable_type,
  COALESCE(${listing}.variant_id, ${listing}.bundle_id, ${listing}.combo_id)::int AS sellable_id,
  COALESCE((SELECT v.sku FROM product_variants v WHERE v.id = ${listing}.variant_id),
    (SELECT b.sku FROM bundles b WHERE b.id = ${listing}.bundle_id),
    (SELECT c.sku FROM combos c WHERE c.id = ${listing}.combo_id)) AS sku,
  COALESCE((SELECT p.name FROM product_variants v JOIN products p ON p.id = v.product_id
      WHERE v.id = ${listing}.variant_id),
    (SELECT b.name FROM bundles b WHERE b.id = ${listing}.bundle_id),
    (SELECT c.name FROM combos c WHERE c.id = ${listing}.combo_id)) AS name`;

const OFFER_SQL = `
  SELECT f.id::int AS id, f.status, f.retailer_id::int AS retailer_id, r.name AS retailer,
    f.listing_id::int AS listing_id, ${SELLABLE_COLUMNS('l')},
    f.qty, f.offered_price_cents::float8 AS offered_price_cents,
    f.unit_price_cents::float8 AS unit_price_cents, l.price_cents::float8 AS list_price_cents,
    l.floor_price_cents::float8 AS floor_price_cents,
    (f.qty * f.unit_price_cents)::float8 AS total_cents, f.qty_reserved,
    ${isoTextSql('f.expires_at')} AS expires_at, f.reject_reason,
    f.order_id::int AS order_id, o.number AS order_number, o.status AS order_status,
    (SELECT u.name FROM users u WHERE u.id = f.created_by) AS created_by,
    ${isoTextSql('f.created_at')} AS created_at, ${isoTextSql('f.updated_at')} AS updated_at
  FROM product_offers f JOIN retailers r ON r.id = f.retailer_id
  JOIN pts_listings l ON l.id = f.listing_id
  LEFT JOIN orders o ON o.id = f.order_id`;

type OfferRow = ProductOffer & { sellable_id: number };

const MONEY = [
  'offered_price_cents',
  'unit_price_cents',
  'list_price_cents',
  'floor_price_cents',
  'total_cents',
] as const;

function offerOf(row: OfferRow): ProductOffer {
  const { sellable_id: _sellable, ...offer } = row;
  for (const key of MONEY) offer[key] = Number(offer[key]);
  return offer;
}

async function findOffer(db: Queryable, id: number): Promise<OfferRow> {
  const [row] = await db.query<OfferRow>(`${OFFER_SQL} WHERE f.id = $1`, [id]);
  if (!row) throw new NotFoundError(`There is no product offer with id ${id}.`);
  return row;
}

/** The server itself, as the actor of an expiry: no account, so it runs only unguarded steps. */
const OFFER_EXPIRY: Actor = {
  userId: null,
  userName: 'system: product offer expired',
  roles: [],
  permissions: [],
  roleKeys: [],
};
const EXPIRY_META: RequestMeta = { ip: '', userAgent: null, requestId: 'product-offer-expiry' };

/** How many offers one expiry run moves; the next read takes the rest. */
const EXPIRY_BATCH = 200;

/**
 * Expires the open offers past their last day, giving an accepted one's units back. Offers
 * another transaction holds are passed over (SKIP LOCKED) and taken by the next read.
 */
export async function expireOffers(db: Db): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx.query<{ id: number }>(
      `SELECT id::int AS id FROM product_offers
       WHERE status = ANY ($1::text[]) AND expires_at <= now()
       ORDER BY id LIMIT ${EXPIRY_BATCH} FOR UPDATE SKIP LOCKED`,
      [OPEN_PRODUCT_OFFER_STATUSES],
    );
    if (due.length === 0) return 0;
    const steps = await runTransitions(tx, productOfferStore, {
      ids: due.map((row) => row.id),
      action: 'expire',
      actor: OFFER_EXPIRY,
      meta: EXPIRY_META,
      skipRefused: true,
    });
    return steps.length;
  });
}

/** Open or closed offers, newest first (offers past their last day expire first). */
export async function listOffers(
  db: Db,
  view: (typeof PRODUCT_OFFER_VIEWS)[number] = 'open',
): Promise<{ offers: ProductOffer[]; total: number }> {
  await expireOffers(db);
  const where = `${view === 'open' ? '' : 'NOT '}(f.status = ANY ($1::text[]))`;
  const [rows, [count]] = await Promise.all([
    db.query<OfferRow>(
      `${OFFER_SQL} WHERE ${where}
       ORDER BY f.created_at DESC, f.id DESC LIMIT ${PRODUCT_OFFER_PAGE_MAX}`,
      [OPEN_PRODUCT_OFFER_STATUSES],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM product_offers f WHERE ${where}`,
      [OPEN_PRODUCT_OFFER_STATUSES],
    ),
  ]);
  return { offers: rows.map(offerOf), total: count!.total };
}

/** Active retailers, for the new offer form. */
export const OFFER_RETAILER_PICKER: PickerSql = {
  from: 'retailers r',
  id: 'r.id::int',
  label: 'r.name',
  where: `r.status = 'active' AND ($1::text IS NULL OR r.name ILIKE $1)`,
  order: 'lower(r.name), r.id',
};

/** Listings an offer may be made for: the retailer channel's, on sale or sold out. */
const OFFERABLE = `l.channel = 'retailer' AND l.status IN ('live', 'sold_out')`;

const dollarsSql = (cents: string) => `'$' || to_char(${cents} / 100.0, 'FM999999990.00')`;

export const OFFER_LISTING_PICKER: PickerSql = {
  from: `(SELECT l.id, l.price_cents, l.floor_price_cents, ${SELLABLE_COLUMNS('l')}
          FROM pts_listings l WHERE ${OFFERABLE}) x`,
  id: 'x.id::int',
  label: `x.sku || ' · ' || x.name || ' · list ' || ${dollarsSql('x.price_cents')}
    || ', floor ' || ${dollarsSql('x.floor_price_cents')}`,
  where: `($1::text IS NULL OR x.sku ILIKE $1 OR x.name ILIKE $1)`,
  order: 'x.sku, x.id',
};

/**
 * Enters a retailer's offer (submitted): an active retailer, a listing of the retailer channel on
 * sale, a last day from today on (UTC). 422 naming the field otherwise.
 */
export async function createOffer(
  tx: Transaction,
  { actor, meta }: ByPerson,
  input: z.output<typeof createProductOfferSchema>,
): Promise<ProductOffer> {
  const problems: Record<string, string[]> = {};
  const [retailer] = await tx.query<{ status: string }>(
    `SELECT status FROM retailers WHERE id = $1`,
    [input.retailer_id],
  );
  if (!retailer) problems.retailer_id = ['Choose a retailer.'];
  else if (retailer.status !== 'active') {
    problems.retailer_id = ['The retailer is deactivated: it cannot make offers.'];
  }
  const [listing] = await tx.query<{ offerable: boolean }>(
    `SELECT ${OFFERABLE} AS offerable FROM pts_listings l WHERE l.id = $1`,
    [input.listing_id],
  );
  if (!listing) problems.listing_id = ['Choose a listing.'];
  else if (!listing.offerable) {
    problems.listing_id = ['Choose a listing of the retailer channel that is on sale.'];
  }
  const [day] = await tx.query<{ past: boolean }>(
    'SELECT $1::date < order_business_day(now()) AS past',
    [input.expires_on],
  );
  if (day!.past) problems.expires_on = ['The last day cannot be in the past.'];
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);

  const [created] = await tx.query<{ id: number }>(
    `INSERT INTO product_offers (retailer_id, listing_id, qty, offered_price_cents,
       unit_price_cents, expires_at, created_by)
     VALUES ($1, $2, $3, $4, $4, ${businessDayEndSql('$5')}, $6)
     RETURNING id::int AS id`,
    [
      input.retailer_id,
      input.listing_id,
      input.qty,
      input.offered_price_cents,
      input.expires_on,
      actor.userId,
    ],
  );
  const id = created!.id;
  const terms = {
    retailer_id: input.retailer_id,
    listing_id: input.listing_id,
    qty: input.qty,
    unit_price_cents: input.offered_price_cents,
    expires_on: input.expires_on,
  };
  await tx.query(
    `INSERT INTO product_offer_events (offer_id, actor_id, actor_name, type, to_status, data)
     VALUES ($1, $2, $3, 'submitted', 'submitted', $4::jsonb)`,
    [id, actor.userId, actor.userName, JSON.stringify(terms)],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'product_offer.created',
    entityType: 'product_offer',
    entityId: id,
    after: terms,
  });
  return offerOf(await findOffer(tx, id));
}

/** Counters a submitted offer: the price and quantity it stands at now (timeline keeps both). */
export async function counterOffer(
  tx: Transaction,
  { actor, meta }: ByPerson,
  id: number,
  terms: z.output<typeof counterProductOfferSchema>,
): Promise<ProductOffer> {
  const before = await findOffer(tx, id);
  await runTransition(tx, productOfferStore, {
    id,
    action: 'counter',
    actor,
    meta,
    data: {
      from: { unit_price_cents: Number(before.unit_price_cents), qty: before.qty },
      to: terms,
    },
    columns: { unit_price_cents: terms.unit_price_cents, qty: terms.qty },
  });
  return offerOf(await findOffer(tx, id));
}

/**
 * Accepts an offer and holds its units on the listing (409 when the listing cannot: not live,
 * out of its dates, not enough left). A price under the listing's floor needs price.management
 * (403), checked only when the offer's state allows accepting it.
 */
export async function acceptOffer(
  tx: Transaction,
  { actor, meta }: ByPerson,
  id: number,
): Promise<ProductOffer> {
  const [offer] = await tx.query<{ status: ProductOfferStatus; under_floor: boolean }>(
    `SELECT f.status, f.unit_price_cents < l.floor_price_cents AS under_floor
     FROM product_offers f JOIN pts_listings l ON l.id = f.listing_id
     WHERE f.id = $1 FOR UPDATE OF f`,
    [id],
  );
  if (!offer) throw new NotFoundError(`There is no product offer with id ${id}.`);
  if (
    offer.under_floor &&
    productOfferLifecycle.actions.accept.from.includes(offer.status) &&
    !actor.permissions.includes('price.management')
  ) {
    throw new ForbiddenError(
      { permission: 'price.management' },
      "The offer's price is under the listing's floor price.",
    );
  }
  await runTransition(tx, productOfferStore, { id, action: 'accept', actor, meta });
  return offerOf(await findOffer(tx, id));
}

/** Rejects an offer with the reason; an accepted offer's units go back to the listing. */
export async function rejectOffer(
  tx: Transaction,
  { actor, meta }: ByPerson,
  id: number,
  reason: string,
): Promise<ProductOffer> {
  await runTransition(tx, productOfferStore, {
    id,
    action: 'reject',
    actor,
    meta,
    reason,
    columns: { reject_reason: reason },
  });
  return offerOf(await findOffer(tx, id));
}

const KINDS: Record<ProductOffer['sellable_type'], SellableKind> = {
  variant: 'variant',
  bundle: 'bundle',
  combo: 'combo',
};

/**
 * Converts an accepted offer into an order (source offer, wholesale) for its retailer at the
 * accepted price, shipped to the retailer's default shipping address. The order's line takes
 * over the units the offer held on the listing, then the order is validated (address, stock) to
 * ready or on hold. 409 when the retailer has no shipping address or is over its credit limit.
 */
export async function convertOffer(
  tx: Transaction,
  by: ByPerson,
  id: number,
): Promise<ProductOfferConverted> {
  const offer = await findOffer(tx, id);
  // Refuses first (404, 403, 409) what the offer's state or the caller's rights do not allow.
  await runTransition(tx, productOfferStore, {
    id,
    action: 'convert',
    actor: by.actor,
    meta: by.meta,
  });
  const shipTo = await retailerShipTo(tx, offer.retailer_id, offer.retailer);
  if (!shipTo) {
    throw new ConflictError(`${offer.retailer} has no shipping address: add one first.`);
  }
  const total = offer.qty * Number(offer.unit_price_cents);
  const credit = await checkCredit(tx, offer.retailer_id, {
    openExposureCents: await openExposure(tx, offer.retailer_id, null),
    orderCents: total,
  });
  const refused = creditRefusal(credit);
  if (refused) throw new ConflictError(refused);

  const order = await createOrder(tx, by, {
    source: 'offer',
    fulfilmentType: 'wholesale',
    clientCarrierId: null,
    program: null,
    customer: { retailerId: offer.retailer_id },
    shipTo,
    lines: [
      {
        sellable: { kind: KINDS[offer.sellable_type], id: offer.sellable_id },
        listingId: offer.listing_id,
        qty: offer.qty,
        unitPriceCents: Number(offer.unit_price_cents),
      },
    ],
    awaitsApproval: true,
  });
  // The offer's units, held on the listing since acceptance, are the line's now.
  await tx.query(`UPDATE order_lines SET qty_reserved = qty WHERE order_id = $1`, [order.id]);
  await tx.query(`UPDATE product_offers SET order_id = $2 WHERE id = $1`, [id, order.id]);
  await writeOrderEvent(tx, order.id, by.actor, 'from_offer', { offer_id: id });
  const failure = await validateOrder(tx, by, order.id);
  const step = await settleValidation(tx, by, order.id, failure);
  return {
    offer: offerOf(await findOffer(tx, id)),
    order: { id: order.id, number: order.number, status: step.to },
  };
}
