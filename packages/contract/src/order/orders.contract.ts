import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import {
  ORDER_ACCESS,
  ORDER_ASSIGNMENT_ACCESS,
  ORDER_CANCEL_ACCESS,
  ORDER_FULFIL_ACCESS,
  ORDER_SHIPPING_ACCESS,
  RESHIP_ACCESS,
  SUBSCRIBER_PII_ACCESS,
  SUBSTITUTE_ACCESS,
  SUBSTITUTE_APPROVE_ACCESS,
  SUPPORT_ORDER_ACCESS,
} from '../guards.js';
import { BEFORE_HOLD, defineLifecycle } from '../lifecycle.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { optionalPhone, optionalText, requiredText } from '../master-data/fields.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { usAddressSchema, usAddressShape } from './us-address.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Orders (DOMAIN.md 2.2, 3.2, 4.7, 5.2 steps 1-2): every channel's orders, validated on intake
 * (address, one benefit per subscriber and address, listing cap, stock) and put on hold with the
 * reason when validation fails; the list with each order's lines, units and timeline; hold,
 * release, cancel and address edits; the daily order report.
 */

export const ORDER_SOURCES = [
  'carrier_api',
  'web',
  'offer',
  'express',
  'campaign',
  'retailer',
  'support',
  'replacement',
  'reship',
] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const FULFILMENT_TYPES = [
  'new_lifeline',
  'ota',
  'prepaid',
  'existing_customer',
  'replacement',
  'support',
  'wholesale',
] as const;
export type FulfilmentType = (typeof FULFILMENT_TYPES)[number];

/** A client carrier's programmes (DOMAIN.md 2.2 ClientCarrier). ACP is legacy (section 0). */
export const ORDER_PROGRAMS = ['lifeline', 'tribal', 'acp-legacy', 'prepaid'] as const;
export type OrderProgram = (typeof ORDER_PROGRAMS)[number];

/**
 * Where a prepaid order's payment stands (DOMAIN.md 4.14 `/fulfill/prepaid`, migration 0075): the
 * client carrier takes the customer's payment at checkout and reports it. `authorized`: the card
 * is authorised, the money not taken yet; `captured`: taken, the order may be picked; `failed`:
 * declined; `refunded`: given back. Only prepaid orders carry one.
 */
