import * as z from 'zod/mini';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { SIM_RETURN_ACCESS } from '../guards.js';
import { iccidSchema } from '../identifiers.js';
import { defineLifecycle } from '../lifecycle.js';
import { idNumber, idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { entityId, optionalText } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { SIM_STATUSES } from './sim-lifecycle.js';

/**
 * SIM returns (DOMAIN.md 4.6 `/sim/return`, 5.4 step 7): SIMs coming back from an agent, an RMA
 * or a customer. A return lists the ICCIDs expected (an agent's selection) and is received by
 * scanning at a station; each SIM received is `returned` and then disposed of one by one or all
 * at once (restocked, destroyed or sent back to the carrier as defective). A SIM ever detected
 * active is never restocked.
 */

export const SIM_RETURN_SOURCES = ['agent', 'rma', 'customer'] as const;
export type SimReturnSource = (typeof SIM_RETURN_SOURCES)[number];

export const SIM_RETURN_REASONS = ['unused', 'defective', 'damaged'] as const;
export type SimReturnReason = (typeof SIM_RETURN_REASONS)[number];

export const SIM_RETURN_STATUSES = ['open', 'receiving', 'closed', 'cancelled'] as const;
export type SimReturnStatus = (typeof SIM_RETURN_STATUSES)[number];

/** Why a scanned ICCID was set aside rather than received: it moved nothing. */
export const SIM_RETURN_FLAGS = ['not_agents', 'unknown', 'not_returnable'] as const;
export type SimReturnFlag = (typeof SIM_RETURN_FLAGS)[number];

export const SIM_RETURN_FLAG_TEXT: Record<SimReturnFlag, string> = {
  not_agents: "Not the agent's",
  unknown: 'Unknown ICCID',
  not_returnable: 'Not returnable',
};

export const SIM_DISPOSITIONS = ['restock', 'destroy', 'defective_to_carrier'] as const;
export type SimDisposition = (typeof SIM_DISPOSITIONS)[number];

export const SIM_DISPOSITION_TEXT: Record<SimDisposition, string> = {
  restock: 'Restocked',
  destroy: 'Destroyed',
  defective_to_carrier: 'Defective to carrier',
};

/** Dispositions of a SIM that was ever active: never back to stock. */
export const EVER_ACTIVE_DISPOSITIONS = ['destroy', 'defective_to_carrier'] as const;

/** The most ICCIDs a return lists when it is created. */
export const MAX_SIM_RETURN_EXPECTED = 500;

/**
 * A return's own states: open until its first scan, receiving while it is scanned and disposed
 * of, then closed; an open return with nothing scanned may be cancelled. Cancelling names no
 * permission: the endpoint's guard decides (staff, or the agent whose return it is).
 */
export const simReturnLifecycle = defineLifecycle({
  name: 'SIM return',
  states: SIM_RETURN_STATUSES,
  terminal: ['closed', 'cancelled'],
  actions: {
    startReceiving: {
      from: ['open'],
      to: 'receiving',
      label: 'be received',
      event: 'receiving',
      permission: SIM_RETURN_ACCESS,
    },
    close: {
      from: ['receiving'],
      to: 'closed',
      label: 'be closed',
      event: 'closed',
      permission: SIM_RETURN_ACCESS,
    },
    cancel: {
      from: ['open'],
      to: 'cancelled',
      label: 'be cancelled',
      event: 'cancelled',
      reason: 'optional',
    },
  },
});
export type SimReturnAction = keyof typeof simReturnLifecycle.actions & string;

export const simReturnSchema = z.object({
  id: z.int(),
  number: z.string(),
  source: z.enum(SIM_RETURN_SOURCES),
  agent_id: z.nullable(z.int()),
  agent: z.nullable(z.string()),
  reason: z.enum(SIM_RETURN_REASONS),
  note: z.nullable(z.string()),
  status: z.enum(SIM_RETURN_STATUSES),
  /** ICCIDs listed when the return was made. */
  qty_expected: z.int(),
  /** SIMs received as returned by scanning. */
  qty_received: z.int(),
  /** ICCIDs scanned and set aside (not the agent's, unknown, not returnable). */
  qty_flagged: z.int(),
  /** SIMs received that have their disposition. */
  qty_disposed: z.int(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
});
export type SimReturn = z.infer<typeof simReturnSchema>;

/** One ICCID of a return: expected, received, flagged, disposed of. */
export const simReturnLineSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  sim_id: z.nullable(z.int()),
  expected: z.boolean(),
  received_at: z.nullable(z.string()),
  received_by_name: z.nullable(z.string()),
  station: z.nullable(z.string()),
  flag: z.nullable(z.enum(SIM_RETURN_FLAGS)),
  /** The SIM's state now (null for an unknown ICCID). */
  sim_status: z.nullable(z.enum(SIM_STATUSES)),
  carrier: z.nullable(z.string()),
  /** Ever detected active: never restocked. */
  ever_active: z.boolean(),
  activated_at: z.nullable(z.string()),
  disposition: z.nullable(z.enum(SIM_DISPOSITIONS)),
  disposed_at: z.nullable(z.string()),
});
export type SimReturnLine = z.infer<typeof simReturnLineSchema>;

