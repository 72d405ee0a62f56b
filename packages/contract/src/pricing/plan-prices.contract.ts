import * as z from 'zod/mini';
import { US_STATES, type UsState } from '../address.js';
import { GOV_PLAN_PRICE_ACCESS } from '../guards.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema, PICKER_LIMIT } from '../list.js';
import { entityId, optionalText, requiredText } from '../master-data/fields.js';
import {
  booleanFilter,
  defineList,
  enumFilter,
  idFilter,
  importEndpoints,
  listEndpoints,
  type ImportDefinition,
} from '../resource.js';

/**
 * Government-plan prices (DOMAIN.md 4.9, `/push-to-sale/price/air-talk`): per client carrier,
 * programme, state and model (or one variant of it), the subscriber's device co-pay and the plan,
 * with effective dates. Every row is one version of its key; a change is a new version that
 * closes the one before it. Migration 0036.
 */

/** The programmes of DOMAIN.md 2.2 (ClientCarrier), as orders name them too. */
export const GOV_PROGRAMMES = ['lifeline', 'tribal', 'acp-legacy', 'prepaid'] as const;
export type GovProgramme = (typeof GOV_PROGRAMMES)[number];

export const GOV_PROGRAMME_LABELS: Record<GovProgramme, string> = {
  lifeline: 'Lifeline',
  tribal: 'Tribal Lifeline',
  'acp-legacy': 'ACP (ended)',
  prepaid: 'Prepaid upgrade',
};

/** ACP ended in June 2024: its prices are kept for the orders that used them, never changed. */
export const READ_ONLY_PROGRAMMES: readonly GovProgramme[] = ['acp-legacy'];

/** Programmes held to the Lifeline minimum service standard (Tribal Lifeline is Lifeline). */
export const MINIMUM_STANDARD_PROGRAMMES: readonly GovProgramme[] = ['lifeline', 'tribal'];

/**
 * The states, the District of Columbia and the territories, where Lifeline is offered: the postal
 * codes of `address.ts` without the military ones (AA, AE, AP).
 */
export const PRICE_STATE_CODES = US_STATES.filter(
  (code) => !['AA', 'AE', 'AP'].includes(code),
) as unknown as readonly [UsState, ...UsState[]];

/** The state filter's value for the rows that price every state (no state of their own). */
export const EVERY_STATE = 'every';

/** Where a version stands today: not started, in effect, or ended. */
export const PLAN_PRICE_STATUSES = ['scheduled', 'current', 'past'] as const;
export type PlanPriceStatus = (typeof PLAN_PRICE_STATUSES)[number];

export const planPriceSchema = z.object({
  id: z.int(),
  carrier_id: z.int(),
  carrier_name: z.string(),
  programme: z.enum(GOV_PROGRAMMES),
  /** Two letters; null: every state (a state's own row wins over it). */
  state: z.nullable(z.string()),
  model_id: z.int(),
  model_name: z.string(),
  /** Null: the model's price, for every variant without one of its own. */
  variant_id: z.nullable(z.int()),
  variant_sku: z.nullable(z.string()),
  /** The key's versions count from 1. */
  version: z.int(),
  device_price_cents: z.int(),
  plan_name: z.string(),
  /** Mobile data a month; null: unlimited. */
  data_gb: z.nullable(z.number()),
  /** Minutes a month; null: unlimited. */
  minutes: z.nullable(z.int()),
  /** YYYY-MM-DD, the first day in effect. */
  effective_from: z.string(),
  /** YYYY-MM-DD, the last day in effect; null: until closed. */
  effective_to: z.nullable(z.string()),
  status: z.enum(PLAN_PRICE_STATUSES),
  /** ACP: kept as it was, never changed. */
  read_only: z.boolean(),
  /**
   * The Lifeline minimum service standard (GB a month) in effect when the version starts (today
   * for one started); null for a programme not held to it.
   */
  minimum_gb: z.nullable(z.number()),
  /** The plan gives less data than that standard: a warning, not a refusal. */
  below_minimum: z.boolean(),
  note: z.nullable(z.string()),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
});
export type PlanPrice = z.infer<typeof planPriceSchema>;

