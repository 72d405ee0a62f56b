import {
  addFieldError,
  PASSWORD_MESSAGES,
  validatePasswordChange,
  type ChangePasswordInput,
  type Profile,
} from '@inventory/contract';
import type { Db } from '../../db/db.js';
import { ValidationError } from '../../http/errors.js';
import { recordAudit } from '../audit/index.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import {
  endSessionsOfUser,
  hashPassword,
  isCommonPassword,
  verifyPassword,
} from '../session/index.js';

/** The profile answer of spec section 3, from the principal the guard already read. */
export function profileOf(principal: Principal): Profile {
  return {
    id: principal.userId,
    name: principal.name,
    user_name: principal.userName,
    type: principal.type,
    allRoles: principal.roles,
    allPermissions: principal.permissions,
    allRoleKeys: principal.roleKeys,
    first_login: principal.firstLogin,
  };
}

/**
 * Changes the caller's password after the rules of spec section 5, the strength rules (no
 * control characters, not one character repeated, not containing the user name, not breached)
 * and the check of the current password (not asked on first login). Clears first_login and ends
 * all of the user's sessions.
 */
export async function changePassword(
  db: Db,
  principal: Principal,
  input: ChangePasswordInput,
  meta: RequestMeta,
): Promise<void> {
  const firstLogin = principal.firstLogin === 1;
  const errors = validatePasswordChange(input, { firstLogin, userName: principal.userName });
  const [user] = await db.query<{ password_hash: string }>(
    'SELECT password_hash FROM users WHERE id = $1',
    [principal.userId],
  );
  if (!user) throw new ValidationError({ _: ['The account no longer exists.'] });
  const current = input.current_password ?? '';
  const next = input.new_password ?? '';
  if (!firstLogin && current !== '' && !(await verifyPassword(user.password_hash, current))) {
    addFieldError(errors, 'current_password', PASSWORD_MESSAGES.currentWrong);
  }
  // On first login the current password is not typed, so the stored hash is what "differ" means.
  if (
    next !== '' &&
    !errors.new_password?.includes(PASSWORD_MESSAGES.mustDiffer) &&
    (await verifyPassword(user.password_hash, next))
  ) {
    addFieldError(errors, 'new_password', PASSWORD_MESSAGES.mustDiffer);
  }
  if (next !== '' && !errors.new_password && isCommonPassword(next)) {
    addFieldError(errors, 'new_password', PASSWORD_MESSAGES.tooCommon);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);

  const passwordHash = await hashPassword(next);
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE users SET password_hash = $2, first_login = 0, password_changed_at = now(),
         updated_at = now()
       WHERE id = $1`,
      [principal.userId, passwordHash],
    );
    const ended = await endSessionsOfUser(tx, principal.userId, 'password_change');
    await recordAudit(tx, {
      actorId: principal.userId,
      actorName: principal.userName,
      action: 'user.password_changed',
      entityType: 'user',
      entityId: principal.userId,
      before: { first_login: principal.firstLogin },
      after: { first_login: 0, sessions_ended: ended },
      ip: meta.ip,
      requestId: meta.requestId,
    });
  });
}
