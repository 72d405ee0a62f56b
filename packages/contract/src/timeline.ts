import * as z from 'zod/mini';

/**
 * One step on a document's timeline as the server's lifecycle toolkit writes it
 * (`timelineWriter`): an action's step (from and to a status) or an event of its own (an edit, a
 * print), with what the step carried.
 */
export const timelineEventSchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_name: z.nullable(z.string()),
  type: z.string(),
  from_status: z.nullable(z.string()),
  to_status: z.nullable(z.string()),
  data: z.nullable(z.record(z.string(), z.unknown())),
});
export type TimelineEvent = z.infer<typeof timelineEventSchema>;
