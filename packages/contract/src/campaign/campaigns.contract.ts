import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import {
  CAMPAIGN_IMPORT_ACCESS,
  CAMPAIGN_LIST_ACCESS,
  ORDER_ACCESS,
  ORDER_SHIPPING_ACCESS,
} from '../guards.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { optionalPhone, optionalText, requiredText } from '../master-data/fields.js';
import {
  ORDER_PROGRAMS,
  orderRowSchema,
  SUBSCRIBER_FULFILMENT_TYPES,
} from '../order/orders.contract.js';
import { usAddressShape } from '../order/us-address.js';
import { PTS_CHANNELS } from '../pts/listings.contract.js';
import { importEndpoints, type ImportDefinition } from '../resource.js';

/**
 * Campaigns (DOMAIN.md 2.2 Campaign, 4.15): a client carrier's file of express orders, imported
 * with the toolkit's dry run (every row checked: address, SKU on a live listing, duplicates in the
 * file and in the system; the demand per SKU against the listings and stock), then committed all
 * or nothing or the valid rows only, each row an order made by the order intake.
 */

export const CAMPAIGN_STATUSES = ['open', 'closed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** The most rows one campaign file holds: every row is an order made in the commit's transaction. */
export const CAMPAIGN_MAX_ROWS = 2000;

/** The most units one row orders. */
export const CAMPAIGN_MAX_QTY = 100;

/** What the whole file shares: the campaign it creates. */
export const campaignImportOptionsSchema = z.object({
  name: requiredText('campaign name', 120),
  client_carrier_id: z
    .number('Choose the client carrier.')
    .check(z.int('Choose the client carrier.'), z.gte(1, 'Choose the client carrier.')),
  program: z.enum(ORDER_PROGRAMS, 'Choose the programme.'),
  fulfilment_type: z._default(
    z.enum(SUBSCRIBER_FULFILMENT_TYPES, 'Choose the fulfilment type.'),
    'existing_customer',
  ),
  /** The channel whose live listings the rows' SKUs are sold from, at their price. */
  channel: z._default(z.enum(PTS_CHANNELS, 'Choose the channel.'), 'campaign'),
});
export type CampaignImportOptions = z.input<typeof campaignImportOptionsSchema>;

/** One SKU's demand in the file's right rows against its listing and stock, before the commit. */
export const campaignDemandSchema = z.object({
  sku: z.string(),
  name: z.string(),
  listing_id: z.int(),
  price_cents: z.int(),
  /** Rows and units the file orders. */
  rows: z.int(),
  units: z.int(),
  /** What the listing can still sell (pushed less reserved and sold); null on backorder. */
  listing_remaining: z.nullable(z.int()),
  /** Sellable stock now. */
  stock: z.int(),
  /** Units past the listing's remaining or the stock: those orders will wait on hold. */
  short: z.int(),
});
export type CampaignDemand = z.infer<typeof campaignDemandSchema>;

export const campaignImportSummarySchema = z.object({
  demand: z.array(campaignDemandSchema),
  units: z.int(),
  total_cents: z.int(),
});
export type CampaignImportSummary = z.infer<typeof campaignImportSummarySchema>;

/** A row of the file: one subscriber's order of one SKU. */
export const campaignRowSchema = z.object({
  external_ref: requiredText('reference', 100),
  name: z.pipe(
    requiredText('name', 200),
    z.transform((name: string) => name.replace(/\s+/g, ' ')),
  ),
  address: usAddressShape.line1,
  city: usAddressShape.city,
  state: usAddressShape.state,
  zip: usAddressShape.zip,
  phone: optionalPhone,
  sku: requiredText('SKU', 64),
  qty: z
    .int('Write the quantity as a whole number.')
    .check(
      z.gte(1, 'The quantity must be at least 1.'),
      z.lte(CAMPAIGN_MAX_QTY, `At most ${CAMPAIGN_MAX_QTY} units per row.`),
    ),
  notes: optionalText('notes', 1000),
});

export const campaignImport = {
  name: 'campaign-orders',
  singular: 'campaign order',
  plural: 'Campaign orders',
  tag: 'Campaigns',
  manage: CAMPAIGN_IMPORT_ACCESS,
  maxRows: CAMPAIGN_MAX_ROWS,
  options: campaignImportOptionsSchema,
  summary: campaignImportSummarySchema,
  importColumns: [
    {
      key: 'external_ref',
      header: 'external_ref',
      required: true,
      example: 'AT-100234',
      hint: "the carrier's reference of the order",
    },
    { key: 'name', header: 'name', required: true, example: 'Maria Lopez', hint: 'first and last' },
    { key: 'address', header: 'address', required: true, example: '1200 Main St' },
    { key: 'city', header: 'city', required: true, example: 'Houston' },
    { key: 'state', header: 'state', required: true, example: 'TX' },
    { key: 'zip', header: 'zip', required: true, example: '77002' },
    { key: 'phone', header: 'phone', example: '713-555-0100' },
    { key: 'sku', header: 'sku', required: true, example: 'MOTO-G-BLK-A' },
    { key: 'qty', header: 'qty', required: true, kind: 'integer', example: '1' },
    { key: 'notes', header: 'notes', example: '' },
  ],
} as const satisfies ImportDefinition;

export const campaignImportEndpoints = importEndpoints(campaignImport);

/** Where a campaign's orders are, counted from their statuses. */
export const campaignProgressSchema = z.object({
  orders: z.int(),
  units: z.int(),
  total_cents: z.int(),
  /** Ready to go to a picker (ready, assigned). */
  waiting: z.int(),
  on_hold: z.int(),
  /** Picked: fulfilled or further along. */
  picked: z.int(),
  /** Labelled: labelled or further along. */
  labeled: z.int(),
  /** Scanned out: shipped or further along. */
  scanned: z.int(),
  cancelled: z.int(),
});
export type CampaignProgress = z.infer<typeof campaignProgressSchema>;

export const campaignSchema = z.object({
  id: z.int(),
  name: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  program: z.enum(ORDER_PROGRAMS),
  fulfilment_type: z.enum(SUBSCRIBER_FULFILMENT_TYPES),
  channel: z.enum(PTS_CHANNELS),
  status: z.enum(CAMPAIGN_STATUSES),
  import_batch_id: z.nullable(z.int()),
  file_name: z.nullable(z.string()),
  /** Orders the commit made. */
  order_count: z.int(),
  /** Rows of the file left out (valid rows only): the import's error file lists them. */
  rows_left_out: z.int(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
  progress: campaignProgressSchema,
});
export type Campaign = z.infer<typeof campaignSchema>;

export const campaignDetailSchema = z.object({
  campaign: campaignSchema,
  /** Every order of the campaign (a file holds at most CAMPAIGN_MAX_ROWS), by number. */
  orders: z.array(orderRowSchema),
});
export type CampaignDetail = z.infer<typeof campaignDetailSchema>;

/** The newest campaigns a page lists. */
export const CAMPAIGNS_SHOWN = 200;

export const campaignEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/campaigns',
    summary: `The newest ${CAMPAIGNS_SHOWN} campaigns with their orders' progress`,
    tag: 'Campaigns',
    guard: CAMPAIGN_LIST_ACCESS,
    query: z.object({ status: z.optional(z.enum(CAMPAIGN_STATUSES, 'Choose open or closed.')) }),
    response: z.array(campaignSchema),
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/campaigns/:id',
    summary: 'One campaign with its orders, customers masked',
    tag: 'Campaigns',
    guard: CAMPAIGN_LIST_ACCESS,
    params: idParamsSchema,
    response: campaignDetailSchema,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/campaigns/:id/close',
    summary: 'Close a campaign: it takes no more orders; its orders go on as they are',
    tag: 'Campaigns',
    guard: CAMPAIGN_IMPORT_ACCESS,
    params: idParamsSchema,
    response: campaignSchema,
  }),
  carrierOptions: defineEndpoint({
    method: 'GET',
    path: '/campaigns/carrier-options',
    summary: 'Up to 20 active client carriers, for a campaign file',
    tag: 'Campaigns',
    guard: CAMPAIGN_IMPORT_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  outbound: defineEndpoint({
    method: 'GET',
    path: '/campaigns/outbound',
    summary:
      'Campaigns with orders still to ship (and every open one), with their progress, for their labels and scan-out',
    tag: 'Campaigns',
    guard: ORDER_SHIPPING_ACCESS,
    response: z.array(campaignSchema),
  }),
  options: defineEndpoint({
    method: 'GET',
    path: '/campaigns/options',
    summary: 'Up to 20 campaigns by name, for the order list’s filter',
    tag: 'Campaigns',
    guard: ORDER_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
};
