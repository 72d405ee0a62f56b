/** What other areas use of repair: sending a device to repair from their station. */
export { requestRepair, type RepairRequest } from './request-repair.js';
export { generateRepair, type GenerateRepairSummary } from './generate-repair.js';