export const planPriceList = defineList({
  name: 'gov-plan-prices',
  singular: 'plan price',
  plural: 'Plan prices',
  tag: 'Pricing',
  view: GOV_PLAN_PRICE_ACCESS,
  item: planPriceSchema,
  filters: {
    carrier_id: idFilter,
    programme: enumFilter(GOV_PROGRAMMES),
    state: enumFilter([EVERY_STATE, ...PRICE_STATE_CODES]),
    model_id: idFilter,
    status: enumFilter(PLAN_PRICE_STATUSES),
    below_minimum: booleanFilter,
  },
  sorts: ['effective_from', 'state', 'device_price_cents'],
  defaultSort: 'effective_from',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'carrier_name', header: 'Carrier', example: 'AirTalk Wireless' },
    { key: 'programme', header: 'Programme', example: 'lifeline' },
    { key: 'state', header: 'State', example: 'TX' },
    { key: 'model_name', header: 'Model', example: 'Samsung Galaxy A15' },
    { key: 'variant_sku', header: 'Variant SKU', example: '' },
    { key: 'version', header: 'Version', example: '1' },
    { key: 'device_price_cents', header: 'Device price (cents)', example: '1001' },
    { key: 'plan_name', header: 'Plan', example: 'Unlimited talk & text, 4.5 GB' },
    { key: 'data_gb', header: 'Data (GB)', example: '4.5' },
    { key: 'minutes', header: 'Minutes', example: '1000' },
    { key: 'effective_from', header: 'Effective from', example: '2026-01-01' },
    { key: 'effective_to', header: 'Effective to', example: '' },
    { key: 'status', header: 'Status', example: 'current' },
    { key: 'below_minimum', header: 'Below Lifeline minimum', example: 'no' },
    { key: 'note', header: 'Note', example: '' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});

const day = (what: string) => z.iso.date(`Write the ${what} as YYYY-MM-DD.`);

const cents = (what: string) =>
  z
    .number(`Give the ${what} in cents.`)
    .check(
      z.int(`Give the ${what} in whole cents.`),
      z.gte(0, `The ${what} cannot be negative.`),
      z.lte(100_000_000, `The ${what} is at most $1,000,000.`),
    );

/** At most two decimals (cents, hundredths of a GB), allowing for binary fractions. */
const twoDecimals = (value: number) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

/** GB a month, at most two decimals; null: unlimited. */
const dataGb = z.nullable(
  z
    .number('Give the data in GB a month, or leave it empty for unlimited.')
    .check(
      z.gte(0, 'The data cannot be negative.'),
      z.lte(100_000, 'The data is at most 100000 GB.'),
      z.refine(twoDecimals, 'At most two decimals, like 4.5.'),
    ),
);

/** Minutes a month; null: unlimited. */
const minutes = z.nullable(
  z
    .number('Give the minutes a month, or leave them empty for unlimited.')
    .check(
      z.int('The minutes are a whole number.'),
      z.gte(0, 'The minutes cannot be negative.'),
      z.lte(1_000_000, 'The minutes are at most 1000000.'),
    ),
);

const stateCode = z.pipe(
  z.nullable(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((text) => (text === '' ? null : text.toUpperCase())),
    ),
  ),
  z.nullable(
    z.enum(
      PRICE_STATE_CODES,
      'Write a state’s two letters, like TX, or leave it empty for every state.',
    ),
  ),
);

/** A new price: the first version of its key, or a version after the key's last one. */
export const createPlanPriceSchema = z.object({
  carrier_id: entityId('client carrier'),
  programme: z.enum(GOV_PROGRAMMES, 'Choose the programme.'),
  state: z._default(stateCode, null),
  model_id: entityId('model'),
  variant_id: z._default(z.nullable(entityId('variant')), null),
  device_price_cents: cents('device price'),
  plan_name: requiredText('plan name'),
  data_gb: z._default(dataGb, null),
  minutes: z._default(minutes, null),
  /** Today at the earliest: the past is not rewritten. */
  effective_from: day('first day'),
  /** The last day; null: until a change or an expiry closes it. */
  effective_to: z._default(z.nullable(day('last day')), null),
  note: optionalText('note', 500),
});
export type CreatePlanPriceInput = z.input<typeof createPlanPriceSchema>;

