/** What other areas use of sessions and passwords. */
export { isCommonPassword } from './common-passwords.js';
export { hashPassword, verifyPassword } from './password-hashing.js';
export { endSessionsOfUser } from './session.service.js';
