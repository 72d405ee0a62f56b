import {
  JOB_CANCELLABLE_STATES,
  JOB_PAGE_SIZE,
  JOB_RETRYABLE_STATES,
  type Job,
  type JobsPage,
  type JobsQuery,
  type JobState,
} from '@inventory/contract';
import type { Db, Queryable, Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError, fieldError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { cancelJob, retryJob } from '../../toolkit/jobs.js';
import { auditActor, recordAudit } from '../audit/index.js';

/*
 * The jobs page reads pg-boss's own table (migration 0053) and changes a job's state only through
 * pg-boss (retry, cancel), in one transaction with the audit event: the states and their moves are
 * the library's, so they are not a lifecycle of ours.
 */

/** pg-boss's own queues (its cron sender) are its business, not a job of the app's. */
const OWN_JOBS = `j.name NOT LIKE '\\_\\_pgboss\\_\\_%'`;

const JOB_COLUMNS = `j.id::text AS id, j.name, j.state::text AS state,
  (CASE WHEN j.started_on IS NULL THEN 0 ELSE j.retry_count + 1 END)::int AS attempts,
  (j.retry_limit + 1)::int AS max_attempts, j.data,
  ${isoTextSql('j.created_on')} AS created_at, ${isoTextSql('j.start_after')} AS start_after,
  ${isoTextSql('j.started_on')} AS started_at, ${isoTextSql('j.completed_on')} AS finished_at,
  CASE WHEN j.state IN ('retry', 'failed') OR (j.state = 'active' AND j.retry_count > 0)
       THEN COALESCE(j.output ->> 'message', j.output -> 'value' ->> 'message') END AS last_error`;

type JobRow = Job & { cursor_at: string };

/** A page's position: the created time (full precision) and id of its last job. */
const encodeAfter = (row: JobRow) =>
  Buffer.from(JSON.stringify([row.cursor_at, row.id])).toString('base64url');

function decodeAfter(after: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      !Number.isNaN(Date.parse(value[0])) &&
      typeof value[1] === 'string' &&
      /^[0-9a-f-]{36}$/.test(value[1])
    )
      return [value[0], value[1]];
  } catch {
    // Answered below as bad input.
  }
  throw fieldError('after', 'This page link is not valid: open the list from its first page.');
}

const withoutCursor = ({ cursor_at: _cursor, ...job }: JobRow): Job => job;

/** Jobs newest first, by keyset on (created, id): any page costs what the first one costs. */
export async function listJobs(db: Db, query: JobsQuery): Promise<JobsPage> {
  const [afterAt, afterId] = query.after ? decodeAfter(query.after) : [null, null];
  const rows = await db.query<JobRow>(
    `SELECT ${JOB_COLUMNS}, j.created_on::text AS cursor_at FROM pgboss.job j
     WHERE ${OWN_JOBS} AND ($1::text IS NULL OR j.state::text = $1)
       AND ($2::text IS NULL OR j.name = $2)
       AND ($3::timestamptz IS NULL OR (j.created_on, j.id) < ($3::timestamptz, $4::uuid))
     ORDER BY j.created_on DESC, j.id DESC LIMIT ${JOB_PAGE_SIZE + 1}`,
    [query.state ?? null, query.name ?? null, afterAt, afterId],
  );
  const page = rows.slice(0, JOB_PAGE_SIZE);
  const [names, counts] = await Promise.all([
    db.query<{ name: string }>(
      `SELECT j.name FROM pgboss.queue j WHERE ${OWN_JOBS} ORDER BY j.name`,
    ),
    db.query<{ state: JobState; count: number }>(
      `SELECT j.state::text AS state, count(*)::int AS count FROM pgboss.job j
       WHERE ${OWN_JOBS} GROUP BY j.state`,
    ),
  ]);
  return {
    items: page.map(withoutCursor),
    next: rows.length > JOB_PAGE_SIZE ? encodeAfter(page[page.length - 1]!) : null,
    names: names.map((row) => row.name),
    counts: {
      created: 0,
      retry: 0,
      active: 0,
      completed: 0,
      cancelled: 0,
      failed: 0,
      ...Object.fromEntries(counts.map((row) => [row.state, row.count])),
    },
  };
}

async function jobById(q: Queryable, id: string, lock = false): Promise<Job> {
  const [row] = await q.query<JobRow>(
    `SELECT ${JOB_COLUMNS}, '' AS cursor_at FROM pgboss.job j WHERE j.id = $1 AND ${OWN_JOBS}
     ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  if (!row) throw new NotFoundError('There is no such job (finished jobs are kept a week).');
  return withoutCursor(row);
}

const ACTIONS = {
  retry: {
    from: JOB_RETRYABLE_STATES,
    refused: 'Only a failed job can be retried',
    audit: 'job.retried',
    run: retryJob,
  },
  cancel: {
    from: JOB_CANCELLABLE_STATES,
    refused: 'Only a job that has not run yet can be cancelled',
    audit: 'job.cancelled',
    run: cancelJob,
  },
} as const;

/** Retries a failed job or cancels a waiting one, with its audit event. */
export async function actOnJob(
  tx: Transaction,
  { actor, meta }: Acting,
  id: string,
  action: keyof typeof ACTIONS,
): Promise<Job> {
  const step = ACTIONS[action];
  const before = await jobById(tx, id, true);
  if (!step.from.includes(before.state))
    throw new ConflictError(`${step.refused}; this one is ${before.state}.`);
  await step.run(tx, before.name, id);
  const after = await jobById(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: step.audit,
    entityType: 'job',
    entityId: id,
    before: { name: before.name, state: before.state },
    after: { state: after.state },
  });
  return after;
}