/**
 * A change scheduled on a version: a new version from `effective_from` (tomorrow at the earliest:
 * every order of a day snapshots one price) with the fields given, the others as they were; the
 * version changed ends the day before.
 */
export const schedulePlanPriceChangeSchema = z.object({
  effective_from: day('first day of the change'),
  device_price_cents: z.optional(cents('device price')),
  plan_name: z.optional(requiredText('plan name')),
  data_gb: z.optional(dataGb),
  minutes: z.optional(minutes),
  note: optionalText('note', 500),
});
export type SchedulePlanPriceChangeInput = z.input<typeof schedulePlanPriceChangeSchema>;

/** An expiry: the version's last day, today at the earliest (today when left out). */
export const expirePlanPriceSchema = z.object({
  last_day: z._default(z.nullable(day('last day')), null),
});
export type ExpirePlanPriceInput = z.input<typeof expirePlanPriceSchema>;

export const planPriceEndpoints = {
  ...listEndpoints(planPriceList),
  create: defineEndpoint({
    method: 'POST',
    path: '/gov-plan-prices',
    summary:
      'Add a price: a version of its key from today or later; overlapping another version of the key is a 409 naming it',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    body: createPlanPriceSchema,
    response: planPriceSchema,
    successStatus: 201,
  }),
  scheduleChange: defineEndpoint({
    method: 'POST',
    path: '/gov-plan-prices/:id/changes',
    summary:
      'Schedule a change: a new version from a later day, which ends this one the day before (ACP: 409)',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    params: idParamsSchema,
    body: schedulePlanPriceChangeSchema,
    response: planPriceSchema,
    successStatus: 201,
  }),
  expire: defineEndpoint({
    method: 'POST',
    path: '/gov-plan-prices/:id/expiry',
    summary:
      'Expire a version: its last day becomes the day given (today at the earliest); a past version or ACP is a 409',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    params: idParamsSchema,
    body: expirePlanPriceSchema,
    response: planPriceSchema,
  }),
  withdraw: defineEndpoint({
    method: 'DELETE',
    path: '/gov-plan-prices/:id',
    summary: 'Withdraw a scheduled version before it starts; one that has started is kept (409)',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    params: idParamsSchema,
    response: z.null(),
  }),
  versions: defineEndpoint({
    method: 'GET',
    path: '/gov-plan-prices/:id/versions',
    summary:
      'Every version of the price’s key (carrier, programme, state, model, variant), oldest first',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    params: idParamsSchema,
    response: z.array(planPriceSchema),
  }),
  carrierOptions: defineEndpoint({
    method: 'GET',
    path: '/gov-plan-prices/carrier-options',
    summary: `Up to ${PICKER_LIMIT} client carriers (vendors of type carrier-client), for a picker`,
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  modelOptions: defineEndpoint({
    method: 'GET',
    path: '/gov-plan-prices/model-options',
    summary: `Up to ${PICKER_LIMIT} device models, for a picker`,
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  variantOptions: defineEndpoint({
    method: 'GET',
    path: '/gov-plan-prices/variant-options',
    summary: `Up to ${PICKER_LIMIT} product variants of a model, for a picker`,
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    query: z.extend(pickerQuerySchema, { model_id: idFilter }),
    response: z.array(pickerOptionSchema),
  }),
};

/** One value of the Lifeline minimum service standard, from the day it takes effect. */
export const lifelineMinimumSchema = z.object({
  effective_from: z.string(),
  data_gb: z.number(),
  note: z.nullable(z.string()),
  set_at: z.string(),
  set_by_name: z.nullable(z.string()),
});
export type LifelineMinimum = z.infer<typeof lifelineMinimumSchema>;

export const lifelineMinimumsSchema = z.object({
  /** The value in effect today. */
  current: z.nullable(lifelineMinimumSchema),
  /** Every value, the latest first. */
  standards: z.array(lifelineMinimumSchema),
});
export type LifelineMinimums = z.infer<typeof lifelineMinimumsSchema>;

export const setLifelineMinimumSchema = z.object({
  effective_from: day('day it takes effect'),
  data_gb: z
    .number('Give the minimum in GB a month.')
    .check(
      z.gt(0, 'The minimum is more than 0 GB.'),
      z.lte(100_000, 'The minimum is at most 100000 GB.'),
      z.refine(twoDecimals, 'At most two decimals, like 4.5.'),
    ),
  note: optionalText('note', 500),
});
export type SetLifelineMinimumInput = z.input<typeof setLifelineMinimumSchema>;

export const lifelineMinimumEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/lifeline-minimum-standards',
    summary: 'The Lifeline minimum service standard for mobile data: today’s value and every value',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    response: lifelineMinimumsSchema,
  }),
  set: defineEndpoint({
    method: 'PUT',
    path: '/lifeline-minimum-standards',
    summary:
      'Set the Lifeline minimum (GB a month) from a day; a value from the same day is replaced',
    tag: 'Pricing',
    guard: GOV_PLAN_PRICE_ACCESS,
    body: setLifelineMinimumSchema,
    response: lifelineMinimumsSchema,
  }),
};

/** Prices by file: every row a new version; a row after an open version of its key closes it. */
export const planPriceImport = {
  name: 'gov-plan-prices',
  singular: 'plan price',
  plural: 'Plan prices',
  tag: 'Pricing',
  manage: GOV_PLAN_PRICE_ACCESS,
  importColumns: [
    { key: 'carrier', header: 'Carrier', required: true, example: 'AirTalk Wireless' },
    {
      key: 'programme',
      header: 'Programme',
      required: true,
      example: 'lifeline',
      hint: 'lifeline, tribal or prepaid (ACP is read-only)',
    },
    { key: 'state', header: 'State', example: 'TX', hint: 'two letters; empty: every state' },
    { key: 'model', header: 'Model', required: true, example: 'Samsung Galaxy A15' },
    { key: 'variant_sku', header: 'Variant SKU', example: '', hint: 'empty: the model’s price' },
    {
      key: 'device_price',
      header: 'Device price',
      required: true,
      example: '10.01',
      hint: 'dollars and cents',
      kind: 'number',
    },
    { key: 'plan_name', header: 'Plan', required: true, example: 'Unlimited talk & text, 4.5 GB' },
    {
      key: 'data_gb',
      header: 'Data (GB)',
      example: '4.5',
      hint: 'empty: unlimited',
      kind: 'number',
    },
    {
      key: 'minutes',
      header: 'Minutes',
      example: '1000',
      hint: 'empty: unlimited',
      kind: 'integer',
    },
    { key: 'effective_from', header: 'Effective from', required: true, example: '2026-01-01' },
    { key: 'effective_to', header: 'Effective to', example: '', hint: 'last day; empty: open' },
    { key: 'note', header: 'Note', example: '' },
  ],
} as const satisfies ImportDefinition;

export const planPriceRowSchema = z.object({
  carrier: requiredText('carrier'),
  programme: requiredText('programme', 40),
  state: z._default(stateCode, null),
  model: requiredText('model'),
  variant_sku: optionalText('variant SKU', 64),
  device_price: z
    .number('Give the device price in dollars, like 10.01.')
    .check(
      z.gte(0, 'The device price cannot be negative.'),
      z.lte(1_000_000, 'The device price is at most $1,000,000.'),
      z.refine(twoDecimals, 'At most two decimals.'),
    ),
  plan_name: requiredText('plan name'),
  data_gb: z._default(dataGb, null),
  minutes: z._default(minutes, null),
  effective_from: day('first day'),
  effective_to: z._default(z.nullable(day('last day')), null),
  note: optionalText('note', 500),
});

export const planPriceImportEndpoints = importEndpoints(planPriceImport);
