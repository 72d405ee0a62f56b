import { randomInt } from 'node:crypto';
import {
  ADMIN_ROLE,
  isAdmin,
  type createUserInputSchema,
  type UpdateUserInput,
  type User,
  type UserListQuery,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import { containsPattern, direction, isoOrNull, whereOf } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/audit.service.js';
import { hashPassword } from '../session/password-hashing.js';
import { endSessionsOfUser, type Principal, type RequestMeta } from '../session/session.service.js';
import { addedNames, assertCanGrant } from './grants.js';

type UserRow = {
  id: number;
  user_name: string;
  name: string;
  email: string | null;
  phone: string | null;
  type: User['type'];
  status: User['status'];
  roles: User['roles'];
  rep_id: string | null;
  territory: string | null;
  sim_cap: number | null;
  device_cap: number | null;
  first_login: 0 | 1;
  last_login_at: Date | null;
  created_at: Date;
};

const ACCOUNT_COLUMNS = `
  u.id, u.user_name, u.name, u.email, u.phone, u.type, u.status, u.rep_id, u.territory,
  u.sim_cap, u.device_cap, u.first_login, u.last_login_at, u.created_at`;

const USER_COLUMNS = `${ACCOUNT_COLUMNS},
  COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name) ORDER BY r.name)
            FROM user_roles ur JOIN roles r ON r.id = ur.role_id
            WHERE ur.user_id = u.id), '[]'::json) AS roles`;

/** The roles of a page of users in one statement, rather than one subquery per row. */
async function withRoles(db: Queryable, rows: Omit<UserRow, 'roles'>[]): Promise<UserRow[]> {
  const links = await db.query<{ user_id: number; id: number; name: string }>(
    `SELECT ur.user_id, r.id, r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
     WHERE ur.user_id = ANY ($1::bigint[]) ORDER BY r.name`,
    [rows.map((row) => row.id)],
  );
  const byUser = new Map<number, User['roles']>();
  for (const link of links) {
    byUser.set(link.user_id, [
      ...(byUser.get(link.user_id) ?? []),
      { id: link.id, name: link.name },
    ]);
  }
  return rows.map((row) => ({ ...row, roles: byUser.get(row.id) ?? [] }));
}

const toUser = (row: UserRow): User => ({
  ...row,
  last_login_at: isoOrNull(row.last_login_at),
  created_at: row.created_at.toISOString(),
});

const SORT_COLUMNS = {
  name: 'lower(u.name)',
  user_name: 'lower(u.user_name)',
  created_at: 'u.created_at',
  last_login_at: 'u.last_login_at',
} as const;

/** Readable temporary passwords: no 0/O, 1/l/I. */
const PASSWORD_ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function temporaryPassword(): string {
  let password = '';
  for (let i = 0; i < 14; i += 1)
    password += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return password;
}

async function findUser(db: Queryable, id: number): Promise<User> {
  const [row] = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = $1`, [
    id,
  ]);
  if (!row) throw new NotFoundError(`There is no user with id ${id}.`);
  return toUser(row);
}

/** Role names by id; unknown ids are a 422 on role_ids. */
async function rolesByIds(db: Queryable, ids: readonly number[]) {
  const unique = [...new Set(ids)];
  const rows = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM roles WHERE id = ANY ($1::bigint[]) ORDER BY name',
    [unique],
  );
  if (rows.length !== unique.length) {
    throw new ValidationError({ role_ids: ['One of the chosen roles does not exist any more.'] });
  }
  return rows;
}

/** Active administrators other than the given user. */
async function otherActiveAdmins(db: Queryable, userId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>(
    `SELECT count(DISTINCT u.id)::int AS count FROM users u
     JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
     WHERE lower(r.name) = $1 AND u.status = 'active' AND u.id <> $2`,
    [ADMIN_ROLE, userId],
  );
  return row?.count ?? 0;
}

const LAST_ADMIN =
  'This is the last active administrator: make another user an administrator first.';

async function assertNotLastAdmin(db: Queryable, user: User) {
  const holdsAdmin = isAdmin(user.roles.map((role) => role.name));
  if (holdsAdmin && user.status === 'active' && (await otherActiveAdmins(db, user.id)) === 0) {
    throw new ConflictError(LAST_ADMIN);
  }
}

const uniqueViolation = uniqueViolationAs({
  users_user_name_key: ['user_name', 'This user name is taken.'],
  users_email_key: ['email', 'Another user has this email.'],
});

/** Filtered totals by access version: accounts change rarely, lists are read all day. */
const totals = new Map<string, number>();
const TOTALS_CACHE_LIMIT = 1_000;

async function totalOf(db: Db, where: { sql: string; params: unknown[] }, version: number) {
  const key = `${version}|${where.sql}|${JSON.stringify(where.params)}`;
  const cached = totals.get(key);
  if (cached !== undefined) return cached;
  const [row] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM users u ${where.sql}`,
    where.params,
  );
  if (totals.size >= TOTALS_CACHE_LIMIT) totals.clear();
  totals.set(key, row?.total ?? 0);
  return row?.total ?? 0;
}

