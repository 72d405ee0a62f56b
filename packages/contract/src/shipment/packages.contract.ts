import * as z from 'zod/mini';
import { labelPrintable, LABEL_FORMATS, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { GAYLORD_MANAGE_ACCESS, ORDER_SHIPPING_ACCESS, PACKAGE_LIST_ACCESS } from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';
import { idNumber, idParamsSchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import { ORDER_STATUSES, SHIP_METHODS } from '../order/orders.contract.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { CARRIERS, type Carrier } from './tracking-numbers.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Packages and their shipping labels (DOMAIN.md 2.2, 3.3, 4.14 /fulfill/print-label and
 * /fulfill/scan-to-ship, 4.16 /shipment-management/package): a fulfilled order gets one package
 * with one label from a carrier adapter, in batches; the label is reprinted (counted) or voided
 * before scan-out only (invariant 9); the parcel is scanned out at the dock, which ships the
 * order, its devices and SIMs.
 */

// --- Carriers and services ---

/** The parcel services labels are bought for. */
export const SHIPPING_SERVICES = [
  'usps_ground_advantage',
  'usps_priority',
  'usps_priority_express',
  'ups_next_day_air',
] as const;
export type ShippingService = (typeof SHIPPING_SERVICES)[number];

/** Each service's carrier, name, and the banner a 4x6 label prints at its top (20 characters). */
export const SHIPPING_SERVICE_INFO: Record<
  ShippingService,
  { readonly carrier: Carrier; readonly name: string; readonly banner: string }
> = {
  usps_ground_advantage: {
    carrier: 'usps',
    name: 'USPS Ground Advantage',
    banner: 'USPS GROUND ADV',
  },
  usps_priority: { carrier: 'usps', name: 'USPS Priority Mail', banner: 'USPS PRIORITY MAIL' },
  usps_priority_express: {
    carrier: 'usps',
    name: 'USPS Priority Mail Express',
    banner: 'USPS PRIORITY EXP',
  },
  ups_next_day_air: { carrier: 'ups', name: 'UPS Next Day Air', banner: 'UPS NEXT DAY AIR' },
};

/**
 * The service an order's ship method is labelled with. Freight and pickup go without a parcel
 * label (a bill of lading, the customer at the counter).
 */
export const SHIP_METHOD_SERVICE: Record<(typeof SHIP_METHODS)[number], ShippingService | null> = {
  ground: 'usps_ground_advantage',
  priority: 'usps_priority',
  express: 'usps_priority_express',
  overnight: 'ups_next_day_air',
  freight: null,
  pickup: null,
};

// --- The package lifecycle ---

export const PACKAGE_STATUSES = [
  'label_created',
  'in_gaylord',
  'scanned_out',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'failed_attempt',
  'available_for_pickup',
  'exception',
  'return_to_sender',
  'returned',
  'voided',
  'lost',
] as const;
export type PackageStatus = (typeof PACKAGE_STATUSES)[number];

/** Before scan-out: the label may still be voided (DOMAIN.md invariant 9). */
export const PACKAGE_VOIDABLE_STATUSES = [
  'label_created',
  'in_gaylord',
] as const satisfies readonly PackageStatus[];

/**
 * On its way to the customer: scanned out, and neither delivered, returning, returned nor lost.
 * The carrier's tracking events move it between these and out of them.
 */
export const PACKAGE_IN_FLIGHT_STATUSES = [
  'scanned_out',
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'available_for_pickup',
  'exception',
] as const satisfies readonly PackageStatus[];

/** The package states a carrier's event leads to. */
export const TRACKED_PACKAGE_STATUSES = [
  'in_transit',
  'out_for_delivery',
  'failed_attempt',
  'available_for_pickup',
  'exception',
  'delivered',
  'return_to_sender',
] as const satisfies readonly PackageStatus[];
export type TrackedPackageStatus = (typeof TRACKED_PACKAGE_STATUSES)[number];

/**
 * A tracking step: from any state on the way but its own (an event of the state the parcel is in
 * is recorded and moves nothing). Delivered, returning to the sender and lost are left by no
 * event: a late or replayed event never reopens them.
 */
const trackedTo = <const S extends TrackedPackageStatus>(to: S, label: string, event: string) => ({
  from: PACKAGE_IN_FLIGHT_STATUSES.filter(
    (state): state is Exclude<(typeof PACKAGE_IN_FLIGHT_STATUSES)[number], S> => state !== to,
  ),
  to,
  label,
  event,
});

/**
 * A package's states (DOMAIN.md 3.3). The label desk and the dock move it: void before scan-out,
 * scan-out; the carrier's tracking events move it on its way, and a parcel without news is
 * flagged lost. Gaylords take a parcel in (and out while the gaylord is open); a gaylord's pickup
 * scans its parcels out.
 */
export const packageLifecycle = defineLifecycle({
  name: 'package',
  states: PACKAGE_STATUSES,
  terminal: ['voided', 'returned'],
  actions: {
    void: {
      from: PACKAGE_VOIDABLE_STATUSES,
      to: 'voided',
      label: 'have its label voided',
      event: 'voided',
      permission: ORDER_SHIPPING_ACCESS,
      reason: 'optional',
    },
    scan_out: {
      from: PACKAGE_VOIDABLE_STATUSES,
      to: 'scanned_out',
      label: 'be scanned out',
      event: 'scanned_out',
      permission: ORDER_SHIPPING_ACCESS,
    },
    sort_into_gaylord: {
      from: ['label_created'],
      to: 'in_gaylord',
      label: 'be sorted into a gaylord',
      event: 'sorted_into_gaylord',
      permission: GAYLORD_MANAGE_ACCESS,
    },
    take_out_of_gaylord: {
      from: ['in_gaylord'],
      to: 'label_created',
      label: 'be taken out of a gaylord',
      event: 'taken_out_of_gaylord',
      permission: GAYLORD_MANAGE_ACCESS,
    },
    // Tracking (DOMAIN.md 3.3, 4.16): the carrier's events move a parcel on its way. They name no
    // permission: the polling job records them as the server itself, and people reach them only
    // through endpoints guarded by order.shipping-processing.
    track_in_transit: trackedTo('in_transit', 'be in transit', 'in_transit'),
    track_out_for_delivery: trackedTo(
      'out_for_delivery',
      'be out for delivery',
      'out_for_delivery',
    ),
    track_failed_attempt: trackedTo(
      'failed_attempt',
      'have a delivery attempted',
      'delivery_attempted',
    ),
    track_available_for_pickup: trackedTo(
      'available_for_pickup',
      'be available for pickup',
      'available_for_pickup',
    ),
    track_exception: trackedTo('exception', 'have a carrier exception', 'carrier_exception'),
    track_delivered: trackedTo('delivered', 'be delivered', 'delivered'),
    track_return_to_sender: trackedTo(
      'return_to_sender',
      'be returned to its sender',
      'returning_to_sender',
    ),
    /** No movement for days: written off as lost, with why (a claim follows). */
    flag_lost: {
      from: PACKAGE_IN_FLIGHT_STATUSES,
      to: 'lost',
      label: 'be flagged lost',
      event: 'flagged_lost',
      permission: ORDER_SHIPPING_ACCESS,
      reason: 'required',
    },
    /**
     * Opened at the unpack station (DOMAIN.md 3.3, 4.16): a parcel sent back, or one that came
     * back with no tracking news at all (on its way, delivered or written off as lost).
     */
    unpack: {
      from: ['return_to_sender', ...PACKAGE_IN_FLIGHT_STATUSES, 'delivered', 'lost'],
      to: 'returned',
      label: 'be unpacked',
      event: 'unpacked',
      permission: { permission: 'unpack.process' },
    },
  },
});
export type PackageAction = keyof typeof packageLifecycle.actions;

/** The action that takes a parcel to each tracked state. */
export const TRACKING_ACTIONS = {
  in_transit: 'track_in_transit',
  out_for_delivery: 'track_out_for_delivery',
  failed_attempt: 'track_failed_attempt',
  available_for_pickup: 'track_available_for_pickup',
  exception: 'track_exception',
  delivered: 'track_delivered',
  return_to_sender: 'track_return_to_sender',
} as const satisfies Record<TrackedPackageStatus, PackageAction>;

// --- Rows ---

export const packageRowSchema = z.object({
  id: z.int(),
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  label_batch_id: z.nullable(z.int()),
  carrier: z.enum(CARRIERS),
  service: z.enum(SHIPPING_SERVICES),
  tracking_number: z.string(),
  weight_g: z.int(),
  label_format: z.enum(LABEL_FORMATS),
  status: z.enum(PACKAGE_STATUSES),
  gaylord_id: z.nullable(z.int()),
  gaylord_code: z.nullable(z.string()),
  /** Where it goes, city and state only. */
  place: z.string(),
  /** The devices in it (IMEIs), in short. */
  contents_text: z.string(),
  label_created_at: z.string(),
  label_created_by_name: z.nullable(z.string()),
  first_printed_at: z.nullable(z.string()),
  reprint_count: z.int(),
  voided_at: z.nullable(z.string()),
  void_reason: z.nullable(z.string()),
  scanned_out_at: z.nullable(z.string()),
  scanned_out_by_name: z.nullable(z.string()),
  scan_station: z.nullable(z.string()),
});
export type PackageRow = z.infer<typeof packageRowSchema>;

/** One unit of a package: the device (IMEI and model) and the SIM shipped with it. */
export const packageUnitSchema = z.object({
  unit_id: z.int(),
  sku: z.string(),
  description: z.string(),
  device_id: z.nullable(z.int()),
  imei: z.nullable(z.string()),
  model: z.nullable(z.string()),
  device_status: z.nullable(z.string()),
  iccid: z.nullable(z.string()),
  status: z.string(),
});
export type PackageUnit = z.infer<typeof packageUnitSchema>;

export const packageEventSchema = timelineEventSchema;
export type PackageEvent = z.infer<typeof packageEventSchema>;

export const packageDetailSchema = z.object({
  package: packageRowSchema,
  units: z.array(packageUnitSchema),
  events: z.array(packageEventSchema),
});
export type PackageDetail = z.infer<typeof packageDetailSchema>;

// --- The packages list ---

export const packageList = defineList({
  name: 'packages',
  singular: 'package',
  plural: 'Packages',
  tag: 'Shipment',
  view: PACKAGE_LIST_ACCESS,
  item: packageRowSchema,
  filters: {
    status: enumFilter(PACKAGE_STATUSES),
    carrier: enumFilter(CARRIERS),
    order_id: idFilter,
    label_batch_id: idFilter,
    /** Labels created on or after this business day. */
    created_from: z.optional(isoDate('first day')),
    /** Labels created on or before this business day. */
    created_to: z.optional(isoDate('last day')),
    /** Parcels scanned out on or after this business day (shipped). */
    shipped_from: z.optional(isoDate('first day')),
    /** Parcels scanned out on or before this business day. */
    shipped_to: z.optional(isoDate('last day')),
  },
  sorts: ['label_created_at', 'scanned_out_at'],
  defaultSort: 'label_created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'tracking_number', header: 'Tracking', example: '9400100901234000000012' },
    { key: 'carrier', header: 'Carrier', example: 'usps' },
    { key: 'service', header: 'Service', example: 'usps_ground_advantage' },
    { key: 'order_number', header: 'Order', example: 'SO-0000123' },
    { key: 'status', header: 'Status', example: 'label_created' },
    { key: 'weight_g', header: 'Weight (g)', example: '370' },
    { key: 'place', header: 'City, state', example: 'HOUSTON, TX' },
    { key: 'contents_text', header: 'Contents', example: '356938035643809' },
    { key: 'label_created_at', header: 'Label created', example: '' },
    { key: 'reprint_count', header: 'Reprints', example: '0' },
    { key: 'voided_at', header: 'Voided', example: '' },
    { key: 'scanned_out_at', header: 'Scanned out', example: '' },
  ],
});
export const packageListEndpoints = listEndpoints(packageList);

// --- The label desk ---

/**
 * A campaign's label desk and scan-out (DOMAIN.md 4.15 `/order/express-orders/print-label` and
 * `/order/express-orders/scan`) are the desk and the dock scoped to one campaign: its orders only.
 */
export const campaignScopeSchema = z.object({ campaign_id: idFilter });

/** A fulfilled order waiting for its label, as /fulfill/print-label lists it. */
export const labelQueueOrderSchema = z.object({
  order_id: z.int(),
  order_number: z.string(),
  fulfilment_type: z.string(),
  place: z.string(),
  items_text: z.string(),
  units: z.int(),
  sla_due_at: z.nullable(z.string()),
  created_at: z.string(),
  /** Why it may not be labelled yet (the carrier's pairing, an MDN to record); null when it may. */
  waiting: z.nullable(z.string()),
});
export type LabelQueueOrder = z.infer<typeof labelQueueOrderSchema>;

/** Orders waiting at most this many per group; the oldest first. */
export const LABEL_QUEUE_GROUP_LIMIT = 200;

export const labelQueueSchema = z.object({
  groups: z.array(
    z.object({
      service: z.enum(SHIPPING_SERVICES),
      carrier: z.enum(CARRIERS),
      /** How many orders wait in this group, all of them. */
      total: z.int(),
      orders: z.array(labelQueueOrderSchema),
    }),
  ),
  /** Fulfilled orders whose ship method takes no parcel label (freight, pickup). */
  without_parcel: z.int(),
});
export type LabelQueue = z.infer<typeof labelQueueSchema>;

export const labelBatchSchema = z.object({
  id: z.int(),
  format: z.enum(LABEL_FORMATS),
  created_at: z.string(),
  /** Active labels in the batch. */
  labels: z.int(),
});
export type LabelBatch = z.infer<typeof labelBatchSchema>;

export const createLabelBatchSchema = z.object({
  format: z._default(z.enum(LABEL_FORMATS, 'Choose the format: pdf or zpl.'), 'pdf'),
});
export type CreateLabelBatchInput = z.input<typeof createLabelBatchSchema>;

/** Orders labelled in one request: the page sends a batch in steps and shows the progress. */
export const LABEL_STEP_MAX = 25;

export const labelStepSchema = z.object({
  order_ids: z
    .array(idNumber, 'Choose the orders to label.')
    .check(
      z.minLength(1, 'Choose at least one order.'),
      z.maxLength(LABEL_STEP_MAX, `Label at most ${LABEL_STEP_MAX} orders a step.`),
    ),
  /** The campaign the desk works for: an order of another is refused. */
  campaign_id: idFilter,
});
export type LabelStepInput = z.input<typeof labelStepSchema>;

/**
 * What became of one order: a label made now, the label it had already (a retried step never
 * buys a second), or why it got none.
 */
export const LABEL_RESULTS = ['created', 'already_labelled', 'refused'] as const;
export type LabelResult = (typeof LABEL_RESULTS)[number];

export const labelStepAnswerSchema = z.object({
  results: z.array(
    z.object({
      order_id: z.int(),
      order_number: z.nullable(z.string()),
      result: z.enum(LABEL_RESULTS),
      message: z.string(),
      package: z.nullable(packageRowSchema),
    }),
  ),
  batch: labelBatchSchema,
});
export type LabelStepAnswer = z.infer<typeof labelStepAnswerSchema>;

/** Orders one run of a batch takes: the desk's whole choice, labelled by a job in steps. */
export const LABEL_RUN_MAX = 2000;

export const labelRunSchema = z.object({
  order_ids: z
    .array(idNumber, 'Choose the orders to label.')
    .check(
      z.minLength(1, 'Choose at least one order.'),
      z.maxLength(LABEL_RUN_MAX, `Label at most ${LABEL_RUN_MAX} orders a batch.`),
    ),
  /** The campaign the desk works for: an order of another is refused. */
  campaign_id: idFilter,
});
export type LabelRunInput = z.input<typeof labelRunSchema>;

/**
 * A batch's run as its job has it so far: the orders given, those done (in the order given) and
 * what became of each; `error` says why the job waits to try again (the carrier did not answer).
 */
export const labelRunProgressSchema = z.object({
  batch: labelBatchSchema,
  requested: z.int(),
  done: z.int(),
  error: z.nullable(z.string()),
  results: z.array(
    z.object({
      order_id: z.int(),
      order_number: z.nullable(z.string()),
      /** `waiting` until the job's step takes the order. */
      result: z.enum([...LABEL_RESULTS, 'waiting']),
      message: z.string(),
      package: z.nullable(packageRowSchema),
    }),
  ),
});
export type LabelRunProgress = z.infer<typeof labelRunProgressSchema>;

export const voidLabelSchema = z.object({ reason: optionalText('reason', 500) });
export type VoidLabelInput = z.input<typeof voidLabelSchema>;

// --- Scan to ship ---

/** What the dock answers for a parcel scanned out. */
export const SHIP_SCAN_RESULTS = [
  'shipped',
  'already_shipped',
  'voided',
  'cancel_requested',
  'day_closed',
  'not_ready',
  'device_mismatch',
  'other_campaign',
  'unknown',
] as const;
export type ShipScanResult = (typeof SHIP_SCAN_RESULTS)[number];

export const SHIP_SCAN_TONES: Record<ShipScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  shipped: 'success',
  already_shipped: 'info',
  voided: 'error',
  cancel_requested: 'error',
  day_closed: 'error',
  not_ready: 'error',
  device_mismatch: 'error',
  other_campaign: 'error',
  unknown: 'error',
};

