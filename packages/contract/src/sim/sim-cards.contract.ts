import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SIM_ACCESS, SIM_TRANSFER_ACCESS } from '../guards.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { SIM_FORMS } from './sim-boxes.contract.js';
import { SIM_DETECTED_STATES, SIM_STATUSES } from './sim-lifecycle.js';

/**
 * The SIM list (DOMAIN.md 4.6 `/sim`): every SIM with its carrier, status, box or pack, holder
 * (agent, request, order, device), MDN, activation and last detection; keyset pages at millions
 * of rows; marking defective or lost with a reason; transfers between agents, on both ledgers.
 */

export const simCardRowSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  client_carrier_id: z.int(),
  client_carrier: z.string(),
  issuer: z.nullable(z.string()),
  form: z.enum(SIM_FORMS),
  status: z.enum(SIM_STATUSES),
  sim_box_id: z.int(),
  box_code: z.string(),
  sim_pack_id: z.nullable(z.int()),
  pack_code: z.nullable(z.string()),
  sim_request_id: z.nullable(z.int()),
  request_number: z.nullable(z.string()),
  agent_id: z.nullable(z.int()),
  agent_name: z.nullable(z.string()),
  order_id: z.nullable(z.int()),
  order_number: z.nullable(z.string()),
  device_id: z.nullable(z.int()),
  device_imei: z.nullable(z.string()),
  mdn: z.nullable(z.string()),
  activated_at: z.nullable(z.string()),
  last_detect_state: z.nullable(z.enum([...SIM_DETECTED_STATES, 'not_found'])),
  last_detected_at: z.nullable(z.string()),
  /** Why it was marked defective or lost. */
  status_reason: z.nullable(z.string()),
  /** Since when its current holder has had it. */
  held_since: z.string(),
});
export type SimCardRow = z.infer<typeof simCardRowSchema>;

export const simCardList = defineList({
  name: 'sims',
  singular: 'SIM',
  plural: 'SIMs',
  tag: 'SIM',
  view: SIM_ACCESS,
  item: simCardRowSchema,
  filters: {
    status: enumFilter(SIM_STATUSES),
    client_carrier_id: idFilter,
    agent_id: idFilter,
    box_id: idFilter,
    pack_id: idFilter,
  },
  // Received: the order SIMs were written in (their id), newest first.
  sorts: ['received', 'iccid'],
  defaultSort: 'received',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'iccid', header: 'ICCID', example: '8901410123456789012' },
    { key: 'client_carrier', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'issuer', header: 'Issuer', example: 'AT&T' },
    { key: 'status', header: 'Status', example: 'in_stock' },
    { key: 'box_code', header: 'Box', example: 'SB-000001' },
    { key: 'pack_code', header: 'Pack', example: 'SP-000001' },
    { key: 'agent_name', header: 'Agent', example: '' },
    { key: 'request_number', header: 'Request', example: '' },
    { key: 'order_number', header: 'Order', example: '' },
    { key: 'device_imei', header: 'Device IMEI', example: '' },
    { key: 'mdn', header: 'MDN', example: '' },
    { key: 'activated_at', header: 'Activated', example: '' },
    { key: 'last_detect_state', header: 'Last detection', example: 'active' },
    { key: 'last_detected_at', header: 'Detected', example: '' },
    { key: 'status_reason', header: 'Reason', example: '' },
  ],
});
export const simCardListEndpoints = listEndpoints(simCardList);

/** The named actions the SIM list runs on one SIM; each needs a reason. */
export const SIM_LIST_ACTIONS = ['markDefective', 'markLost'] as const;
export type SimListAction = (typeof SIM_LIST_ACTIONS)[number];

export const simStatusActionSchema = z.object({
  action: z.enum(SIM_LIST_ACTIONS, 'Choose defective or lost.'),
  reason: z
    .string('Say why.')
    .check(z.trim(), z.minLength(1, 'Say why.'), z.maxLength(500, 'At most 500 characters.')),
});

export const simStatusActionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sims/:id/status',
  summary: 'Mark a SIM defective or lost, with the reason',
  tag: 'SIM',
  guard: SIM_ACCESS,
  params: idParamsSchema,
  body: simStatusActionSchema,
  response: simCardRowSchema,
});

/** The most SIMs one transfer moves. */
export const SIM_TRANSFER_MAX = 500;

const agentId = (which: string) =>
  z
    .number(`Choose the ${which} agent.`)
    .check(z.int(`Choose the ${which} agent.`), z.gte(1, `Choose the ${which} agent.`));

export const simTransferSchema = z.object({
  from_agent_id: agentId('giving'),
  to_agent_id: agentId('receiving'),
  sim_ids: z
    .array(z.int().check(z.gte(1)), 'Choose the SIMs to transfer.')
    .check(
      z.minLength(1, 'Choose the SIMs to transfer.'),
      z.maxLength(SIM_TRANSFER_MAX, `At most ${SIM_TRANSFER_MAX} SIMs at once.`),
    ),
});
export type SimTransfer = z.input<typeof simTransferSchema>;

export const simTransferAnswerSchema = z.object({
  transferred: z.int(),
  from_agent: z.string(),
  to_agent: z.string(),
  /** The receiving agent's SIMs on hand after the transfer, and their cap (null: none set). */
  to_on_hand: z.int(),
  to_cap: z.nullable(z.int()),
});
export type SimTransferAnswer = z.infer<typeof simTransferAnswerSchema>;

/**
 * Transfer SIMs an agent holds (`with_agent`) to another active agent within that agent's cap:
 * recorded on both agents' ledgers and on each SIM's timeline.
 */
export const simTransferEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sims/transfers',
  summary: "Transfer SIMs from one agent to another within the receiving agent's cap",
  tag: 'SIM',
  guard: SIM_TRANSFER_ACCESS,
  body: simTransferSchema,
  response: simTransferAnswerSchema,
});

const simPicker = (path: string, what: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for the SIM list's filters and transfers`,
    tag: 'SIM',
    guard: SIM_ACCESS,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

export const simCardPickers = {
  agents: simPicker('/sims/agent-options', 'active agents'),
  boxes: simPicker('/sims/box-options', 'SIM boxes'),
};
