import {
  WORK_ACTIONS,
  WORK_REPORT_FILES,
  type FileFormat,
  type WorkReportQuery,
  type WorkReportTable,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { PreparedFile } from '../../toolkit/downloads.js';
import { CONTENT_TYPES, fileStream, type Cell } from '../../toolkit/files.js';
import { workerRates, workReport, reportRange } from './work-report.js';

/** The rows of one table of the report, as the page shows it (every worker, not the busiest). */
async function tableRows(
  db: Queryable,
  table: WorkReportTable,
  query: WorkReportQuery,
): Promise<Cell[][]> {
  switch (table) {
    case 'days':
      return (await workReport(db, query)).days.map((row) => [
        row.team,
        row.day,
        ...WORK_ACTIONS.map((action) => row.counts[action]),
      ]);
    case 'workers': {
      const range = await reportRange(db, query);
      return (await workerRates(db, range, range.teamId, null)).map((row) => [
        row.name,
        row.action,
        row.qty,
        row.rework,
        row.hours,
        row.units_per_hour,
      ]);
    }
    case 'rework':
      return (await workReport(db, query)).rework.map((row) => [
        row.action,
        row.qty,
        row.rework,
        row.rate,
      ]);
  }
}

/** One table of the report as a file named by the table and its range. */
export async function workReportFile(
  db: Queryable,
  table: WorkReportTable,
  format: FileFormat,
  query: WorkReportQuery,
): Promise<PreparedFile> {
  const { title, columns } = WORK_REPORT_FILES[table];
  const { from, to } = await reportRange(db, query);
  const rows = await tableRows(db, table, query);
  async function* chunks() {
    yield rows;
  }
  return {
    fileName: `work-${table}-${from}-${to}.${format}`,
    contentType: CONTENT_TYPES[format],
    stream: fileStream(format, title, columns, chunks()),
  };
}
