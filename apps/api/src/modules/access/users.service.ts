import { randomInt } from 'node:crypto';
import {
  ADMIN_ROLE_KEY,
  type createUserInputSchema,
  type UpdateUserInput,
  type User,
  userList,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import { ConflictError, ValidationError, uniqueViolationAs } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { findItem } from '../../toolkit/resource.js';
import type { ListStore } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { endSessionsOfUser, hashPassword } from '../session/index.js';
import {
  assertCanGrantRoles,
  assertMayActOnUser,
  type Holdings,
  type RoleGrant,
} from './grants.js';

/**
 * The user list and a user's record read the same columns, timestamps as the API's ISO text and
 * the roles by name; the list pages like every other (keyset, capped count, kept answers).
 */
export const userStore: ListStore<typeof userList> = {
  contract: userList,
  reads: ['roles', 'user_roles', 'users'],
  list: {
    from: 'users u',
    id: 'u.id',
    columns: `u.id, u.user_name, u.name, u.email, u.phone, u.type, u.status, u.rep_id,
      u.territory, u.sim_cap, u.device_cap, u.first_login,
      ${isoTextSql('u.last_login_at')} AS last_login_at, ${isoTextSql('u.created_at')} AS created_at,
      COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.name)
                FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                WHERE ur.user_id = u.id), '[]'::json) AS roles`,
    sorts: {
      name: { sql: 'lower(u.name)', type: 'text' },
      user_name: { sql: 'lower(u.user_name)', type: 'text' },
      created_at: { sql: 'u.created_at', type: 'timestamptz' },
      last_login_at: {
        sql: "COALESCE(u.last_login_at, '-infinity'::timestamptz)",
        type: 'timestamptz',
      },
    },
    search: (pattern) => [
      '(u.name ILIKE ? OR u.user_name ILIKE ? OR u.email ILIKE ?)',
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.role !== undefined && [
        'EXISTS (SELECT 1 FROM user_roles f WHERE f.user_id = u.id AND f.role_id = ?)',
        query.role,
      ],
      query.type !== undefined && ['u.type = ?', query.type],
      query.status !== undefined && ['u.status = ?', query.status],
    ],
  },
};

/** Readable temporary passwords: no 0/O, 1/l/I. */
const PASSWORD_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function temporaryPassword(): string {
  let password = '';
  for (let i = 0; i < 14; i += 1)
    password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

const findUser = (db: Queryable, id: number) => findItem(userStore, db, id) as Promise<User>;

/** Roles by id; unknown ids are a 422 on role_ids. */
async function rolesByIds(db: Queryable, ids: readonly number[]): Promise<RoleGrant[]> {
  const unique = [...new Set(ids)];
  const rows = await db.query<RoleGrant>(
    'SELECT id, name, key FROM roles WHERE id = ANY ($1::bigint[]) ORDER BY name',
    [unique],
  );
  if (rows.length !== unique.length) {
    throw new ValidationError({ role_ids: ['One of the chosen roles does not exist any more.'] });
  }
  return rows;
}

/**
 * Active administrators other than the given user, their rows locked: two administrators taking
 * each other's role at once wait for each other (one is refused as a deadlock, 409), so the
 * survivor counts what is really left.
 */
async function otherActiveAdmins(db: Queryable, userId: number): Promise<number> {
  const rows = await db.query<{ id: number }>(
    `SELECT u.id FROM users u
     WHERE u.status = 'active' AND u.id <> $2
       AND EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = u.id AND r.key = $1)
     FOR UPDATE OF u`,
    [ADMIN_ROLE_KEY, userId],
  );
  return rows.length;
}

const LAST_ADMIN =
  'This is the last active administrator: make another user an administrator first.';

const grantsAdmin = (roles: readonly RoleGrant[]) =>
  roles.some((role) => role.key === ADMIN_ROLE_KEY);

async function assertNotLastAdmin(db: Queryable, user: User, holdings: Holdings) {
  if (
    grantsAdmin(holdings.roles) &&
    user.status === 'active' &&
    (await otherActiveAdmins(db, user.id)) === 0
  ) {
    throw new ConflictError(LAST_ADMIN);
  }
}

const uniqueViolation = uniqueViolationAs({
  users_user_name_key: ['user_name', 'This user name is taken.'],
  users_email_key: ['email', 'Another user has this email.'],
});

export const getUser = (db: Db, id: number) => findUser(db, id);

/** A temporary password and its hash, made before the transaction: hashing takes a while. */
export async function newTemporaryPassword(): Promise<{ password: string; hash: string }> {
  const password = temporaryPassword();
  return { password, hash: await hashPassword(password) };
}

/**
 * Inserts a user with first_login = 1, its roles (only those the actor may grant) and the audit
 * entry, inside the caller's transaction (a retailer's portal user is linked in the same one).
 */
export async function insertUser(
  tx: Queryable,
  actor: Principal,
  input: z.output<typeof createUserInputSchema>,
  passwordHash: string,
  meta: RequestMeta,
): Promise<User> {
  const roles = await rolesByIds(tx, input.role_ids);
  assertCanGrantRoles(actor, roles);
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO users (user_name, name, email, phone, type, password_hash, first_login,
                          rep_id, territory, sim_cap, device_cap, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8, $9, $10, $11) RETURNING id`,
      [
        input.user_name,
        input.name,
        input.email || null,
        input.phone || null,
        input.type,
        passwordHash,
        input.rep_id || null,
        input.territory || null,
        input.sim_cap ?? null,
        input.device_cap ?? null,
        actor.userId,
      ],
    )
    .catch(uniqueViolation);
  const id = created!.id;
  await tx.query('INSERT INTO user_roles (user_id, role_id) SELECT $1, unnest($2::bigint[])', [
    id,
    roles.map((role) => role.id),
  ]);
  const user = await findUser(tx, id);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'user.created',
    entityType: 'user',
    entityId: id,
    after: user,
  });
  return user;
}

/** Creates a user with a temporary password and first_login = 1. */
export async function createUser(
  db: Db,
  actor: Principal,
  input: z.output<typeof createUserInputSchema>,
  meta: RequestMeta,
) {
  const { password, hash } = await newTemporaryPassword();
  const user = await db.transaction((tx) => insertUser(tx, actor, input, hash, meta));
  return { user, temporary_password: password };
}

/** The fields of an update that differ from the stored user. */
function changedFields(user: User, input: UpdateUserInput): Partial<Record<keyof User, unknown>> {
  const changes: Partial<Record<keyof User, unknown>> = {};
  for (const key of [
    'name',
    'email',
    'phone',
    'type',
    'status',
    'rep_id',
    'territory',
    'sim_cap',
    'device_cap',
  ] as const) {
    const value = input[key];
    if (value === undefined) continue;
    const normalised = value === '' ? null : value;
    if (normalised !== user[key]) changes[key] = normalised;
  }
  return changes;
}

/**
 * Updates what the input names and nothing else, on an account the actor outranks. Disabling ends
 * the user's sessions; nobody disables themselves, removes their own admin role or leaves the
 * site without an active admin.
 */
export async function updateUser(
  db: Db,
  actor: Principal,
  id: number,
  input: UpdateUserInput,
  meta: RequestMeta,
): Promise<User> {
  return db.transaction(async (tx) => {
    const holdings = await assertMayActOnUser(tx, actor, id);
    const before = await findUser(tx, id);
    const changes = changedFields(before, input);
    const currentRoles = holdings.roles;
    const nextRoles = input.role_ids ? await rolesByIds(tx, input.role_ids) : null;
    const currentIds = new Set(currentRoles.map((role) => role.id));
    const added = (nextRoles ?? []).filter((role) => !currentIds.has(role.id));
    const rolesChanged =
      nextRoles !== null && (added.length > 0 || nextRoles.length !== currentRoles.length);

    if (changes.status === 'disabled' && id === actor.userId) {
      throw new ConflictError('You cannot disable yourself.');
    }
    if (rolesChanged) {
      assertCanGrantRoles(actor, added);
      if (id === actor.userId && grantsAdmin(currentRoles) && !grantsAdmin(nextRoles)) {
        throw new ConflictError('You cannot remove your own admin role.');
      }
    }
    const losesAdmin =
      changes.status === 'disabled' || (rolesChanged && !grantsAdmin(nextRoles ?? []));
    if (losesAdmin) await assertNotLastAdmin(tx, before, holdings);

    if (Object.keys(changes).length > 0) {
      const keys = Object.keys(changes);
      await tx
        .query(
          `UPDATE users SET ${keys.map((key, i) => `${key} = $${i + 2}`).join(', ')},
             updated_at = now()
           WHERE id = $1`,
          [id, ...keys.map((key) => changes[key as keyof User])],
        )
        .catch(uniqueViolation);
    }
    if (rolesChanged && nextRoles) {
      await tx.query('DELETE FROM user_roles WHERE user_id = $1', [id]);
      await tx.query('INSERT INTO user_roles (user_id, role_id) SELECT $1, unnest($2::bigint[])', [
        id,
        nextRoles.map((role) => role.id),
      ]);
    }
    if (changes.status === 'disabled') await endSessionsOfUser(tx, id, 'disabled');
    const after = await findUser(tx, id);
    if (Object.keys(changes).length > 0 || rolesChanged) {
      await recordAudit(tx, {
        ...auditActor(actor, meta),
        action: 'user.updated',
        entityType: 'user',
        entityId: id,
        before,
        after,
      });
    }
    return after;
  });
}

/** Deletes a user the actor outranks; never oneself nor the last administrator. */
export async function deleteUser(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  await db.transaction(async (tx) => {
    if (id === actor.userId) throw new ConflictError('You cannot delete yourself.');
    const holdings = await assertMayActOnUser(tx, actor, id);
    const before = await findUser(tx, id);
    await assertNotLastAdmin(tx, before, holdings);
    await tx.query('DELETE FROM users WHERE id = $1', [id]);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'user.deleted',
      entityType: 'user',
      entityId: id,
      before,
    });
  });
}

/**
 * A new temporary password for an account the actor outranks; first_login = 1 and every session
 * of the user ends.
 */
export async function resetPassword(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (tx) => {
    await assertMayActOnUser(tx, actor, id);
    await tx.query(
      `UPDATE users SET password_hash = $2, first_login = 1, password_changed_at = now(),
         updated_at = now() WHERE id = $1`,
      [id, passwordHash],
    );
    const ended = await endSessionsOfUser(tx, id, 'password_reset');
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'user.password_reset',
      entityType: 'user',
      entityId: id,
      after: { first_login: 1, sessions_ended: ended },
    });
    return findUser(tx, id);
  });
  return { user, temporary_password: password };
}

type SessionRow = {
  id: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  ip: string | null;
  user_agent: string | null;
};

/** Open sessions of a user the actor outranks, newest first. */
export async function listSessions(db: Db, actor: Principal, id: number) {
  await assertMayActOnUser(db, actor, id, { lock: false });
  const rows = await db.query<SessionRow>(
    `SELECT id, created_at, last_seen_at, expires_at, ip, user_agent FROM sessions
     WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()
     ORDER BY last_seen_at DESC LIMIT 100`,
    [id],
  );
  return rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    last_seen_at: row.last_seen_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
  }));
}

/** Signs a user the actor outranks out everywhere. */
export async function endSessions(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  return db.transaction(async (tx) => {
    await assertMayActOnUser(tx, actor, id);
    const ended = await endSessionsOfUser(tx, id, 'signed_out_by_admin');
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'user.sessions_ended',
      entityType: 'user',
      entityId: id,
      after: { sessions_ended: ended },
    });
    return { ended };
  });
}
