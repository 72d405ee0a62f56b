import {
  UNPACK_STATISTICS_FILES,
  UNPACK_STATISTICS_MAX_DAYS,
  type FileFormat,
  type UnpackStatistics,
  type UnpackStatisticsQuery,
  type UnpackStatisticsTable,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import { businessDayEndSql, businessDayStartSql } from '../../http/sql.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';

/**
 * The unpack statistics (DOMAIN.md 4.16): read from kept figures, never by counting returns or
 * parcels, so a year costs the same at any size of the business. Returns, mismatches and empty
 * parcels come from `unpack_day_counts` (days x carriers x reasons x client carriers), the orders
 * shipped per day from the daily order report's `order_day_counts`, repeated addresses from
 * `unpack_addresses` (addresses returned more than once, by an index of the latest return).
 */

/** Addresses shown, most returns first. */
const REPEATED_SHOWN = 100;

const DAY_MS = 86_400_000;

/** A range the statistics read: 422 for one backwards or longer than two years. */
export function checkedRange({ from, to }: UnpackStatisticsQuery) {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days < 1) throw fieldError('to', 'The last day must not be before the first.');
  if (days > UNPACK_STATISTICS_MAX_DAYS) {
    throw fieldError('to', `Choose at most ${UNPACK_STATISTICS_MAX_DAYS} days.`);
  }
}

const FIGURES = `sum(returns)::int AS returns, sum(mismatches)::int AS mismatches,
  sum(empties)::int AS empties`;

export async function unpackStatistics(
  db: Queryable,
  query: UnpackStatisticsQuery,
): Promise<UnpackStatistics> {
  checkedRange(query);
  const range = [query.from, query.to];
  const inRange = 'day BETWEEN $1::date AND $2::date';
  const [counts, shipped, byCarrier, byReason, byClient, repeated] = await Promise.all([
    db.query<{ day: string; returns: number; mismatches: number; empties: number }>(
      `SELECT day::text AS day, ${FIGURES} FROM unpack_day_counts WHERE ${inRange}
       GROUP BY day`,
      range,
    ),
    db.query<{ day: string; shipped: number }>(
      `SELECT day::text AS day, sum(shipped)::int AS shipped FROM order_day_counts
       WHERE ${inRange} GROUP BY day HAVING sum(shipped) <> 0`,
      range,
    ),
    db.query<UnpackStatistics['by_carrier'][number]>(
      `SELECT carrier, ${FIGURES} FROM unpack_day_counts WHERE ${inRange}
       GROUP BY carrier ORDER BY 2 DESC, carrier`,
      range,
    ),
    db.query<UnpackStatistics['by_reason'][number]>(
      `SELECT reason, ${FIGURES} FROM unpack_day_counts WHERE ${inRange}
       GROUP BY reason ORDER BY 2 DESC, reason`,
      range,
    ),
    db.query<UnpackStatistics['by_client'][number]>(
      `SELECT COALESCE((SELECT v.name FROM vendors v WHERE v.id = c.client_carrier_id), 'None')
         AS client_carrier, ${FIGURES}
       FROM unpack_day_counts c WHERE ${inRange}
       GROUP BY c.client_carrier_id ORDER BY 2 DESC, 1`,
      range,
    ),
    db.query<UnpackStatistics['repeated_addresses'][number]>(
      `SELECT a.address_key AS address, a.zip, a.returns, to_json(a.last_at) #>> '{}' AS last_at
       FROM unpack_addresses a
       WHERE a.returns > 1
         AND a.last_at >= ${businessDayStartSql('$1')} AND a.last_at < ${businessDayEndSql('$2')}
       ORDER BY a.returns DESC, a.last_at DESC LIMIT ${REPEATED_SHOWN}`,
      range,
    ),
  ]);
  const days = new Map<string, UnpackStatistics['by_day'][number]>();
  const dayOf = (day: string) => {
    let row = days.get(day);
    if (!row) {
      row = { day, shipped: 0, returns: 0, mismatches: 0, empties: 0 };
      days.set(day, row);
    }
    return row;
  };
  for (const row of counts) Object.assign(dayOf(row.day), row);
  for (const row of shipped) dayOf(row.day).shipped = row.shipped;
  const byDay = [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  const total = (key: 'returns' | 'mismatches' | 'empties' | 'shipped') =>
    byDay.reduce((sum, row) => sum + row[key], 0);
  return {
    from: query.from,
    to: query.to,
    totals: {
      shipped: total('shipped'),
      returns: total('returns'),
      mismatches: total('mismatches'),
      empties: total('empties'),
    },
    by_day: byDay,
    by_carrier: byCarrier,
    by_reason: byReason,
    by_client: byClient,
    repeated_addresses: repeated,
  };
}

/** Returns per 100 orders shipped, one decimal; none shipped is no rate. */
export const returnRate = (returns: number, shipped: number): number | null =>
  shipped === 0 ? null : Math.round((returns / shipped) * 1000) / 10;

function tableRows(table: UnpackStatisticsTable, figures: UnpackStatistics): Cell[][] {
  const counts = (row: { returns: number; mismatches: number; empties: number }) => [
    row.returns,
    row.mismatches,
    row.empties,
  ];
  switch (table) {
    case 'by_day':
      return figures.by_day.map((row) => [
        row.day,
        row.shipped,
        row.returns,
        returnRate(row.returns, row.shipped),
        row.mismatches,
        row.empties,
      ]);
    case 'by_carrier':
      return figures.by_carrier.map((row) => [row.carrier, ...counts(row)]);
    case 'by_reason':
      return figures.by_reason.map((row) => [row.reason, ...counts(row)]);
    case 'by_client':
      return figures.by_client.map((row) => [row.client_carrier, ...counts(row)]);
    case 'repeated_addresses':
      return figures.repeated_addresses.map((row) => [
        row.address,
        row.zip,
        row.returns,
        row.last_at,
      ]);
  }
}

/** One table of the statistics as a file named by the table and the range. */
export async function unpackStatisticsFile(
  db: Queryable,
  request: UnpackStatisticsQuery & { table: UnpackStatisticsTable; format: FileFormat },
): Promise<PreparedFile> {
  const figures = await unpackStatistics(db, request);
  const { title, columns } = UNPACK_STATISTICS_FILES[request.table];
  const rows = tableRows(request.table, figures);
  async function* chunks() {
    yield rows;
  }
  return {
    fileName: `unpack-${request.table.replaceAll('_', '-')}-${request.from}-${request.to}.${request.format}`,
    contentType: CONTENT_TYPES[request.format],
    stream: fileStream(request.format, title, columns, chunks()),
  };
}
