import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { AGENT_PORTAL_ACCESS, AGENT_SIM_ASSIGN_ACCESS } from '../guards.js';
import { iccidSchema, imeiSchema } from '../identifiers.js';
import { optionalPhone, requiredText } from '../master-data/fields.js';
import { usAddressShape } from '../order/us-address.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { booleanFilter, defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { SIM_STATUSES } from '../sim/sim-lifecycle.js';
import {
  AGENT_ADDRESS_CHANGE_STATUSES,
  agentAddressSchema,
} from '../sim/sim-dashboard.contract.js';

/**
 * The agent portal's own pages (DOMAIN.md 7): home, my SIMs, record an activation, history and
 * profile. Every endpoint reads and writes the signed-in agent's own records only: another
 * agent's SIM is not found (404), never shown. No subscriber's personal data is taken: an
 * activation carries the carrier's enrolment reference and, where a phone was handed out, its IMEI.
 */

/** The agent's figures on the home page. */
export const agentHomeSchema = z.object({
  hold_days: z.int(),
  sim_cap: z.nullable(z.int()),
  /** Held now (with the agent or assigned), per client carrier. */
  by_carrier: z.array(
    z.object({
      client_carrier_id: z.int(),
      client_carrier: z.string(),
      with_agent: z.int(),
      assigned: z.int(),
    }),
  ),
  on_hand: z.int(),
  /** Requests not yet shipped (submitted, approved, packed). */
  requests_pending: z.int(),
  /** Shipped to the agent and not yet received: requests and their SIMs. */
  in_transit: z.object({ requests: z.int(), sims: z.int() }),
  /** Activations credited to the agent by the carrier's detection, by business day. */
  activations: z.object({ today: z.int(), last_7_days: z.int(), last_30_days: z.int() }),
  received: z.int(),
  activated: z.int(),
  /** activated / received; null before anything was received. */
  activation_rate: z.nullable(z.number()),
  /** SIMs not yet assigned and held longer than the hold days: to use or return. */
  returns_due: z.int(),
});
export type AgentHome = z.infer<typeof agentHomeSchema>;

export const agentHomeEndpoint = defineEndpoint({
  method: 'GET',
  path: '/agent/home',
  summary: "The agent's SIMs on hand, requests, shipments, activations and returns due",
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  response: agentHomeSchema,
});

/** One of the agent's SIMs. */
export const agentSimSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  status: z.enum(SIM_STATUSES),
  /** Since when the agent has had it in its present state. */
  held_since: z.string(),
  days_held: z.int(),
  /** Not yet assigned and held longer than the hold days. */
  held_over: z.boolean(),
  request_number: z.nullable(z.string()),
  enrolment_ref: z.nullable(z.string()),
  paired_imei: z.nullable(z.string()),
  assigned_at: z.nullable(z.string()),
  activated_at: z.nullable(z.string()),
});
export type AgentSim = z.infer<typeof agentSimSchema>;

export const agentSimList = defineList({
  name: 'agent/sims',
  singular: 'SIM',
  plural: 'My SIMs',
  tag: 'Agent portal',
  view: AGENT_PORTAL_ACCESS,
  item: agentSimSchema,
  filters: {
    status: enumFilter(SIM_STATUSES),
    client_carrier_id: idFilter,
    held_over: booleanFilter,
  },
  // Received: the order the agent's SIMs were written in, newest first.
  sorts: ['received'],
  defaultSort: 'received',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'iccid', header: 'ICCID', example: '8901410123456789012' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'status', header: 'Status', example: 'with_agent' },
    { key: 'days_held', header: 'Days held', example: '12' },
    { key: 'enrolment_ref', header: 'Enrolment reference', example: 'NV-123456' },
  ],
});
export const agentSimListEndpoints = listEndpoints(agentSimList);

/** A step of one of the agent's SIMs, as the agent may see it. */
export const agentSimStepSchema = z.object({
  at: z.string(),
  type: z.string(),
  from_status: z.nullable(z.string()),
  to_status: z.nullable(z.string()),
});

export const agentSimDetailSchema = z.object({
  sim: agentSimSchema,
  steps: z.array(agentSimStepSchema),
});
export type AgentSimDetail = z.infer<typeof agentSimDetailSchema>;

export const agentSimByIccidEndpoint = defineEndpoint({
  method: 'GET',
  path: '/agent/sims/iccid/:iccid',
  summary: "One of the agent's SIMs by its ICCID, with its steps; another agent's is not found",
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  params: z.object({ iccid: iccidSchema }),
  response: agentSimDetailSchema,
});

/** What recording an activation did: recorded now, or recorded before (invariant 7). */
export const AGENT_ACTIVATION_RESULTS = ['recorded', 'already_recorded'] as const;
export type AgentActivationResult = (typeof AGENT_ACTIVATION_RESULTS)[number];

export const AGENT_ACTIVATION_TONES: Record<AgentActivationResult, 'success' | 'info'> = {
  recorded: 'success',
  already_recorded: 'info',
};

/** The carrier's enrolment or application reference: an id, never a person's name. */
export const enrolmentRefSchema = z
  .string("Enter the carrier's enrolment reference.")
  .check(
    z.trim(),
    z.minLength(1, "Enter the carrier's enrolment reference."),
    z.maxLength(60, 'The enrolment reference is at most 60 characters.'),
    z.regex(
      /^[A-Za-z0-9][A-Za-z0-9._/-]*$/,
      'Write the reference as the carrier gives it: letters, digits and . _ / - only.',
    ),
  );