/** A return with its lines: received ones newest first, then those still expected. */
export const simReturnDetailSchema = z.object({
  return: simReturnSchema,
  lines: z.array(simReturnLineSchema),
});
export type SimReturnDetail = z.infer<typeof simReturnDetailSchema>;

export const simReturnList = defineList({
  name: 'sim-returns',
  singular: 'SIM return',
  plural: 'SIM returns',
  tag: 'SIM',
  view: SIM_RETURN_ACCESS,
  item: simReturnSchema,
  filters: {
    status: enumFilter(SIM_RETURN_STATUSES),
    source: enumFilter(SIM_RETURN_SOURCES),
    reason: enumFilter(SIM_RETURN_REASONS),
    agent_id: idFilter,
  },
  sorts: ['created_at'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'number', header: 'Return', example: 'SRT-000001' },
    { key: 'source', header: 'Source', example: 'agent' },
    { key: 'agent', header: 'Agent', example: 'Dana Ruiz' },
    { key: 'reason', header: 'Reason', example: 'unused' },
    { key: 'status', header: 'Status', example: 'receiving' },
    { key: 'qty_expected', header: 'Expected', example: '6' },
    { key: 'qty_received', header: 'Received', example: '6' },
    { key: 'qty_flagged', header: 'Flagged', example: '0' },
    { key: 'qty_disposed', header: 'Disposed', example: '5' },
    { key: 'created_at', header: 'Created', example: '' },
    { key: 'closed_at', header: 'Closed', example: '' },
  ],
});

/** ICCIDs listed when a return is made: each with its check digit, at most 500. */
export const expectedIccidsSchema = z
  .array(iccidSchema)
  .check(
    z.maxLength(
      MAX_SIM_RETURN_EXPECTED,
      `List at most ${MAX_SIM_RETURN_EXPECTED} ICCIDs in one return.`,
    ),
  );

export const createSimReturnSchema = z.object({
  source: z.enum(SIM_RETURN_SOURCES, 'Choose agent, RMA or customer.'),
  /** Required for an agent's return; an RMA or customer return may name the agent too. */
  agent_id: z.optional(z.nullable(entityId('agent'))),
  reason: z.enum(SIM_RETURN_REASONS, 'Choose unused, defective or damaged.'),
  note: optionalText('note', 500),
  iccids: z._default(expectedIccidsSchema, []),
});
export type CreateSimReturnInput = z.input<typeof createSimReturnSchema>;

/** What the station answers for a scan: received, already received, or set aside and why. */
export const SIM_RETURN_SCAN_RESULTS = [
  'returned',
  'already_received',
  'not_agents',
  'unknown',
  'not_returnable',
] as const;
export type SimReturnScanResult = (typeof SIM_RETURN_SCAN_RESULTS)[number];

export const SIM_RETURN_SCAN_TONES: Record<
  SimReturnScanResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  returned: 'success',
  already_received: 'info',
  not_agents: 'error',
  unknown: 'error',
  not_returnable: 'error',
};

