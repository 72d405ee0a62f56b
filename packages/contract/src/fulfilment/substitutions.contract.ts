import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SUBSTITUTE_ACCESS, SUBSTITUTE_APPROVE_ACCESS } from '../guards.js';
import {
  entityId,
  optionalText,
  requiredText,
  stampShape,
  wordList,
} from '../master-data/fields.js';
import { ORDER_PROGRAMS } from '../order/orders.contract.js';
import {
  booleanFilter,
  defineResource,
  enumFilter,
  idFilter,
  resourceEndpoints,
} from '../resource.js';

/**
 * Substitutions (DOMAIN.md 4.14 `/fulfill/substitute`, 5.2 step 4a): orders on hold for want of
 * stock ship another device variant that the client carrier's rule for the programme allows
 * (same OS, at least the storage, at least the grade, only the listed variants when any are). A
 * substitute is proposed and approved by a manager, or applied at once by one, to a batch of
 * orders; the order line takes the new variant and keeps the one ordered (`substituted_from`),
 * and the order is ready again. The customer's price (the plan's co-pay) never rises.
 */

// --- The rules: one per client carrier and programme ---

export const substitutionRuleSchema = z.object({
  id: z.int(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  program: z.enum(ORDER_PROGRAMS),
  same_os: z.boolean(),
  storage_at_least: z.boolean(),
  grade_at_least: z.boolean(),
  /** Only these variants may be shipped instead; any the other conditions allow when empty. */
  allowed_skus: z.array(z.string()),
  notify_client: z.boolean(),
  note: z.nullable(z.string()),
  ...stampShape,
});
export type SubstitutionRule = z.infer<typeof substitutionRuleSchema>;

const ruleFields = {
  client_carrier_id: entityId('client carrier'),
  program: z.enum(ORDER_PROGRAMS, 'Choose the programme.'),
  same_os: z.boolean(),
  storage_at_least: z.boolean(),
  grade_at_least: z.boolean(),
  allowed_skus: wordList('SKU', 100, 64),
  notify_client: z.boolean(),
  note: optionalText('note'),
  active: z.boolean(),
};

export const createSubstitutionRuleSchema = z.object({
  ...ruleFields,
  same_os: z._default(ruleFields.same_os, true),
  storage_at_least: z._default(ruleFields.storage_at_least, true),
  grade_at_least: z._default(ruleFields.grade_at_least, true),
  allowed_skus: z._default(ruleFields.allowed_skus, []),
  notify_client: z._default(ruleFields.notify_client, false),
  active: z._default(ruleFields.active, true),
});
export type CreateSubstitutionRuleInput = z.input<typeof createSubstitutionRuleSchema>;
export const updateSubstitutionRuleSchema = z.partial(z.object(ruleFields));

export const substitutionRuleResource = defineResource({
  name: 'substitution-rules',
  singular: 'substitution rule',
  plural: 'Substitution rules',
  tag: 'Fulfilment',
  view: SUBSTITUTE_ACCESS,
  manage: SUBSTITUTE_APPROVE_ACCESS,
  item: substitutionRuleSchema,
  create: createSubstitutionRuleSchema,
  update: updateSubstitutionRuleSchema,
  filters: {
    client_carrier_id: idFilter,
    program: enumFilter(ORDER_PROGRAMS),
    active: booleanFilter,
  },
  sorts: ['client_carrier', 'updated_at'],
  defaultSort: 'client_carrier',
  importColumns: [
    { key: 'client_carrier_id', header: 'Client carrier ID', required: true, example: '12' },
    { key: 'program', header: 'Programme', required: true, example: 'lifeline' },
    { key: 'same_os', header: 'Same OS', kind: 'boolean', example: 'yes' },
    { key: 'storage_at_least', header: 'Storage at least', kind: 'boolean', example: 'yes' },
    { key: 'grade_at_least', header: 'Grade at least', kind: 'boolean', example: 'yes' },
    {
      key: 'allowed_skus',
      header: 'Allowed SKUs',
      kind: 'list',
      example: 'MOTO-G-BLK-A|MOTO-G-BLU-A',
      hint: 'Only these variants, separated by |; empty for any the rule allows',
    },
    { key: 'notify_client', header: 'Notify client', kind: 'boolean', example: 'no' },
    { key: 'note', header: 'Note', example: '' },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'client_carrier_id', header: 'Client carrier ID', example: '12' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'program', header: 'Programme', example: 'lifeline' },
    { key: 'same_os', header: 'Same OS', example: 'yes' },
    { key: 'storage_at_least', header: 'Storage at least', example: 'yes' },
    { key: 'grade_at_least', header: 'Grade at least', example: 'yes' },
    { key: 'allowed_skus', header: 'Allowed SKUs', example: 'MOTO-G-BLK-A' },
    { key: 'notify_client', header: 'Notify client', example: 'no' },
    { key: 'note', header: 'Note', example: '' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});
export const substitutionRuleEndpoints = resourceEndpoints(substitutionRuleResource);

// --- The no-stock backlog with its candidates ---

/** At most this many order lines on the page, oldest order first. */
export const SUBSTITUTION_BACKLOG_LIMIT = 100;

export const substituteCandidateSchema = z.object({
  variant_id: z.int(),
  sku: z.string(),
  description: z.string(),
  /** In stock, in a located box, not held. */
  available: z.int(),
  /** What the customer would pay for a unit (plan co-pay, else the channel's listing); null: none. */
  price_cents: z.nullable(z.int()),
  /** The price is known and no more than the line's: the substitute may be chosen. */
  price_ok: z.boolean(),
});
export type SubstituteCandidate = z.infer<typeof substituteCandidateSchema>;

export const substitutionBacklogLineSchema = z.object({
  order_id: z.int(),
  number: z.string(),
  client_carrier: z.nullable(z.string()),
  program: z.nullable(z.enum(ORDER_PROGRAMS)),
  place: z.string(),
  created_at: z.string(),
  hold_note: z.nullable(z.string()),
  line_id: z.int(),
  variant_id: z.int(),
  sku: z.string(),
  description: z.string(),
  qty: z.int(),
  unit_price_cents: z.int(),
  /** The ordered variant's stock. */
  available: z.int(),
  /** The client carrier's active rule for the programme; null when there is none. */
  rule_id: z.nullable(z.int()),
  /** The variants the rule allows that have stock, most stock first (at most 10). */
  candidates: z.array(substituteCandidateSchema),
});
export type SubstitutionBacklogLine = z.infer<typeof substitutionBacklogLineSchema>;

export const substitutionBacklogQuerySchema = z.object({
  client_carrier_id: idFilter,
  program: enumFilter(ORDER_PROGRAMS),
});

// --- Proposals and the client's notice ---

export const SUBSTITUTION_STATUSES = ['proposed', 'applied', 'rejected'] as const;

export const substitutionSchema = z.object({
  id: z.int(),
  order_id: z.int(),
  number: z.string(),
  client_carrier: z.nullable(z.string()),
  program: z.nullable(z.enum(ORDER_PROGRAMS)),
  status: z.enum(SUBSTITUTION_STATUSES),
  from_sku: z.string(),
  to_sku: z.string(),
  to_description: z.string(),
  qty: z.int(),
  ordered_price_cents: z.int(),
  substitute_price_cents: z.int(),
  notify_client: z.boolean(),
  note: z.nullable(z.string()),
  proposed_at: z.string(),
  proposed_by: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
  decided_by: z.nullable(z.string()),
});
export type Substitution = z.infer<typeof substitutionSchema>;

/** At most this many rows in each work list (proposals, notices). */
export const SUBSTITUTION_LIST_LIMIT = 200;

/** A substitute for the lines of one variant, on a batch of orders. */
export const substituteBatchSchema = z.object({
  from_variant_id: entityId('variant ordered'),
  to_variant_id: entityId('substitute'),
  order_ids: z
    .array(entityId('order'))
    .check(
      z.minLength(1, 'Choose at least one order.'),
      z.maxLength(SUBSTITUTION_BACKLOG_LIMIT, `At most ${SUBSTITUTION_BACKLOG_LIMIT} orders.`),
    ),
  note: optionalText('note'),
});
export type SubstituteBatchInput = z.input<typeof substituteBatchSchema>;

const substitutionIds = z
  .array(entityId('substitution'))
  .check(
    z.minLength(1, 'Choose at least one substitution.'),
    z.maxLength(SUBSTITUTION_LIST_LIMIT, `At most ${SUBSTITUTION_LIST_LIMIT} at once.`),
  );

export const decideSubstitutionsSchema = z.object({ substitution_ids: substitutionIds });
export type DecideSubstitutionsInput = z.input<typeof decideSubstitutionsSchema>;

export const rejectSubstitutionsSchema = z.object({
  substitution_ids: substitutionIds,
  reason: requiredText('reason', 500),
});
export type RejectSubstitutionsInput = z.input<typeof rejectSubstitutionsSchema>;

const batchOrderSchema = z.object({ id: z.int(), number: z.string() });

/** What a batch did: the orders it moved, and those it passed over with why. */
export const substitutionRunSchema = z.object({
  done: z.array(batchOrderSchema),
  skipped: z.array(z.object({ ...batchOrderSchema.shape, why: z.string() })),
});
export type SubstitutionRun = z.infer<typeof substitutionRunSchema>;

const post = <B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: typeof SUBSTITUTE_ACCESS | typeof SUBSTITUTE_APPROVE_ACCESS,
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'Fulfilment',
    guard,
    body,
    response: substitutionRunSchema,
  });

