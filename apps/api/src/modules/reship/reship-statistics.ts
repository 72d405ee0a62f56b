import {
  RESHIP_STATISTICS_MAX_DAYS,
  type ReshipStatistics,
  type reshipStatisticsQuerySchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import { businessDayEndSql, businessDayStartSql } from '../../http/sql.js';

/**
 * Reship statistics (DOMAIN.md 4.16 /shipment-management/reship-statistics): the reships asked
 * for in a range of days (UTC) and not denied, by day, reason, cost owner, the shipping carrier of
 * the original parcel and the client carrier (or retailer). One statement over the range's rows of
 * `reships` (index by creation time) and the daily order counts for the orders shipped, so a year
 * costs what its reships cost, whatever the size of the device and order tables.
 */

const DAY_MS = 86_400_000;

const STATISTICS_SQL = `
  WITH r AS (
    SELECT order_business_day(r.created_at)::text AS day, r.reason, r.cost_owner,
      COALESCE((SELECT p.carrier FROM packages p WHERE p.order_id = r.original_order_id
                AND p.status <> 'voided' ORDER BY p.id DESC LIMIT 1), 'none') AS carrier,
      COALESCE((SELECT v.name FROM vendors v WHERE v.id = o.client_carrier_id),
               (SELECT t.name FROM retailers t WHERE t.id = o.retailer_id), 'none') AS client
    FROM reships r JOIN orders o ON o.id = r.original_order_id
    WHERE r.created_at >= ${businessDayStartSql('$1')} AND r.created_at < ${businessDayEndSql('$2')}
      AND r.status <> 'denied'
  ),
  counted AS (
    SELECT 'reason' AS dimension, reason AS key, count(*)::int AS n FROM r GROUP BY reason
    UNION ALL SELECT 'cost_owner', cost_owner, count(*)::int FROM r GROUP BY cost_owner
    UNION ALL SELECT 'carrier', carrier, count(*)::int FROM r GROUP BY carrier
    UNION ALL SELECT 'client', client, count(*)::int FROM r GROUP BY client
  )
  SELECT (SELECT count(*)::int FROM r) AS reships,
    (SELECT COALESCE(sum(shipped), 0)::int FROM order_day_counts
     WHERE day BETWEEN $1::date AND $2::date) AS shipped,
    (SELECT COALESCE(json_agg(json_build_object('day', day, 'reships', n) ORDER BY day), '[]')
     FROM (SELECT day, count(*)::int AS n FROM r GROUP BY day) d) AS by_day,
    (SELECT COALESCE(json_object_agg(dimension, rows), '{}') FROM (
       SELECT dimension, json_agg(json_build_object('key', key, 'reships', n)
         ORDER BY n DESC, key) AS rows
       FROM counted GROUP BY dimension) g) AS groups`;

type Row = Pick<ReshipStatistics, 'reships' | 'shipped' | 'by_day'> & {
  groups: Partial<
    Record<'reason' | 'cost_owner' | 'carrier' | 'client', ReshipStatistics['by_reason']>
  >;
};

export async function reshipStatistics(
  db: Queryable,
  { from, to }: z.output<typeof reshipStatisticsQuerySchema>,
): Promise<ReshipStatistics> {
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1) throw fieldError('to', 'The last day comes before the first.');
  if (days > RESHIP_STATISTICS_MAX_DAYS) {
    throw fieldError('to', `At most ${RESHIP_STATISTICS_MAX_DAYS} days at once.`);
  }
  const [row] = await db.query<Row>(STATISTICS_SQL, [from, to]);
  const { groups, ...totals } = row!;
  return {
    from,
    to,
    ...totals,
    by_reason: groups.reason ?? [],
    by_cost_owner: groups.cost_owner ?? [],
    by_carrier: groups.carrier ?? [],
    by_client: groups.client ?? [],
  };
}
