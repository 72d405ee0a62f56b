import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SIM_DASHBOARD_ACCESS, SIM_REQUEST_APPROVE_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { requiredText } from '../master-data/fields.js';
import { downloadSchema, FILE_FORMATS, type FileColumn } from '../resource.js';
import { SIM_REQUEST_STATUSES, SIM_STATUSES } from './sim-lifecycle.js';

/**
 * The SIM dashboard (DOMAIN.md 4.6 `/sim/dashboard`): SIMs by status and carrier, what each agent
 * holds with its ageing (held over the settings' hold days), pending requests, activations over 7
 * and 30 days (from the carrier's detection), each agent's activation rate (activated / received)
 * and pending returns. Every figure is read from counts kept in the transaction of each change
 * (migration 0049), so an answer costs the same at 200,000 SIMs as at 2,000,000. The agents'
 * address changes waiting for a coordinator are decided here too.
 */

/** The days an activation chart shows, newest last. */
export const SIM_ACTIVATION_DAYS = 30;

/** SIM return states that wait for the warehouse. */
export const SIM_RETURN_PENDING_STATUSES = ['open', 'receiving'] as const;

export const simStatusFigureSchema = z.object({
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  status: z.enum(SIM_STATUSES),
  sims: z.int(),
});
export type SimStatusFigure = z.infer<typeof simStatusFigureSchema>;

export const simAgentFigureSchema = z.object({
  agent_id: z.int(),
  agent_name: z.string(),
  sim_cap: z.nullable(z.int()),
  /** Held now: with the agent (not yet assigned) or assigned to a subscriber. */
  with_agent: z.int(),
  assigned: z.int(),
  on_hand: z.int(),
  /** Of those with the agent, held longer than the hold days. */
  aged: z.int(),
  /** SIMs ever received (shipments and transfers in). */
  received: z.int(),
  /** SIMs credited to the agent as activated by a detection. */
  activated: z.int(),
  /** activated / received; null before anything was received. */
  activation_rate: z.nullable(z.number()),
  /** Below the settings' low rate, once the agent has received the minimum to count. */
  low_rate: z.boolean(),
  activations_7d: z.int(),
  activations_30d: z.int(),
});
export type SimAgentFigure = z.infer<typeof simAgentFigureSchema>;

export const simDashboardSchema = z.object({
  as_of: z.string(),
  hold_days: z.int(),
  low_activation_rate: z.number(),
  rate_minimum_received: z.int(),
  carriers: z.array(z.object({ id: z.int(), name: z.string() })),
  by_status: z.array(simStatusFigureSchema),
  agents: z.array(simAgentFigureSchema),
  requests: z.array(
    z.object({ status: z.enum(SIM_REQUEST_STATUSES), requests: z.int(), sims: z.int() }),
  ),
  /** Per business day of the last SIM_ACTIVATION_DAYS, and by carrier over 7 and 30 days. */
  activations: z.object({
    by_day: z.array(z.object({ day: z.string(), sims: z.int() })),
    by_carrier: z.array(
      z.object({
        client_carrier_id: z.int(),
        client_carrier: z.string(),
        last_7_days: z.int(),
        last_30_days: z.int(),
      }),
    ),
    last_7_days: z.int(),
    last_30_days: z.int(),
  }),
  returns: z.array(z.object({ status: z.enum(SIM_RETURN_PENDING_STATUSES), returns: z.int() })),
  /** Agents' address changes waiting for a coordinator. */
  address_changes_pending: z.int(),
});
export type SimDashboard = z.infer<typeof simDashboardSchema>;

export const simDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/sim/dashboard',
  summary: 'The SIM dashboard: SIMs by status and carrier, agents, requests, activations, returns',
  tag: 'SIM',
  guard: SIM_DASHBOARD_ACCESS,
  response: simDashboardSchema,
});

