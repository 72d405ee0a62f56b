import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { auditEventStore } from './audit.service.js';

export const auditModule: AppModule = {
  name: 'audit',
  register(context) {
    registerList(context, auditEventStore);
  },
};
