import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { optionalPhone, optionalText, requiredText } from '../master-data/fields.js';
import {
  ORDER_HOLD_REASONS,
  ORDER_PROGRAMS,
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  SHIP_METHODS,
  shipToSchema,
  type OrderProgram,
} from './orders.contract.js';
import { usAddressSchema } from './us-address.js';

/*
 * The client carriers' API (issue 16, decision 0025): a government-plan carrier sends each
 * approved enrolment as an order and reads its status back. Called by the carrier's system with
 * its API key in `X-API-Key`; every create carries an `Idempotency-Key`.
 */

const TAG = 'Client carrier API';

/** The programmes a carrier may still enrol in: ACP ended in June 2024. */
export const CARRIER_ORDER_PROGRAMS = [
  'lifeline',
  'tribal',
  'prepaid',
] as const satisfies readonly OrderProgram[];

/** What a carrier's order fulfils: a new subscriber's phone, a device for one already served. */
export const CARRIER_FULFILMENT_TYPES = [
  'new_lifeline',
  'ota',
  'prepaid',
  'existing_customer',
] as const;

export const carrierOrderRequestSchema = z.object({
  /** The carrier's own order or enrolment number: one order per number. */
  external_ref: requiredText('order reference', 100),
  program: z.enum(
    CARRIER_ORDER_PROGRAMS,
    'Choose lifeline, tribal or prepaid (ACP ended in June 2024).',
  ),
  /** What the order fulfils; by default a new Lifeline phone, or prepaid for a prepaid order. */
  fulfilment_type: z.optional(z.enum(CARRIER_FULFILMENT_TYPES, 'Choose the fulfilment type.')),
  /**
   * A prepaid order's payment: captured when left out (an order is sent once paid); authorized
   * when the card is only authorised, and reported captured later (we pick it then).
   */
  payment_status: z.optional(
    z.enum(['authorized', 'captured'], 'Send authorized or captured as the payment status.'),
  ),
  subscriber: z.object({
    /** The enrolment or account number at the carrier. */
    external_id: requiredText('enrolment id', 64),
    first_name: requiredText('first name', 100),
    last_name: requiredText('last name', 100),
    phone: optionalPhone,
    /** Where the subscriber lives: a physical address, never a post office box. */
    service_address: usAddressSchema,
  }),
  /** Where the parcel goes; the service address in the subscriber's name when left out. */
  ship_to: z.optional(z.nullable(shipToSchema)),
  ship_method: z.optional(z.enum(SHIP_METHODS, 'Choose the ship method.')),
  items: z
    .array(
      z.object({
        sku: requiredText('SKU', 64),
        qty: z
          .number('Enter the quantity.')
          .check(
            z.int('The quantity must be a whole number.'),
            z.gte(1, 'The quantity must be at least 1.'),
            z.lte(5, 'At most 5 units of an item.'),
          ),
      }),
    )
    .check(z.minLength(1, 'Add at least one item.'), z.maxLength(5, 'At most 5 items.')),
});
export type CarrierOrderRequest = z.input<typeof carrierOrderRequestSchema>;

