import type { Queryable } from '../../db/db.js';
import { containsPattern } from '../../http/sql.js';
import type { Principal, RequestMeta } from '../session/session.service.js';

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
export const auditActor = (actor: Principal, meta: RequestMeta) => ({
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

export type AuditQuery = {
  page: number;
  pageSize: number;
  order: 'asc' | 'desc';
  search?: string | undefined;
  entity_type?: string | undefined;
  entity_id?: string | undefined;
  actor_id?: number | undefined;
  action?: string | undefined;
};

/** One page of the audit log with the filters given, newest first by default. */
export async function listAuditEvents(db: Queryable, query: AuditQuery) {
  const where = `
    WHERE ($1::text IS NULL OR entity_type = $1)
      AND ($2::text IS NULL OR entity_id = $2)
      AND ($3::bigint IS NULL OR actor_id = $3::bigint)
      AND ($4::text IS NULL OR action = $4)
      AND ($5::text IS NULL OR actor_name ILIKE $5 OR action ILIKE $5)`;
  const search = containsPattern(query.search);
  const filters = [
    query.entity_type ?? null,
    query.entity_id ?? null,
    query.actor_id ?? null,
    query.action ?? null,
    search,
  ];
  const order = query.order === 'asc' ? 'ASC' : 'DESC';
  const [rows, [count]] = await Promise.all([
    db.query<AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM audit_events ${where}
       ORDER BY at ${order}, id ${order} LIMIT $6 OFFSET $7`,
      [...filters, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM audit_events ${where}`,
      filters,
    ),
  ]);
  return {
    items: rows.map(toAuditEvent),
    total: count?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

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
