import * as z from 'zod/mini';
import { labelPrintable, printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { SIM_REQUEST_ACCESS, SIM_REQUEST_APPROVE_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { optionalText, requiredText, wholeNumber } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { SIM_REQUEST_STATUSES, SIM_STATUSES } from './sim-lifecycle.js';

/**
 * Agents' SIM requests as the coordinator works them (DOMAIN.md 4.6 `/sim/request`, 5.4 step 3):
 * the queue with each agent's on-hand, cap and activation rate; approve within the cap (a low
 * activation rate needs a manager), reject with a reason, allocate by scanning packs or ICCIDs,
 * pack, print the packing slip and label, ship or hand over.
 */

export const SIM_REQUEST_DELIVERIES = ['ship', 'pickup'] as const;
export type SimRequestDelivery = (typeof SIM_REQUEST_DELIVERIES)[number];

export const simRequestRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  agent_id: z.int(),
  agent_name: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  qty_requested: z.int(),
  qty_approved: z.nullable(z.int()),
  /** SIMs allocated to it or on their way (allocated or in transit). */
  qty_allocated: z.int(),
  /** The agent's SIMs on hand now (with the agent or assigned). */
  agent_on_hand: z.int(),
  agent_sim_cap: z.nullable(z.int()),
  /** SIMs the agent was credited with activating, and SIMs the agent received. */
  agent_activated: z.int(),
  agent_received: z.int(),
  /** activated / received; null before the agent received any. */
  agent_activation_rate: z.nullable(z.number()),
  delivery: z.enum(SIM_REQUEST_DELIVERIES),
  ship_to: z.nullable(z.string()),
  note: z.nullable(z.string()),
  status: z.enum(SIM_REQUEST_STATUSES),
  reason: z.nullable(z.string()),
  rate_override: z.boolean(),
  tracking_number: z.nullable(z.string()),
  qty_received: z.nullable(z.int()),
  qty_missing: z.nullable(z.int()),
  created_at: z.string(),
  approved_at: z.nullable(z.string()),
  shipped_at: z.nullable(z.string()),
  received_at: z.nullable(z.string()),
});
export type SimRequestRow = z.infer<typeof simRequestRowSchema>;

export const simRequestList = defineList({
  name: 'sim-requests',
  singular: 'SIM request',
  plural: 'SIM requests',
  tag: 'SIM requests',
  view: SIM_REQUEST_ACCESS,
  item: simRequestRowSchema,
  filters: {
    status: enumFilter(SIM_REQUEST_STATUSES),
    agent_id: idFilter,
    client_carrier_id: idFilter,
  },
  sorts: ['created_at'],
  defaultSort: 'created_at',
  defaultOrder: 'asc',
  exportColumns: [
    { key: 'number', header: 'Request', example: 'SR-000001' },
    { key: 'agent_name', header: 'Agent', example: 'Dana Ruiz' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'qty_requested', header: 'Requested', example: '50' },
    { key: 'qty_approved', header: 'Approved', example: '40' },
    { key: 'qty_allocated', header: 'Allocated', example: '40' },
    { key: 'agent_on_hand', header: 'Agent on hand', example: '10' },
    { key: 'agent_sim_cap', header: 'Agent cap', example: '50' },
    { key: 'agent_activation_rate', header: 'Activation rate', example: '0.35' },
    { key: 'delivery', header: 'Delivery', example: 'ship' },
    { key: 'status', header: 'Status', example: 'submitted' },
    { key: 'tracking_number', header: 'Tracking', example: '' },
    { key: 'qty_missing', header: 'Missing', example: '' },
    { key: 'created_at', header: 'Requested at', example: '' },
  ],
});
export const simRequestListEndpoints = listEndpoints(simRequestList);

/** A SIM allocated to a request (or on its way, received, or missing at the agent's receipt). */
export const simRequestSimSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  pack_code: z.nullable(z.string()),
  status: z.enum(SIM_STATUSES),
});
export type SimRequestSim = z.infer<typeof simRequestSimSchema>;

export const simRequestEventSchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_name: z.string(),
  type: z.string(),
  from_status: z.nullable(z.string()),
  to_status: z.nullable(z.string()),
  data: z.nullable(z.record(z.string(), z.unknown())),
});
export type SimRequestEvent = z.infer<typeof simRequestEventSchema>;

export const simRequestDetailSchema = z.object({
  ...simRequestRowSchema.shape,
  /** SIMs the agent holds or has been approved elsewhere, besides this request. */
  agent_committed: z.int(),
  /** The rate under which approving needs a manager, once the agent received the minimum. */
  low_activation_rate: z.number(),
  /** True when approving this request needs sim-requests.approve-low-rate. */
  low_rate: z.boolean(),
  approved_by_name: z.nullable(z.string()),
  sims: z.array(simRequestSimSchema),
  /** The ICCIDs the agent reported missing at receipt. */
  missing_iccids: z.array(z.string()),
  events: z.array(simRequestEventSchema),
});
export type SimRequestDetail = z.infer<typeof simRequestDetailSchema>;