/** An order as its carrier reads it back: where it stands, never another carrier's. */
export const carrierOrderSchema = z.object({
  number: z.string(),
  external_ref: z.string(),
  program: z.enum(ORDER_PROGRAMS),
  status: z.enum(ORDER_STATUSES),
  hold_reason: z.nullable(z.enum(ORDER_HOLD_REASONS)),
  /** Why it is held, in words, while it is. */
  hold_note: z.nullable(z.string()),
  total_cents: z.int(),
  /** A prepaid order's payment as we hold it; null for other programmes. */
  payment_status: z.nullable(z.enum(PAYMENT_STATUSES)),
  lines: z.array(
    z.object({ sku: z.string(), description: z.string(), qty: z.int(), unit_price_cents: z.int() }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
  shipped_at: z.nullable(z.string()),
  cancelled_at: z.nullable(z.string()),
});
export type CarrierOrder = z.infer<typeof carrierOrderSchema>;

export const createCarrierOrderEndpoint = defineEndpoint({
  method: 'POST',
  path: '/carrier/orders',
  summary: 'Send an approved enrolment as an order, safe to retry with its Idempotency-Key',
  description: [
    'The order is priced by your government-plan price for the programme, the state of the',
    "subscriber's service address and the device, and validated (address, one benefit per",
    'subscriber and address, stock). What fails validation is kept on hold with its reason and',
    'read back like any order. Send a new `Idempotency-Key` per order (a UUID): a retry with the',
    'same key and body answers the first answer (header `Idempotent-Replayed: true`) and creates',
    'nothing; the same key with another body is a 422; an `external_ref` already taken is a 409.',
    '',
    '```sh',
    'curl -X POST https://backoffice.example/api/v1/carrier/orders \\',
    '  -H "X-API-Key: $CARRIER_KEY" -H "Idempotency-Key: 6f1c2a9e-enrol-88123" \\',
    '  -H "Content-Type: application/json" -d \'{',
    '    "external_ref": "ENR-88123", "program": "lifeline",',
    '    "subscriber": {"external_id": "88123", "first_name": "Maria", "last_name": "Lopez",',
    '      "service_address": {"line1": "12 Elm St", "city": "Dallas", "state": "TX", "zip": "75201"}},',
    '    "items": [{"sku": "MOTO-G-PLAY-A", "qty": 1}]}\'',
    '```',
  ].join('\n'),
  tag: TAG,
  guard: 'client-carrier',
  body: carrierOrderRequestSchema,
  response: carrierOrderSchema,
  successStatus: 201,
});

export const carrierOrderParamsSchema = z.object({
  external_ref: requiredText('order reference', 100),
});

export const getCarrierOrderEndpoint = defineEndpoint({
  method: 'GET',
  path: '/carrier/orders/:external_ref',
  summary: 'One of your orders by your order reference: its status now',
  tag: TAG,
  guard: 'client-carrier',
  params: carrierOrderParamsSchema,
  response: carrierOrderSchema,
});

export const CARRIER_CHANGES_LIMIT = 200;

export const carrierOrderChangesQuerySchema = z.object({
  /** The `next` of the previous page; from the beginning when left out. */
  after: z.optional(z.string().check(z.maxLength(200))),
  limit: z.optional(
    z.coerce
      .number()
      .check(
        z.int('Give a whole number.'),
        z.gte(1, 'Ask for at least 1.'),
        z.lte(CARRIER_CHANGES_LIMIT, `Ask for at most ${CARRIER_CHANGES_LIMIT}.`),
      ),
  ),
});

export const listCarrierOrderChangesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/carrier/orders',
  summary:
    "Your orders in the order they last changed: poll with the answer's `next` as `after` to read every status change once",
  tag: TAG,
  guard: 'client-carrier',
  query: carrierOrderChangesQuerySchema,
  response: z.object({ items: z.array(carrierOrderSchema), next: z.nullable(z.string()) }),
});

export const carrierPaymentSchema = z.object({
  status: z.enum(PAYMENT_STATUSES, 'Send authorized, captured, failed or refunded.'),
  /** The payment processor's reference or why, kept on the order's timeline. */
  reference: optionalText('reference', 200),
});
export type CarrierPayment = z.input<typeof carrierPaymentSchema>;

export const reportCarrierPaymentEndpoint = defineEndpoint({
  method: 'POST',
  path: '/carrier/orders/:external_ref/payment',
  summary:
    "Report where a prepaid order's payment stands: we pick it once captured and label it while it stays captured",
  description: [
    'A payment goes authorized → captured or failed, failed → authorized or captured, captured →',
    'refunded; the same status again changes nothing. Another change is a 409, as is a payment',
    'for an order of another programme.',
  ].join('\n'),
  tag: TAG,
  guard: 'client-carrier',
  params: carrierOrderParamsSchema,
  body: carrierPaymentSchema,
  response: carrierOrderSchema,
});
