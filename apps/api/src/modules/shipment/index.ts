/** What other parts of the server use of outbound shipping: the generators of `npm run db:generate`. */
export { generatePackages } from './generate-packages.js';
export { generateTracking } from './generate-tracking.js';