export const substitutionEndpoints = {
  backlog: defineEndpoint({
    method: 'GET',
    path: '/substitutions/backlog',
    summary: `Lines of orders on hold for no stock (oldest first, at most ${SUBSTITUTION_BACKLOG_LIMIT}) with the substitutes their rule allows and the stock of each`,
    tag: 'Fulfilment',
    guard: SUBSTITUTE_ACCESS,
    query: substitutionBacklogQuerySchema,
    response: z.array(substitutionBacklogLineSchema),
  }),
  propose: post(
    '/substitutions/proposals',
    'Propose a substitute for the lines of a variant on a batch of no-stock orders (a manager approves)',
    SUBSTITUTE_ACCESS,
    substituteBatchSchema,
  ),
  apply: post(
    '/substitutions/applications',
    'Apply a substitute at once to a batch of no-stock orders: ready with the new variant (a manager)',
    SUBSTITUTE_APPROVE_ACCESS,
    substituteBatchSchema,
  ),
  proposals: defineEndpoint({
    method: 'GET',
    path: '/substitutions/proposals',
    summary: `Substitutions awaiting a manager, oldest first (at most ${SUBSTITUTION_LIST_LIMIT})`,
    tag: 'Fulfilment',
    guard: SUBSTITUTE_ACCESS,
    response: z.array(substitutionSchema),
  }),
  approve: post(
    '/substitutions/approvals',
    'Approve proposed substitutions: each order is ready with its new variant',
    SUBSTITUTE_APPROVE_ACCESS,
    decideSubstitutionsSchema,
  ),
  reject: post(
    '/substitutions/rejections',
    'Reject proposed substitutions: the orders go back to the backlog',
    SUBSTITUTE_APPROVE_ACCESS,
    rejectSubstitutionsSchema,
  ),
  toNotify: defineEndpoint({
    method: 'GET',
    path: '/substitutions/notices',
    summary: `Applied substitutions whose client carrier wants to hear of them and has not yet (at most ${SUBSTITUTION_LIST_LIMIT})`,
    tag: 'Fulfilment',
    guard: SUBSTITUTE_ACCESS,
    response: z.array(substitutionSchema),
  }),
  notified: post(
    '/substitutions/notices',
    'Record that the client carrier was told of these substitutions',
    SUBSTITUTE_ACCESS,
    decideSubstitutionsSchema,
  ),
};
