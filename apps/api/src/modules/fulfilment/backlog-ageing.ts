import * as z from 'zod/mini';
import type { Db } from '../../db/db.js';
import { defineJob } from '../../toolkit/jobs.js';

/**
 * Backlog ageing alerts (DOMAIN.md 4.14 /fulfill/backlog-order: "aging alerts at 24/48/72 h
 * (config)", `order_settings.backlog_alert_hours`). An order's hold began when it was last put on
 * hold; each threshold that hold passes is alerted once (`backlog_alerts`), on the order's
 * timeline, and the backlog list shows and filters what was alerted.
 */

/** When the order over `orders o` was last put on hold: its hold's age counts from there. */
export const HELD_AT_SQL = `(SELECT max(e.at) FROM order_events e
  WHERE e.order_id = o.id AND e.type = 'held')`;

/** The thresholds the current hold of the order over `o` has been alerted at. */
const CURRENT_ALERTS = `backlog_alerts a WHERE a.order_id = o.id AND a.held_at = ${HELD_AT_SQL}`;

/** The backlog row's alert columns: the highest threshold alerted, and how many were. */
export const BACKLOG_ALERT_COLUMNS = `(SELECT max(a.hours)::int FROM ${CURRENT_ALERTS}) AS alert_hours,
  (SELECT count(*)::int FROM ${CURRENT_ALERTS}) AS alert_level`;

/** The backlog list's filter: orders whose current hold has been alerted. */
export const ALERTED_SQL = `EXISTS (SELECT 1 FROM ${CURRENT_ALERTS})`;

/**
 * Alerts every threshold the orders on hold have passed and were not alerted at: one statement,
 * so two app servers running it at once alert each once (the key of `backlog_alerts`). Answers
 * how many orders were alerted.
 */
export async function alertAgeingBacklog(db: Db): Promise<number> {
  const alerted = await db.query(
    `WITH held AS (
       SELECT o.id, ${HELD_AT_SQL} AS held_at FROM orders o WHERE o.status = 'on_hold'
     ), due AS (
       SELECT h.id, h.held_at, t.hours FROM held h
       CROSS JOIN unnest((SELECT backlog_alert_hours FROM order_settings)) AS t (hours)
       WHERE h.held_at <= now() - make_interval(hours => t.hours)
     ), alerted AS (
       INSERT INTO backlog_alerts (order_id, held_at, hours)
       SELECT id, held_at, hours FROM due
       ON CONFLICT DO NOTHING
       RETURNING order_id, hours
     )
     INSERT INTO order_events (order_id, actor_name, type, data)
     SELECT order_id, 'Backlog ageing', 'backlog_ageing', jsonb_build_object('hours', max(hours))
     FROM alerted GROUP BY order_id
     RETURNING order_id`,
  );
  return alerted.length;
}

/** The ageing sweep: every 15 minutes, once across all app servers. */
export const backlogAgeingJob = defineJob({
  name: 'fulfilment.backlog-ageing',
  schema: z.object({}),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  expireInSeconds: 600,
  every: '*/15 * * * *',
  handler: (_data, { db }) => alertAgeingBacklog(db),
});
