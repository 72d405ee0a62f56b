import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { PTS_UPDATE_ACCESS } from '../guards.js';
import { idNumber, idParamsSchema } from '../list.js';
import { importEndpoints, type ImportDefinition } from '../resource.js';
import { PTS_CHANNELS, PTS_LISTING_STATUSES, SELLABLE_TYPES } from './listings.contract.js';

/**
 * The bulk push-to-sale update (DOMAIN.md 4.5, `/push-to-sale/update`): one change to every
 * listing a filter chooses, or a file of listings, always previewed before and after, applied in
 * one transaction and logged per listing.
 */

export const PTS_UPDATE_OPERATIONS = [
  'qty_percent',
  'price_percent',
  'price_amount',
  'price_set',
  'pause',
  'resume',
] as const;
export type PtsUpdateOperation = (typeof PTS_UPDATE_OPERATIONS)[number];

/** What each operation does, as the page offers it. */
export const PTS_UPDATE_OPERATION_WORDS: Record<PtsUpdateOperation, string> = {
  qty_percent: 'Set the quantity to a share of the available stock (%)',
  price_percent: 'Change the price by a percentage',
  price_amount: 'Change the price by an amount (cents, negative lowers it)',
  price_set: 'Set the price (cents)',
  pause: 'Pause the listings',
  resume: 'Resume the paused listings',
};

/** The most listings one preview lists row by row; the counts cover all of them. */
export const PTS_PREVIEW_ROWS = 200;

/** Which listings a bulk update changes; ended listings never. */
export const ptsUpdateFilterSchema = z.object({
  model_id: z.optional(idNumber),
  channel: z.optional(z.enum(PTS_CHANNELS, 'Choose a channel.')),
  status: z.optional(z.enum(PTS_LISTING_STATUSES, 'Choose a status.')),
  sellable_type: z.optional(z.enum(SELLABLE_TYPES, 'Choose a type.')),
  listing_ids: z.optional(
    z.array(idNumber).check(z.maxLength(1000, 'At most 1000 listings by id.')),
  ),
});

const needsValue = (operation: PtsUpdateOperation) =>
  operation !== 'pause' && operation !== 'resume';

export const ptsUpdateRequestSchema = z
  .object({
    filter: z._default(ptsUpdateFilterSchema, {}),
    operation: z.enum(PTS_UPDATE_OPERATIONS, 'Choose what to change.'),
    /** The percentage or the amount in cents, as the operation reads it. */
    value: z.optional(
      z
        .number('Enter a number.')
        .check(
          z.gte(-100_000_000, 'The value is too small.'),
          z.lte(100_000_000, 'The value is too large.'),
        ),
    ),
  })
  .check(
    z.refine((body) => !needsValue(body.operation) || body.value !== undefined, {
      message: 'Enter the value of the change.',
      path: ['value'],
    }),
    z.refine(
      (body) =>
        body.value === undefined ||
        (body.operation === 'qty_percent'
          ? body.value >= 0 && body.value <= 1000
          : body.operation === 'price_percent'
            ? body.value >= -100 && body.value <= 1000
            : body.operation !== 'price_set' || body.value >= 0),
      {
        message:
          'A quantity share is 0 to 1000 %, a price change -100 to 1000 %, and a price is not negative.',
        path: ['value'],
      },
    ),
    z.refine(
      (body) =>
        body.value === undefined ||
        body.operation === 'qty_percent' ||
        body.operation === 'price_percent' ||
        Number.isInteger(body.value),
      { message: 'An amount of money is a whole number of cents.', path: ['value'] },
    ),
  );
export type PtsUpdateRequest = z.input<typeof ptsUpdateRequestSchema>;

export const ptsApplySchema = z.extend(ptsUpdateRequestSchema, {
  /** Apply the rows that can take the change and leave those in error as they are. */
  skip_errors: z._default(z.boolean(), false),
});

const listingTermsSchema = z.object({
  qty_pushed: z.int(),
  price_cents: z.int(),
  status: z.enum(PTS_LISTING_STATUSES),
});

export const ptsPreviewRowSchema = z.object({
  listing_id: z.int(),
  sku: z.string(),
  channel: z.enum(PTS_CHANNELS),
  /** The stock it is checked against; null when the change cannot exceed it (a price change). */
  available: z.nullable(z.int()),
  /** Reserved and sold: the quantity never goes below it. */
  committed: z.int(),
  before: listingTermsSchema,
  after: listingTermsSchema,
  /** Why this listing cannot take the change; null when it can. */
  error: z.nullable(z.string()),
});
export type PtsPreviewRow = z.infer<typeof ptsPreviewRowSchema>;

export const ptsPreviewSchema = z.object({
  matched: z.int(),
  /** Listings the change alters. */
  changed: z.int(),
  /** Listings the change leaves as they are (already so). */
  unchanged: z.int(),
  errors: z.int(),
  /** The rows in error first, then the changed ones, at most PTS_PREVIEW_ROWS. */
  rows: z.array(ptsPreviewRowSchema),
});
export type PtsPreview = z.infer<typeof ptsPreviewSchema>;

