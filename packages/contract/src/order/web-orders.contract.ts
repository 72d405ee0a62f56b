import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { WEB_ORDER_ACCESS, WEB_ORDER_DECIDE_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { CREDIT_TERMS } from '../retail/retail.contract.js';
import { ORDER_STATUSES, SHIP_METHODS, orderDetailSchema } from './orders.contract.js';

/**
 * Web orders (DOMAIN.md 2.2 Cart, 4.1 /dashboard/web-order, 5.2 step 1, 7 Shop): a retailer's
 * portal user or an agent checks the shell's cart out into one pending order at the listings'
 * prices, holding the listings' units until staff approve it (listing cap, stock and credit
 * checked again) or reject it, or the hold expires.
 */

/** The cart's item types the shop sells (spec section 3's `type`): a listing's sellable kind. */
export const WEB_ORDER_ITEM_TYPES = ['product', 'bundle', 'combo'] as const;
export type WebOrderItemType = (typeof WEB_ORDER_ITEM_TYPES)[number];

/** Which listings a customer sees: a retailer's portal user the retailer channel, an agent web. */
export const SHOP_CHANNELS = ['retailer', 'web'] as const;

/** One thing the shop sells: a live listing visible to the caller, with what can be bought now. */
export const shopItemSchema = z.object({
  /** The cart item's id: the listing's. */
  listing_id: z.int(),
  type: z.enum(WEB_ORDER_ITEM_TYPES),
  /** The variant, bundle or combo listed. */
  sellable_id: z.int(),
  /** A product's variant (the cart item's variant_id); null for a bundle or combo. */
  variant_id: z.nullable(z.int()),
  sku: z.string(),
  name: z.string(),
  unit_price_cents: z.int(),
  /** What the listing has left, capped by the sellable stock now; 0 is sold out. */
  available: z.int(),
});
export type ShopItem = z.infer<typeof shopItemSchema>;

export const shopCatalogueSchema = z.object({
  /** The account the caller orders for; null when the caller is no retailer's user or agent. */
  customer: z.nullable(
    z.object({
      retailer_id: z.int(),
      name: z.string(),
      channel: z.enum(SHOP_CHANNELS),
      credit_terms: z.enum(CREDIT_TERMS),
    }),
  ),
  items: z.array(shopItemSchema),
});
export type ShopCatalogue = z.infer<typeof shopCatalogueSchema>;

const positiveId = (what: string) =>
  z
    .number(`Choose the ${what}.`)
    .check(z.int(`Choose the ${what}.`), z.gte(1, `Choose the ${what}.`));

/** A cart item as checked out: the stored item, and the price the shop showed for it. */
export const checkoutItemSchema = z.object({
  id: positiveId('listing'),
  type: z.enum(WEB_ORDER_ITEM_TYPES, 'Choose a product, bundle or combo.'),
  quantity: z
    .number('Enter the quantity.')
    .check(
      z.int('The quantity must be a whole number.'),
      z.gte(1, 'The quantity must be at least 1.'),
      z.lte(1000, 'At most 1,000 units per line.'),
    ),
  variant_id: z.optional(z.nullable(positiveId('variant'))),
  /** The unit price the buyer saw: a different price now is a 409 ("the price changed"). */
  unit_price_cents: z.optional(z.int()),
});

export const checkoutSchema = z.object({
  items: z
    .array(checkoutItemSchema)
    .check(z.minLength(1, 'The cart is empty.'), z.maxLength(50, 'At most 50 lines per order.')),
});
export type CheckoutInput = z.input<typeof checkoutSchema>;

export const webOrderLineSchema = z.object({
  sku: z.string(),
  description: z.string(),
  qty: z.int(),
  unit_price_cents: z.int(),
});

/** What a checkout answers: the pending order, its lines as sold and until when they are held. */
export const webOrderPlacedSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  total_cents: z.int(),
  expires_at: z.string(),
  lines: z.array(webOrderLineSchema),
});
export type WebOrderPlaced = z.infer<typeof webOrderPlacedSchema>;