export const PAYMENT_STATUSES = ['authorized', 'captured', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/**
 * The changes a payment may take: an authorisation captured or declined, a declined payment paid
 * again (authorised or captured at once), a captured one refunded. A refund is final.
 */
export const PAYMENT_CHANGES: Record<PaymentStatus, readonly PaymentStatus[]> = {
  authorized: ['captured', 'failed'],
  captured: ['refunded'],
  failed: ['authorized', 'captured'],
  refunded: [],
};

export const SHIP_METHODS = [
  'ground',
  'priority',
  'express',
  'overnight',
  'freight',
  'pickup',
] as const;
export const ORDER_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;

export const ORDER_STATUSES = [
  'pending',
  'ready',
  'assigned',
  'in_progress',
  'fulfilled',
  'labeled',
  'shipped',
  'delivered',
  'closed',
  'on_hold',
  'substitution_pending',
  'cancel_requested',
  'cancelled',
  'returned',
  'reshipped',
  'lost',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * An open order: still to be shipped, on its way or waiting on a decision. Its value counts against
 * a retailer's credit, it keeps its retailer active and its bundles' and combos' shapes fixed.
 * Not open: delivered, closed, cancelled, returned, reshipped (a new order carries on) and lost.
 */
export const OPEN_ORDER_STATUSES = [
  'pending',
  'ready',
  'assigned',
  'in_progress',
  'fulfilled',
  'labeled',
  'shipped',
  'on_hold',
  'substitution_pending',
  'cancel_requested',
] as const satisfies readonly OrderStatus[];

/**
 * Why an order waits in the backlog (DOMAIN.md 3.2), and `duplicate_benefit`: a second open order
 * of the same carrier programme for the same subscriber or service address.
 */
export const ORDER_HOLD_REASONS = [
  'no_stock',
  'address',
  'duplicate_benefit',
  'carrier_rejected',
  'fraud_review',
  'pairing_failed',
  'damaged_unit',
  'wrong_item',
] as const;
export type OrderHoldReason = (typeof ORDER_HOLD_REASONS)[number];

/** Fulfilment types that are a subscriber's benefit: one open order per subscriber and address. */
export const BENEFIT_TYPES: readonly FulfilmentType[] = [
  'new_lifeline',
  'ota',
  'prepaid',
  'existing_customer',
];

/** What a subscriber's order may be: all but wholesale, which is a retailer's. */
export const SUBSCRIBER_FULFILMENT_TYPES = [
  'new_lifeline',
  'ota',
  'prepaid',
  'existing_customer',
  'replacement',
  'support',
] as const satisfies readonly FulfilmentType[];

/** The ship-to may change until the label is printed (DOMAIN.md 4.7). */
export const ADDRESS_EDITABLE_STATUSES: readonly OrderStatus[] = [
  'pending',
  'ready',
  'on_hold',
  'assigned',
  'in_progress',
  'fulfilled',
  'substitution_pending',
];

/**
 * An order's states and the actions built so far (DOMAIN.md 3.2). Validation moves a pending
 * order to ready or puts it on hold with the reason; release validates again; cancel before
 * assignment gives the listings' reserved units back; after assignment a cancellation is requested.
 */
export const orderLifecycle = defineLifecycle({
  name: 'order',
  states: ORDER_STATUSES,
  terminal: ['closed', 'cancelled', 'reshipped'],
  hold: { state: 'on_hold', reasons: ORDER_HOLD_REASONS },
  actions: {
    validate: { from: ['pending'], to: 'ready', label: 'be approved', event: 'validated' },
    /** From assigned too: pushed to the backlog, its reservations released (fulfilment). */
    hold: {
      from: ['pending', 'ready', 'assigned'],
      to: 'on_hold',
      label: 'be put on hold',
      event: 'held',
      reason: 'required',
    },
    release: {
      from: ['on_hold'],
      to: BEFORE_HOLD,
      label: 'release the order',
      event: 'released',
      permission: ORDER_ACCESS,
    },
    cancel: {
      from: ['pending', 'ready', 'on_hold'],
      to: 'cancelled',
      label: 'be cancelled',
      event: 'cancelled',
      permission: ORDER_CANCEL_ACCESS,
      reason: 'optional',
    },
    /** A web order refused on /dashboard/web-order: approving and refusing are one right. */
    reject: {
      from: ['pending'],
      to: 'cancelled',
      label: 'be rejected',
      event: 'rejected',
      permission: ORDER_ACCESS,
      reason: 'required',
    },
    /** A web order whose hold passed without approval: cancelled by the server itself. */
    expire: { from: ['pending'], to: 'cancelled', label: 'expire', event: 'expired' },
    request_cancel: {
      from: ['assigned', 'in_progress', 'fulfilled', 'labeled', 'substitution_pending'],
      to: 'cancel_requested',
      label: 'have its cancellation requested',
      event: 'cancel_requested',
      permission: ORDER_CANCEL_ACCESS,
      reason: 'optional',
    },
    // Fulfilment (DOMAIN.md 4.14): a device reserved per unit at assignment, picked at the station.
    assign: {
      from: ['ready'],
      to: 'assigned',
      label: 'be assigned',
      event: 'assigned',
      permission: ORDER_ASSIGNMENT_ACCESS,
    },
    /** Back to the assignment queue, its reservations released. */
    unassign: {
      from: ['assigned'],
      to: 'ready',
      label: 'be unassigned',
      event: 'unassigned',
      permission: ORDER_ASSIGNMENT_ACCESS,
    },
    /** The first unit picked. */
    start_pick: {
      from: ['assigned'],
      to: 'in_progress',
      label: 'start being picked',
      event: 'pick_started',
      permission: ORDER_FULFIL_ACCESS,
    },
    /** Every unit picked (its SIM too where it ships one) and the accessories confirmed. */
    fulfil: {
      from: ['in_progress'],
      to: 'fulfilled',
      label: 'be fulfilled',
      event: 'fulfilled',
      permission: ORDER_FULFIL_ACCESS,
    },
    /** The picked units go back to their boxes; the order waits to be picked again. */
    unpick: {
      from: ['in_progress', 'fulfilled'],
      to: 'assigned',
      label: 'be unpicked',
      event: 'unpicked',
      permission: ORDER_FULFIL_ACCESS,
    },
    // The label desk and the dock (DOMAIN.md 4.14; the shipment area runs them).
    label: {
      from: ['fulfilled'],
      to: 'labeled',
      label: 'be labelled',
      event: 'labeled',
      permission: ORDER_SHIPPING_ACCESS,
    },
    void_label: {
      from: ['labeled'],
      to: 'fulfilled',
      label: 'have its label voided',
      event: 'label_voided',
      permission: ORDER_SHIPPING_ACCESS,
    },
    ship: {
      from: ['labeled'],
      to: 'shipped',
      label: 'be shipped',
      event: 'shipped',
      permission: ORDER_SHIPPING_ACCESS,
    },
    // Tracking (DOMAIN.md 3.2, 4.16; the shipment area runs them): the order follows its parcel.
    // Delivered and returned to sender come from the carrier's events, which the polling job
    // records as the server itself, so they name no permission.
    deliver: { from: ['shipped'], to: 'delivered', label: 'be delivered', event: 'delivered' },
    return_to_sender: {
      from: ['shipped'],
      to: 'returned',
      label: 'be returned to its sender',
      event: 'returned_to_sender',
    },
    // Substitutions (DOMAIN.md 4.14 /fulfill/substitute, 5.2 step 4a; the fulfilment area runs them).
    /** A substitute proposed for an order without stock: it waits for a manager. */
    propose_substitution: {
      from: ['on_hold'],
      to: 'substitution_pending',
      label: 'have a substitution proposed',
      event: 'substitution_proposed',
      permission: SUBSTITUTE_ACCESS,
    },
    /** The substitute approved, or applied at once by a manager: ready with the new variant. */
    substitute: {
      from: ['on_hold', 'substitution_pending'],
      to: 'ready',
      label: 'be substituted',
      event: 'substituted',
      permission: SUBSTITUTE_APPROVE_ACCESS,
    },
    /** A proposal turned down: back to the backlog. */
    reject_substitution: {
      from: ['substitution_pending'],
      to: 'on_hold',
      label: 'have its substitution rejected',
      event: 'substitution_rejected',
      permission: SUBSTITUTE_APPROVE_ACCESS,
      reason: 'required',
    },
    /** Its parcel flagged lost: a claim and a reship follow. */
    lose: {
      from: ['shipped'],
      to: 'lost',
      label: 'be lost in transit',
      event: 'lost',
      permission: ORDER_SHIPPING_ACCESS,
    },
    // Exceptions (DOMAIN.md 4.16; the reship area runs them).
    /** An approved cancellation carried out: its label voided and its units back in stock. */
    confirm_cancel: {
      from: ['cancel_requested'],
      to: 'cancelled',
      label: 'have its cancellation carried out',
      event: 'cancel_confirmed',
      permission: ORDER_CANCEL_ACCESS,
    },
    /** An intercepted parcel back with us: the cancellation ends there. */
    cancel_return: {
      from: ['returned'],
      to: 'cancelled',
      label: 'be cancelled after its return',
      event: 'cancelled_after_return',
      permission: ORDER_CANCEL_ACCESS,
    },
    /** Shipped again by a child order, made by an approved reship request (delivered: damaged). */
    reship: {
      from: ['returned', 'lost', 'delivered'],
      to: 'reshipped',
      label: 'be reshipped',
      event: 'reshipped',
      permission: RESHIP_ACCESS,
    },
  },
  stateText: (state) => (state === 'on_hold' ? 'on hold' : state.replace(/_/g, ' ')),
});
export type OrderAction = keyof typeof orderLifecycle.actions;

/** A hold reason in words. */
export const HOLD_REASON_TEXT: Record<OrderHoldReason, string> = {
  no_stock: 'No stock',
  address: 'Address',
  duplicate_benefit: 'Duplicate benefit',
  carrier_rejected: 'Carrier rejected',
  fraud_review: 'Fraud review',
  pairing_failed: 'Pairing failed',
  damaged_unit: 'Damaged unit',
  wrong_item: 'Wrong item (colour, model, grade)',
};

// --- The list ---

export const orderRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  source: z.enum(ORDER_SOURCES),
  fulfilment_type: z.enum(FULFILMENT_TYPES),
  client_carrier_id: z.nullable(z.int()),
  client_carrier: z.nullable(z.string()),
  program: z.nullable(z.enum(ORDER_PROGRAMS)),
  /** The customer masked: initials with stars ("J*** D***"). */
  customer: z.string(),
  /** Where it goes, city and state only. */
  place: z.string(),
  /** Units ordered, over all lines. */
  items: z.int(),
  /** The lines in short: "2 × MOTO-G-BLK-A". */
  items_text: z.string(),
  status: z.enum(ORDER_STATUSES),
  hold_reason: z.nullable(z.enum(ORDER_HOLD_REASONS)),
  hold_note: z.nullable(z.string()),
  sla_due_at: z.nullable(z.string()),
  created_at: z.string(),
  shipped_at: z.nullable(z.string()),
  external_ref: z.nullable(z.string()),
  total_cents: z.int(),
});
export type OrderRow = z.infer<typeof orderRowSchema>;