export const ptsUpdateBatchSchema = z.object({
  id: z.int(),
  source: z.enum(['bulk', 'file']),
  summary: z.string(),
  listing_count: z.int(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
});
export type PtsUpdateBatch = z.infer<typeof ptsUpdateBatchSchema>;

export const ptsUpdateBatchRowSchema = z.object({
  listing_id: z.int(),
  sku: z.string(),
  channel: z.enum(PTS_CHANNELS),
  before: listingTermsSchema,
  after: listingTermsSchema,
});

export const ptsUpdateBatchDetailSchema = z.object({
  batch: ptsUpdateBatchSchema,
  /** The first 1000 listings changed, by listing id. */
  rows: z.array(ptsUpdateBatchRowSchema),
});
export type PtsUpdateBatchDetail = z.infer<typeof ptsUpdateBatchDetailSchema>;

export const ptsUpdateEndpoints = {
  preview: defineEndpoint({
    method: 'POST',
    path: '/pts-updates/preview',
    summary: 'Dry run of a bulk change: every chosen listing before and after, with its error',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    body: ptsUpdateRequestSchema,
    response: ptsPreviewSchema,
  }),
  apply: defineEndpoint({
    method: 'POST',
    path: '/pts-updates',
    summary:
      'Apply a bulk change in one transaction and log it; rows in error refuse it (422) unless skipped',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    body: ptsApplySchema,
    response: ptsUpdateBatchSchema,
    successStatus: 201,
  }),
  batches: defineEndpoint({
    method: 'GET',
    path: '/pts-updates',
    summary: 'The last 100 bulk changes and files applied, newest first',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    response: z.array(ptsUpdateBatchSchema),
  }),
  batch: defineEndpoint({
    method: 'GET',
    path: '/pts-updates/:id',
    summary: 'One applied change with each listing before and after',
    tag: 'PTS',
    guard: PTS_UPDATE_ACCESS,
    params: idParamsSchema,
    response: ptsUpdateBatchDetailSchema,
  }),
};

/**
 * The file of listing changes: a listing by its id, or by SKU and channel; the quantity, the
 * price in dollars and the status to set, each left empty to keep it.
 */
export const ptsListingImport = {
  name: 'pts-listing-updates',
  singular: 'listing update',
  plural: 'Listing updates',
  tag: 'PTS',
  manage: PTS_UPDATE_ACCESS,
  importColumns: [
    {
      key: 'listing_id',
      header: 'Listing ID',
      kind: 'integer',
      example: '12',
      hint: 'or leave empty and give the SKU and channel',
    },
    { key: 'sku', header: 'SKU', example: 'IP13-128-BLK-A' },
    { key: 'channel', header: 'Channel', example: 'web', hint: 'web, retailer, campaign, carrier' },
    { key: 'qty_pushed', header: 'Quantity', kind: 'integer', example: '20' },
    { key: 'price', header: 'Price', kind: 'number', example: '329.00', hint: 'in dollars' },
    { key: 'status', header: 'Status', example: 'live', hint: 'live, paused or ended' },
  ],
} as const satisfies ImportDefinition;

/** The statuses a file may set; the rest follow the quantities or are where a listing starts. */
export const PTS_FILE_STATUSES = ['live', 'paused', 'ended'] as const;

export const ptsListingImportRowSchema = z
  .object({
    listing_id: z.optional(idNumber),
    sku: z.optional(
      z.string().check(z.trim(), z.maxLength(64, 'The SKU is at most 64 characters.')),
    ),
    channel: z.optional(
      z.pipe(
        z.string().check(z.trim()),
        z.pipe(
          z.transform((text: string) => text.toLowerCase()),
          z.enum(PTS_CHANNELS, 'Write web, retailer, campaign or carrier.'),
        ),
      ),
    ),
    qty_pushed: z.optional(
      z
        .int('Write a whole number.')
        .check(
          z.gte(0, 'The quantity cannot be negative.'),
          z.lte(1_000_000, 'The quantity is at most 1000000.'),
        ),
    ),
    price: z.optional(
      z.number('Write the price in dollars.').check(
        z.gte(0, 'The price cannot be negative.'),
        z.lte(1_000_000_000, 'The price is too large.'),
        z.refine((dollars) => Number.isInteger(Math.round(dollars * 100 * 1e6) / 1e6), {
          message: 'Write the price to the cent, like 329.99.',
        }),
      ),
    ),
    status: z.optional(
      z.pipe(
        z.string().check(z.trim()),
        z.pipe(
          z.transform((text: string) => text.toLowerCase()),
          z.enum(PTS_FILE_STATUSES, 'Write live, paused or ended.'),
        ),
      ),
    ),
  })
  .check(
    z.refine((row) => row.listing_id !== undefined || (!!row.sku && row.channel !== undefined), {
      message: 'Give the listing ID, or the SKU and the channel.',
      path: ['listing_id'],
    }),
    z.refine(
      (row) => row.qty_pushed !== undefined || row.price !== undefined || row.status !== undefined,
      { message: 'Give a quantity, a price or a status to change.', path: ['qty_pushed'] },
    ),
  );

export const ptsListingImportEndpoints = importEndpoints(ptsListingImport);
