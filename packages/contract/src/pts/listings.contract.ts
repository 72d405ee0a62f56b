import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { PTS_LIST_ACCESS, PTS_UPDATE_ACCESS } from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { wordList } from '../master-data/fields.js';
import { centsSchema, isoDate } from '../receiving/receiving-fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Push-to-sale listings (DOMAIN.md 2.2, 4.5, `/pts-management/list`): how much of a sellable a
 * channel may sell, at what price, between which dates. Migrations 0033 and 0035.
 */

export const PTS_CHANNELS = ['web', 'retailer', 'campaign', 'carrier'] as const;
export type PtsChannel = (typeof PTS_CHANNELS)[number];

export const PTS_LISTING_STATUSES = ['draft', 'live', 'paused', 'sold_out', 'ended'] as const;
export type PtsListingStatus = (typeof PTS_LISTING_STATUSES)[number];

/** What a listing sells: a product variant, a fixed kit or an offer with choice slots. */
export const SELLABLE_TYPES = ['variant', 'bundle', 'combo'] as const;
export type SellableType = (typeof SELLABLE_TYPES)[number];

/**
 * A listing's states (DOMAIN.md 3: draft → live ⇄ paused → sold out | ended). `sell_out` and
 * `restock` are no one's button: the server runs them when the remaining quantity reaches 0 and
 * when quantity is pushed again (or released), so the page offers only the others.
 */
export const ptsListingLifecycle = defineLifecycle({
  name: 'pts_listing',
  states: PTS_LISTING_STATUSES,
  terminal: ['ended'],
  actions: {
    publish: {
      from: ['draft'],
      to: 'live',
      label: 'publish',
      event: 'published',
      permission: PTS_UPDATE_ACCESS,
    },
    pause: {
      from: ['live', 'sold_out'],
      to: 'paused',
      label: 'pause',
      event: 'paused',
      permission: PTS_UPDATE_ACCESS,
    },
    resume: {
      from: ['paused'],
      to: 'live',
      label: 'resume',
      event: 'resumed',
      permission: PTS_UPDATE_ACCESS,
    },
    end: {
      from: ['draft', 'live', 'paused', 'sold_out'],
      to: 'ended',
      label: 'end',
      event: 'ended',
      permission: PTS_UPDATE_ACCESS,
      reason: 'optional',
    },
    sell_out: { from: ['live'], to: 'sold_out', label: 'sell out', event: 'sold_out' },
    restock: { from: ['sold_out'], to: 'live', label: 'go back on sale', event: 'restocked' },
  },
});
export type PtsListingAction = keyof typeof ptsListingLifecycle.actions;

/** The actions a person runs from the page; the others follow the quantities. */
export const MANUAL_LISTING_ACTIONS = ['publish', 'pause', 'resume', 'end'] as const;
export type ManualListingAction = (typeof MANUAL_LISTING_ACTIONS)[number];

export const ptsListingSchema = z.object({
  id: z.int(),
  sellable_type: z.enum(SELLABLE_TYPES),
  sellable_id: z.int(),
  sku: z.string(),
  name: z.string(),
  /** The device model it sells, for a variant of a device product. */
  model_id: z.nullable(z.int()),
  channel: z.enum(PTS_CHANNELS),
  qty_pushed: z.int(),
  qty_reserved: z.int(),
  qty_sold: z.int(),
  /** Pushed less reserved and sold: what the channel may still sell (negative on backorder). */
  qty_remaining: z.int(),
  /** Matching sellable stock now (in stock, in a located box, not held). */
  available: z.int(),
  /** Pushed is more than the stock available: the page's warning badge. */
  over_available: z.boolean(),
  price_cents: z.int(),
  floor_price_cents: z.int(),
  allow_backorder: z.boolean(),
  /** First day on sale (YYYY-MM-DD); null: from publication. */
  starts_on: z.nullable(z.string()),
  /** Last day on sale (YYYY-MM-DD); null: until ended. */
  ends_on: z.nullable(z.string()),
  status: z.enum(PTS_LISTING_STATUSES),
  /** Retailer price tiers or groups that see it; empty: everyone on the channel. */
  visibility: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PtsListing = z.infer<typeof ptsListingSchema>;

export const ptsListingList = defineList({
  name: 'pts-listings',
  singular: 'listing',
  plural: 'Listings',
  tag: 'PTS',
  view: PTS_LIST_ACCESS,
  item: ptsListingSchema,
  filters: {
    channel: enumFilter(PTS_CHANNELS),
    status: enumFilter(PTS_LISTING_STATUSES),
    sellable_type: enumFilter(SELLABLE_TYPES),
    model_id: idFilter,
  },
  sorts: ['id', 'updated_at', 'price_cents'],
  defaultSort: 'id',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'id', header: 'Listing ID', example: '12' },
    { key: 'sku', header: 'SKU', example: 'IP13-128-BLK-A' },
    { key: 'name', header: 'Name', example: 'iPhone 13' },
    { key: 'sellable_type', header: 'Type', example: 'variant' },
    { key: 'channel', header: 'Channel', example: 'web' },
    { key: 'qty_pushed', header: 'Pushed', example: '20' },
    { key: 'qty_reserved', header: 'Reserved', example: '2' },
    { key: 'qty_sold', header: 'Sold', example: '5' },
    { key: 'qty_remaining', header: 'Remaining', example: '13' },
    { key: 'available', header: 'Available', example: '25' },
    { key: 'price_cents', header: 'Price (cents)', example: '32900' },
    { key: 'floor_price_cents', header: 'Floor (cents)', example: '29900' },
    { key: 'allow_backorder', header: 'Backorder', example: 'no' },
    { key: 'starts_on', header: 'Starts', example: '2026-12-01' },
    { key: 'ends_on', header: 'Ends', example: '' },
    { key: 'status', header: 'Status', example: 'live' },
  ],
});

