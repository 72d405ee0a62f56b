import type { Queryable } from '../../db/db.js';

export type AuditEntry = {
  readonly actorId: number | null;
  readonly actorName: string | null;
  readonly action: string;
  readonly entityType: string;
  readonly entityId?: string | number | null;
  readonly before?: unknown;
  readonly after?: unknown;
  readonly ip?: string | null;
  readonly requestId?: string | null;
};

/** Appends one event to the audit log, inside the caller's transaction. */
export async function recordAudit(db: Queryable, entry: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, before, after, ip, request_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      entry.actorId,
      entry.actorName,
      entry.action,
      entry.entityType,
      entry.entityId == null ? null : String(entry.entityId),
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      entry.ip ?? null,
      entry.requestId ?? null,
    ],
  );
}
