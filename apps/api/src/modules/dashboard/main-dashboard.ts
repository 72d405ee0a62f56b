import {
  DEVICE_GRADES,
  DEVICE_OSES,
  MAIN_DASHBOARD_KEPT_DAYS,
  MAIN_DASHBOARD_MAX_AGE_MINUTES,
  MAIN_DASHBOARD_TOP_MODELS,
  PIPELINE_STAGES,
  type DeviceOs,
  type MainDashboardFigures,
  type PipelineStage,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { SnapshotDefinition } from '../../toolkit/snapshots.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';

/*
 * The main dashboard's kept figures (DOMAIN.md 4.1), read by the snapshot toolkit in the
 * background, never on a request. The devices are read once in ranges of ids (the primary key),
 * so that on PGlite no statement holds the database long; the orders, RMAs and SIM activations of
 * the kept days through their indexes by time, the rest from the counts other areas keep (SIMs by
 * status and agent, unpacks by day). The days are business days in the order settings' time zone.
 */

/** Devices read per statement. */
export const DEVICE_RANGE = 50_000;

/** The statuses counted: ready to sell, and the pipeline's stages. */
const COUNTED_STATUSES = ['in_stock', ...PIPELINE_STAGES] as const;

type DeviceGroup = {
  status: (typeof COUNTED_STATUSES)[number];
  model_id: number;
  grade: string | null;
  units: number;
};

const add = <K>(map: Map<K, number>, key: K, units: number) =>
  map.set(key, (map.get(key) ?? 0) + units);

/** Grades best first, as DEVICE_GRADES lists them; no grade last. */
const gradeOrder = (grade: string | null) =>
  grade === null ? DEVICE_GRADES.length : DEVICE_GRADES.indexOf(grade as never);

async function deviceFigures(db: Queryable) {
  const [{ last }] = (await db.query<{ last: number }>(
    'SELECT COALESCE(max(id), 0)::float8 AS last FROM devices',
  )) as [{ last: number }];
  const byModel = new Map<number, number>();
  const byGrade = new Map<string | null, number>();
  const pipeline = new Map<PipelineStage, number>();
  for (let from = 0; from < last; from += DEVICE_RANGE) {
    const groups = await db.query<DeviceGroup>(
      `SELECT d.status, d.model_id::int AS model_id,
         CASE WHEN d.status = 'in_stock' THEN d.grade END AS grade, count(*)::int AS units
       FROM devices d
       WHERE d.id > $1 AND d.id <= $2 AND d.status = ANY ($3::text[])
       GROUP BY 1, 2, 3`,
      [from, from + DEVICE_RANGE, COUNTED_STATUSES],
    );
    for (const group of groups) {
      if (group.status === 'in_stock') {
        add(byModel, group.model_id, group.units);
        add(byGrade, group.grade, group.units);
      } else {
        add(pipeline, group.status, group.units);
      }
    }
  }
  const models = await db.query<{ id: number; model: string; os: DeviceOs }>(
    `SELECT m.id::int AS id, ${MODEL_DISPLAY_NAME} AS model, m.os
     FROM device_models m JOIN brands b ON b.id = m.brand_id WHERE m.id = ANY ($1::bigint[])`,
    [[...byModel.keys()]],
  );
  const ranked = models
    .map((model) => ({
      model_id: model.id,
      model: model.model,
      os: model.os,
      units: byModel.get(model.id)!,
    }))
    .sort((a, b) => b.units - a.units || a.model.localeCompare(b.model));
  const byOs = new Map<DeviceOs, number>();
  for (const model of ranked) add(byOs, model.os, model.units);
  return {
    stock: {
      units: ranked.reduce((sum, model) => sum + model.units, 0),
      by_os: DEVICE_OSES.map((os) => ({ os, units: byOs.get(os) ?? 0 })),
      by_grade: [...byGrade]
        .map(([grade, units]) => ({ grade, units }))
        .sort((a, b) => gradeOrder(a.grade) - gradeOrder(b.grade)),
      top_models: ranked.slice(0, MAIN_DASHBOARD_TOP_MODELS),
    },
    pipeline: Object.fromEntries(
      PIPELINE_STAGES.map((stage) => [stage, pipeline.get(stage) ?? 0]),
    ) as Record<PipelineStage, number>,
  };
}

type DayRow = MainDashboardFigures['days'][number];
type DayFigure = Exclude<keyof DayRow, 'day' | 'client_carrier_id'>;
type Counted = { day: string; client_carrier_id: number | null; n: number };

/** The kept days' figures per business day and client carrier, one source at a time. */
async function dayFigures(db: Queryable, asOf: string, timeZone: string, firstDay: string) {
  const rows = new Map<string, DayRow>();
  const put = (figure: DayFigure, counted: readonly Counted[]) => {
    for (const { day, client_carrier_id: carrier, n } of counted) {
      const key = `${day}/${carrier ?? ''}`;
      const row = rows.get(key) ?? {
        day,
        client_carrier_id: carrier,
        orders_received: 0,
        orders_shipped: 0,
        activations: 0,
        rmas: 0,
        unpacks: 0,
      };
      row[figure] += n;
      rows.set(key, row);
    }
  };
  // The first kept day's start in the business time zone: the moments' lower bound.
  const since = `($2::date::timestamp AT TIME ZONE $1::text)`;
  const params = [timeZone, firstDay, asOf];
  put(
    'orders_received',
    await db.query<Counted>(
      `SELECT received_day::text AS day, client_carrier_id::int AS client_carrier_id,
         count(*)::int AS n
       FROM orders WHERE received_day >= $1::date AND created_at <= $2::timestamptz
       GROUP BY 1, 2`,
      [firstDay, asOf],
    ),
  );
  put(
    'orders_shipped',
    await db.query<Counted>(
      `SELECT (shipped_at AT TIME ZONE $1::text)::date::text AS day,
         client_carrier_id::int AS client_carrier_id, count(*)::int AS n
       FROM orders WHERE shipped_at >= ${since} AND shipped_at <= $3::timestamptz
       GROUP BY 1, 2`,
      params,
    ),
  );
  put(
    'activations',
    await db.query<Counted>(
      `SELECT day::text AS day, client_carrier_id::int AS client_carrier_id, sum(sims)::int AS n
       FROM sim_activation_days WHERE day >= $1::date GROUP BY 1, 2`,
      [firstDay],
    ),
  );
  put(
    'rmas',
    await db.query<Counted>(
      `SELECT (r.created_at AT TIME ZONE $1::text)::date::text AS day,
         o.client_carrier_id::int AS client_carrier_id, count(*)::int AS n
       FROM rmas r JOIN orders o ON o.id = r.order_id
       WHERE r.created_at >= ${since} AND r.created_at <= $3::timestamptz
       GROUP BY 1, 2`,
      params,
    ),
  );
  put(
    'unpacks',
    await db.query<Counted>(
      // Client carrier 0 is the kept counts' "none".
      `SELECT day::text AS day, NULLIF(client_carrier_id, 0)::int AS client_carrier_id,
         sum(returns)::int AS n
       FROM unpack_day_counts WHERE day >= $1::date GROUP BY 1, 2`,
      [firstDay],
    ),
  );
  return [...rows.values()]
    .filter(
      (row) =>
        row.orders_received + row.orders_shipped + row.activations + row.rmas + row.unpacks > 0,
    )
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) || (a.client_carrier_id ?? 0) - (b.client_carrier_id ?? 0),
    );
}

