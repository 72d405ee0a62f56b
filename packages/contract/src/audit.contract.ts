import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';
import { pageSchema, pagingQueryShape } from './list.js';
import { auditEventSchema } from './users.contract.js';

export const auditListQuerySchema = z.object({
  ...pagingQueryShape,
  order: z._default(z.enum(['asc', 'desc']), 'desc'),
  entity_type: z.optional(z.string().check(z.maxLength(50))),
  entity_id: z.optional(z.string().check(z.maxLength(50))),
  actor_id: z.optional(z.coerce.number().check(z.int())),
  action: z.optional(z.string().check(z.maxLength(100))),
});

export const listAuditEventsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/audit-events',
  summary: 'The append-only audit log, newest first',
  tag: 'Audit',
  guard: { permission: 'audit.view-list' },
  query: auditListQuerySchema,
  response: pageSchema(auditEventSchema),
});
