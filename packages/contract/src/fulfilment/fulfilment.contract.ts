import * as z from 'zod/mini';
import { printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import {
  ORDER_ACCESS,
  ORDER_ASSIGNMENT_ACCESS,
  ORDER_FULFIL_ACCESS,
  ORDER_OTA_ACCESS,
} from '../guards.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText, wholeNumber } from '../master-data/fields.js';
import {
  FULFILMENT_TYPES,
  ORDER_HOLD_REASONS,
  ORDER_STATUSES,
  orderRowSchema,
  PAYMENT_STATUSES,
  type FulfilmentType,
} from '../order/orders.contract.js';
import { booleanFilter, defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';

/**
 * Fulfilment, first half (DOMAIN.md 4.14, 5.2 steps 3-4): ready orders assigned to workers with a
 * device reserved per unit (`/fulfill/assignment`), picked at a keyboard-only station
 * (`/fulfill/need-to-fulfill`) until fulfilled, the pipeline by stage (`/fulfill/order`). The
 * backlog (`/fulfill/backlog-order`) is the order list's held orders with its release and cancel.
 */

/** The stages of the pipeline the fulfilment orders page shows (labels come with shipping). */
export const PIPELINE_STATUSES = [
  'assigned',
  'in_progress',
  'fulfilled',
  'labeled',
] as const satisfies readonly (typeof ORDER_STATUSES)[number][];

/**
 * Subscriber orders whose phone ships with the client carrier's SIM kit (DOMAIN.md section 0: a
 * Lifeline handset "often with a SIM"; 5.4 OTA kits): each of their units takes an ICCID at pick.
 * So does an existing customer's order flagged `sim_swap` (DOMAIN.md 4.14).
 */
export const SIM_KIT_TYPES: readonly FulfilmentType[] = ['new_lifeline', 'ota'];

/**
 * The pick station's queues (DOMAIN.md 4.14): one station, scoped to the orders of one queue.
 * `standard` (`/fulfill/need-to-fulfill`) takes every type without a queue of its own.
 */
export const PICK_QUEUES = [
  'standard',
  'prepaid',
  'existing_customer',
  'ota',
  'replacement',
] as const;
export type PickQueue = (typeof PICK_QUEUES)[number];

/** The queue an order of this type is picked in. */
export const pickQueueOf = (type: FulfilmentType): PickQueue =>
  (PICK_QUEUES as readonly string[]).includes(type) ? (type as PickQueue) : 'standard';

/** The fulfilment types a queue picks. */
export const pickQueueTypes = (queue: PickQueue): FulfilmentType[] =>
  FULFILMENT_TYPES.filter((type) => pickQueueOf(type) === queue);

/** A queue's name, as its page is called. */
export const PICK_QUEUE_NAMES: Record<PickQueue, string> = {
  standard: 'Need to fulfil',
  prepaid: 'Prepaid',
  existing_customer: 'Existing customers',
  ota: 'OTA orders',
  replacement: 'Replacements',
};

/** Who works a queue: the OTA queue has its own right besides the station's. */
export const PICK_QUEUE_ACCESS: Record<
  PickQueue,
  typeof ORDER_FULFIL_ACCESS | typeof ORDER_OTA_ACCESS
> = {
  standard: ORDER_FULFIL_ACCESS,
  prepaid: ORDER_FULFIL_ACCESS,
  existing_customer: ORDER_FULFIL_ACCESS,
  ota: ORDER_OTA_ACCESS,
  replacement: ORDER_FULFIL_ACCESS,
};

/** What an order reports to its carrier: an OTA pairing or a device change (DOMAIN.md 4.14). */
export const CARRIER_UPDATE_KINDS = ['pairing', 'device_change'] as const;
export type CarrierUpdateKind = (typeof CARRIER_UPDATE_KINDS)[number];
export const CARRIER_UPDATE_STATUSES = [
  'pending',
  'submitted',
  'ok',
  'failed',
  'cancelled',
] as const;
export type CarrierUpdateStatus = (typeof CARRIER_UPDATE_STATUSES)[number];

/** An order's latest report to its carrier, as the station and the desk show it. */
export const carrierUpdateStateSchema = z.object({
  id: z.int(),
  kind: z.enum(CARRIER_UPDATE_KINDS),
  status: z.enum(CARRIER_UPDATE_STATUSES),
  /** The carrier's words with its last answer. */
  message: z.nullable(z.string()),
  attempts: z.int(),
  submitted_at: z.nullable(z.string()),
  answered_at: z.nullable(z.string()),
});
export type CarrierUpdateState = z.infer<typeof carrierUpdateStateSchema>;

/** Why a worker sends an order back to the backlog from the station or the pipeline. */
export const PICK_PROBLEMS = ['damaged_unit', 'wrong_item'] as const;

// --- Lists: the assignment queue and the pipeline ---

export const fulfilmentOrderRowSchema = z.object({
  ...orderRowSchema.shape,
  assignee_id: z.nullable(z.int()),
  assignee_name: z.nullable(z.string()),
  assigned_at: z.nullable(z.string()),
  /** Units picked of those the order ships. */
  units_picked: z.int(),
});
export type FulfilmentOrderRow = z.infer<typeof fulfilmentOrderRowSchema>;

const FULFILMENT_EXPORT = [
  { key: 'number', header: 'Order', example: 'SO-0000123' },
  { key: 'fulfilment_type', header: 'Type', example: 'new_lifeline' },
  { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
  { key: 'place', header: 'City, state', example: 'HOUSTON, TX' },
  { key: 'items_text', header: 'Items', example: '1 × MOTO-G-BLK-A' },
  { key: 'status', header: 'Stage', example: 'assigned' },
  { key: 'assignee_name', header: 'Assignee', example: 'Pat Picker' },
  { key: 'sla_due_at', header: 'SLA due', example: '' },
  { key: 'created_at', header: 'Created', example: '' },
];

/** Ready orders waiting for a worker, most urgent first (`/fulfill/assignment`). */
export const readyOrderList = defineList({
  name: 'fulfilment-ready-orders',
  singular: 'ready order',
  plural: 'Ready orders',
  tag: 'Fulfilment',
  view: ORDER_ASSIGNMENT_ACCESS,
  item: fulfilmentOrderRowSchema,
  filters: {
    fulfilment_type: enumFilter(FULFILMENT_TYPES),
    /** Orders with a unit of this device model (the demand table's rows drill here). */
    model_id: idFilter,
  },
  sorts: ['sla_due_at', 'created_at'],
  defaultSort: 'sla_due_at',
  exportColumns: FULFILMENT_EXPORT,
});
export const readyOrderListEndpoints = listEndpoints(readyOrderList);

/** Every order in the pipeline with its stage and assignee (`/fulfill/order`). */
export const pipelineOrderList = defineList({
  name: 'fulfilment-orders',
  singular: 'fulfilment order',
  plural: 'Fulfilment orders',
  tag: 'Fulfilment',
  view: ORDER_FULFIL_ACCESS,
  item: fulfilmentOrderRowSchema,
  filters: {
    /** One stage; all of them when left out. */
    status: enumFilter(PIPELINE_STATUSES),
    fulfilment_type: enumFilter(FULFILMENT_TYPES),
    assignee_id: idFilter,
  },
  sorts: ['sla_due_at', 'created_at'],
  defaultSort: 'sla_due_at',
  exportColumns: FULFILMENT_EXPORT,
});
export const pipelineOrderListEndpoints = listEndpoints(pipelineOrderList);

export const backlogOrderRowSchema = z.object({
  ...orderRowSchema.shape,
  /** When it was last put on hold: its age in the backlog. */
  held_at: z.nullable(z.string()),
  /** The highest ageing threshold (hours) this hold was alerted at; null before the first. */
  alert_hours: z.nullable(z.int()),
  /** How many of the ageing thresholds this hold passed: 0 before the first. */
  alert_level: z.int(),
});
export type BacklogOrderRow = z.infer<typeof backlogOrderRowSchema>;

/**
 * Orders on hold with their reason (`/fulfill/backlog-order`), oldest first; released (validated
 * again) or cancelled with the order's own actions, exported for the client carrier.
 */
export const backlogOrderList = defineList({
  name: 'fulfilment-backlog',
  singular: 'backlog order',
  plural: 'Backlog',
  tag: 'Fulfilment',
  view: ORDER_ACCESS,
  item: backlogOrderRowSchema,
  filters: {
    hold_reason: enumFilter(ORDER_HOLD_REASONS),
    fulfilment_type: enumFilter(FULFILMENT_TYPES),
    client_carrier_id: idFilter,
    /** Orders whose current hold passed an ageing threshold (true) or none yet (false). */
    alerted: booleanFilter,
  },
  sorts: ['created_at', 'sla_due_at'],
  defaultSort: 'created_at',
  exportColumns: [
    { key: 'number', header: 'Order', example: 'SO-0000123' },
    { key: 'external_ref', header: 'Reference', example: '' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'fulfilment_type', header: 'Type', example: 'new_lifeline' },
    { key: 'customer', header: 'Customer', example: 'J*** D***' },
    { key: 'place', header: 'City, state', example: 'HOUSTON, TX' },
    { key: 'items_text', header: 'Items', example: '1 × MOTO-G-BLK-A' },
    { key: 'hold_reason', header: 'Hold reason', example: 'no_stock' },
    { key: 'hold_note', header: 'Note', example: '' },
    { key: 'held_at', header: 'Held since', example: '' },
    { key: 'alert_hours', header: 'Ageing alert (hours)', example: '48' },
    { key: 'sla_due_at', header: 'SLA due', example: '' },
    { key: 'created_at', header: 'Created', example: '' },
  ],
});
export const backlogOrderListEndpoints = listEndpoints(backlogOrderList);

// --- Assignment ---

export const assignmentQueueSchema = z.object({
  fulfilment_type: z.enum(FULFILMENT_TYPES),
  orders: z.int(),
  units: z.int(),
  /** The most urgent SLA of the queue; null when no order has one. */
  next_due_at: z.nullable(z.string()),
  /** Ready orders whose SLA has passed. */
  breached: z.int(),
});

/** Demand of the ready orders against available stock, per model and variant. */
export const assignmentDemandSchema = z.object({
  model_id: z.int(),
  model: z.string(),
  variant_id: z.int(),
  sku: z.string(),
  description: z.string(),
  orders: z.int(),
  units: z.int(),
  /** In stock, in a located box, not held. */
  available: z.int(),
});
export type AssignmentDemand = z.infer<typeof assignmentDemandSchema>;

export const assignmentWorkerSchema = z.object({
  id: z.int(),
  name: z.string(),
  assigned: z.int(),
  in_progress: z.int(),
  units: z.int(),
});
export type AssignmentWorker = z.infer<typeof assignmentWorkerSchema>;

export const assignmentOverviewSchema = z.object({
  queues: z.array(assignmentQueueSchema),
  demand: z.array(assignmentDemandSchema),
  workers: z.array(assignmentWorkerSchema),
});
export type AssignmentOverview = z.infer<typeof assignmentOverviewSchema>;

/** At most this many orders in one batch. */
export const MAX_BATCH_ORDERS = 500;

export const assignOrdersSchema = z.object({
  assignee_id: entityId('worker'),
  order_ids: z
    .array(entityId('order'))
    .check(
      z.minLength(1, 'Choose at least one order.'),
      z.maxLength(MAX_BATCH_ORDERS, `At most ${MAX_BATCH_ORDERS} orders at once.`),
    ),
});
export type AssignOrdersInput = z.input<typeof assignOrdersSchema>;

export const autoAssignSchema = z.object({
  assignee_id: entityId('worker'),
  count: wholeNumber('number of orders', 1, MAX_BATCH_ORDERS),
  fulfilment_type: z.optional(z.enum(FULFILMENT_TYPES, 'Choose the queue.')),
  /** A batch of one model, for batch picking. */
  model_id: z.optional(entityId('model')),
});
export type AutoAssignInput = z.input<typeof autoAssignSchema>;

const batchOrderSchema = z.object({ id: z.int(), number: z.string() });
export const orderAssignmentResultSchema = z.object({
  assignee_id: z.int(),
  assigned: z.array(batchOrderSchema),
  /** Orders that did not find every unit: on hold `no_stock` with why, nothing reserved. */
  held: z.array(z.object({ ...batchOrderSchema.shape, note: z.string() })),
  /** Orders passed over: no longer ready (assigned meanwhile, cancelled). */
  skipped: z.array(batchOrderSchema),
  units_reserved: z.int(),
});
export type OrderAssignmentResult = z.infer<typeof orderAssignmentResultSchema>;

export const reassignSchema = z.object({ assignee_id: entityId('worker') });

export const backlogSchema = z.object({
  reason: z.enum(PICK_PROBLEMS, 'Choose the problem.'),
  note: optionalText('note'),
});
export type BacklogInput = z.input<typeof backlogSchema>;

// --- The pick station ---

export const pickUnitSchema = z.object({
  id: z.int(),
  order_line_id: z.int(),
  sku: z.string(),
  description: z.string(),
  status: z.string(),
  device_id: z.nullable(z.int()),
  imei: z.nullable(z.string()),
  /** The box and location to pick from (reserved) or it was picked from. */
  box_code: z.nullable(z.string()),
  location_code: z.nullable(z.string()),
  sim_required: z.boolean(),
  /** A SIM kit shipped alone (a SIM-only replacement): picked by its ICCID, no device. */
  sim_only: z.boolean(),
  iccid: z.nullable(z.string()),
});
export type PickUnit = z.infer<typeof pickUnitSchema>;

export const pickOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  fulfilment_type: z.enum(FULFILMENT_TYPES),
  client_carrier: z.nullable(z.string()),
  place: z.string(),
  sla_due_at: z.nullable(z.string()),
  assignee_id: z.nullable(z.int()),
  /** The queue the order is picked in. */
  queue: z.enum(PICK_QUEUES),
  units: z.array(pickUnitSchema),
  /** What ships besides the devices (chargers, cases), to confirm at the station. */
  accessories: z.array(z.object({ sku: z.string(), description: z.string(), qty: z.int() })),
  accessories_confirmed: z.boolean(),
  /** What the customer pays, shipping included (prepaid). */
  total_cents: z.int(),
  /** Existing customer: the SIM is swapped too (a SIM ships with each unit). */
  sim_swap: z.boolean(),
  /** Prepaid: where the customer's payment stands; picked only once captured. */
  payment_status: z.nullable(z.enum(PAYMENT_STATUSES)),
  /** Prepaid: the plan the customer bought, as the carrier priced it; null when not known. */
  plan_name: z.nullable(z.string()),
  /** Prepaid: we activate the line before it ships, and record its MDN at the station. */
  pre_activation: z.boolean(),
  mdn: z.nullable(z.string()),
  /** Replacement: the original order it replaces, when linked. */
  parent_number: z.nullable(z.string()),
  /** Existing customer: the IMEI the subscriber's last shipped order carried, when known. */
  current_imei: z.nullable(z.string()),
  /** OTA pairing or device change: the latest report to the carrier; null before any. */
  carrier_update: z.nullable(carrierUpdateStateSchema),
  /** Why the order may not be labelled yet (label desk's gate); null when it may. */
  label_blocker: z.nullable(z.string()),
});
export type PickOrder = z.infer<typeof pickOrderSchema>;

export const PICK_SCAN_RESULTS = [
  'picked',
  'swapped',
  'sim_paired',
  'already_done',
  'order_fulfilled',
  'wrong_variant',
  'held',
  'blacklisted',
  'not_available',
  'sim_not_needed',
  'device_first',
  'sim_not_in_stock',
  'sim_wrong_carrier',
  'not_pickable',
  'unknown',
  'invalid',
] as const;
export type PickScanResult = (typeof PICK_SCAN_RESULTS)[number];

export const PICK_SCAN_TONES: Record<PickScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  picked: 'success',
  swapped: 'warning',
  sim_paired: 'success',
  already_done: 'info',
  order_fulfilled: 'info',
  wrong_variant: 'error',
  held: 'error',
  blacklisted: 'error',
  not_available: 'error',
  sim_not_needed: 'error',
  device_first: 'error',
  sim_not_in_stock: 'error',
  sim_wrong_carrier: 'error',
  not_pickable: 'error',
  unknown: 'error',
  invalid: 'error',
};

