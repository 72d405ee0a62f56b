import {
  WORK_ACTIONS,
  WORK_REPORT_DEFAULT_DAYS,
  WORK_REPORT_MAX_DAYS,
  type ActionCounts,
  type WorkAction,
  type WorkReport,
  type WorkReportQuery,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';

/**
 * The working report's figures (DOMAIN.md 4.11): read from the kept sums per person, business
 * day and action (`work_day_totals` over `work_day_counts`' shards, migrations 0071 and 0079),
 * never from the events, so a range costs the people and days it holds whatever the registry's
 * size. A team is a role: a person counts under each role they hold.
 */

const DAY_MS = 86_400_000;

/** How many worker rows the page shows, the busiest first; the export gives them all. */
export const WORKER_ROWS_SHOWN = 200;

const zeroCounts = (): ActionCounts =>
  Object.fromEntries(WORK_ACTIONS.map((action) => [action, 0])) as ActionCounts;

const dayText = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The range asked, or the last WORK_REPORT_DEFAULT_DAYS business days; 422 when it is not one. */
async function rangeOf(db: Queryable, query: WorkReportQuery) {
  const [settings] = (await db.query<{ today: string; time_zone: string }>(
    `SELECT to_char(order_business_day(now()), 'YYYY-MM-DD') AS today, time_zone
     FROM order_settings`,
  )) as [{ today: string; time_zone: string }];
  const to = query.to ?? settings.today;
  const from = query.from ?? dayText(Date.parse(to) - (WORK_REPORT_DEFAULT_DAYS - 1) * DAY_MS);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw fieldError('to', 'The last day is before the first day.');
  if (days > WORK_REPORT_MAX_DAYS) {
    throw fieldError('to', `Choose at most ${WORK_REPORT_MAX_DAYS} days.`);
  }
  return { from, to, days, timeZone: settings.time_zone };
}

/** The team asked (a role), or null for everyone; 422 for a role that does not exist. */
async function teamOf(db: Queryable, teamId: number | undefined) {
  if (teamId === undefined) return null;
  const [team] = await db.query<{ id: number; name: string }>(
    'SELECT id::int AS id, name FROM roles WHERE id = $1',
    [teamId],
  );
  if (!team) throw fieldError('team_id', 'Choose a team that exists.');
  return team;
}

/** The people of a team, as a condition on `c.user_id` with the team's id as `$3`. */
const IN_TEAM = `($3::bigint IS NULL OR c.user_id IN (
  SELECT ur.user_id FROM user_roles ur WHERE ur.role_id = $3))`;

type DayAction = { team_id: number | null; day: string; action: WorkAction; qty: number };
type WorkerRow = WorkReport['workers'][number];

/** Units per hour per worker and action, the busiest first (all of them without a limit). */
export async function workerRates(
  db: Queryable,
  range: { from: string; to: string },
  teamId: number | null,
  limit: number | null,
): Promise<WorkerRow[]> {
  // A day's hours: the station's timing where it keeps one, else its first to last unit.
  const rows = await db.query<Omit<WorkerRow, 'units_per_hour'>>(
    `SELECT c.user_id::int AS user_id, u.name, c.action, sum(c.qty)::int AS qty,
       sum(c.rework)::int AS rework,
       round((sum(CASE WHEN c.duration_s > 0 THEN c.duration_s
                       ELSE extract(epoch FROM c.last_at - c.first_at) END) / 3600)::numeric, 2)
         ::float8 AS hours
     FROM work_day_totals c JOIN users u ON u.id = c.user_id
     WHERE c.business_day BETWEEN $1::date AND $2::date AND ${IN_TEAM}
     GROUP BY c.user_id, u.name, c.action
     ORDER BY sum(c.qty) DESC, u.name, c.action
     ${limit === null ? '' : `LIMIT ${limit}`}`,
    [range.from, range.to, teamId],
  );
  return rows.map((row) => ({
    ...row,
    units_per_hour: row.hours > 0 ? Math.round((row.qty / row.hours) * 10) / 10 : null,
  }));
}

export async function workReport(db: Queryable, query: WorkReportQuery): Promise<WorkReport> {
  const range = await rangeOf(db, query);
  const team = await teamOf(db, query.team_id);
  const teamId = team?.id ?? null;
  const teams = await db.query<{ id: number; name: string }>(
    'SELECT id::int AS id, name FROM roles ORDER BY name, id',
  );
  // The team read (or everyone), and, when no team was asked, every team with work.
  const counts = await db.query<DayAction & { rework: number }>(
    `SELECT NULL::int AS team_id, to_char(c.business_day, 'YYYY-MM-DD') AS day, c.action,
       sum(c.qty)::int AS qty, sum(c.rework)::int AS rework
     FROM work_day_totals c
     WHERE c.business_day BETWEEN $1::date AND $2::date AND ${IN_TEAM}
     GROUP BY c.business_day, c.action
     UNION ALL
     SELECT ur.role_id::int, to_char(c.business_day, 'YYYY-MM-DD'), c.action, sum(c.qty)::int,
       sum(c.rework)::int
     FROM work_day_totals c JOIN user_roles ur ON ur.user_id = c.user_id
     WHERE $3::bigint IS NULL AND c.business_day BETWEEN $1::date AND $2::date
     GROUP BY ur.role_id, c.business_day, c.action`,
    [range.from, range.to, teamId],
  );

  const teamName = new Map(teams.map((row) => [row.id, row.name]));
  type DayRow = WorkReport['days'][number];
  const dayRow = (teamKey: number | null, team: string, day: string): DayRow => ({
    team_id: teamKey,
    team,
    day,
    counts: zeroCounts(),
  });
  // Every day of the range for the team read, newest first; each team's days follow.
  const readDays = new Map<string, DayRow>();
  for (let n = range.days - 1; n >= 0; n -= 1) {
    const day = dayText(Date.parse(range.from) + n * DAY_MS);
    readDays.set(day, dayRow(teamId, team?.name ?? 'Everyone', day));
  }
  const teamDays = new Map<string, DayRow>();
  const totals = zeroCounts();
  const reworkOf = zeroCounts();
  for (const row of counts) {
    if (row.team_id === null) {
      readDays.get(row.day)!.counts[row.action] += row.qty;
      totals[row.action] += row.qty;
      reworkOf[row.action] += row.rework;
      continue;
    }
    const key = `${row.team_id}|${row.day}`;
    let teamDay = teamDays.get(key);
    if (!teamDay) {
      teamDay = dayRow(row.team_id, teamName.get(row.team_id) ?? '', row.day);
      teamDays.set(key, teamDay);
    }
    teamDay.counts[row.action] += row.qty;
  }
  const byTeam = [...teamDays.values()].sort(
    (a, b) => a.team.localeCompare(b.team) || b.day.localeCompare(a.day),
  );

  return {
    from: range.from,
    to: range.to,
    time_zone: range.timeZone,
    team,
    teams,
    days: [...readDays.values(), ...byTeam],
    totals,
    workers: await workerRates(db, range, teamId, WORKER_ROWS_SHOWN),
    rework: WORK_ACTIONS.filter((action) => totals[action] > 0).map((action) => ({
      action,
      qty: totals[action],
      rework: reworkOf[action],
      rate: Math.round((reworkOf[action] / totals[action]) * 1000) / 1000,
    })),
    jobs: await openJobs(db, teamId),
  };
}

/**
 * Work jobs open now and those past due: all of them, or those with an assignee of the team. The
 * open jobs are few and read through their partial index (`work_jobs_open_due`).
 */
async function openJobs(db: Queryable, teamId: number | null) {
  const [jobs] = await db.query<{ open: number; overdue: number }>(
    `SELECT count(*)::int AS open, count(*) FILTER (WHERE j.due_at < now())::int AS overdue
     FROM work_jobs j
     WHERE j.status IN ('assigned', 'in_progress')
       AND ($1::bigint IS NULL OR EXISTS (
         SELECT 1 FROM work_job_assignees a JOIN user_roles r ON r.user_id = a.user_id
         WHERE a.job_id = j.id AND r.role_id = $1))`,
    [teamId],
  );
  return jobs!;
}

/** The range and team of a query as the report reads them (for its exports). */
export async function reportRange(db: Queryable, query: WorkReportQuery) {
  const range = await rangeOf(db, query);
  const team = await teamOf(db, query.team_id);
  return { ...range, teamId: team?.id ?? null };
}