/** The name of the station a scan comes from (the bench's, kept by the browser). */
export const scanStationSchema = z.optional(
  z.string().check(z.maxLength(60, 'The station name is too long.')),
);

/** A parcel's tracking barcode as scanned or typed. */
export const trackingCodeSchema = z
  .string('Scan a tracking barcode.')
  .check(
    z.minLength(1, 'Scan a tracking barcode.'),
    z.maxLength(64, 'This is too long for a tracking number.'),
  );

export const shipScanBodySchema = z.object({
  code: trackingCodeSchema,
  station: scanStationSchema,
  /**
   * The device IMEIs scanned to verify the parcel: when given, they must be exactly the
   * package's devices, or nothing ships.
   */
  imeis: z.optional(
    z.array(z.string().check(z.maxLength(64))).check(z.maxLength(100, 'Too many devices.')),
  ),
  /** The campaign being scanned out: a parcel of another order ships not here. */
  campaign_id: idFilter,
});
export type ShipScanInput = z.infer<typeof shipScanBodySchema>;

/** A parcel as the dock sees it: its order, carrier and the devices it must hold. */
export const parcelSchema = z.object({
  package: packageRowSchema,
  units: z.array(packageUnitSchema),
});
export type Parcel = z.infer<typeof parcelSchema>;

