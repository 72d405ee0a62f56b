import {
  FULFILMENT_DASHBOARD_DEMAND_ROWS,
  FULFILMENT_DASHBOARD_MAX_AGE_MINUTES,
  FULFILMENT_TYPES,
  ORDER_HOLD_REASONS,
  QUEUE_STAGES,
  SLA_OPEN_STATUSES,
  type FulfilmentFigures,
  type FulfilmentType,
  type OrderHoldReason,
  type QueueStage,
  type SlaOpenStatus,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';
import type { SnapshotDefinition } from '../../toolkit/snapshots.js';
import { readyDemand } from '../fulfilment/index.js';

/*
 * The fulfilment dashboard's figures (DOMAIN.md 4.18), read by the snapshot toolkit in the
 * background (decision 0023), never on a request: a request reads the one kept row, so it costs
 * the same at 100,000 orders as at 1,000,000. Each statement reads through an index what it
 * counts: the orders waiting in a stage (their status leads `orders_status_sla`), those on hold
 * (`orders_hold_created`, partial), those past their SLA (the same status index, ranged on the
 * SLA), and the day's picks (`order_line_units_picked`, migration 0057), labels (`packages_created`)
 * and scan-outs (`packages_scanned_out`) as one range of the business day. "Today" is the business
 * day of `order_settings.time_zone` at the moment of the refresh, as the daily order report's.
 */

type Day = Pick<FulfilmentFigures, 'day' | 'time_zone' | 'cutoff' | 'cutoff_at'> & {
  starts_at: string;
  ends_at: string;
};

/** The business day of `asOf`, when it starts and ends, and its same-day cut-off. */
async function businessDay(db: Queryable, asOf: string): Promise<Day> {
  const [day] = await db.query<Day>(
    `SELECT b.day::text AS day, s.time_zone, to_char(s.same_day_cutoff, 'HH24:MI') AS cutoff,
       ${isoTextSql('(b.day + s.same_day_cutoff) AT TIME ZONE s.time_zone')} AS cutoff_at,
       ${isoTextSql('b.day::timestamp AT TIME ZONE s.time_zone')} AS starts_at,
       ${isoTextSql('(b.day + 1)::timestamp AT TIME ZONE s.time_zone')} AS ends_at
     FROM order_settings s
     CROSS JOIN LATERAL (SELECT ($1::timestamptz AT TIME ZONE s.time_zone)::date AS day) b`,
    [asOf],
  );
  return day!;
}

/** A scan-out moment as `packages_scanned_out` indexes it. */
const SCANNED_OUT = "COALESCE(p.scanned_out_at, '-infinity'::timestamptz)";

type Queue = FulfilmentFigures['queues'][number];

/** Each queue's orders by the stage they wait in now, and its parcels scanned out today. */
async function queues(db: Queryable, day: Day): Promise<Queue[]> {
  const waiting = await db.query<{
    fulfilment_type: FulfilmentType;
    status: QueueStage;
    n: number;
  }>(
    `SELECT fulfilment_type, status, count(*)::int AS n FROM orders
     WHERE status = ANY ($1::text[]) GROUP BY fulfilment_type, status`,
    [QUEUE_STAGES],
  );
  const shipped = await db.query<{ fulfilment_type: FulfilmentType; n: number }>(
    `SELECT o.fulfilment_type, count(DISTINCT p.order_id)::int AS n
     FROM packages p JOIN orders o ON o.id = p.order_id
     WHERE ${SCANNED_OUT} >= $1::timestamptz AND ${SCANNED_OUT} < $2::timestamptz
     GROUP BY o.fulfilment_type`,
    [day.starts_at, day.ends_at],
  );
  return FULFILMENT_TYPES.map((type) => {
    const stage = (status: QueueStage) =>
      waiting.find((row) => row.fulfilment_type === type && row.status === status)?.n ?? 0;
    return {
      fulfilment_type: type,
      ready: stage('ready'),
      assigned: stage('assigned'),
      in_progress: stage('in_progress'),
      fulfilled: stage('fulfilled'),
      labeled: stage('labeled'),
      shipped_today: shipped.find((row) => row.fulfilment_type === type)?.n ?? 0,
    };
  });
}

/** The day's picks, labels and scan-outs per hour of the business day (every hour, zeros too). */
const throughputByHour = (db: Queryable, day: Day) =>
  db.query<FulfilmentFigures['throughput']['by_hour'][number]>(
    `WITH picked AS (
       SELECT extract(hour FROM u.picked_at AT TIME ZONE $3::text)::int AS hour, count(*) AS n
       FROM order_line_units u
       WHERE u.picked_at >= $1::timestamptz AND u.picked_at < $2::timestamptz
       GROUP BY 1),
     labelled AS (
       SELECT extract(hour FROM p.label_created_at AT TIME ZONE $3::text)::int AS hour, count(*) AS n
       FROM packages p
       WHERE p.label_created_at >= $1::timestamptz AND p.label_created_at < $2::timestamptz
         AND p.status <> 'voided'
       GROUP BY 1),
     scanned AS (
       SELECT extract(hour FROM p.scanned_out_at AT TIME ZONE $3::text)::int AS hour, count(*) AS n
       FROM packages p
       WHERE ${SCANNED_OUT} >= $1::timestamptz AND ${SCANNED_OUT} < $2::timestamptz
       GROUP BY 1)
     SELECT h.hour, COALESCE(pk.n, 0)::int AS picked, COALESCE(l.n, 0)::int AS labelled,
       COALESCE(s.n, 0)::int AS scanned_out
     FROM generate_series(0, 23) AS h (hour)
     LEFT JOIN picked pk ON pk.hour = h.hour
     LEFT JOIN labelled l ON l.hour = h.hour
     LEFT JOIN scanned s ON s.hour = h.hour
     ORDER BY h.hour`,
    [day.starts_at, day.ends_at, day.time_zone],
  );

const sum = <R>(rows: readonly R[], figure: (row: R) => number) =>
  rows.reduce((total, row) => total + figure(row), 0);

/** Every figure of the dashboard as of `asOf`. */
export async function fulfilmentFigures(db: Queryable, asOf: string): Promise<FulfilmentFigures> {
  const day = await businessDay(db, asOf);
  const byQueue = await queues(db, day);
  const held = await db.query<{ hold_reason: OrderHoldReason; orders: number; late: number }>(
    `SELECT hold_reason, count(*)::int AS orders,
       count(*) FILTER (WHERE sla_due_at < $1::timestamptz)::int AS late
     FROM orders WHERE hold_reason IS NOT NULL GROUP BY hold_reason`,
    [asOf],
  );
  const breached = await db.query<{ status: SlaOpenStatus; orders: number }>(
    `SELECT status, count(*)::int AS orders FROM orders
     WHERE status = ANY ($1::text[])
       AND COALESCE(sla_due_at, 'infinity'::timestamptz) < $2::timestamptz
     GROUP BY status`,
    [SLA_OPEN_STATUSES, asOf],
  );
  const hours = await throughputByHour(db, day);
  const demand = await readyDemand(db);

  const bySla = SLA_OPEN_STATUSES.flatMap((status) => {
    const orders = breached.find((row) => row.status === status)?.orders ?? 0;
    return orders > 0 ? [{ status, orders }] : [];
  });
  const { starts_at: _starts, ends_at: _ends, ...shown } = day;
  return {
    ...shown,
    queues: byQueue,
    totals: {
      ready: sum(byQueue, (queue) => queue.ready),
      assigned: sum(byQueue, (queue) => queue.assigned),
      in_progress: sum(byQueue, (queue) => queue.in_progress),
      fulfilled: sum(byQueue, (queue) => queue.fulfilled),
      labeled: sum(byQueue, (queue) => queue.labeled),
      shipped_today: sum(byQueue, (queue) => queue.shipped_today),
    },
    backlog: ORDER_HOLD_REASONS.flatMap((reason) => {
      const row = held.find((candidate) => candidate.hold_reason === reason);
      return row ? [{ hold_reason: reason, orders: row.orders, sla_breached: row.late }] : [];
    }),
    sla: { breached: sum(bySla, (row) => row.orders), by_status: bySla },
    throughput: {
      picked: sum(hours, (hour) => hour.picked),
      labelled: sum(hours, (hour) => hour.labelled),
      scanned_out: sum(hours, (hour) => hour.scanned_out),
      by_hour: hours,
    },
    demand: [...demand]
      .sort((a, b) => shortOf(b) - shortOf(a) || b.units - a.units)
      .slice(0, FULFILMENT_DASHBOARD_DEMAND_ROWS),
    demand_variants: demand.length,
  };
}

/** Units a variant's ready orders want beyond its available stock. */
const shortOf = (row: { units: number; available: number }) =>
  Math.max(0, row.units - row.available);

/** The dashboard's snapshot: read again by the refresher once it is older than its max age. */
export const fulfilmentDashboardSnapshot: SnapshotDefinition<FulfilmentFigures> = {
  name: 'fulfilment-dashboard',
  maxAgeMs: FULFILMENT_DASHBOARD_MAX_AGE_MINUTES * 60_000,
  compute: fulfilmentFigures,
};