export const approveSimRequestSchema = z.object({
  qty_approved: wholeNumber('approved quantity', 1, 100_000),
});
export const rejectSimRequestSchema = z.object({ reason: requiredText('reason', 500) });
export const shipSimRequestSchema = z.object({
  tracking_number: optionalText('tracking number', 60),
});

/** What a scan at the allocation station did (DOMAIN.md Appendix B). */
export const SIM_ALLOCATION_RESULTS = [
  'allocated',
  'already_allocated',
  'other_request',
  'not_in_stock',
  'wrong_carrier',
  'over_approved',
  'unknown',
  'invalid',
] as const;
export type SimAllocationResult = (typeof SIM_ALLOCATION_RESULTS)[number];

export const SIM_ALLOCATION_TONES: Record<
  SimAllocationResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  allocated: 'success',
  already_allocated: 'info',
  other_request: 'error',
  not_in_stock: 'error',
  wrong_carrier: 'error',
  over_approved: 'error',
  unknown: 'error',
  invalid: 'error',
};

/** A scanned code: an ICCID or a pack label (SP-…). */
export const simScanCodeSchema = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'Scan an ICCID or a pack label.'),
    z.maxLength(40, 'A code is at most 40 characters.'),
  );

export const simAllocationScanSchema = z.object({
  code: simScanCodeSchema,
  station: optionalText('station name', 60),
});

export const simAllocationAnswerSchema = z.object({
  code: z.string(),
  result: z.enum(SIM_ALLOCATION_RESULTS),
  message: z.string(),
  /** The SIMs this scan allocated (a pack's several). */
  added: z.array(simRequestSimSchema),
  qty_allocated: z.int(),
  qty_approved: z.int(),
});
export type SimAllocationAnswer = z.infer<typeof simAllocationAnswerSchema>;

export const simUnallocateSchema = z.object({ iccid: simScanCodeSchema });

const requestAction = <B extends z.ZodMiniType>(
  path: string,
  summary: string,
  guard: typeof SIM_REQUEST_ACCESS | typeof SIM_REQUEST_APPROVE_ACCESS,
  body: B,
) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: 'SIM requests',
    guard,
    params: idParamsSchema,
    body,
    response: simRequestDetailSchema,
  });

export const simRequestEndpoints = {
  detail: defineEndpoint({
    method: 'GET',
    path: '/sim-requests/:id/detail',
    summary: "One SIM request with the agent's figures, its SIMs and its timeline",
    tag: 'SIM requests',
    guard: SIM_REQUEST_ACCESS,
    params: idParamsSchema,
    response: simRequestDetailSchema,
  }),
  approve: requestAction(
    '/sim-requests/:id/approval',
    "Approve a request, the quantity perhaps reduced: never past the agent's cap; a low activation rate needs a manager",
    SIM_REQUEST_APPROVE_ACCESS,
    approveSimRequestSchema,
  ),
  reject: requestAction(
    '/sim-requests/:id/rejection',
    'Reject a request with the reason',
    SIM_REQUEST_APPROVE_ACCESS,
    rejectSimRequestSchema,
  ),
  scan: defineEndpoint({
    method: 'POST',
    path: '/sim-requests/:id/scans',
    summary: 'Allocate a scanned pack (its SIMs in stock) or ICCID to an approved request',
    tag: 'SIM requests',
    guard: SIM_REQUEST_ACCESS,
    params: idParamsSchema,
    body: simAllocationScanSchema,
    response: simAllocationAnswerSchema,
  }),
  unallocate: requestAction(
    '/sim-requests/:id/unallocations',
    'Take an allocated SIM off the request: it goes back to stock',
    SIM_REQUEST_ACCESS,
    simUnallocateSchema,
  ),
  pack: requestAction(
    '/sim-requests/:id/pack',
    'Mark a request packed once its allocated SIMs make the approved quantity',
    SIM_REQUEST_ACCESS,
    z.object({}),
  ),
  unpack: requestAction(
    '/sim-requests/:id/unpack',
    'Open a packed request again to change what is allocated',
    SIM_REQUEST_ACCESS,
    z.object({}),
  ),
  ship: requestAction(
    '/sim-requests/:id/shipment',
    'Ship a packed request (tracking number optional) or hand it over at pickup: its SIMs go in transit',
    SIM_REQUEST_ACCESS,
    shipSimRequestSchema,
  ),
};

export const simRequestPackingSlipEndpoint = printEndpoint({
  path: '/sim-requests/:id/packing-slip',
  summary:
    "A download link for the request's packing slip (PDF): its ICCIDs and packs, the agent and ship-to",
  tag: 'SIM requests',
  guard: SIM_REQUEST_ACCESS,
  params: idParamsSchema,
  printable: sheetPrintable('sim-request-packing-slip'),
});

export const simRequestLabelEndpoint = printEndpoint({
  path: '/sim-requests/:id/label',
  summary: "A download link for the request's shipping label (4x6), as PDF or ZPL",
  tag: 'SIM requests',
  guard: SIM_REQUEST_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('sim-request-label', ['4x6']),
});
