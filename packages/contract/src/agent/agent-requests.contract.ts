import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { AGENT_SIM_RECEIVE_ACCESS, AGENT_SIM_REQUEST_ACCESS } from '../guards.js';
import { idParamsSchema, pickerOptionSchema } from '../list.js';
import { entityId, optionalText, wholeNumber } from '../master-data/fields.js';
import { SIM_REQUEST_STATUSES } from '../sim/sim-lifecycle.js';
import {
  SIM_REQUEST_DELIVERIES,
  simRequestSimSchema,
  simScanCodeSchema,
} from '../sim/sim-requests.contract.js';

/**
 * The agent portal's "Request SIMs" and "Receive shipment" (DOMAIN.md 7, 5.4 steps 2 and 4): an
 * agent asks for SIMs of a carrier within the cap (one open request per carrier), cancels one not
 * yet approved, and receives a shipped one by scanning its pack labels or ICCIDs; what did not
 * arrive is reported to the coordinator. Every endpoint reads and writes the signed-in agent's own
 * requests only: another agent's is not found (404).
 */

export const agentSimRequestSchema = z.object({
  id: z.int(),
  number: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  qty_requested: z.int(),
  qty_approved: z.nullable(z.int()),
  delivery: z.enum(SIM_REQUEST_DELIVERIES),
  ship_to: z.nullable(z.string()),
  note: z.nullable(z.string()),
  status: z.enum(SIM_REQUEST_STATUSES),
  /** Why it was rejected or cancelled. */
  reason: z.nullable(z.string()),
  tracking_number: z.nullable(z.string()),
  qty_received: z.nullable(z.int()),
  qty_missing: z.nullable(z.int()),
  created_at: z.string(),
  shipped_at: z.nullable(z.string()),
  received_at: z.nullable(z.string()),
});
export type AgentSimRequest = z.infer<typeof agentSimRequestSchema>;

/** The agent's figures against the cap, the carriers to ask for, and the agent's requests. */
export const agentSimRequestOverviewSchema = z.object({
  /** Null when no cap is set: the agent cannot request until a coordinator sets one. */
  sim_cap: z.nullable(z.int()),
  /** SIMs held now (with the agent or assigned). */
  on_hand: z.int(),
  /** SIMs asked for, approved or on their way in open requests. */
  committed: z.int(),
  /** What one more request may ask for at most: cap − on hand − committed. */
  available: z.int(),
  carriers: z.array(pickerOptionSchema),
  /** The agent's requests, newest first (the last 100). */
  requests: z.array(agentSimRequestSchema),
});
export type AgentSimRequestOverview = z.infer<typeof agentSimRequestOverviewSchema>;

export const createAgentSimRequestSchema = z.object({
  client_carrier_id: entityId('carrier'),
  qty: wholeNumber('quantity', 1, 10_000),
  delivery: z.enum(SIM_REQUEST_DELIVERIES, 'Choose ship or pickup.'),
  /** Where to ship: required when shipped; a pickup may carry a note instead. */
  ship_to: optionalText('ship-to address', 500),
  note: optionalText('note', 500),
});
export type CreateAgentSimRequestInput = z.input<typeof createAgentSimRequestSchema>;

export const cancelAgentSimRequestSchema = z.object({ reason: optionalText('reason', 500) });

/** A request being received: its SIMs with where each is now. */
export const agentSimRequestDetailSchema = z.object({
  ...agentSimRequestSchema.shape,
  /** SIMs shipped with it. */
  qty_shipped: z.int(),
  /** Of those, received by the agent so far. */
  qty_scanned: z.int(),
  sims: z.array(simRequestSimSchema),
});
export type AgentSimRequestDetail = z.infer<typeof agentSimRequestDetailSchema>;

/** What a scan at the agent's receipt did. */
export const AGENT_RECEIVE_RESULTS = [
  'received',
  'already_received',
  'other_request',
  'not_yours',
  'unknown',
  'invalid',
] as const;
export type AgentReceiveResult = (typeof AGENT_RECEIVE_RESULTS)[number];

export const AGENT_RECEIVE_TONES: Record<
  AgentReceiveResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  received: 'success',
  already_received: 'info',
  other_request: 'error',
  not_yours: 'error',
  unknown: 'error',
  invalid: 'error',
};

export const agentReceiveScanSchema = z.object({ code: simScanCodeSchema });

export const agentReceiveAnswerSchema = z.object({
  code: z.string(),
  result: z.enum(AGENT_RECEIVE_RESULTS),
  message: z.string(),
  /** The ICCIDs this scan received (a pack's several). */
  received: z.array(z.string()),
  qty_scanned: z.int(),
  qty_shipped: z.int(),
});
export type AgentReceiveAnswer = z.infer<typeof agentReceiveAnswerSchema>;

export const agentRequestEndpoints = {
  overview: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-requests',
    summary: "The agent's cap, on hand and committed SIMs, the carriers, and the agent's requests",
    tag: 'Agent portal',
    guard: AGENT_SIM_REQUEST_ACCESS,
    response: agentSimRequestOverviewSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-requests',
    summary:
      'Request SIMs of a carrier: on hand + open requests + this one within the cap (422); one open request per carrier (409)',
    tag: 'Agent portal',
    guard: AGENT_SIM_REQUEST_ACCESS,
    body: createAgentSimRequestSchema,
    response: agentSimRequestSchema,
    successStatus: 201,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-requests/:id/cancellation',
    summary: "Cancel one of the agent's own requests not yet approved",
    tag: 'Agent portal',
    guard: AGENT_SIM_REQUEST_ACCESS,
    params: idParamsSchema,
    body: cancelAgentSimRequestSchema,
    response: agentSimRequestSchema,
  }),
  incoming: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-shipments',
    summary: "The agent's shipped requests waiting to be received",
    tag: 'Agent portal',
    guard: AGENT_SIM_RECEIVE_ACCESS,
    response: z.array(agentSimRequestSchema),
  }),
  shipment: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-shipments/:id',
    summary: "One of the agent's requests with its SIMs, to receive",
    tag: 'Agent portal',
    guard: AGENT_SIM_RECEIVE_ACCESS,
    params: idParamsSchema,
    response: agentSimRequestDetailSchema,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-shipments/:id/scans',
    summary: 'Receive a scanned pack label or ICCID of a shipped request: its SIMs are the agent’s',
    tag: 'Agent portal',
    guard: AGENT_SIM_RECEIVE_ACCESS,
    params: idParamsSchema,
    body: agentReceiveScanSchema,
    response: agentReceiveAnswerSchema,
  }),
  finish: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-shipments/:id/receipt',
    summary:
      'Finish receiving: the request is received with what arrived; SIMs not scanned are reported missing to the coordinator',
    tag: 'Agent portal',
    guard: AGENT_SIM_RECEIVE_ACCESS,
    params: idParamsSchema,
    body: z.object({}),
    response: agentSimRequestDetailSchema,
  }),
};