export const orderList = defineList({
  name: 'orders',
  singular: 'order',
  plural: 'Orders',
  tag: 'Orders',
  view: ORDER_ACCESS,
  item: orderRowSchema,
  filters: {
    status: enumFilter(ORDER_STATUSES),
    hold_reason: enumFilter(ORDER_HOLD_REASONS),
    source: enumFilter(ORDER_SOURCES),
    fulfilment_type: enumFilter(FULFILMENT_TYPES),
    program: enumFilter(ORDER_PROGRAMS),
    client_carrier_id: idFilter,
    /** The orders of one retailer (the retailer's drawer links here). */
    retailer_id: idFilter,
    /** The orders of one campaign (the express orders page drills here). */
    campaign_id: idFilter,
    /** Orders received on this business day (the daily report's rows). */
    received_day: z.optional(isoDate('day')),
    /** Orders received from this business day on (the main dashboard's period). */
    received_from: z.optional(isoDate('first day')),
    /** Orders received up to this business day. */
    received_to: z.optional(isoDate('last day')),
    /** Orders shipped from this business day on. */
    shipped_from: z.optional(isoDate('first day')),
    /** Orders shipped up to this business day. */
    shipped_to: z.optional(isoDate('last day')),
  },
  sorts: ['created_at', 'sla_due_at'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'number', header: 'Order', example: 'SO-0000123' },
    { key: 'source', header: 'Source', example: 'carrier_api' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'fulfilment_type', header: 'Type', example: 'new_lifeline' },
    { key: 'program', header: 'Programme', example: 'lifeline' },
    { key: 'customer', header: 'Customer', example: 'J*** D***' },
    { key: 'place', header: 'City, state', example: 'HOUSTON, TX' },
    { key: 'items', header: 'Units', example: '1' },
    { key: 'items_text', header: 'Items', example: '1 × MOTO-G-BLK-A' },
    { key: 'status', header: 'Status', example: 'ready' },
    { key: 'hold_reason', header: 'Hold reason', example: '' },
    { key: 'sla_due_at', header: 'SLA due', example: '' },
    { key: 'created_at', header: 'Created', example: '' },
    { key: 'shipped_at', header: 'Shipped', example: '' },
    { key: 'external_ref', header: 'Reference', example: '' },
    { key: 'total_cents', header: 'Total (cents)', example: '0' },
  ],
});
export const orderListEndpoints = listEndpoints(orderList);

