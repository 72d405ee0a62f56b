import * as z from 'zod/mini';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { AGENT_SIM_RETURN_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import { SIM_STATUSES } from '../sim/sim-lifecycle.js';
import {
  expectedIccidsSchema,
  SIM_RETURN_REASONS,
  simReturnDetailSchema,
  simReturnSchema,
} from '../sim/sim-returns.contract.js';

/**
 * The agent portal's Returns (DOMAIN.md 7): an agent returns SIMs they hold, with a reason, prints
 * or shows the return's label and follows its status. Every endpoint is scoped to the signed-in
 * agent on the server: another agent's return is 404, and only the agent's own SIMs can be listed.
 */

/** How many of an agent's latest returns the page lists. */
export const AGENT_RETURNS_SHOWN = 100;

/** One of the agent's SIMs that can go back: held by them and on no open return. */
export const returnableSimSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  status: z.enum(SIM_STATUSES),
  carrier: z.string(),
  /** Whole days since the agent got it. */
  days_held: z.int(),
  /** Ever detected active: the warehouse will destroy it rather than restock it. */
  ever_active: z.boolean(),
});
export type ReturnableSim = z.infer<typeof returnableSimSchema>;

export const createAgentReturnSchema = z.object({
  reason: z.enum(SIM_RETURN_REASONS, 'Choose unused, defective or damaged.'),
  note: optionalText('note', 500),
  iccids: expectedIccidsSchema.check(z.minLength(1, 'Choose the SIMs to return.')),
});
export type CreateAgentReturnInput = z.input<typeof createAgentReturnSchema>;

export const agentReturnEndpoints = {
  list: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-returns',
    summary: `The signed-in agent's latest ${AGENT_RETURNS_SHOWN} SIM returns, newest first`,
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    response: z.array(simReturnSchema),
  }),
  returnable: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-returns/returnable-sims',
    summary: "The signed-in agent's SIMs that can be returned: held by them and on no open return",
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    response: z.array(returnableSimSchema),
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/agent/sim-returns/:id',
    summary: "One of the signed-in agent's returns with its SIMs (another agent's: 404)",
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    params: idParamsSchema,
    response: simReturnDetailSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-returns',
    summary: 'Return SIMs the signed-in agent holds, with a reason',
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    body: createAgentReturnSchema,
    response: simReturnDetailSchema,
    successStatus: 201,
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/agent/sim-returns/:id/cancel',
    summary: "Cancel one of the signed-in agent's returns before the warehouse scans it",
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    params: idParamsSchema,
    response: simReturnDetailSchema,
  }),
  label: printEndpoint({
    path: '/agent/sim-returns/:id/label',
    summary: "The label of one of the signed-in agent's returns, to put on the envelope",
    tag: 'Agent portal',
    guard: AGENT_SIM_RETURN_ACCESS,
    params: idParamsSchema,
    printable: labelPrintable('agent-sim-return-label', ['4x6']),
  }),
};