export const pickScanSchema = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Scan an IMEI or an ICCID.'),
      z.maxLength(40, 'A code is at most 40 characters.'),
    ),
  station: optionalText('station name', 60),
  /** The station's queue: an order of another queue is refused. The standard one if left out. */
  queue: z.optional(z.enum(PICK_QUEUES, 'Choose the queue.')),
});

/** A scan's answer with the order as it is after it: the station shows it without a read. */
export const pickScanAnswerSchema = z.object({
  code: z.string(),
  result: z.enum(PICK_SCAN_RESULTS),
  message: z.string(),
  order: pickOrderSchema,
});
export type PickScanAnswer = z.infer<typeof pickScanAnswerSchema>;

/** The station's queue: the standard queue when left out. */
export const pickQueueQuerySchema = z.object({
  queue: z.optional(z.enum(PICK_QUEUES, 'Choose the queue.')),
});

export const pickLookupSchema = z.object({
  number: z.string().check(z.trim(), z.minLength(1, 'Scan an order number.')),
  ...pickQueueQuerySchema.shape,
});

/** A pre-activated line's number (MDN): ten digits, written with or without separators. */
export const recordMdnSchema = z.object({
  mdn: z.pipe(
    z.pipe(
      z.string('Write the MDN.'),
      z.transform((text: string) =>
        text.replace(/[\s().-]/g, '').replace(/^\+?1(?=[0-9]{10}$)/, ''),
      ),
    ),
    z.string().check(z.regex(/^[0-9]{10}$/, 'Write the MDN as its ten digits.')),
  ),
});

