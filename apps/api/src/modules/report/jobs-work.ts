import {
  WORKER_SUMMARY_COLUMNS,
  type FileFormat,
  type MyWork,
  type WorkDayCount,
  type WorkerSummary,
  type WorkJobDetail,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream } from '../../toolkit/files.js';
import { JOB_ROW_COLUMNS, jobDetails } from './jobs.store.js';

/**
 * What /report/work shows of the caller (own data only: every read takes the session's user) and
 * what /report/admin sums per worker, from the day's sums of work (migration 0071).
 */

/** A worker's history and the managers' summaries span at most this many days. */
const MAX_RANGE_DAYS = 92;
const DEFAULT_HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;

/** The caller's assigned and in-progress jobs, the soonest due first. */
export async function myJobs(db: Queryable, userId: number): Promise<WorkJobDetail[]> {
  const rows = await db.query<{ id: number }>(
    `SELECT j.id::int AS id FROM work_job_assignees a JOIN work_jobs j ON j.id = a.job_id
     WHERE a.user_id = $1 AND j.status IN ('assigned', 'in_progress')
     ORDER BY COALESCE(j.due_at, 'infinity'::timestamptz), j.id LIMIT 100`,
    [userId],
  );
  return jobDetails(
    db,
    rows.map((row) => row.id),
  );
}

/** Refuses (422) a range that ends before it starts or spans too many days. */
export function checkRange(range: { from: string; to: string }): void {
  const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS;
  if (days < 0) throw fieldError('to', 'The end date is before the start date.');
  if (days >= MAX_RANGE_DAYS) {
    throw fieldError('to', `Choose at most ${MAX_RANGE_DAYS} days.`);
  }
}

const DAY_COUNT_COLUMNS = `to_char(c.business_day, 'YYYY-MM-DD') AS day, c.action, c.qty,
  c.rework, c.duration_s::int AS duration_s`;

/**
 * The caller's units by action today, the targets and units done of their open jobs, and their
 * days over a range (the last 30 business days by default).
 */
export async function myCounts(
  db: Queryable,
  userId: number,
  query: { from?: string | undefined; to?: string | undefined },
): Promise<MyWork> {
  const [{ today }] = (await db.query<{ today: string }>(
    "SELECT to_char(order_business_day(now()), 'YYYY-MM-DD') AS today",
  )) as [{ today: string }];
  const to = query.to ?? today;
  const from =
    query.from ??
    new Date(Date.parse(to) - (DEFAULT_HISTORY_DAYS - 1) * DAY_MS).toISOString().slice(0, 10);
  checkRange({ from, to });
  const todayCounts = await db.query<WorkDayCount>(
    `SELECT ${DAY_COUNT_COLUMNS} FROM work_day_totals c
     WHERE c.user_id = $1 AND c.business_day = $2::date ORDER BY c.action`,
    [userId, today],
  );
  const [targets] = await db.query<{ target_qty: number; done_qty: number }>(
    `SELECT COALESCE(sum(x.target_qty), 0)::int AS target_qty,
       COALESCE(sum(x.done_qty), 0)::int AS done_qty
     FROM (SELECT ${JOB_ROW_COLUMNS} FROM work_jobs j
           WHERE j.status IN ('assigned', 'in_progress') AND j.id IN (
             SELECT a.job_id FROM work_job_assignees a WHERE a.user_id = $1)) x`,
    [userId],
  );
  const history = await db.query<WorkDayCount>(
    `SELECT ${DAY_COUNT_COLUMNS} FROM work_day_totals c
     WHERE c.user_id = $1 AND c.business_day BETWEEN $2::date AND $3::date
     ORDER BY c.business_day DESC, c.action`,
    [userId, from, to],
  );
  return { today, today_counts: todayCounts, ...targets!, history };
}

/**
 * Per worker and day: units of every action, hours (from the day's first unit of work to its
 * last: most stations record no duration of their own), rework, and jobs finished that day.
 */
export async function workerSummaries(
  db: Queryable,
  range: { from: string; to: string },
): Promise<WorkerSummary[]> {
  checkRange(range);
  return db.query<WorkerSummary>(
    `SELECT c.user_id::int AS user_id, u.name, to_char(c.business_day, 'YYYY-MM-DD') AS day,
       sum(c.qty)::int AS units,
       round(extract(epoch FROM max(c.last_at) - min(c.first_at))::numeric / 3600, 2)::float8
         AS hours,
       sum(c.rework)::int AS rework,
       (SELECT count(*)::int FROM work_job_assignees a JOIN work_jobs j ON j.id = a.job_id
        WHERE a.user_id = c.user_id AND j.status IN ('done', 'verified')
          AND order_business_day(j.done_at) = c.business_day) AS jobs_done
     FROM work_day_totals c JOIN users u ON u.id = c.user_id
     WHERE c.business_day BETWEEN $1::date AND $2::date
     GROUP BY c.business_day, c.user_id, u.name
     ORDER BY c.business_day DESC, u.name, c.user_id
     LIMIT 10000`,
    [range.from, range.to],
  );
}

/** The hours and units per worker and day as a file. */
export async function workerSummariesFile(
  db: Queryable,
  request: { from: string; to: string; format: FileFormat },
): Promise<PreparedFile> {
  const rows = await workerSummaries(db, request);
  async function* chunks() {
    yield rows.map((row) => WORKER_SUMMARY_COLUMNS.map((column) => row[column.key]));
  }
  return {
    fileName: `work-hours-units-${request.from}-${request.to}.${request.format}`,
    contentType: CONTENT_TYPES[request.format],
    stream: fileStream(request.format, 'Hours and units', WORKER_SUMMARY_COLUMNS, chunks()),
  };
}
