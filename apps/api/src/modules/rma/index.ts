/** What other areas use of RMAs: opening one from their own step (a shipped order's cancellation). */
export { openRma, type OpenRmaInput } from './open-rma.js';
/** The RMAs of `npm run db:generate`. */
export { generateRmas } from './generate-rmas.js';
