import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { SIM_INQUIRE_ACCESS } from '../guards.js';
import { simCardRowSchema } from './sim-cards.contract.js';
import { SIM_STATUSES } from './sim-lifecycle.js';

/**
 * The SIM lookup (DOMAIN.md 4.6 `/sim/inquire`): scan an ICCID and read its whole story from its
 * timeline (`sim_events`): the box it came in, its pack, the request that took it, the agent, the
 * order or device it went with, the detections and the return, each step naming what it concerns
 * so that the page links it; and the anomalies detection raised on it.
 */

/** What a step of the timeline concerns, for its link. */
export const SIM_STEP_LINK_KINDS = [
  'box',
  'pack',
  'request',
  'agent',
  'order',
  'device',
  'return',
  'detection',
] as const;
export type SimStepLinkKind = (typeof SIM_STEP_LINK_KINDS)[number];

export const simStepLinkSchema = z.object({
  kind: z.enum(SIM_STEP_LINK_KINDS),
  id: z.int(),
  /** What the page shows: a box code, a request number, an agent's name, an IMEI. */
  label: z.string(),
});
export type SimStepLink = z.infer<typeof simStepLinkSchema>;

export const simStepSchema = z.object({
  id: z.int(),
  at: z.string(),
  /** The event: received, split, allocated, shipped, transferred, detected_active, restocked… */
  type: z.string(),
  from_status: z.nullable(z.enum(SIM_STATUSES)),
  to_status: z.nullable(z.enum(SIM_STATUSES)),
  actor_name: z.string(),
  reason: z.nullable(z.string()),
  links: z.array(simStepLinkSchema),
});
export type SimStep = z.infer<typeof simStepSchema>;

export const simStoryAnomalySchema = z.object({
  id: z.int(),
  kind: z.enum(['active_in_stock', 'imei_mismatch']),
  detail: z.nullable(z.string()),
  status: z.enum(['open', 'resolved']),
  resolution: z.nullable(z.string()),
  run_id: z.int(),
  created_at: z.string(),
});
export type SimStoryAnomaly = z.infer<typeof simStoryAnomalySchema>;

export const simStorySchema = z.object({
  sim: simCardRowSchema,
  /** Every step, oldest first. */
  steps: z.array(simStepSchema),
  anomalies: z.array(simStoryAnomalySchema),
});
export type SimStory = z.infer<typeof simStorySchema>;

/** Read a SIM's story by its scanned ICCID: 422 with the parse's message, 404 for none. */
export const simInquireEndpoint = defineEndpoint({
  method: 'POST',
  path: '/sim-inquiries',
  summary: "A SIM's whole story by its ICCID: holder now, every step with what it concerns",
  tag: 'SIM',
  guard: SIM_INQUIRE_ACCESS,
  body: z.object({
    iccid: z
      .string('Scan the ICCID.')
      .check(z.minLength(1, 'Scan the ICCID.'), z.maxLength(40, 'This is no ICCID.')),
  }),
  response: simStorySchema,
});
