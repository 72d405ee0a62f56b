/** What other areas and the data generator use of production. */
export { generateProduction, type GenerateProductionOptions } from './generate-production.js';
export { deviceProductionRecord } from './device-production.js';
