import * as z from 'zod/mini';
import { defineList, idFilter, listEndpoints } from './resource.js';
import { auditEventSchema } from './users.contract.js';

const word = (max: number) => z.optional(z.string().check(z.trim(), z.maxLength(max)));
const time = z.optional(
  z.iso.datetime({ offset: true, error: 'Give a time such as 2026-01-31T08:00:00Z.' }),
);

/**
 * The append-only audit log, newest first, paged by keyset with a capped count like every other
 * list; each filter has an index (migration 0019). `from` is inclusive, `to` exclusive.
 */
export const auditEventList = defineList({
  name: 'audit-events',
  singular: 'audit event',
  plural: 'Audit events',
  tag: 'Audit',
  view: { permission: 'audit.view-list' },
  item: auditEventSchema,
  filters: {
    actor_id: idFilter,
    entity_type: word(50),
    entity_id: word(50),
    action: word(100),
    from: time,
    to: time,
  },
  sorts: ['at'],
  defaultSort: 'at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'at', header: 'Time', example: '2026-01-31T08:01:03.339Z' },
    { key: 'actor_name', header: 'User', example: 'admin' },
    { key: 'action', header: 'Action', example: 'user.updated' },
    { key: 'entity_type', header: 'Entity', example: 'user' },
    { key: 'entity_id', header: 'Entity id', example: '12' },
    { key: 'ip', header: 'IP', example: '10.0.0.5' },
    { key: 'before', header: 'Before', example: '{"status":"active"}' },
    { key: 'after', header: 'After', example: '{"status":"disabled"}' },
  ],
});
export const auditEventEndpoints = listEndpoints(auditEventList);
export const listAuditEventsEndpoint = auditEventEndpoints.list;