// --- One order ---

export const orderLineSchema = z.object({
  id: z.int(),
  position: z.int(),
  kind: z.enum(['variant', 'bundle', 'combo']),
  sellable_id: z.int(),
  sku: z.string(),
  description: z.string(),
  listing_id: z.nullable(z.int()),
  qty: z.int(),
  qty_reserved: z.int(),
  unit_price_cents: z.int(),
  status: z.string(),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderUnitSchema = z.object({
  id: z.int(),
  order_line_id: z.int(),
  device_id: z.nullable(z.int()),
  imei: z.nullable(z.string()),
  iccid: z.nullable(z.string()),
  substituted_from: z.nullable(z.string()),
  substitution_reason: z.nullable(z.string()),
  status: z.string(),
});
export type OrderUnit = z.infer<typeof orderUnitSchema>;

export const orderEventSchema = timelineEventSchema;
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const orderDetailSchema = z.object({
  ...orderRowSchema.shape,
  status_before_hold: z.nullable(z.enum(ORDER_STATUSES)),
  subscriber_id: z.nullable(z.int()),
  retailer_id: z.nullable(z.int()),
  ship_method: z.enum(SHIP_METHODS),
  priority: z.enum(ORDER_PRIORITIES),
  campaign_id: z.nullable(z.int()),
  parent_order_id: z.nullable(z.int()),
  parent_number: z.nullable(z.string()),
  subtotal_cents: z.int(),
  shipping_cents: z.int(),
  notes: z.nullable(z.string()),
  approved_at: z.nullable(z.string()),
  cancelled_at: z.nullable(z.string()),
  /** Prepaid: where the customer's payment stands, and the plan bought (null for others). */
  payment_status: z.nullable(z.enum(PAYMENT_STATUSES)),
  plan_name: z.nullable(z.string()),
  lines: z.array(orderLineSchema),
  units: z.array(orderUnitSchema),
  events: z.array(orderEventSchema),
});
export type OrderDetail = z.infer<typeof orderDetailSchema>;

/** A name and a US address to ship to. */
export const shipToSchema = z.object({
  name: requiredText('name', 200),
  company: optionalText('company', 200),
  ...usAddressShape,
  phone: optionalPhone,
});
export type ShipTo = z.output<typeof shipToSchema>;
export type ShipToInput = z.input<typeof shipToSchema>;

/** The customer's names, addresses and phones in full: only with subscriber.view-pii, audited. */
export const orderCustomerSchema = z.object({
  subscriber: z.nullable(
    z.object({
      id: z.int(),
      external_id: z.nullable(z.string()),
      first_name: z.string(),
      last_name: z.string(),
      phone: z.nullable(z.string()),
      service_address: usAddressSchema,
    }),
  ),
  ship_to: z.object({
    name: z.string(),
    company: z.nullable(z.string()),
    line1: z.string(),
    line2: z.nullable(z.string()),
    city: z.string(),
    state: z.string(),
    zip: z.string(),
    phone: z.nullable(z.string()),
  }),
});
export type OrderCustomer = z.infer<typeof orderCustomerSchema>;

const reasonText = z.optional(
  z.nullable(z.string().check(z.trim(), z.maxLength(500, 'The reason is too long.'))),
);

export const holdOrderSchema = z.object({
  reason: z.enum(ORDER_HOLD_REASONS, 'Choose why the order is held.'),
  note: optionalText('note'),
});
export const cancelOrderSchema = z.object({ reason: reasonText });

/**
 * A prepaid order's payment as the carrier reported it by phone or mail (its API reports it
 * itself): the processor's reference or why, kept on the timeline.
 */
export const changePaymentSchema = z.object({
  status: z.enum(PAYMENT_STATUSES, 'Choose the payment status.'),
  note: optionalText('note'),
});
export type ChangePaymentInput = z.input<typeof changePaymentSchema>;

/** A support order for a subscriber (DOMAIN.md 5.2 step 1), from live listings at their price. */
export const supportOrderSchema = z.object({
  client_carrier_id: z
    .number('Choose the client carrier.')
    .check(z.int('Choose the client carrier.'), z.gte(1, 'Choose the client carrier.')),
  program: z.enum(ORDER_PROGRAMS, 'Choose the programme.'),
  /** A subscriber's order of any kind, entered by hand (the carrier's enrolment, a replacement). */
  fulfilment_type: z.optional(z.enum(SUBSCRIBER_FULFILMENT_TYPES, 'Choose the type.')),
  /** An existing customer's device change that swaps the SIM too: a SIM ships with each unit. */
  sim_swap: z.optional(z.boolean()),
  /** A prepaid order's payment as the carrier reported it: captured when left out. */
  payment_status: z.optional(z.enum(PAYMENT_STATUSES, 'Choose the payment status.')),
  external_id: optionalText('enrolment or account number', 64),
  first_name: requiredText('first name', 100),
  last_name: requiredText('last name', 100),
  phone: optionalPhone,
  service_address: usAddressSchema,
  /** Where it goes; the service address in the subscriber's name when left out. */
  ship_to: z.optional(z.nullable(shipToSchema)),
  ship_method: z.optional(z.enum(SHIP_METHODS, 'Choose the ship method.')),
  priority: z.optional(z.enum(ORDER_PRIORITIES, 'Choose the priority.')),
  lines: z
    .array(
      z.object({
        listing_id: z
          .number('Choose the listing.')
          .check(z.int('Choose the listing.'), z.gte(1, 'Choose the listing.')),
        qty: z
          .number('Enter the quantity.')
          .check(
            z.int('The quantity must be a whole number.'),
            z.gte(1, 'The quantity must be at least 1.'),
            z.lte(100, 'At most 100 units per line.'),
          ),
      }),
    )
    .check(z.minLength(1, 'Add at least one item.'), z.maxLength(20, 'At most 20 lines.')),
  notes: optionalText('notes', 1000),
});
export type SupportOrderInput = z.input<typeof supportOrderSchema>;

/** What an intake answers: the order and where validation left it. */
export const orderCreatedSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  hold_reason: z.nullable(z.enum(ORDER_HOLD_REASONS)),
  hold_note: z.nullable(z.string()),
});
export type OrderCreated = z.infer<typeof orderCreatedSchema>;

