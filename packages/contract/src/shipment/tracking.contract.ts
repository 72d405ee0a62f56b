import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { ORDER_SHIPPING_ACCESS, SHIPMENT_LIST_ACCESS } from '../guards.js';
import { idNumber, idParamsSchema } from '../list.js';
import { requiredText } from '../master-data/fields.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import {
  booleanFilter,
  defineList,
  enumFilter,
  idFilter,
  importEndpoints,
  listEndpoints,
  type ImportDefinition,
} from '../resource.js';
import { timelineEventSchema } from '../timeline.js';
import {
  PACKAGE_STATUSES,
  SHIPPING_SERVICES,
  type TrackedPackageStatus,
} from './packages.contract.js';
import { CARRIERS } from './tracking-numbers.js';

/**
 * Parcel shipments and their tracking (DOMAIN.md 3.3, 4.16 /shipment-management/shipment): the
 * carriers' events, from a tracking file, the carrier adapter or a webhook, each normalised to
 * one status set (as EasyPost's), recorded once, and moving the parcel and its order; a parcel
 * without news for days is flagged "possible lost" and may be written off as lost.
 */

// --- Normalised tracking statuses ---

/**
 * One status set for every carrier's events (EasyPost's, with a failed delivery attempt of its
 * own as AfterShip's): the carrier's code or words are kept beside it.
 */
export const TRACKING_STATUSES = [
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'available_for_pickup',
  'delivered',
  'return_to_sender',
  'failure',
  'cancelled',
  'unknown',
] as const;
export type TrackingStatus = (typeof TRACKING_STATUSES)[number];

export const TRACKING_STATUS_TEXT: Record<TrackingStatus, string> = {
  pre_transit: 'Pre-transit',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  failed_attempt: 'Delivery attempted',
  available_for_pickup: 'Available for pickup',
  delivered: 'Delivered',
  return_to_sender: 'Return to sender',
  failure: 'Failure',
  cancelled: 'Cancelled',
  unknown: 'Unknown',
};

/**
 * The package state an event of each status leads to; null: the event is recorded and the
 * parcel stays where it is (label news before it moves, words nobody can read).
 */
export const TRACKING_PACKAGE_STATUS: Record<TrackingStatus, TrackedPackageStatus | null> = {
  pre_transit: null,
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  failed_attempt: 'failed_attempt',
  available_for_pickup: 'available_for_pickup',
  delivered: 'delivered',
  return_to_sender: 'return_to_sender',
  failure: 'exception',
  cancelled: 'exception',
  unknown: null,
};

/** Where an event came from: a file imported, the carrier asked, the carrier calling us. */
export const TRACKING_SOURCES = ['file', 'adapter', 'webhook'] as const;
export type TrackingSource = (typeof TRACKING_SOURCES)[number];

/** A parcel with no event for this many days after scan-out is "possible lost", by default. */
export const POSSIBLE_LOST_DAYS_DEFAULT = 7;

// --- Rows ---

export const trackingEventSchema = z.object({
  id: z.int(),
  tracking_number: z.string(),
  carrier: z.enum(CARRIERS),
  /** The carrier's code or words, as given. */
  carrier_status: z.string(),
  description: z.nullable(z.string()),
  status: z.enum(TRACKING_STATUSES),
  occurred_at: z.string(),
  location: z.nullable(z.string()),
  source: z.enum(TRACKING_SOURCES),
  recorded_at: z.string(),
  recorded_by_name: z.nullable(z.string()),
  /** The state the event moved the parcel to; null when it moved nothing (older, same state). */
  moved_to: z.nullable(z.enum(PACKAGE_STATUSES)),
});
export type TrackingEvent = z.infer<typeof trackingEventSchema>;