export const ptsListingEndpoints = listEndpoints(ptsListingList);

const qtyPushed = z
  .number('Enter the quantity to push.')
  .check(
    z.int('The quantity must be a whole number.'),
    z.gte(0, 'The quantity cannot be negative.'),
    z.lte(1_000_000, 'The quantity is at most 1000000.'),
  );

const optionalDate = (what: string) => z.optional(z.nullable(isoDate(what)));

/** The fields a listing's form changes; each left out is kept on an edit. */
const listingTermsShape = {
  qty_pushed: qtyPushed,
  price_cents: centsSchema('price'),
  floor_price_cents: z.optional(centsSchema('floor price')),
  allow_backorder: z.optional(z.boolean()),
  starts_on: optionalDate('first day'),
  ends_on: optionalDate('last day'),
  visibility: z.optional(wordList('group', 20, 50)),
};

const datesInOrder = (terms: { starts_on?: string | null; ends_on?: string | null }) =>
  !terms.starts_on || !terms.ends_on || terms.ends_on >= terms.starts_on;
const DATES_MESSAGE = { message: 'The last day cannot be before the first.', path: ['ends_on'] };

/** A new listing: the sellable by type and SKU, the channel, and its terms. Created as a draft. */
export const createPtsListingSchema = z
  .object({
    sellable_type: z.enum(SELLABLE_TYPES, 'Choose what is sold: a variant, a bundle or a combo.'),
    sku: z
      .string('Write the SKU.')
      .check(
        z.trim(),
        z.minLength(1, 'Write the SKU.'),
        z.maxLength(64, 'The SKU is at most 64 characters.'),
      ),
    channel: z.enum(PTS_CHANNELS, 'Choose the channel: web, retailer, campaign or carrier.'),
    ...listingTermsShape,
  })
  .check(z.refine(datesInOrder, DATES_MESSAGE));
export type CreatePtsListingInput = z.input<typeof createPtsListingSchema>;

export const updatePtsListingSchema = z
  .object({
    qty_pushed: z.optional(qtyPushed),
    price_cents: z.optional(centsSchema('price')),
    floor_price_cents: listingTermsShape.floor_price_cents,
    allow_backorder: listingTermsShape.allow_backorder,
    starts_on: listingTermsShape.starts_on,
    ends_on: listingTermsShape.ends_on,
    visibility: listingTermsShape.visibility,
  })
  .check(z.refine(datesInOrder, DATES_MESSAGE));
export type UpdatePtsListingInput = z.input<typeof updatePtsListingSchema>;

export const ptsListingEventSchema = timelineEventSchema;
export type PtsListingEvent = z.infer<typeof ptsListingEventSchema>;

const listingAction = (action: ManualListingAction, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path: `/pts-listings/:id/${action}`,
    summary,
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    params: idParamsSchema,
    body: z.object({
      reason: z.optional(z.string().check(z.maxLength(500, 'The reason is too long.'))),
    }),
    response: ptsListingSchema,
  });

export const ptsListingWriteEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/pts-listings',
    summary:
      'Create a draft listing; pushing more than the stock needs pts.allow-backorder, a price under the floor price.management (403)',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    body: createPtsListingSchema,
    response: ptsListingSchema,
    successStatus: 201,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/pts-listings/:id',
    summary:
      'Change a listing’s quantity, prices, dates, visibility or backorder; never below what is reserved and sold',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    params: idParamsSchema,
    body: updatePtsListingSchema,
    response: ptsListingSchema,
  }),
  publish: listingAction('publish', 'Put a draft listing on sale'),
  pause: listingAction('pause', 'Stop selling a listing for now'),
  resume: listingAction('resume', 'Sell a paused listing again (sold out when nothing remains)'),
  end: listingAction('end', 'End a listing for good; what is reserved stays reserved'),
  events: defineEndpoint({
    method: 'GET',
    path: '/pts-listings/:id/events',
    summary: 'A listing’s timeline, newest first (at most 200)',
    tag: 'PTS',
    guard: PTS_LIST_ACCESS,
    params: idParamsSchema,
    response: z.array(ptsListingEventSchema),
  }),
  modelOptions: defineEndpoint({
    method: 'GET',
    path: '/pts-listings/model-options',
    summary: 'Up to 20 device models, for the listings’ model filter',
    tag: 'PTS',
    guard: PTS_LIST_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
};
