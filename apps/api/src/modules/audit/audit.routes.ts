import { listAuditEventsEndpoint } from '@inventory/contract';
import type { AppModule } from '../module.js';
import { listAuditEvents } from './audit.service.js';

export const auditModule: AppModule = {
  name: 'audit',
  register({ endpoint, db }) {
    endpoint(listAuditEventsEndpoint, ({ query }) => listAuditEvents(db, query));
  },
};
