import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { RESHIP_ACCESS, RESHIP_STATISTICS_ACCESS } from '../guards.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema } from '../list.js';
import { optionalText, requiredText } from '../master-data/fields.js';
import { ORDER_STATUSES, shipToSchema } from '../order/orders.contract.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Reships (DOMAIN.md 3.7 Reship, 4.16 /shipment-management/reship, /reship/order,
 * /reship-statistics): a request to ship a returned, lost or damaged order again, with its reason
 * and who bears the cost; the same unit when it came back reusable; a manager for an order's second
 * reship; a new address when the parcel was undeliverable. Approval creates the child order
 * through the order intake; it is fulfilled through the normal queues. Migration 0068.
 */

export const RESHIP_REASONS = [
  'return_to_sender',
  'lost',
  'damaged',
  'wrong_item',
  'address_corrected',
] as const;
export type ReshipReason = (typeof RESHIP_REASONS)[number];

export const RESHIP_REASON_TEXT: Record<ReshipReason, string> = {
  return_to_sender: 'Returned to sender',
  lost: 'Lost in transit',
  damaged: 'Damaged',
  wrong_item: 'Wrong item',
  address_corrected: 'Address corrected',
};

export const COST_OWNERS = ['company', 'carrier', 'customer', 'client'] as const;
export type CostOwner = (typeof COST_OWNERS)[number];

export const COST_OWNER_TEXT: Record<CostOwner, string> = {
  company: 'Us',
  carrier: 'Shipping carrier',
  customer: 'Customer',
  client: 'Client carrier',
};

export const RESHIP_STATUSES = ['requested', 'approved', 'denied', 'order_created'] as const;
export type ReshipStatus = (typeof RESHIP_STATUSES)[number];

export const OPEN_RESHIP_STATUSES = [
  'requested',
  'approved',
] as const satisfies readonly ReshipStatus[];

export const reshipLifecycle = defineLifecycle({
  name: 'reship',
  states: RESHIP_STATUSES,
  terminal: ['denied', 'order_created'],
  actions: {
    /** An order's second reship or later needs a manager too (order.reship-approve, 403). */
    approve: {
      from: ['requested'],
      to: 'approved',
      label: 'be approved',
      event: 'approved',
      permission: RESHIP_ACCESS,
    },
    deny: {
      from: ['requested'],
      to: 'denied',
      label: 'be denied',
      event: 'denied',
      permission: RESHIP_ACCESS,
      reason: 'required',
    },
    /** Run with the approval: the child order made through the order intake. */
    create_order: {
      from: ['approved'],
      to: 'order_created',
      label: 'have its order created',
      event: 'order_created',
      permission: RESHIP_ACCESS,
    },
  },
  stateText: (state) => state.replace(/_/g, ' '),
});
export type ReshipAction = keyof typeof reshipLifecycle.actions;

export const reshipSchema = z.object({
  id: z.int(),
  status: z.enum(RESHIP_STATUSES),
  original_order_id: z.int(),
  original_order_number: z.string(),
  original_order_status: z.enum(ORDER_STATUSES),
  reason: z.enum(RESHIP_REASONS),
  cost_owner: z.enum(COST_OWNERS),
  /** 0 for an order's first reship; from 1 a manager approves. */
  earlier_reships: z.int(),
  /** The returned unit shipped again, or none for a new unit from stock. */
  device_id: z.nullable(z.int()),
  imei: z.nullable(z.string()),
  /** The new address's city and state, when the address changes. */
  new_place: z.nullable(z.string()),
  tracking_status: z.nullable(z.string()),
  note: z.nullable(z.string()),
  deny_reason: z.nullable(z.string()),
  new_order_id: z.nullable(z.int()),
  new_order_number: z.nullable(z.string()),
  new_order_status: z.nullable(z.enum(ORDER_STATUSES)),
  requested_by: z.string(),
  decided_by: z.nullable(z.string()),
  created_at: z.string(),
  events: z.array(timelineEventSchema),
});
export type Reship = z.infer<typeof reshipSchema>;

export const RESHIP_VIEWS = ['open', 'closed'] as const;
export const RESHIP_PAGE_MAX = 200;

export const reshipQuerySchema = z.object({
  view: z.optional(z.enum(RESHIP_VIEWS, 'Choose open or closed requests.')),
});

export const reshipPageSchema = z.object({ reships: z.array(reshipSchema), total: z.int() });

export const createReshipSchema = z.object({
  order_number: requiredText('order number', 40),
  reason: z.enum(RESHIP_REASONS, 'Choose why the order ships again.'),
  cost_owner: z.enum(COST_OWNERS, 'Choose who bears the cost.'),
  /** Ship the unit that came back (its IMEI), when it is reusable. */
  same_unit_imei: optionalText('IMEI', 20),
  /** The corrected address; required when the parcel came back undeliverable. */
  ship_to: z.optional(z.nullable(shipToSchema)),
  note: optionalText('note', 500),
});
export type CreateReshipInput = z.input<typeof createReshipSchema>;

export const denyReshipSchema = z.object({ reason: requiredText('reason', 500) });

