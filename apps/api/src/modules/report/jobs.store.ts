import {
  teamJobList,
  workJobLifecycle,
  workJobList,
  type WorkJobAction,
  type WorkJobDetail,
  type WorkJobStatus,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { timelineWriter, type LifecycleStore } from '../../toolkit/lifecycle.js';
import type { ListSql } from '../../toolkit/list.js';
import type { ListQueryOf, ListStore } from '../../toolkit/stores.js';
import { COUNT_JSON } from '../inventory/index.js';

/** Where the job's steps are written (toolkit/lifecycle.ts), with the times each step keeps. */
export const workJobStore: LifecycleStore<WorkJobStatus, WorkJobAction, never> = {
  lifecycle: workJobLifecycle,
  table: 'work_jobs',
  label: "'job ' || id",
  columns: ['done_qty'],
  effects: {
    start: 'started_at = COALESCE(started_at, now())',
    finish: 'done_at = now()',
    verify: 'verified_at = now()',
    reopen: 'done_at = NULL, verified_at = NULL',
  },
  writeEvents: timelineWriter('work_job_events', 'job_id'),
};

/** Open and past its due time. */
export const OVERDUE_SQL = `(j.status IN ('assigned', 'in_progress') AND COALESCE(j.due_at < now(), false))`;

/**
 * Units done: while a count job is open, the devices found so far by its boxes' counts (kept on
 * the job when it finishes); otherwise what the job keeps.
 */
const DONE_QTY_SQL = `CASE WHEN j.kind = 'count' AND j.status IN ('assigned', 'in_progress')
  THEN (SELECT count(*)::int FROM work_job_boxes jb
        JOIN inventory_box_count_scans s ON s.count_id = jb.count_id AND s.in_box
        WHERE jb.job_id = j.id)
  ELSE j.done_qty END`;

/** A job's row as the lists show it, over `work_jobs j`. */
export const JOB_ROW_COLUMNS = `j.id::int AS id, j.kind, j.title, j.instructions, j.target_qty,
  ${DONE_QTY_SQL} AS done_qty, ${isoTextSql('j.due_at')} AS due_at, j.status,
  ${OVERDUE_SQL} AS overdue,
  COALESCE((SELECT json_agg(json_build_object('id', u.id::int, 'name', u.name) ORDER BY u.name)
            FROM work_job_assignees a JOIN users u ON u.id = a.user_id WHERE a.job_id = j.id),
           '[]') AS assignees,
  COALESCE((SELECT string_agg(u.name, ', ' ORDER BY u.name)
            FROM work_job_assignees a JOIN users u ON u.id = a.user_id WHERE a.job_id = j.id),
           '') AS assignees_text,
  COALESCE((SELECT string_agg(b.code, ', ' ORDER BY b.code)
            FROM work_job_boxes jb JOIN inventory_boxes b ON b.id = jb.box_id
            WHERE jb.job_id = j.id), '') AS boxes_text,
  COALESCE((SELECT string_agg(l.code, ', ' ORDER BY l.code)
            FROM work_job_locations jl JOIN locations l ON l.id = jl.location_id
            WHERE jl.job_id = j.id), '') AS locations_text,
  j.product_request_id::int AS product_request_id,
  (SELECT pr.number FROM product_requests pr WHERE pr.id = j.product_request_id)
    AS product_request_number,
  (SELECT u.name FROM users u WHERE u.id = j.created_by) AS created_by_name,
  ${isoTextSql('j.created_at')} AS created_at, ${isoTextSql('j.started_at')} AS started_at,
  ${isoTextSql('j.done_at')} AS done_at, ${isoTextSql('j.verified_at')} AS verified_at`;

/** The jobs' list: one store per page's guard, the same rows. */
const JOB_LIST_SQL: ListSql<ListQueryOf<typeof workJobList>> = {
  from: 'work_jobs j',
  id: 'j.id',
  columns: JOB_ROW_COLUMNS,
  sorts: {
    created_at: { sql: 'j.created_at', type: 'timestamptz' },
    // A job without a due time sorts after every due one.
    due_at: { sql: "COALESCE(j.due_at, 'infinity'::timestamptz)", type: 'timestamptz' },
  },
  // A job's number or words of its title.
  search: (pattern, term) =>
    /^\d{1,15}$/.test(term)
      ? ['(j.id = ? OR j.title ILIKE ?)', Number(term), pattern]
      : ['j.title ILIKE ?', pattern],
  filters: (query) => [
    query.status !== undefined && ['j.status = ?', query.status],
    query.kind !== undefined && ['j.kind = ?', query.kind],
    query.assignee_id !== undefined && [
      'j.id IN (SELECT a.job_id FROM work_job_assignees a WHERE a.user_id = ?)',
      query.assignee_id,
    ],
    query.overdue === true && [OVERDUE_SQL],
    query.overdue === false && [`NOT ${OVERDUE_SQL}`],
  ],
};

export const workJobListStore: ListStore<typeof workJobList> = {
  contract: workJobList,
  list: JOB_LIST_SQL,
};
export const teamJobListStore: ListStore<typeof teamJobList> = {
  contract: teamJobList,
  list: JOB_LIST_SQL,
};

/** A job's box's count as the inventory area shows it, over `work_job_boxes jb`. */
const BOX_COUNT_JSON = `(SELECT ${COUNT_JSON} FROM inventory_box_counts c WHERE c.id = jb.count_id)`;

/** Jobs with their boxes (and counts), locations and timeline, in the order of `ids`. */
export async function jobDetails(db: Queryable, ids: readonly number[]): Promise<WorkJobDetail[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<WorkJobDetail & { id: number }>(
    `SELECT j.id::int AS id,
       (SELECT row_to_json(x) FROM (SELECT ${JOB_ROW_COLUMNS}) x) AS job,
       COALESCE((SELECT json_agg(json_build_object('box_id', b.id::int, 'code', b.code,
                  'status', b.status, 'qty', b.qty, 'count', ${BOX_COUNT_JSON}) ORDER BY b.code)
                 FROM work_job_boxes jb JOIN inventory_boxes b ON b.id = jb.box_id
                 WHERE jb.job_id = j.id), '[]') AS boxes,
       COALESCE((SELECT json_agg(json_build_object('id', l.id::int, 'code', l.code)
                  ORDER BY l.code)
                 FROM work_job_locations jl JOIN locations l ON l.id = jl.location_id
                 WHERE jl.job_id = j.id), '[]') AS locations,
       COALESCE((SELECT json_agg(json_build_object('id', e.id::int, 'at', ${isoTextSql('e.at')},
                  'actor_name', e.actor_name, 'type', e.type, 'from_status', e.from_status,
                  'to_status', e.to_status, 'data', e.data) ORDER BY e.id)
                 FROM work_job_events e WHERE e.job_id = j.id), '[]') AS events
     FROM work_jobs j WHERE j.id = ANY ($1::bigint[])`,
    [ids],
  );
  const byId = new Map(rows.map(({ id, ...detail }) => [id, detail]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function jobDetail(db: Queryable, id: number): Promise<WorkJobDetail> {
  const [detail] = await jobDetails(db, [id]);
  if (!detail) throw new NotFoundError(`There is no job ${id}.`);
  return detail;
}