export const simReturnScanBodySchema = z.object({
  code: iccidSchema,
  /** The scan station (a name the browser keeps). */
  station: z.optional(z.string().check(z.maxLength(60, 'The station name is too long.'))),
});
export type SimReturnScanInput = z.input<typeof simReturnScanBodySchema>;

export const simReturnScanAnswerSchema = z.object({
  result: z.enum(SIM_RETURN_SCAN_RESULTS),
  message: z.string(),
  code: z.string(),
  /** The ICCID's line as it is after the scan. */
  line: simReturnLineSchema,
  /** The return's counts and status after the scan. */
  return: simReturnSchema,
});
export type SimReturnScanAnswer = z.infer<typeof simReturnScanAnswerSchema>;

export const simDispositionBodySchema = z.object({
  disposition: z.enum(SIM_DISPOSITIONS, 'Choose restock, destroy or defective to carrier.'),
  /** Why the SIM is defective (required for defective to carrier), or destroyed. */
  reason: optionalText('reason', 500),
});
export type SimDispositionInput = z.input<typeof simDispositionBodySchema>;

/**
 * Dispositions for every received SIM of a return still without one: one for those never
 * detected active ("unused"), one for those ever active (never restock); left out, they wait.
 */
export const simBulkDispositionBodySchema = z.object({
  never_active: z.optional(z.nullable(z.enum(SIM_DISPOSITIONS, 'Choose a disposition.'))),
  ever_active: z.optional(
    z.nullable(
      z.enum(
        EVER_ACTIVE_DISPOSITIONS,
        'A SIM ever detected active is never restocked: destroy it or send it to the carrier.',
      ),
    ),
  ),
  reason: optionalText('reason', 500),
});
export type SimBulkDispositionInput = z.input<typeof simBulkDispositionBodySchema>;

const lineParamsSchema = z.object({ id: idNumber, line_id: idNumber });

export const simReturnListEndpoints = listEndpoints(simReturnList);

export const simReturnEndpoints = {
  detail: defineEndpoint({
    method: 'GET',
    path: '/sim-returns/:id/detail',
    summary: 'A SIM return with its lines: expected, received, flagged and disposed of',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    response: simReturnDetailSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/sim-returns',
    summary:
      "Create a SIM return for an agent (listing the agent's SIMs expected back), an RMA or a customer",
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    body: createSimReturnSchema,
    response: simReturnDetailSchema,
    successStatus: 201,
  }),
  agentOptions: defineEndpoint({
    method: 'GET',
    path: '/sim-returns/agent-options',
    summary: 'Up to 20 active agents whose SIMs may be returned, for a picker',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/sim-returns/:id/scans',
    summary:
      "Scan an ICCID into a return: the agent's SIM is returned, a repeat answers already received, others are flagged",
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    body: simReturnScanBodySchema,
    response: simReturnScanAnswerSchema,
  }),
  dispose: defineEndpoint({
    method: 'POST',
    path: '/sim-returns/:id/lines/:line_id/disposition',
    summary:
      'Restock, destroy or send a received SIM to the carrier as defective; a SIM ever active is never restocked',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: lineParamsSchema,
    body: simDispositionBodySchema,
    response: simReturnDetailSchema,
  }),
  disposeAll: defineEndpoint({
    method: 'POST',
    path: '/sim-returns/:id/dispositions',
    summary:
      'Dispose of every received SIM still waiting: one disposition for those never active, one for those ever active',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    body: simBulkDispositionBodySchema,
    response: simReturnDetailSchema,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/sim-returns/:id/close',
    summary: 'Close a return once every SIM received has its disposition',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    response: simReturnDetailSchema,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/sim-returns/:id/cancel',
    summary: 'Cancel a return nothing was scanned into',
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    body: z.object({ reason: optionalText('reason', 500) }),
    response: simReturnDetailSchema,
  }),
  label: printEndpoint({
    path: '/sim-returns/:id/label',
    summary: "The return's label: its number as a barcode, the agent and the SIMs expected",
    tag: 'SIM',
    guard: SIM_RETURN_ACCESS,
    params: idParamsSchema,
    printable: labelPrintable('sim-return-label', ['4x6']),
  }),
};
