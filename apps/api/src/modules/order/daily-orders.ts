import { DAILY_ORDER_MAX_DAYS, type DailyOrderReport } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';

/**
 * The daily order report (DOMAIN.md 4.7, /order/daily-order): per business day, source and
 * fulfilment type, the figures kept in order_day_counts by the triggers on orders (migration
 * 0038) in the transaction of each change. A year reads about 365 x sources x types rows (and
 * their shards), whatever the number of orders.
 */
export async function dailyOrderReport(
  db: Queryable,
  range: { from?: string | undefined; to?: string | undefined },
): Promise<DailyOrderReport> {
  const [settings] = await db.query<{
    time_zone: string;
    cutoff: string;
    from: string;
    to: string;
    days: number;
  }>(
    `SELECT s.time_zone, to_char(s.same_day_cutoff, 'HH24:MI') AS cutoff, r.to::text AS to,
       COALESCE($1::date, r.to - 29)::text AS from,
       r.to - COALESCE($1::date, r.to - 29) + 1 AS days
     FROM order_settings s,
       LATERAL (SELECT COALESCE($2::date, (now() AT TIME ZONE s.time_zone)::date) AS to) r`,
    [range.from ?? null, range.to ?? null],
  );
  const { time_zone, cutoff, from, to, days } = settings!;
  if (days < 1) throw fieldError('from', 'The first day must not be after the last.');
  if (days > DAILY_ORDER_MAX_DAYS) {
    throw fieldError('from', `Choose at most ${DAILY_ORDER_MAX_DAYS} days.`);
  }
  const rows = await db.query<DailyOrderReport['rows'][number]>(
    `SELECT day::text AS day, source, fulfilment_type,
       sum(received)::int AS received, sum(approved)::int AS approved,
       sum(shipped)::int AS shipped, sum(backlog)::int AS backlog,
       sum(cancelled)::int AS cancelled,
       sum(received_before_cutoff)::int AS received_before_cutoff,
       sum(shipped_same_day)::int AS shipped_same_day
     FROM order_day_counts
     WHERE day BETWEEN $1::date AND $2::date
     GROUP BY day, source, fulfilment_type
     HAVING sum(abs(received) + abs(approved) + abs(shipped) + abs(backlog) + abs(cancelled)) > 0
     ORDER BY day DESC, source, fulfilment_type`,
    [from, to],
  );
  return { from, to, time_zone, cutoff, rows };
}
