/** What other parts of the server use of wholesale outbound: the generator of `npm run db:generate`. */
export { generateWholesale } from './generate-wholesale.js';
