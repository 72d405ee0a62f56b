import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { PRODUCT_OFFER_ACCESS, PRODUCT_OFFER_RESPOND_ACCESS } from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { centsSchema, isoDate } from '../receiving/receiving-fields.js';
import { ORDER_STATUSES } from './orders.contract.js';

/**
 * Product offers (DOMAIN.md 4.1 /dashboard/product-offer): a retailer's B2B quote for a quantity
 * of one sellable sold on the retailer channel, at a price of their own until a day. Staff
 * accept it (the listing's units held), counter it, reject it or let it expire, and convert an
 * accepted one into a wholesale order at the accepted price. Migration 0042.
 */

export const PRODUCT_OFFER_STATUSES = [
  'submitted',
  'countered',
  'accepted',
  'rejected',
  'expired',
  'converted',
] as const;
export type ProductOfferStatus = (typeof PRODUCT_OFFER_STATUSES)[number];

/** Offers still to be answered or converted. */
export const OPEN_PRODUCT_OFFER_STATUSES = [
  'submitted',
  'countered',
  'accepted',
] as const satisfies readonly ProductOfferStatus[];

export const productOfferLifecycle = defineLifecycle({
  name: 'product_offer',
  states: PRODUCT_OFFER_STATUSES,
  terminal: ['rejected', 'expired', 'converted'],
  actions: {
    counter: {
      from: ['submitted'],
      to: 'countered',
      label: 'be countered',
      event: 'countered',
      permission: PRODUCT_OFFER_RESPOND_ACCESS,
    },
    /** Holds the offer's units on its listing; under the floor price needs price.management too. */
    accept: {
      from: ['submitted', 'countered'],
      to: 'accepted',
      label: 'be accepted',
      event: 'accepted',
      permission: PRODUCT_OFFER_RESPOND_ACCESS,
    },
    /** An accepted offer's units go back to its listing. */
    reject: {
      from: ['submitted', 'countered', 'accepted'],
      to: 'rejected',
      label: 'be rejected',
      event: 'rejected',
      permission: PRODUCT_OFFER_RESPOND_ACCESS,
      reason: 'required',
    },
    /** Past its last day: run by the server itself when offers are read. */
    expire: {
      from: ['submitted', 'countered', 'accepted'],
      to: 'expired',
      label: 'expire',
      event: 'expired',
    },
    /** The order takes over the offer's held units. */
    convert: {
      from: ['accepted'],
      to: 'converted',
      label: 'be converted to an order',
      event: 'converted',
      permission: PRODUCT_OFFER_RESPOND_ACCESS,
    },
  },
});
export type ProductOfferAction = keyof typeof productOfferLifecycle.actions;

/** What a listing sells, as offers name it. */
export const OFFER_SELLABLE_TYPES = ['variant', 'bundle', 'combo'] as const;