/** Every figure of the dashboard as of `asOf`. */
export async function mainDashboardFigures(
  db: Queryable,
  asOf: string,
): Promise<MainDashboardFigures> {
  const [calendar] = (await db.query<{ time_zone: string; today: string; first_day: string }>(
    `SELECT s.time_zone, d.today::text AS today, (d.today - $2::int)::text AS first_day
     FROM order_settings s
     CROSS JOIN LATERAL (SELECT ($1::timestamptz AT TIME ZONE s.time_zone)::date AS today) d`,
    [asOf, MAIN_DASHBOARD_KEPT_DAYS - 1],
  )) as [{ time_zone: string; today: string; first_day: string }];
  const devices = await deviceFigures(db);
  const carriers = await db.query<{ id: number; name: string }>(
    `SELECT id::int AS id, name FROM vendors WHERE type = 'carrier-client' ORDER BY name, id`,
  );
  // The partial index of held orders: the backlog reads those orders alone.
  const backlog = await db.query<MainDashboardFigures['backlog'][number]>(
    `SELECT client_carrier_id::int AS client_carrier_id, count(*)::int AS orders
     FROM orders WHERE hold_reason IS NOT NULL GROUP BY 1 ORDER BY 1 NULLS FIRST`,
  );
  const withAgents = await db.query<MainDashboardFigures['sims_with_agents'][number]>(
    `SELECT client_carrier_id::int AS client_carrier_id, sum(sims)::int AS sims,
       count(DISTINCT agent_id)::int AS agents
     FROM (SELECT agent_id, client_carrier_id, sum(sims) AS sims FROM sim_agent_counts
           WHERE status = 'with_agent' GROUP BY 1, 2 HAVING sum(sims) > 0) held
     GROUP BY 1 ORDER BY 1`,
  );
  const [holding] = (await db.query<{ agents: number }>(
    `SELECT count(DISTINCT agent_id)::int AS agents
     FROM (SELECT agent_id FROM sim_agent_counts WHERE status = 'with_agent'
           GROUP BY agent_id, client_carrier_id HAVING sum(sims) > 0) held`,
  )) as [{ agents: number }];
  return {
    business_day: calendar.today,
    first_day: calendar.first_day,
    carriers,
    stock: devices.stock,
    pipeline: devices.pipeline,
    backlog,
    sims_with_agents: withAgents,
    agents_holding: holding.agents,
    days: await dayFigures(db, asOf, calendar.time_zone, calendar.first_day),
  };
}

/** The dashboard's snapshot: read again by the refresher once it is older than its max age. */
export const mainDashboardSnapshot: SnapshotDefinition<MainDashboardFigures> = {
  name: 'main-dashboard',
  maxAgeMs: MAIN_DASHBOARD_MAX_AGE_MINUTES * 60_000,
  compute: mainDashboardFigures,
};