export const parcelShipmentRowSchema = z.object({
  /** The package's id. */
  id: z.int(),
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  carrier: z.enum(CARRIERS),
  service: z.enum(SHIPPING_SERVICES),
  tracking_number: z.string(),
  status: z.enum(PACKAGE_STATUSES),
  /** The normalised status of the newest event; null before the first. */
  tracking_status: z.nullable(z.enum(TRACKING_STATUSES)),
  /** Scanned out at the dock. */
  shipped_at: z.nullable(z.string()),
  last_event_at: z.nullable(z.string()),
  /** The newest event in words: its description, else the carrier's status. */
  last_event_text: z.nullable(z.string()),
  last_event_location: z.nullable(z.string()),
  /** Whole days from scan-out to delivery, or to now while on its way or coming back. */
  days_in_transit: z.nullable(z.int()),
  delivered_at: z.nullable(z.string()),
  /** On its way with no event for the settings' days since the last one (or scan-out). */
  possible_lost: z.boolean(),
  /** Where it goes, city and state only. */
  place: z.string(),
});
export type ParcelShipmentRow = z.infer<typeof parcelShipmentRowSchema>;

export const parcelTrackingSchema = z.object({
  shipment: parcelShipmentRowSchema,
  /** The carrier's events, newest first. */
  events: z.array(trackingEventSchema),
  /** The package's own timeline (label, scan-out, tracking steps, flagged lost), newest first. */
  steps: z.array(timelineEventSchema),
  possible_lost_days: z.int(),
});
export type ParcelTracking = z.infer<typeof parcelTrackingSchema>;

// --- The list ---

export const parcelShipmentList = defineList({
  name: 'parcel-shipments',
  singular: 'parcel shipment',
  plural: 'Parcel shipments',
  tag: 'Shipment',
  view: SHIPMENT_LIST_ACCESS,
  item: parcelShipmentRowSchema,
  filters: {
    tracking_status: enumFilter(TRACKING_STATUSES),
    status: enumFilter(PACKAGE_STATUSES),
    carrier: enumFilter(CARRIERS),
    possible_lost: booleanFilter,
    order_id: idFilter,
  },
  sorts: ['shipped_at', 'last_event_at'],
  defaultSort: 'shipped_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'tracking_number', header: 'Tracking', example: '9400100901234000000012' },
    { key: 'carrier', header: 'Carrier', example: 'usps' },
    { key: 'service', header: 'Service', example: 'usps_ground_advantage' },
    { key: 'order_number', header: 'Order', example: 'SO-0000123' },
    { key: 'order_status', header: 'Order status', example: 'shipped' },
    { key: 'shipped_at', header: 'Ship date', example: '' },
    { key: 'status', header: 'Package status', example: 'in_transit' },
    { key: 'tracking_status', header: 'Tracking status', example: 'in_transit' },
    { key: 'last_event_at', header: 'Last event', example: '' },
    { key: 'last_event_text', header: 'Last event text', example: 'Arrived at USPS facility' },
    { key: 'last_event_location', header: 'Last event location', example: 'DALLAS, TX' },
    { key: 'days_in_transit', header: 'Days in transit', example: '2' },
    { key: 'delivered_at', header: 'Delivered', example: '' },
    { key: 'possible_lost', header: 'Possible lost', example: 'false' },
    { key: 'place', header: 'City, state', example: 'HOUSTON, TX' },
  ],
});
export const parcelShipmentListEndpoints = listEndpoints(parcelShipmentList);

// --- The tracking file ---

/** Rows of one tracking file: a day's carrier export fits many times over. */
export const TRACKING_IMPORT_MAX_ROWS = 20_000;

export const trackingImport = {
  name: 'tracking-events',
  singular: 'tracking event',
  plural: 'Tracking events',
  tag: 'Shipment',
  manage: ORDER_SHIPPING_ACCESS,
  maxRows: TRACKING_IMPORT_MAX_ROWS,
  importColumns: [
    {
      key: 'tracking_number',
      header: 'Tracking number',
      required: true,
      example: '9400100901234000000012',
    },
    {
      key: 'status',
      header: 'Status',
      required: true,
      example: 'Delivered',
      hint: "the carrier's code or words (Delivered, Out for delivery, Return to sender, 01, D…)",
    },
    {
      key: 'occurred_at',
      header: 'Occurred at',
      required: true,
      example: '2026-11-20 14:05',
      hint: 'date and time; without a zone it is the business time zone',
    },
    { key: 'location', header: 'Location', example: 'HOUSTON, TX 77002' },
    { key: 'description', header: 'Description', example: 'Delivered, In/At Mailbox' },
  ],
} as const satisfies ImportDefinition;

