import {
  agentAddressChangesEndpoint,
  approveAgentAddressChangeEndpoint,
  rejectAgentAddressChangeEndpoint,
  SIM_DASHBOARD_ACCESS,
  simDashboardEndpoint,
  simDashboardExportEndpoint,
  type FileFormat,
  type SimDashboardFile,
} from '@inventory/contract';
import type { AppModule } from '../module.js';
import {
  dashboardFile,
  decideAddressChange,
  pendingAddressChanges,
  simDashboard,
} from './sim-dashboard.js';

/** The SIM dashboard (DOMAIN.md 4.6) and the agents' address changes a coordinator decides. */
export const simDashboardModule: AppModule = {
  name: 'sim-dashboard',
  register(context) {
    const { endpoint, db, downloads } = context;
    endpoint(simDashboardEndpoint, () => simDashboard(db));
    downloads.addProducer('sim-dashboard-table', (request) =>
      dashboardFile(db, request.widget as SimDashboardFile, request.format as FileFormat),
    );
    endpoint(simDashboardExportEndpoint, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'sim-dashboard-table',
        access: SIM_DASHBOARD_ACCESS,
        widget: body.widget,
        format: body.format,
      }),
    );
    endpoint(agentAddressChangesEndpoint, () => pendingAddressChanges(db));
    endpoint(approveAgentAddressChangeEndpoint, ({ principal, meta, params }) =>
      decideAddressChange(db, principal, meta, params.id, { approve: true }),
    );
    endpoint(rejectAgentAddressChangeEndpoint, ({ principal, meta, params, body }) =>
      decideAddressChange(db, principal, meta, params.id, { approve: false, reason: body.reason }),
    );
  },
};
