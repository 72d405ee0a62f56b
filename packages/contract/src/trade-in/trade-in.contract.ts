import * as z from 'zod/mini';
import { usStateSchema, usZipSchema } from '../address.js';
import { defineEndpoint } from '../endpoint.js';
import { imeiSchema } from '../identifiers.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText, requiredText, wholeNumber } from '../master-data/fields.js';
import { DEVICE_GRADES } from '../receiving/receiving-fields.js';
import { scanStationSchema } from '../shipment/packages.contract.js';
import { CARRIERS } from '../shipment/tracking-numbers.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Trade-ins (DOMAIN.md 3.7 TradeIn, 4.16 /shipment-management/trade-in): a phone a customer
 * sends us for a quoted value. It is received by IMEI scan (a blacklisted one is rejected),
 * inspected with a checklist and graded (an activation lock rejects it), then accepted at the
 * quote or revalued with an offer that expires; a declined offer sends the phone back with a
 * return label, an accepted one records the customer's credit and the phone enters our stock as a
 * returned device, for re-inspection on /RMA/reuse. Migration 0069.
 */

/** The trade-ins page and its endpoints (DOMAIN.md 4.16: RC, CS). */
export const TRADE_IN_ACCESS = { permission: 'trade-in.process' } as const;

/**
 * How long a revised offer stays open is a manager's setting: trade-in.process with the shipping
 * manager's override (no default role holds both; an administrator gives them on /roles).
 */
export const TRADE_IN_SETTINGS_ACCESS = {
  permission: 'trade-in.process',
  andPermission: 'order.shipping-override',
} as const;

const TAG = 'Trade-ins';

export const TRADE_IN_STATUSES = [
  'expected',
  'received',
  'inspected',
  'accepted',
  'revalued',
  'declined',
  'returned',
  'rejected',
] as const;
export type TradeInStatus = (typeof TRADE_IN_STATUSES)[number];

/** Why a trade-in is refused outright (DOMAIN.md 4.16: a blocked IMEI, an activation lock). */
export const TRADE_IN_REJECTIONS = ['blacklisted', 'activation_locked'] as const;
export type TradeInRejection = (typeof TRADE_IN_REJECTIONS)[number];

export const tradeInLifecycle = defineLifecycle({
  name: 'trade_in',
  states: TRADE_IN_STATUSES,
  terminal: ['accepted', 'returned', 'rejected'],
  actions: {
    receive: {
      from: ['expected'],
      to: 'received',
      label: 'be received',
      event: 'received',
      permission: TRADE_IN_ACCESS,
    },
    reject: {
      from: ['expected', 'received'],
      to: 'rejected',
      label: 'be rejected',
      event: 'rejected',
      permission: TRADE_IN_ACCESS,
      reason: 'required',
    },
    inspect: {
      from: ['received'],
      to: 'inspected',
      label: 'be inspected',
      event: 'inspected',
      permission: TRADE_IN_ACCESS,
    },
    accept: {
      from: ['inspected', 'revalued'],
      to: 'accepted',
      label: 'be accepted',
      event: 'accepted',
      permission: TRADE_IN_ACCESS,
    },
    revalue: {
      from: ['inspected'],
      to: 'revalued',
      label: 'be revalued',
      event: 'revalued',
      permission: TRADE_IN_ACCESS,
    },
    decline: {
      from: ['revalued'],
      to: 'declined',
      label: 'have its offer declined',
      event: 'declined',
      permission: TRADE_IN_ACCESS,
      reason: 'optional',
    },
    send_back: {
      from: ['declined'],
      to: 'returned',
      label: 'be sent back to the customer',
      event: 'sent_back',
      permission: TRADE_IN_ACCESS,
    },
  },
});
export type TradeInAction = keyof typeof tradeInLifecycle.actions;

/** The inspection's checklist (DOMAIN.md 4.16, [S16]), each passed or not. */
export const TRADE_IN_CHECKS = [
  'powers_on',
  'erased',
  'activation_lock_off',
  'functions_ok',
  'screen_ok',
  'body_ok',
] as const;
export type TradeInCheck = (typeof TRADE_IN_CHECKS)[number];

export const TRADE_IN_CHECK_WORDS: Record<TradeInCheck, string> = {
  powers_on: 'Powers on',
  erased: 'Erased',
  activation_lock_off: 'Activation lock off',
  functions_ok: 'Functions work',
  screen_ok: 'Screen good',
  body_ok: 'Body good',
};

// --- Rows ---

export const tradeInRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(TRADE_IN_STATUSES),
  customer_name: z.string(),
  line1: z.string(),
  line2: z.nullable(z.string()),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  declared_model: z.string(),
  quoted_cents: z.int(),
  order_id: z.nullable(z.int()),
  order_number: z.nullable(z.string()),
  imei: z.nullable(z.string()),
  /** The model the IMEI's TAC names. */
  model: z.nullable(z.string()),
  received_at: z.nullable(z.string()),
  received_by_name: z.nullable(z.string()),
  powers_on: z.nullable(z.boolean()),
  erased: z.nullable(z.boolean()),
  activation_lock_off: z.nullable(z.boolean()),
  functions_ok: z.nullable(z.boolean()),
  screen_ok: z.nullable(z.boolean()),
  body_ok: z.nullable(z.boolean()),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  inspected_at: z.nullable(z.string()),
  offer_cents: z.nullable(z.int()),
  offer_expires_at: z.nullable(z.string()),
  /** A revised offer past its time: it can only be declined. */
  offer_expired: z.boolean(),
  credit_cents: z.nullable(z.int()),
  device_id: z.nullable(z.int()),
  return_carrier: z.nullable(z.enum(CARRIERS)),
  return_tracking_number: z.nullable(z.string()),
  /** Why it was rejected or declined, from its timeline. */
  reason: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TradeInRow = z.infer<typeof tradeInRowSchema>;