const fulfilmentAction = <B extends z.ZodMiniType, R extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: typeof ORDER_ASSIGNMENT_ACCESS | typeof ORDER_FULFIL_ACCESS,
  body: B,
  response: R,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Fulfilment',
    guard,
    params: idParamsSchema,
    body,
    response,
  });

export const fulfilmentEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/fulfilment/assignment',
    summary: 'Ready orders per queue, demand against available stock per variant, workers and load',
    tag: 'Fulfilment',
    guard: ORDER_ASSIGNMENT_ACCESS,
    response: assignmentOverviewSchema,
  }),
  assign: defineEndpoint({
    method: 'POST',
    path: '/fulfilment/assignments',
    summary:
      'Assign chosen ready orders to a worker, reserving a device per unit (oldest box first); ' +
      'an order short of stock goes on hold no_stock',
    tag: 'Fulfilment',
    guard: ORDER_ASSIGNMENT_ACCESS,
    body: assignOrdersSchema,
    response: orderAssignmentResultSchema,
  }),
  autoAssign: defineEndpoint({
    method: 'POST',
    path: '/fulfilment/auto-assignments',
    summary:
      'Assign the next N ready orders (most urgent first; of one queue or model) to a worker',
    tag: 'Fulfilment',
    guard: ORDER_ASSIGNMENT_ACCESS,
    body: autoAssignSchema,
    response: orderAssignmentResultSchema,
  }),
  reassign: fulfilmentAction(
    '/fulfilment/orders/:id/reassignment',
    'Give an assigned or started order to another worker',
    ORDER_ASSIGNMENT_ACCESS,
    reassignSchema,
    fulfilmentOrderRowSchema,
  ),
  unassign: fulfilmentAction(
    '/fulfilment/orders/:id/unassignment',
    'Send an assigned order back to the assignment queue, its reservations released',
    ORDER_ASSIGNMENT_ACCESS,
    z.object({}),
    fulfilmentOrderRowSchema,
  ),
  unpick: fulfilmentAction(
    '/fulfilment/orders/:id/unpick',
    'Put the picked units back into their boxes (409 once labeled: void the label first)',
    ORDER_FULFIL_ACCESS,
    z.object({}),
    fulfilmentOrderRowSchema,
  ),
  backlog: fulfilmentAction(
    '/fulfilment/orders/:id/backlog',
    'Push an order to the backlog with the problem found (its units unpicked, reservations released)',
    ORDER_FULFIL_ACCESS,
    backlogSchema,
    fulfilmentOrderRowSchema,
  ),
  myPicks: defineEndpoint({
    method: 'GET',
    path: '/fulfilment/picks',
    summary:
      "The signed-in worker's assigned and started orders of one queue, most urgent first (at most 200)",
    tag: 'Fulfilment',
    guard: ORDER_FULFIL_ACCESS,
    query: pickQueueQuerySchema,
    response: z.array(pickOrderSchema),
  }),
  pickLookup: defineEndpoint({
    method: 'GET',
    path: '/fulfilment/picks/lookup',
    summary:
      "One of the worker's orders by its scanned number (404 for another worker's; 409 for " +
      "another queue's, naming it)",
    tag: 'Fulfilment',
    guard: ORDER_FULFIL_ACCESS,
    query: pickLookupSchema,
    response: pickOrderSchema,
  }),
  pickScan: fulfilmentAction(
    '/fulfilment/picks/:id/scans',
    'Scan an IMEI or ICCID for one of my orders: picks the unit, pairs the SIM, fulfils when done ' +
      '(409 for a prepaid order whose payment is not captured)',
    ORDER_FULFIL_ACCESS,
    pickScanSchema,
    pickScanAnswerSchema,
  ),
  confirmAccessories: fulfilmentAction(
    '/fulfilment/picks/:id/accessories',
    "Confirm the order's accessories are in the parcel (fulfils the order when all is picked)",
    ORDER_FULFIL_ACCESS,
    z.object({}),
    pickOrderSchema,
  ),
  recordMdn: fulfilmentAction(
    '/fulfilment/picks/:id/mdn',
    'Record the MDN of a prepaid line we pre-activated (the label waits for it)',
    ORDER_FULFIL_ACCESS,
    recordMdnSchema,
    pickOrderSchema,
  ),
};

export const packingSlipEndpoint = printEndpoint({
  path: '/fulfilment/orders/:id/packing-slip',
  summary: "A download link for the order's packing slip (PDF): its units by IMEI and ICCID",
  tag: 'Fulfilment',
  guard: ORDER_FULFIL_ACCESS,
  params: idParamsSchema,
  printable: sheetPrintable('order-packing-slip'),
});

export const pickListEndpoint = printEndpoint({
  path: '/fulfilment/orders/:id/pick-list',
  summary: "A download link for the order's pick list (PDF): its reserved units in walking order",
  tag: 'Fulfilment',
  guard: ORDER_FULFIL_ACCESS,
  params: idParamsSchema,
  printable: sheetPrintable('order-pick-list'),
});
