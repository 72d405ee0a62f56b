import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SUPPORT_CREATE_ACCESS, SUPPORT_ORDER_APPROVE_ACCESS } from '../guards.js';
import { idParamsSchema, pickerQuerySchema } from '../list.js';
import { entityId, optionalText, requiredText } from '../master-data/fields.js';
import {
  ORDER_PROGRAMS,
  ORDER_STATUSES,
  SHIP_METHODS,
  shipToSchema,
} from '../order/orders.contract.js';
import { PRODUCT_KINDS } from '../pts/products.contract.js';
import { booleanFilter } from '../resource.js';

/**
 * Support orders (DOMAIN.md 4.14 `/fulfill/support-order`, 5.2 step 1): customer support sends a
 * known subscriber chargers and accessories, a SIM-only replacement or a goodwill device, always
 * with a reason. The order is submitted to the fulfilment queue at once (`pending` → `ready`, or on
 * hold with what validation found); one with a device waits for a manager's approval first. The
 * same item for the same subscriber again within the setting's days (`support_duplicate_days`,
 * default 30) is refused unless a manager overrides.
 */

export const SUPPORT_REASONS = [
  'missing_item',
  'defective_accessory',
  'sim_replacement',
  'goodwill',
  'service_recovery',
] as const;
export type SupportReason = (typeof SUPPORT_REASONS)[number];

export const SUPPORT_REASON_TEXT: Record<SupportReason, string> = {
  missing_item: 'Item missing from the parcel',
  defective_accessory: 'Defective charger or accessory',
  sim_replacement: 'SIM-only replacement',
  goodwill: 'Goodwill',
  service_recovery: 'Service recovery',
};

/** A subscriber found by the lookup: the name masked, as the order list shows customers. */
export const supportSubscriberSchema = z.object({
  id: z.int(),
  customer: z.string(),
  external_id: z.nullable(z.string()),
  client_carrier: z.string(),
  program: z.enum(ORDER_PROGRAMS),
  place: z.string(),
  /** Their newest order, whose ship-to a support order goes to unless another is given. */
  last_order: z.nullable(z.string()),
});
export type SupportSubscriber = z.infer<typeof supportSubscriberSchema>;

/**
 * An item a support order may send: an active catalogue variant with its product's kind, an
 * accessory of the master (a charger) not yet in the catalogue, which the order puts there, or
 * the SIM kit (id 0): the one of the subscriber's client carrier, put there on first use.
 */
export const supportItemOptionSchema = z.object({
  id: z.int(),
  source: z.enum(['variant', 'accessory', 'sim_kit']),
  label: z.string(),
  kind: z.enum(PRODUCT_KINDS),
});
export type SupportItemOption = z.infer<typeof supportItemOptionSchema>;

export const createSupportOrderSchema = z.object({
  subscriber_id: entityId('subscriber'),
  reason: z.enum(SUPPORT_REASONS, 'Choose the reason.'),
  note: optionalText('note', 1000),
  ship_method: z.enum(SHIP_METHODS, 'Choose the ship method.'),
  /** Where it goes; the subscriber's newest order's ship-to when left out. */
  ship_to: z.optional(z.nullable(shipToSchema)),
  items: z
    .array(
      z
        .object({
          /** A catalogue variant, an accessory of the master, or the carrier's SIM kit. */
          variant_id: z.optional(entityId('item')),
          accessory_id: z.optional(entityId('item')),
          /** The SIM kit of the subscriber's client carrier, whichever carrier that is. */
          sim_kit: z.optional(z.literal(true)),
          qty: z
            .number('Enter the quantity.')
            .check(
              z.int('The quantity must be a whole number.'),
              z.gte(1, 'The quantity must be at least 1.'),
              z.lte(10, 'At most 10 of an item.'),
            ),
        })
        .check(
          z.refine(
            (item) =>
              [item.variant_id, item.accessory_id, item.sim_kit].filter((v) => v !== undefined)
                .length === 1,
            {
              message: 'Choose an item.',
              path: ['variant_id'],
            },
          ),
        ),
    )
    .check(z.minLength(1, 'Add at least one item.'), z.maxLength(10, 'At most 10 items.')),
  /** Send it although the subscriber had the same item within the window (a manager). */
  override_duplicate: z.optional(z.boolean()),
});
export type CreateSupportOrderInput = z.input<typeof createSupportOrderSchema>;

export const supportOrderRowSchema = z.object({
  order_id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  hold_note: z.nullable(z.string()),
  reason: z.enum(SUPPORT_REASONS),
  note: z.nullable(z.string()),
  customer: z.string(),
  client_carrier: z.nullable(z.string()),
  items_text: z.string(),
  ship_method: z.enum(SHIP_METHODS),
  /** A device item: the order waits for a manager before it goes to the queue. */
  needs_approval: z.boolean(),
  approved_at: z.nullable(z.string()),
  approved_by: z.nullable(z.string()),
  /** The earlier orders of the same item a manager let this one through despite. */
  duplicate_of: z.nullable(z.array(z.string())),
  created_at: z.string(),
  created_by: z.nullable(z.string()),
});
export type SupportOrderRow = z.infer<typeof supportOrderRowSchema>;

/** At most this many support orders on the page, newest first. */
export const SUPPORT_ORDER_LIST_LIMIT = 100;

export const supportOrderListQuerySchema = z.object({
  /** Only those waiting for a manager's approval. */
  awaiting_approval: booleanFilter,
});

export const supportOrderEndpoints = {
  subscribers: defineEndpoint({
    method: 'GET',
    path: '/support-orders/subscribers',
    summary:
      'Subscribers by enrolment or account number, or by one of their order numbers (at most 20; names masked)',
    tag: 'Fulfilment',
    guard: SUPPORT_CREATE_ACCESS,
    query: pickerQuerySchema,
    response: z.array(supportSubscriberSchema),
  }),
  itemOptions: defineEndpoint({
    method: 'GET',
    path: '/support-orders/item-options',
    summary:
      "Up to 20 items by SKU or name: active variants, accessories of the master, and the subscriber's carrier's SIM kit",
    tag: 'Fulfilment',
    guard: SUPPORT_CREATE_ACCESS,
    query: pickerQuerySchema,
    response: z.array(supportItemOptionSchema),
  }),
  list: defineEndpoint({
    method: 'GET',
    path: '/support-orders',
    summary: `Support orders, newest first (at most ${SUPPORT_ORDER_LIST_LIMIT})`,
    tag: 'Fulfilment',
    guard: SUPPORT_CREATE_ACCESS,
    query: supportOrderListQuerySchema,
    response: z.array(supportOrderRowSchema),
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/support-orders',
    summary:
      'Create and submit a support order: ready (or on hold) at once, pending for approval with a device; 409 for a duplicate',
    tag: 'Fulfilment',
    guard: SUPPORT_CREATE_ACCESS,
    body: createSupportOrderSchema,
    response: supportOrderRowSchema,
    successStatus: 201,
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/support-orders/:id/approval',
    summary: 'Approve a support order with a device: validated, it goes to the queue',
    tag: 'Fulfilment',
    guard: SUPPORT_ORDER_APPROVE_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: supportOrderRowSchema,
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/support-orders/:id/rejection',
    summary: 'Refuse a support order waiting for approval: it is cancelled',
    tag: 'Fulfilment',
    guard: SUPPORT_ORDER_APPROVE_ACCESS,
    params: idParamsSchema,
    body: z.object({ reason: requiredText('reason', 500) }),
    response: supportOrderRowSchema,
  }),
};
