/** What other parts of the server use of outbound shipping: the generator of `npm run db:generate`. */
export { generatePackages } from './generate-packages.js';
