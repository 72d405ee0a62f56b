import type { Queryable } from '../../db/db.js';

/**
 * Work jobs over two years for the generated data (db/generate-activity.ts): every kind and
 * state, the older ones done and verified, the newest 50 still open, three in four with a due
 * time; each given to one of the first hundred generated staff accounts. Set-based and
 * deterministic.
 */
export async function generateWorkJobs(
  db: Queryable,
  options: { readonly jobs: number; readonly anchor: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO work_jobs (kind, title, target_qty, done_qty, due_at, status, created_at,
       updated_at, started_at, done_at, verified_at)
     SELECT (ARRAY['count', 'move', 'production', 'repair', 'other'])[g % 5 + 1],
       'Generated job ' || g, 10 + g % 90,
       CASE WHEN s.status IN ('done', 'verified') THEN 10 + g % 90 ELSE 0 END,
       CASE WHEN g % 4 <> 0 THEN x.at + interval '2 days' END, s.status, x.at, x.at,
       CASE WHEN s.status <> 'assigned' THEN x.at + interval '1 hour' END,
       CASE WHEN s.status IN ('done', 'verified') THEN x.at + interval '1 day' END,
       CASE WHEN s.status = 'verified' THEN x.at + interval '2 days' END
     FROM generate_series(1, $1::int) AS g,
       LATERAL (SELECT $2::timestamptz - interval '730 days' * ($1::int - g) / $1::int AS at) x,
       LATERAL (SELECT CASE
         WHEN g > $1::int - 50 THEN (ARRAY['assigned', 'in_progress'])[g % 2 + 1]
         WHEN g % 20 = 0 THEN 'cancelled' WHEN g % 3 = 0 THEN 'done' ELSE 'verified'
       END AS status) s`,
    [options.jobs, options.anchor.toISOString()],
  );
  await db.query(
    `INSERT INTO work_job_assignees (job_id, user_id)
     SELECT j.id, w.ids[j.id % array_length(w.ids, 1) + 1]
     FROM work_jobs j,
       (SELECT array_agg(id ORDER BY id) AS ids FROM (
          SELECT id FROM users WHERE user_name LIKE 'generated.%' AND type = 'staff'
          ORDER BY id LIMIT 100) s) w
     WHERE j.title LIKE 'Generated job %' AND w.ids IS NOT NULL`,
  );
}
