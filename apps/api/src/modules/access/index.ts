/** What other areas use of accounts: creating one under the access area's rules. */
export { insertUser, newTemporaryPassword } from './users.service.js';
