/** What other areas use of the audit log. */
export { activityOfUser, auditActor, recordAudit, recordAudits } from './audit.service.js';