export const trackingRowSchema = z.object({
  tracking_number: requiredText('tracking number', 64),
  status: requiredText('status', 100),
  occurred_at: requiredText('time of the event', 40),
  location: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(200))), null),
  description: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(500))), null),
});
export const trackingImportEndpoints = importEndpoints(trackingImport);

// --- Actions ---

/** Parcels asked of the carrier in one refresh. */
export const TRACKING_REFRESH_MAX = 200;

export const trackingRefreshSchema = z.object({
  package_ids: z
    .array(idNumber, 'Choose the parcels to refresh.')
    .check(
      z.minLength(1, 'Choose at least one parcel.'),
      z.maxLength(TRACKING_REFRESH_MAX, `Refresh at most ${TRACKING_REFRESH_MAX} parcels at once.`),
    ),
});
export type TrackingRefreshInput = z.input<typeof trackingRefreshSchema>;

export const trackingRefreshAnswerSchema = z.object({
  /** Parcels asked of the carrier (those on their way among the chosen). */
  asked: z.int(),
  /** Events new to us. */
  recorded: z.int(),
  /** Parcels whose state changed. */
  moved: z.int(),
});
export type TrackingRefreshAnswer = z.infer<typeof trackingRefreshAnswerSchema>;

/**
 * What the tracking webhook reads of an EasyPost Event: its kind (`tracker.updated`) and its
 * object, a Tracker for a tracker's Event (checked by the server); other Events are taken and
 * passed over.
 */
export const easyPostEventSchema = z.object({
  description: z.string('An EasyPost Event names its kind in description.'),
  result: z.optional(z.unknown()),
});

export const flagLostSchema = z.object({ reason: requiredText('reason', 500) });
export type FlagLostInput = z.input<typeof flagLostSchema>;

export const trackingEndpoints = {
  tracking: defineEndpoint({
    method: 'GET',
    path: '/parcel-shipments/:id/tracking',
    summary: "A parcel with its carrier's events and its own timeline",
    tag: 'Shipment',
    guard: SHIPMENT_LIST_ACCESS,
    params: idParamsSchema,
    response: parcelTrackingSchema,
  }),
  refresh: defineEndpoint({
    method: 'POST',
    path: '/parcel-shipments/tracking-refreshes',
    summary:
      'Ask the carrier for the events of up to 200 parcels on their way; new events move them and their orders',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    body: trackingRefreshSchema,
    response: trackingRefreshAnswerSchema,
  }),
  easyPostWebhook: defineEndpoint({
    method: 'POST',
    path: '/parcel-shipments/tracking-webhooks/easypost',
    summary:
      "EasyPost's tracking webhook: a tracker's Event, signed, records its events like a refresh",
    description: [
      'Called by EasyPost, not by people: set this URL as a webhook in EasyPost with the secret',
      'the server has as `EASYPOST_WEBHOOK_SECRET`. EasyPost signs the body with it',
      '(`X-Hmac-Signature: hmac-sha256-hex=...`); a missing or wrong signature is a 401. A',
      "`tracker.created` or `tracker.updated` Event records the tracker's events for the parcel",
      'on its way with its number (`asked`: 1, or 0 when there is none); other Events are',
      'answered and passed over.',
    ].join('\n'),
    tag: 'Shipment',
    guard: 'public',
    body: easyPostEventSchema,
    response: trackingRefreshAnswerSchema,
  }),
  flagLost: defineEndpoint({
    method: 'POST',
    path: '/parcel-shipments/:id/lost',
    summary: 'Write off a parcel on its way as lost, with the reason; its order is lost too',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: flagLostSchema,
    response: parcelShipmentRowSchema,
  }),
};
