import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { AGENT_PORTAL_ACCESS } from '../guards.js';
import { idParamsSchema } from '../list.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import { webOrderLineSchema } from '../order/web-orders.contract.js';
import { defineList, enumFilter, listEndpoints } from '../resource.js';

/**
 * The agent's own orders (DOMAIN.md 7 History): the web orders the signed-in agent checked out
 * from the shop (placed_by = the agent), whatever dealer they were linked to then. Another agent's
 * order is not found (404), never shown.
 */

export const agentOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  /** The dealer whose account it was ordered on. */
  customer: z.string(),
  created_at: z.string(),
  total_cents: z.int(),
  /** Units over all lines. */
  units: z.int(),
  lines: z.array(webOrderLineSchema),
});
export type AgentOrder = z.infer<typeof agentOrderSchema>;

export const agentOrderList = defineList({
  name: 'agent/orders',
  singular: 'order',
  plural: 'My orders',
  tag: 'Agent portal',
  view: AGENT_PORTAL_ACCESS,
  item: agentOrderSchema,
  filters: { status: enumFilter(ORDER_STATUSES) },
  // Placed: the order the agent checked them out in, newest first.
  sorts: ['placed'],
  defaultSort: 'placed',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'number', header: 'Order', example: 'SO-000123' },
    { key: 'created_at', header: 'Placed', example: '2026-11-02T10:00:00Z' },
    { key: 'status', header: 'Status', example: 'pending' },
    { key: 'total_cents', header: 'Total (cents)', example: '12500' },
  ],
});
export const agentOrderListEndpoints = listEndpoints(agentOrderList);

/** A step of the agent's order as the agent may see it: what happened, when, and why. */
export const agentOrderStepSchema = z.object({
  at: z.string(),
  type: z.string(),
  to_status: z.nullable(z.string()),
  /** The reason staff gave (a rejection's), or none. */
  reason: z.nullable(z.string()),
});

export const agentOrderDetailSchema = z.object({
  order: agentOrderSchema,
  /** Until when its units are held while it waits for approval; null once decided. */
  held_until: z.nullable(z.string()),
  steps: z.array(agentOrderStepSchema),
});
export type AgentOrderDetail = z.infer<typeof agentOrderDetailSchema>;

export const agentOrderEndpoint = defineEndpoint({
  method: 'GET',
  path: '/agent/orders/:id/detail',
  summary: "One of the agent's orders with its steps; another agent's is not found",
  tag: 'Agent portal',
  guard: AGENT_PORTAL_ACCESS,
  params: idParamsSchema,
  response: agentOrderDetailSchema,
});