/** Users matching the query, one page, with the total. */
export async function listUsers(db: Db, query: UserListQuery, accessVersion: number) {
  const search = containsPattern(query.search);
  const where = whereOf([
    search !== null && [
      '(u.name ILIKE ? OR u.user_name ILIKE ? OR u.email ILIKE ?)',
      search,
      search,
      search,
    ],
    query.role !== undefined && [
      'EXISTS (SELECT 1 FROM user_roles f WHERE f.user_id = u.id AND f.role_id = ?)',
      query.role,
    ],
    query.type !== undefined && ['u.type = ?', query.type],
    query.status !== undefined && ['u.status = ?', query.status],
  ]);
  const order = `${SORT_COLUMNS[query.sort]} ${direction(query.order)} NULLS LAST, u.id`;
  const page = where.params.length;
  const [rows, total] = await Promise.all([
    db.query<Omit<UserRow, 'roles'>>(
      `SELECT ${ACCOUNT_COLUMNS} FROM users u ${where.sql}
       ORDER BY ${order} LIMIT $${page + 1} OFFSET $${page + 2}`,
      [...where.params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    totalOf(db, where, accessVersion),
  ]);
  return {
    items: (await withRoles(db, rows)).map(toUser),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export const getUser = (db: Db, id: number) => findUser(db, id);

/** Creates a user with a temporary password and first_login = 1. */
export async function createUser(
  db: Db,
  actor: Principal,
  input: z.output<typeof createUserInputSchema>,
  meta: RequestMeta,
) {
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (tx) => {
    const roles = await rolesByIds(tx, input.role_ids);
    assertCanGrant(
      actor,
      'role',
      roles.map((role) => role.name),
    );
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
  });
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
 * Updates what the input names and nothing else. Disabling ends the user's sessions; nobody
 * disables themselves, removes their own admin role or leaves the site without an active admin.
 */
export async function updateUser(
  db: Db,
  actor: Principal,
  id: number,
  input: UpdateUserInput,
  meta: RequestMeta,
): Promise<User> {
  return db.transaction(async (tx) => {
    const before = await findUser(tx, id);
    const changes = changedFields(before, input);
    const currentRoles = before.roles.map((role) => role.name);
    const nextRoles = input.role_ids ? await rolesByIds(tx, input.role_ids) : null;
    const nextRoleNames = nextRoles?.map((role) => role.name) ?? currentRoles;
    const rolesChanged =
      nextRoles !== null &&
      (addedNames(currentRoles, nextRoleNames).length > 0 ||
        addedNames(nextRoleNames, currentRoles).length > 0);

    if (changes.status === 'disabled' && id === actor.userId) {
      throw new ConflictError('You cannot disable yourself.');
    }
    if (rolesChanged) {
      assertCanGrant(actor, 'role', addedNames(currentRoles, nextRoleNames));
      if (id === actor.userId && isAdmin(currentRoles) && !isAdmin(nextRoleNames)) {
        throw new ConflictError('You cannot remove your own admin role.');
      }
    }
    const losesAdmin = changes.status === 'disabled' || (rolesChanged && !isAdmin(nextRoleNames));
    if (losesAdmin) await assertNotLastAdmin(tx, before);

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

/** Deletes a user; never oneself nor the last administrator. */
export async function deleteUser(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  await db.transaction(async (tx) => {
    if (id === actor.userId) throw new ConflictError('You cannot delete yourself.');
    const before = await findUser(tx, id);
    await assertNotLastAdmin(tx, before);
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

/** A new temporary password; first_login = 1 and every session of the user ends. */
export async function resetPassword(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  const user = await db.transaction(async (tx) => {
    await findUser(tx, id);
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

/** Open sessions of a user, newest first. */
export async function listSessions(db: Db, id: number) {
  await findUser(db, id);
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

/** Signs a user out everywhere. */
export async function endSessions(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  return db.transaction(async (tx) => {
    await findUser(tx, id);
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
