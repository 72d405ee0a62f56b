import {
  WORK_REPORT_ACCESS,
  workReportEndpoint,
  workReportExportEndpoint,
  type FileFormat,
  type WorkReportQuery,
  type WorkReportTable,
} from '@inventory/contract';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { workReportFile } from './work-report-files.js';
import { workLogListStore } from './work-report.store.js';
import { reportRange, workReport } from './work-report.js';

/**
 * The working report (DOMAIN.md 4.11 `/report/dashboard`): work per team and day, units per hour
 * per worker and rework, each table exported, and the work log behind any figure.
 */
export const workReportModule: AppModule = {
  name: 'work-report',
  register(context) {
    const { endpoint, db, replica, downloads } = context;
    registerList(context, workLogListStore);
    endpoint(workReportEndpoint, ({ query }) => workReport(replica, query));

    downloads.addProducer('work-report-table', (request) =>
      workReportFile(
        replica,
        request.table as WorkReportTable,
        request.format as FileFormat,
        request.query as WorkReportQuery,
      ),
    );
    endpoint(workReportExportEndpoint, async ({ principal, body }) => {
      const { table, format, ...query } = body;
      // A range or team the report refuses is refused here (422), not when the file is fetched.
      await reportRange(db, query);
      return downloads.issue(principal, {
        producer: 'work-report-table',
        access: WORK_REPORT_ACCESS,
        table,
        format,
        query,
      });
    });
  },
};