export const recordAgentActivationSchema = z.object({
  iccid: iccidSchema,
  enrolment_ref: enrolmentRefSchema,
  /** The IMEI of the phone handed out with it, if any. */
  imei: z.optional(z.nullable(imeiSchema)),
  /** The day the subscriber was enrolled; today or up to 90 days back. */
  enrolled_on: isoDate('enrolment date'),
});
export type RecordAgentActivationInput = z.input<typeof recordAgentActivationSchema>;

export const agentActivationAnswerSchema = z.object({
  code: z.string(),
  result: z.enum(AGENT_ACTIVATION_RESULTS),
  message: z.string(),
  sim: agentSimSchema,
});
export type AgentActivationAnswer = z.infer<typeof agentActivationAnswerSchema>;

/** The days back an enrolment date may lie. */
export const ENROLMENT_DAYS_BACK = 90;

export const recordAgentActivationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/agent/activations',
  summary: 'Record an activation: one of the agent’s SIMs assigned with the carrier’s reference',
  description:
    'The SIM must be with the agent; it becomes assigned with the enrolment reference and the ' +
    'IMEI given. The same ICCID recorded again answers `already_recorded`. Another agent’s ' +
    'SIM is not found (404). Scans are limited per agent and minute (429).',
  tag: 'Agent portal',
  guard: AGENT_SIM_ASSIGN_ACCESS,
  body: recordAgentActivationSchema,
  response: agentActivationAnswerSchema,
});

export const AGENT_LEDGER_ENTRIES = [
  'received',
  'transfer_in',
  'transfer_out',
  'assigned',
  'activated',
  'returned',
  'lost',
  'defective',
] as const;

/** One entry of the agent's SIM ledger. */
export const agentLedgerEntrySchema = z.object({
  id: z.int(),
  at: z.string(),
  entry: z.enum(AGENT_LEDGER_ENTRIES),
  iccid: z.string(),
  client_carrier: z.string(),
  request_number: z.nullable(z.string()),
  return_number: z.nullable(z.string()),
  /** The other agent of a transfer. */
  counterpart_name: z.nullable(z.string()),
});
export type AgentLedgerEntry = z.infer<typeof agentLedgerEntrySchema>;

export const agentLedgerList = defineList({
  name: 'agent/history',
  singular: 'history entry',
  plural: 'SIM history',
  tag: 'Agent portal',
  view: AGENT_PORTAL_ACCESS,
  item: agentLedgerEntrySchema,
  filters: { entry: enumFilter(AGENT_LEDGER_ENTRIES) },
  sorts: ['at'],
  defaultSort: 'at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'at', header: 'When', example: '2026-11-02T10:00:00Z' },
    { key: 'entry', header: 'What', example: 'received' },
    { key: 'iccid', header: 'ICCID', example: '8901410123456789012' },
    { key: 'request_number', header: 'Request', example: 'SR-000001' },
    { key: 'return_number', header: 'Return', example: '' },
  ],
});
export const agentLedgerListEndpoints = listEndpoints(agentLedgerList);

export const agentProfileSchema = z.object({
  name: z.string(),
  user_name: z.string(),
  phone: z.nullable(z.string()),
  email: z.nullable(z.string()),
  /** The agent's RAD Rep ID with the carrier, and territory: set by the coordinators. */
  rep_id: z.nullable(z.string()),
  territory: z.nullable(z.string()),
  sim_cap: z.nullable(z.int()),
  /** The approved shipping address; null until one is approved. */
  address: z.nullable(agentAddressSchema),
  /** The agent's latest address changes, newest first (the last 5). */
  address_changes: z.array(
    z.object({
      id: z.int(),
      address: agentAddressSchema,
      status: z.enum(AGENT_ADDRESS_CHANGE_STATUSES),
      reason: z.nullable(z.string()),
      requested_at: z.string(),
      decided_at: z.nullable(z.string()),
    }),
  ),
});
export type AgentProfile = z.infer<typeof agentProfileSchema>;

export const agentProfileEndpoint = defineEndpoint({
  method: 'GET',
  path: '/agent/profile',
  summary: "The agent's name, phone, shipping address, Rep ID and territory",
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  response: agentProfileSchema,
});

export const updateAgentProfileSchema = z.object({
  name: requiredText('name', 200),
  phone: optionalPhone,
});
export type UpdateAgentProfileInput = z.input<typeof updateAgentProfileSchema>;

export const updateAgentProfileEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/agent/profile',
  summary: "Change the agent's name and phone",
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  body: updateAgentProfileSchema,
  response: agentProfileSchema,
});

export const agentAddressInputSchema = z.object(usAddressShape);
export type AgentAddressInput = z.input<typeof agentAddressInputSchema>;

export const requestAgentAddressChangeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/agent/profile/address-changes',
  summary: 'Ask for a new shipping address; it waits for a coordinator’s approval',
  description: 'A change still waiting is replaced by the new one (it is withdrawn).',
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  body: agentAddressInputSchema,
  response: agentProfileSchema,
  successStatus: 201,
});
