import {
  REPAIR_STATISTICS_FILES,
  type FileFormat,
  type RepairStatistics,
  type RepairStatisticsTable,
  type repairStatisticsQuerySchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import { businessDayEndSql, businessDayStartSql, isoTextSql } from '../../http/sql.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import { OPEN_TICKET } from './repair-reads.js';

/** The longest range the statistics read at once. */
const MAX_DAYS = 366;

type Range = Pick<z.output<typeof repairStatisticsQuerySchema>, 'from' | 'to'>;

/** Refuses (422) a range that ends before it starts or is longer than the statistics read. */
export function checkRange(range: Range) {
  const days = (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000;
  if (days < 0) throw fieldError('to', 'The end date is before the start date.');
  if (days >= MAX_DAYS) throw fieldError('to', `Choose at most ${MAX_DAYS} days.`);
}

/**
 * The repair dashboard and the technicians' statistics (DOMAIN.md 4.19): open tickets by state
 * and age, and for the tickets closed in a date range their throughput, first-pass yield (released
 * on their first test), labour, parts cost and BER rate, in all, per technician and per issue
 * code. Every read goes by an index of migration 0067 (open tickets, requested_at, closed_at), so
 * it costs the range's tickets, never the whole history.
 */
export async function repairStatistics(db: Queryable, range: Range): Promise<RepairStatistics> {
  checkRange(range);
  const params = [range.from, range.to];
  const closed = `SELECT t.*, COALESCE((SELECT sum(p.qty * p.unit_cost_cents) FROM repair_ticket_parts p
                    WHERE p.ticket_id = t.id AND p.returned_move_id IS NULL), 0) AS parts_cost
                  FROM repair_tickets t
                  WHERE t.closed_at >= ${businessDayStartSql('$1')}
                    AND t.closed_at < ${businessDayEndSql('$2')}`;
  const rates = `count(*)::int AS tickets,
    count(*) FILTER (WHERE c.status = 'released')::int AS released,
    count(*) FILTER (WHERE c.status = 'released' AND c.test_count = 1)::int AS first_pass,
    count(*) FILTER (WHERE c.test_count > 0)::int AS tested,
    count(*) FILTER (WHERE c.status = 'beyond_repair')::int AS beyond_repair,
    COALESCE(sum(c.labour_seconds), 0)::int AS labour_seconds,
    COALESCE(sum(c.parts_cost), 0)::int AS parts_cost_cents`;
  const [openByState, perDay, totals, technicians, issues] = await Promise.all([
    db.query<RepairStatistics['open_by_state'][number]>(
      `SELECT t.status, count(*)::int AS tickets,
         count(*) FILTER (WHERE t.requested_at < now() - interval '3 days')::int AS older_than_3_days,
         ${isoTextSql('min(t.requested_at)')} AS oldest_at
       FROM repair_tickets t WHERE ${OPEN_TICKET}
       GROUP BY t.status
       ORDER BY array_position(ARRAY['requested', 'sorted', 'assigned', 'in_repair',
         'waiting_parts', 'repaired', 'testing', 'passed', 'failed'], t.status)`,
    ),
    db.query<RepairStatistics['days'][number]>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day,
         (SELECT count(*) FROM repair_tickets t
          WHERE t.requested_at >= ${businessDayStartSql('day')}
            AND t.requested_at < ${businessDayEndSql('day')})::int AS requested,
         (SELECT count(*) FROM repair_tickets t
          WHERE t.closed_at >= ${businessDayStartSql('day')}
            AND t.closed_at < ${businessDayEndSql('day')})::int AS closed
       FROM generate_series($1::date, $2::date, interval '1 day') AS day
       ORDER BY day`,
      params,
    ),
    db.query<RepairStatistics['totals']>(`SELECT ${rates} FROM (${closed}) c`, params),
    db.query<RepairStatistics['technicians'][number]>(
      `SELECT COALESCE(u.name, 'Not assigned') AS technician, ${rates}
       FROM (${closed}) c LEFT JOIN users u ON u.id = c.technician_id
       GROUP BY u.id, u.name ORDER BY tickets DESC, technician`,
      params,
    ),
    db.query<RepairStatistics['issues'][number]>(
      `SELECT code AS issue_code, ${rates}
       FROM (${closed}) c CROSS JOIN LATERAL unnest(c.issue_codes) AS code
       GROUP BY code ORDER BY tickets DESC, code`,
      params,
    ),
  ]);
  return { open_by_state: openByState, days: perDay, totals: totals[0]!, technicians, issues };
}

const percent = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((100 * part) / whole);
type Rates = RepairStatistics['totals'];
const rateCells = (row: Rates): Cell[] => [
  row.tickets,
  row.released,
  percent(row.first_pass, row.tested),
  percent(row.beyond_repair, row.tickets),
  Math.round(row.labour_seconds / 360) / 10,
  (row.parts_cost_cents / 100).toFixed(2),
];

/** One table of the statistics as a file, named by the table and the range. */
export async function repairStatisticsFile(
  db: Queryable,
  request: { from: string; to: string; table: RepairStatisticsTable; format: FileFormat },
): Promise<PreparedFile> {
  const stats = await repairStatistics(db, request);
  const rows: Cell[][] =
    request.table === 'technicians'
      ? stats.technicians.map((row) => [row.technician, ...rateCells(row)])
      : request.table === 'issues'
        ? stats.issues.map((row) => [row.issue_code, ...rateCells(row)])
        : stats.days.map((row) => [row.day, row.requested, row.closed]);
  const { title, columns } = REPAIR_STATISTICS_FILES[request.table];
  async function* chunks() {
    yield rows;
  }
  return {
    fileName: `repair-${request.table}-${request.from}-${request.to}.${request.format}`,
    contentType: CONTENT_TYPES[request.format],
    stream: fileStream(request.format, title, columns, chunks()),
  };
}