/** What an order needs known before a reship is asked for: its parcel and returned units. */
export const reshipCandidateSchema = z.object({
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  tracking_status: z.nullable(z.string()),
  /** The parcel came back undeliverable: the address must change. */
  undeliverable: z.boolean(),
  earlier_reships: z.int(),
  returned_units: z.array(z.object({ device_id: z.int(), imei: z.string() })),
});
export type ReshipCandidate = z.infer<typeof reshipCandidateSchema>;

export const reshipCandidateQuerySchema = z.object({
  order_number: requiredText('order number', 40),
});

/**
 * Where the returned unit a reship order names stands: waiting for the assignment (which reserves
 * it if it is back in stock by then), reserved or picked for the order, shipped on it, or passed
 * over for another matching unit because it was not back in time.
 */
export const REQUESTED_UNIT_STATES = ['to_assign', 'reserved', 'shipped', 'another_unit'] as const;
export type RequestedUnitState = (typeof REQUESTED_UNIT_STATES)[number];

export const REQUESTED_UNIT_TEXT: Record<RequestedUnitState, string> = {
  to_assign: 'reserved at assignment if back in stock',
  reserved: 'reserved for this order',
  shipped: 'shipped',
  another_unit: 'not back in stock at assignment: another unit ships',
};

/** A reship's child order with its fulfilment progress. */
export const reshipOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  priority: z.string(),
  parent_order_id: z.int(),
  parent_number: z.string(),
  reship_id: z.int(),
  reason: z.enum(RESHIP_REASONS),
  place: z.string(),
  items_text: z.string(),
  /** The returned unit the order ships if it is back in stock at assignment. */
  requested_imei: z.nullable(z.string()),
  requested_unit: z.nullable(z.enum(REQUESTED_UNIT_STATES)),
  created_at: z.string(),
  shipped_at: z.nullable(z.string()),
});
export type ReshipOrder = z.infer<typeof reshipOrderSchema>;

export const reshipOrderPageSchema = z.object({
  orders: z.array(reshipOrderSchema),
  total: z.int(),
});

/** A date range of at most a year and a day, by the days reships were asked for (UTC). */
export const reshipStatisticsQuerySchema = z.object({
  from: isoDate('first day'),
  to: isoDate('last day'),
});

const countRow = z.object({ key: z.string(), reships: z.int() });

export const reshipStatisticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  reships: z.int(),
  /** Orders shipped in the range, for the reship rate. */
  shipped: z.int(),
  by_day: z.array(z.object({ day: z.string(), reships: z.int() })),
  by_reason: z.array(countRow),
  by_cost_owner: z.array(countRow),
  by_carrier: z.array(countRow),
  by_client: z.array(countRow),
});
export type ReshipStatistics = z.infer<typeof reshipStatisticsSchema>;

/** The longest range the statistics read at once. */
export const RESHIP_STATISTICS_MAX_DAYS = 366;

const TAG = 'Reships';

export const reshipEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/reships',
    summary: `Open or closed reship requests, newest first (at most ${RESHIP_PAGE_MAX})`,
    tag: TAG,
    guard: RESHIP_ACCESS,
    query: reshipQuerySchema,
    response: reshipPageSchema,
  }),
  candidate: defineEndpoint({
    method: 'GET',
    path: '/reships/candidate',
    summary:
      "An order as a reship request needs it: its parcel's status, whether it was undeliverable, its returned units and earlier reships (404 for no such order)",
    tag: TAG,
    guard: RESHIP_ACCESS,
    query: reshipCandidateQuerySchema,
    response: reshipCandidateSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/reships',
    summary:
      'Ask to ship a returned, lost or damaged order again (409 for another state or a request open; 422 without a new address when its parcel was undeliverable)',
    tag: TAG,
    guard: RESHIP_ACCESS,
    body: createReshipSchema,
    response: reshipSchema,
    successStatus: 201,
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/reships/:id/approval',
    summary:
      'Approve a reship (an order reshipped before needs order.reship-approve, 403): the child order is created through the order intake (once, whoever approves at the same moment) and the original order is reshipped',
    tag: TAG,
    guard: RESHIP_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: reshipSchema,
  }),
  deny: defineEndpoint({
    method: 'POST',
    path: '/reships/:id/denial',
    summary: 'Deny a reship with the reason',
    tag: TAG,
    guard: RESHIP_ACCESS,
    params: idParamsSchema,
    body: denyReshipSchema,
    response: reshipSchema,
  }),
  orders: defineEndpoint({
    method: 'GET',
    path: '/reships/orders',
    summary: `Child orders created by reships with their parent and status, newest first (at most ${RESHIP_PAGE_MAX})`,
    tag: TAG,
    guard: RESHIP_ACCESS,
    response: reshipOrderPageSchema,
  }),
  statistics: defineEndpoint({
    method: 'GET',
    path: '/reships/statistics',
    summary: `Reships by day, reason, cost owner, shipping carrier and client carrier over a range of at most ${RESHIP_STATISTICS_MAX_DAYS} days`,
    tag: TAG,
    guard: RESHIP_STATISTICS_ACCESS,
    query: reshipStatisticsQuerySchema,
    response: reshipStatisticsSchema,
  }),
};
