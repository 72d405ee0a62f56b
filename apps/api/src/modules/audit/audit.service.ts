import { auditEventList } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';
import type { ListStore } from '../../toolkit/stores.js';
import type { Actor, RequestMeta } from '../../http/principal.js';

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

/** The who and where of an audit entry for a signed-in actor's request. */
export const auditActor = (actor: Actor, meta: RequestMeta) => ({
  actorId: actor.userId,
  actorName: actor.userName,
  ip: meta.ip,
  requestId: meta.requestId,
});

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

/**
 * Appends one event per entity for the same action by the same actor, in one statement: a bulk
 * step (a thousand devices returned to their vendor) costs no more statements than one.
 */
export async function recordAudits(
  db: Queryable,
  shared: Omit<AuditEntry, 'entityId' | 'before' | 'after'>,
  entries: readonly Pick<AuditEntry, 'entityId' | 'before' | 'after'>[],
): Promise<void> {
  const json = (value: unknown) => (value === undefined ? null : JSON.stringify(value));
  await db.query(
    `INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, before, after, ip, request_id)
     SELECT $1, $2, $3, $4, e.entity_id, e.before::jsonb, e.after::jsonb, $5, $6
     FROM unnest($7::text[], $8::text[], $9::text[]) AS e (entity_id, before, after)`,
    [
      shared.actorId,
      shared.actorName,
      shared.action,
      shared.entityType,
      shared.ip ?? null,
      shared.requestId ?? null,
      entries.map((entry) => (entry.entityId == null ? null : String(entry.entityId))),
      entries.map((entry) => json(entry.before)),
      entries.map((entry) => json(entry.after)),
    ],
  );
}

type AuditRow = {
  id: number;
  at: Date;
  actor_id: number | null;
  actor_name: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
};

const AUDIT_COLUMNS =
  'id, at, actor_id, actor_name, action, entity_type, entity_id, before, after, ip';

const toAuditEvent = (row: AuditRow) => ({ ...row, at: row.at.toISOString() });

/**
 * The audit log as a toolkit list: newest first by keyset on (at, id), a capped count, and a
 * filter per index of migration 0019 (actor, action, entity, time). It has no data version, so
 * its answers are read every time.
 */
export const auditEventStore: ListStore<typeof auditEventList> = {
  contract: auditEventList,
  list: {
    from: 'audit_events a',
    id: 'a.id',
    columns: `a.id, ${isoTextSql('a.at')} AS at, a.actor_id, a.actor_name, a.action,
      a.entity_type, a.entity_id, a.before, a.after, a.ip`,
    sorts: { at: { sql: 'a.at', type: 'timestamptz' } },
    search: (pattern) => ['(a.actor_name ILIKE ? OR a.action ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.actor_id !== undefined && ['a.actor_id = ?', query.actor_id],
      query.entity_type !== undefined && ['a.entity_type = ?', query.entity_type],
      query.entity_id !== undefined && ['a.entity_id = ?', query.entity_id],
      query.action !== undefined && ['a.action = ?', query.action],
      query.from !== undefined && ['a.at >= ?::timestamptz', query.from],
      query.to !== undefined && ['a.at < ?::timestamptz', query.to],
    ],
  },
};

/** The latest events done by a user or done to that user. */
export async function activityOfUser(db: Queryable, userId: number, limit = 50) {
  const rows = await db.query<AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_events
     WHERE actor_id = $1 OR (entity_type = 'user' AND entity_id = $1::text)
     ORDER BY at DESC, id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map(toAuditEvent);
}