/** The dashboard's exports: each a table of the figures the page shows. */
export const SIM_DASHBOARD_FILES = {
  status: {
    title: 'SIMs by status and carrier',
    columns: [
      { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
      { key: 'status', header: 'Status', example: 'with_agent' },
      { key: 'sims', header: 'SIMs', example: '1200' },
    ],
  },
  agents: {
    title: 'SIMs per agent',
    columns: [
      { key: 'agent_name', header: 'Agent', example: 'Dana Ruiz' },
      { key: 'on_hand', header: 'On hand', example: '40' },
      { key: 'with_agent', header: 'Not yet assigned', example: '30' },
      { key: 'assigned', header: 'Assigned', example: '10' },
      { key: 'aged', header: 'Held over the hold days', example: '4' },
      { key: 'received', header: 'Received', example: '200' },
      { key: 'activated', header: 'Activated', example: '80' },
      { key: 'activation_rate', header: 'Activation rate', example: '0.4' },
      { key: 'activations_7d', header: 'Activations 7 days', example: '5' },
      { key: 'activations_30d', header: 'Activations 30 days', example: '20' },
    ],
  },
  activations: {
    title: 'Activations per day',
    columns: [
      { key: 'day', header: 'Day', example: '2026-11-02' },
      { key: 'sims', header: 'Activations', example: '40' },
    ],
  },
} as const satisfies Record<string, { title: string; columns: readonly FileColumn[] }>;
export type SimDashboardFile = keyof typeof SIM_DASHBOARD_FILES;
const SIM_DASHBOARD_FILE_NAMES = Object.keys(SIM_DASHBOARD_FILES) as [
  SimDashboardFile,
  ...SimDashboardFile[],
];

export const simDashboardExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim/dashboard/exports',
  summary: 'A download link for one table of the SIM dashboard',
  tag: 'SIM',
  guard: SIM_DASHBOARD_ACCESS,
  body: z.object({
    widget: z.enum(SIM_DASHBOARD_FILE_NAMES, 'Choose the table to export.'),
    format: z._default(z.enum(FILE_FORMATS), 'csv'),
  }),
  response: downloadSchema,
  successStatus: 201,
});

/** An agent's shipping address as the portal and the coordinator read it. */
export const agentAddressSchema = z.object({
  line1: z.string(),
  line2: z.nullable(z.string()),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
});
export type AgentAddress = z.infer<typeof agentAddressSchema>;

export const AGENT_ADDRESS_CHANGE_STATUSES = [
  'pending',
  'approved',
  'rejected',
  'withdrawn',
] as const;

export const agentAddressChangeSchema = z.object({
  id: z.int(),
  agent_id: z.int(),
  agent_name: z.string(),
  address: agentAddressSchema,
  /** The address it replaces; null for the agent's first. */
  current: z.nullable(agentAddressSchema),
  status: z.enum(AGENT_ADDRESS_CHANGE_STATUSES),
  reason: z.nullable(z.string()),
  requested_at: z.string(),
  decided_at: z.nullable(z.string()),
  decided_by_name: z.nullable(z.string()),
});
export type AgentAddressChange = z.infer<typeof agentAddressChangeSchema>;

/** Agents' address changes waiting for a coordinator, oldest first (at most 200). */
export const agentAddressChangesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/sim/agent-address-changes',
  summary: "Agents' shipping address changes waiting for a coordinator's approval",
  tag: 'SIM',
  guard: SIM_REQUEST_APPROVE_ACCESS,
  response: z.array(agentAddressChangeSchema),
});

export const approveAgentAddressChangeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim/agent-address-changes/:id/approval',
  summary: "Approve an agent's address change: it becomes the agent's shipping address",
  tag: 'SIM',
  guard: SIM_REQUEST_APPROVE_ACCESS,
  params: idParamsSchema,
  response: agentAddressChangeSchema,
});

export const rejectAgentAddressChangeEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim/agent-address-changes/:id/rejection',
  summary: "Reject an agent's address change, saying why",
  tag: 'SIM',
  guard: SIM_REQUEST_APPROVE_ACCESS,
  params: idParamsSchema,
  body: z.object({ reason: requiredText('reason', 500) }),
  response: agentAddressChangeSchema,
});