export const productOfferSchema = z.object({
  id: z.int(),
  status: z.enum(PRODUCT_OFFER_STATUSES),
  retailer_id: z.int(),
  retailer: z.string(),
  listing_id: z.int(),
  sellable_type: z.enum(OFFER_SELLABLE_TYPES),
  sku: z.string(),
  name: z.string(),
  qty: z.int(),
  /** The retailer's own price per unit, as first offered. */
  offered_price_cents: z.int(),
  /** The price per unit the offer stands at now: the offered one, or staff's counter. */
  unit_price_cents: z.int(),
  /** The listing's price and floor price now. */
  list_price_cents: z.int(),
  floor_price_cents: z.int(),
  total_cents: z.int(),
  /** Units held on the listing for this offer (while accepted). */
  qty_reserved: z.int(),
  /** The end of the offer's last day. */
  expires_at: z.string(),
  reject_reason: z.nullable(z.string()),
  order_id: z.nullable(z.int()),
  order_number: z.nullable(z.string()),
  order_status: z.nullable(z.enum(ORDER_STATUSES)),
  created_by: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProductOffer = z.infer<typeof productOfferSchema>;

/** Open offers (to answer or convert) or closed ones (rejected, expired, converted). */
export const PRODUCT_OFFER_VIEWS = ['open', 'closed'] as const;

export const productOfferQuerySchema = z.object({
  view: z.optional(z.enum(PRODUCT_OFFER_VIEWS, 'Choose open or closed offers.')),
});

/** How many offers the page answers at once, newest first. */
export const PRODUCT_OFFER_PAGE_MAX = 200;

export const productOfferPageSchema = z.object({
  offers: z.array(productOfferSchema),
  /** Offers in the view in all. */
  total: z.int(),
});

const quantity = z
  .number('Enter the quantity.')
  .check(
    z.int('The quantity must be a whole number.'),
    z.gte(1, 'The quantity must be at least 1.'),
    z.lte(100_000, 'At most 100,000 units per offer.'),
  );

const positiveId = (what: string) =>
  z
    .number(`Choose the ${what}.`)
    .check(z.int(`Choose the ${what}.`), z.gte(1, `Choose the ${what}.`));

/** An offer entered by staff on a retailer's behalf. */
export const createProductOfferSchema = z.object({
  retailer_id: positiveId('retailer'),
  listing_id: positiveId('listing'),
  qty: quantity,
  offered_price_cents: centsSchema('offered price'),
  /** The last day the offer stands (UTC). */
  expires_on: isoDate('last day'),
});
export type CreateProductOfferInput = z.input<typeof createProductOfferSchema>;

export const counterProductOfferSchema = z.object({
  unit_price_cents: centsSchema('price'),
  qty: quantity,
});

export const rejectProductOfferSchema = z.object({
  reason: z
    .string('Say why the offer is rejected.')
    .check(
      z.trim(),
      z.minLength(1, 'Say why the offer is rejected.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});

export const productOfferConvertedSchema = z.object({
  offer: productOfferSchema,
  order: z.object({ id: z.int(), number: z.string(), status: z.enum(ORDER_STATUSES) }),
});
export type ProductOfferConverted = z.infer<typeof productOfferConvertedSchema>;

const TAG = 'Product offers';

export const productOfferEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/product-offers',
    summary: `Open or closed product offers, newest first (at most ${PRODUCT_OFFER_PAGE_MAX}); offers past their last day expire first`,
    tag: TAG,
    guard: PRODUCT_OFFER_ACCESS,
    query: productOfferQuerySchema,
    response: productOfferPageSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/product-offers',
    summary: "Enter a retailer's offer for a listing of the retailer channel (submitted)",
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    body: createProductOfferSchema,
    response: productOfferSchema,
    successStatus: 201,
  }),
  counter: defineEndpoint({
    method: 'POST',
    path: '/product-offers/:id/counter',
    summary: 'Counter a submitted offer with a price and quantity',
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    params: idParamsSchema,
    body: counterProductOfferSchema,
    response: productOfferSchema,
  }),
  accept: defineEndpoint({
    method: 'POST',
    path: '/product-offers/:id/acceptance',
    summary:
      "Accept an offer: its units held on the listing (409 when the listing cannot); under the listing's floor price needs price.management (403)",
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: productOfferSchema,
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/product-offers/:id/rejection',
    summary: "Reject an offer with the reason; an accepted one's units go back to the listing",
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    params: idParamsSchema,
    body: rejectProductOfferSchema,
    response: productOfferSchema,
  }),
  convert: defineEndpoint({
    method: 'POST',
    path: '/product-offers/:id/conversion',
    summary:
      "Convert an accepted offer into a wholesale order at the accepted price, shipped to the retailer's default address; the order takes over the held units",
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: productOfferConvertedSchema,
    successStatus: 201,
  }),
  retailerOptions: defineEndpoint({
    method: 'GET',
    path: '/product-offers/retailer-options',
    summary: 'Up to 20 active retailers, for the new offer form',
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  listingOptions: defineEndpoint({
    method: 'GET',
    path: '/product-offers/listing-options',
    summary:
      'Up to 20 listings of the retailer channel on sale or sold out, with price and floor, for the new offer form',
    tag: TAG,
    guard: PRODUCT_OFFER_RESPOND_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
};