const orderAction = <B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: typeof ORDER_ACCESS | typeof ORDER_CANCEL_ACCESS,
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Orders',
    guard,
    params: idParamsSchema,
    body,
    response: orderDetailSchema,
  });

export const orderEndpoints = {
  detail: defineEndpoint({
    method: 'GET',
    path: '/orders/:id/detail',
    summary: 'One order with its lines, units and timeline; the customer masked',
    tag: 'Orders',
    guard: ORDER_ACCESS,
    params: idParamsSchema,
    response: orderDetailSchema,
  }),
  customer: defineEndpoint({
    method: 'GET',
    path: '/orders/:id/customer',
    summary: "The subscriber's and ship-to's names, addresses and phones in full (audited)",
    tag: 'Orders',
    guard: SUBSCRIBER_PII_ACCESS,
    params: idParamsSchema,
    response: orderCustomerSchema,
  }),
  editAddress: defineEndpoint({
    method: 'PUT',
    path: '/orders/:id/ship-to',
    summary: 'Change where an order goes, before its label (422 when the ZIP is not in the state)',
    tag: 'Orders',
    guard: ORDER_ACCESS,
    params: idParamsSchema,
    body: shipToSchema,
    response: orderDetailSchema,
  }),
  hold: orderAction(
    '/orders/:id/hold',
    'Put an order on hold with a reason',
    ORDER_ACCESS,
    holdOrderSchema,
  ),
  release: orderAction(
    '/orders/:id/release',
    'Release a held order: validated again, it is ready or the 409 says why not',
    ORDER_ACCESS,
    z.object({}),
  ),
  changePayment: orderAction(
    '/orders/:id/payment',
    "Change a prepaid order's payment status as the carrier reported it (409 for a change the payment cannot take)",
    ORDER_ACCESS,
    changePaymentSchema,
  ),
  cancel: orderAction(
    '/orders/:id/cancellation',
    'Cancel an order before assignment (its reserved listing units go back); after, request it',
    ORDER_CANCEL_ACCESS,
    cancelOrderSchema,
  ),
  createSupport: defineEndpoint({
    method: 'POST',
    path: '/orders',
    summary: 'A support order for a subscriber, validated as every intake is',
    tag: 'Orders',
    guard: SUPPORT_ORDER_ACCESS,
    body: supportOrderSchema,
    response: orderCreatedSchema,
    successStatus: 201,
  }),
  carrierOptions: defineEndpoint({
    method: 'GET',
    path: '/orders/carrier-options',
    summary: 'Up to 20 client carriers, for a picker',
    tag: 'Orders',
    guard: ORDER_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  listingOptions: defineEndpoint({
    method: 'GET',
    path: '/orders/listing-options',
    summary: 'Up to 20 live listings with their price, for a support order',
    tag: 'Orders',
    guard: SUPPORT_ORDER_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
};

// --- The daily order report ---

export const dailyOrderQuerySchema = z.object({
  from: z.optional(isoDate('first day')),
  to: z.optional(isoDate('last day')),
});

export const dailyOrderRowSchema = z.object({
  day: z.string(),
  source: z.enum(ORDER_SOURCES),
  fulfilment_type: z.enum(FULFILMENT_TYPES),
  received: z.int(),
  approved: z.int(),
  shipped: z.int(),
  backlog: z.int(),
  cancelled: z.int(),
  received_before_cutoff: z.int(),
  shipped_same_day: z.int(),
});
export type DailyOrderRow = z.infer<typeof dailyOrderRowSchema>;

export const dailyOrderReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  time_zone: z.string(),
  /** The same-day cut-off, HH:MM in the time zone. */
  cutoff: z.string(),
  rows: z.array(dailyOrderRowSchema),
});
export type DailyOrderReport = z.infer<typeof dailyOrderReportSchema>;

export const DAILY_ORDER_MAX_DAYS = 400;

export const dailyOrderEndpoints = {
  report: defineEndpoint({
    method: 'GET',
    path: '/orders/daily',
    summary: `Orders per day, source and type between two days (at most ${DAILY_ORDER_MAX_DAYS}; default the last 30)`,
    tag: 'Orders',
    guard: ORDER_ACCESS,
    query: dailyOrderQuerySchema,
    response: dailyOrderReportSchema,
  }),
};