export const shipScanAnswerSchema = z.object({
  result: z.enum(SHIP_SCAN_RESULTS),
  message: z.string(),
  code: z.string(),
  /** The moment of the answer, for the station's log. */
  at: z.string(),
  parcel: z.nullable(parcelSchema),
  /** Parcels scanned out today (the business day), all stations. */
  today: z.int(),
});
export type ShipScanAnswer = z.infer<typeof shipScanAnswerSchema>;

export const parcelLookupQuerySchema = z.object({
  code: trackingCodeSchema,
  campaign_id: idFilter,
});

export const shipTodaySchema = z.object({ today: z.int() });

// --- Endpoints ---

/** A batch's 4x6 labels, PDF or ZPL: one page or format per package. */
export const shippingLabelsPrintable = labelPrintable('shipping-labels', ['4x6']);

/** One package's 4x6 label, reprinted. */
export const shippingLabelPrintable = labelPrintable('shipping-label', ['4x6']);

export const packageEndpoints = {
  labelQueue: defineEndpoint({
    method: 'GET',
    path: '/label-queue',
    summary:
      'Fulfilled orders without a label (of one campaign if given), grouped by carrier and service, oldest first',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    query: campaignScopeSchema,
    response: labelQueueSchema,
  }),
  createBatch: defineEndpoint({
    method: 'POST',
    path: '/label-batches',
    summary: 'Start a batch of labels, in the format the printer takes',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    body: createLabelBatchSchema,
    response: labelBatchSchema,
    successStatus: 201,
  }),
  labelStep: defineEndpoint({
    method: 'POST',
    path: '/label-batches/:id/labels',
    summary:
      'Create the labels of up to 25 fulfilled orders in a batch; an order labelled already keeps its label',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: labelStepSchema,
    response: labelStepAnswerSchema,
  }),
  startRun: defineEndpoint({
    method: 'POST',
    path: '/label-batches/:id/runs',
    summary:
      'Give a batch orders to label: a background job labels them in steps; an order labelled already keeps its label',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: labelRunSchema,
    response: labelRunProgressSchema,
    successStatus: 202,
  }),
  runProgress: defineEndpoint({
    method: 'GET',
    path: '/label-batches/:id/run',
    summary: "A batch's run so far: orders done of those given, and what became of each",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: labelRunProgressSchema,
  }),
  printBatch: printEndpoint({
    path: '/label-batches/:id/print',
    summary: "Print a batch's active labels as one file (a second print counts as reprints)",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: shippingLabelsPrintable,
  }),
  reprint: printEndpoint({
    path: '/packages/:id/label',
    summary: "Print a package's label again (counted and audited)",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: shippingLabelPrintable,
  }),
  void: defineEndpoint({
    method: 'POST',
    path: '/packages/:id/void',
    summary:
      "Void a package's label before scan-out: the order goes back to fulfilled, its devices to picked",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: voidLabelSchema,
    response: packageRowSchema,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/packages/:id/detail',
    summary: 'A package with its contents and its timeline',
    tag: 'Shipment',
    guard: PACKAGE_LIST_ACCESS,
    params: idParamsSchema,
    response: packageDetailSchema,
  }),
  lookup: defineEndpoint({
    method: 'GET',
    path: '/ship-scans/parcel',
    summary:
      'The parcel of a scanned tracking barcode: its order and the devices it must hold (409 for a parcel of another campaign than the one given)',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    query: parcelLookupQuerySchema,
    response: parcelSchema,
  }),
  today: defineEndpoint({
    method: 'GET',
    path: '/ship-scans/today',
    summary: 'Parcels scanned out today, all stations',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    response: shipTodaySchema,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/ship-scans',
    summary:
      'Scan a parcel out at the dock: the order, its devices and SIMs ship; a repeat answers already shipped',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    body: shipScanBodySchema,
    response: shipScanAnswerSchema,
  }),
};