export const tradeInDetailSchema = z.object({
  trade_in: tradeInRowSchema,
  events: z.array(timelineEventSchema),
});
export type TradeInDetail = z.infer<typeof tradeInDetailSchema>;

export const tradeInSettingsSchema = z.object({
  offer_valid_days: z.int(),
  updated_at: z.string(),
});
export type TradeInSettings = z.infer<typeof tradeInSettingsSchema>;

/** Trade-ins in progress, the latest finished, and the settings. */
export const tradeInBoardSchema = z.object({
  open: z.array(tradeInRowSchema),
  finished: z.array(tradeInRowSchema),
  settings: tradeInSettingsSchema,
});
export type TradeInBoard = z.infer<typeof tradeInBoardSchema>;

/** How many finished trade-ins the board shows, newest first. */
export const TRADE_IN_BOARD_FINISHED_LIMIT = 50;

// --- Inputs ---

const valueCents = (what: string) =>
  z
    .number(`The ${what} must be a number of cents.`)
    .check(
      z.int(`The ${what} must be a whole number of cents.`),
      z.gte(0, `The ${what} cannot be negative.`),
      z.lte(10_000_000, `The ${what} is too large.`),
    );

export const createTradeInSchema = z.object({
  customer_name: requiredText("customer's name"),
  line1: requiredText('street address'),
  line2: optionalText('second address line', 200),
  city: requiredText('city', 100),
  state: usStateSchema,
  zip: usZipSchema,
  declared_model: requiredText('declared model'),
  quoted_cents: valueCents('quoted value'),
  order_id: z.optional(z.nullable(entityId('order'))),
});
export type CreateTradeInInput = z.input<typeof createTradeInSchema>;

export const receiveTradeInSchema = z.object({
  imei: imeiSchema,
  station: scanStationSchema,
});
export type ReceiveTradeInInput = z.input<typeof receiveTradeInSchema>;

const passed = (check: TradeInCheck) =>
  z.boolean(`Say whether "${TRADE_IN_CHECK_WORDS[check]}" passed.`);

export const inspectTradeInSchema = z.object({
  powers_on: passed('powers_on'),
  erased: passed('erased'),
  activation_lock_off: passed('activation_lock_off'),
  functions_ok: passed('functions_ok'),
  screen_ok: passed('screen_ok'),
  body_ok: passed('body_ok'),
  grade: z.enum(DEVICE_GRADES, 'Choose the grade.'),
});
export type InspectTradeInInput = z.input<typeof inspectTradeInSchema>;

export const revalueTradeInSchema = z.object({ offer_cents: valueCents('offer') });
export const declineTradeInSchema = z.object({ reason: optionalText('reason', 500) });

export const updateTradeInSettingsSchema = z.object({
  offer_valid_days: wholeNumber('days an offer stays open', 1, 90),
});

/** A step that takes no input. */
const noBody = z.object({});

/** A step of a trade-in's lifecycle: answers the trade-in as the drawer shows it. */
const tradeInAction = <B extends z.ZodMiniType>(path: string, summary: string, body: B) =>
  defineEndpoint({
    method: 'POST',
    path: `/trade-ins/:id/${path}`,
    summary,
    tag: TAG,
    guard: TRADE_IN_ACCESS,
    params: idParamsSchema,
    body,
    response: tradeInDetailSchema,
  });

export const tradeInEndpoints = {
  board: defineEndpoint({
    method: 'GET',
    path: '/trade-ins',
    summary: 'Trade-ins in progress, the latest finished and the offer settings',
    tag: TAG,
    guard: TRADE_IN_ACCESS,
    response: tradeInBoardSchema,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/trade-ins/:id',
    summary: 'A trade-in with its timeline',
    tag: TAG,
    guard: TRADE_IN_ACCESS,
    params: idParamsSchema,
    response: tradeInDetailSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/trade-ins',
    summary: 'Expect a trade-in from a customer at a quoted value',
    tag: TAG,
    guard: TRADE_IN_ACCESS,
    body: createTradeInSchema,
    response: tradeInDetailSchema,
    successStatus: 201,
  }),
  receive: tradeInAction(
    'receive',
    'Receive the phone by its IMEI: a blacklisted one is rejected',
    receiveTradeInSchema,
  ),
  inspect: tradeInAction(
    'inspect',
    'Record the inspection checklist and grade: an activation lock rejects the phone',
    inspectTradeInSchema,
  ),
  accept: tradeInAction(
    'accept',
    "Accept at the quote or the revised offer: the customer's credit is recorded and the phone enters stock as returned",
    noBody,
  ),
  revalue: tradeInAction(
    'revalue',
    'Offer a revised value, open for the configured days',
    revalueTradeInSchema,
  ),
  decline: tradeInAction(
    'decline',
    'The customer declines the revised offer',
    declineTradeInSchema,
  ),
  sendBack: tradeInAction(
    'send-back',
    'Buy a return label and send a declined trade-in back to the customer',
    noBody,
  ),
  updateSettings: defineEndpoint({
    method: 'PUT',
    path: '/trade-ins/settings',
    summary: 'Change how long a revised offer stays open (a manager)',
    tag: TAG,
    guard: TRADE_IN_SETTINGS_ACCESS,
    body: updateTradeInSettingsSchema,
    response: tradeInSettingsSchema,
  }),
};