/** How a web order's customer stands against the credit limit now (retail's credit check). */
export const CREDIT_DECISIONS = ['within_limit', 'over_limit', 'prepaid', 'inactive'] as const;

/** A pending web order as the approval queue shows it. */
export const webOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  retailer_id: z.int(),
  customer: z.string(),
  /** Who checked out, and whether as an agent. */
  placed_by: z.nullable(z.string()),
  channel: z.enum(SHOP_CHANNELS),
  lines: z.array(
    z.object({
      ...webOrderLineSchema.shape,
      /** What its listing has left beside this order's own units (null: no listing). */
      listing_left: z.nullable(z.int()),
      /** Sellable stock now. */
      in_stock: z.int(),
    }),
  ),
  total_cents: z.int(),
  ship_method: z.enum(SHIP_METHODS),
  credit_terms: z.enum(CREDIT_TERMS),
  credit_decision: z.enum(CREDIT_DECISIONS),
  /** The credit check in words. */
  credit_note: z.string(),
  /** True when every line's units are held and in stock now. */
  available: z.boolean(),
  /** What is short, in words; empty when available. */
  availability_note: z.string(),
  created_at: z.string(),
  expires_at: z.string(),
});
export type WebOrder = z.infer<typeof webOrderSchema>;

export const webOrderQueueSchema = z.object({
  /** The oldest pending web orders first, at most WEB_ORDER_QUEUE_MAX. */
  orders: z.array(webOrderSchema),
  /** Pending web orders in all. */
  total: z.int(),
});

/** How many pending web orders the queue answers: orders wait at most the hold's hours. */
export const WEB_ORDER_QUEUE_MAX = 200;

export const rejectWebOrderSchema = z.object({
  reason: z
    .string('Say why the order is rejected.')
    .check(
      z.trim(),
      z.minLength(1, 'Say why the order is rejected.'),
      z.maxLength(500, 'The reason is too long.'),
    ),
});

export const webOrderShipMethodSchema = z.object({
  ship_method: z.enum(SHIP_METHODS, 'Choose the ship method.'),
});

export const webOrderEndpoints = {
  catalogue: defineEndpoint({
    method: 'GET',
    path: '/web-orders/catalogue',
    summary:
      "What the caller's cart can buy: live listings of their channel, priced, with what is left " +
      "(a retailer's portal user or an agent; anyone else is told they have no customer account)",
    tag: 'Web orders',
    guard: 'session',
    response: shopCatalogueSchema,
  }),
  checkout: defineEndpoint({
    method: 'POST',
    path: '/web-orders',
    summary:
      "Check the cart out: one pending order at the listings' prices, their units held until " +
      'approval (403 for anyone but a retailer portal user or agent; 409 sold out or price changed)',
    tag: 'Web orders',
    guard: 'session',
    body: checkoutSchema,
    response: webOrderPlacedSchema,
    successStatus: 201,
  }),
  queue: defineEndpoint({
    method: 'GET',
    path: '/web-orders',
    summary: 'Pending web orders, oldest first, with their availability and credit now',
    tag: 'Web orders',
    guard: WEB_ORDER_ACCESS,
    response: webOrderQueueSchema,
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/web-orders/:id/approval',
    summary:
      'Approve a web order: listing, stock and credit checked again; ready, or a 409 says why not',
    tag: 'Web orders',
    guard: WEB_ORDER_DECIDE_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: orderDetailSchema,
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/web-orders/:id/rejection',
    summary: 'Reject a web order with the reason: cancelled, its listing units given back',
    tag: 'Web orders',
    guard: WEB_ORDER_DECIDE_ACCESS,
    params: idParamsSchema,
    body: rejectWebOrderSchema,
    response: orderDetailSchema,
  }),
  shipMethod: defineEndpoint({
    method: 'PUT',
    path: '/web-orders/:id/ship-method',
    summary: 'Change how a pending web order ships',
    tag: 'Web orders',
    guard: WEB_ORDER_DECIDE_ACCESS,
    params: idParamsSchema,
    body: webOrderShipMethodSchema,
    response: orderDetailSchema,
  }),
};
