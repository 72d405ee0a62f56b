import { randomInt } from 'node:crypto';
import {
  ADMIN_ROLE_KEY,
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
import {
  assertCanGrantRoles,
  assertMayActOnUser,
  type Holdings,
  type RoleGrant,
} from './grants.js';

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

/**
 * A list page is read as one JSON text of positional rows: PGlite and node-postgres turn one value
 * into a string far faster than 14 columns of 50 rows, and JSON.parse is native. Times are UTC
 * without an offset, so that the API's ISO form is a matter of string cutting. Roles are not in
 * the statement: they come from the access snapshot below.
 */
const PAGE_ROW = `json_build_array(u.id, u.user_name, u.name, u.email, u.phone, u.type, u.status,
  u.rep_id, u.territory, u.sim_cap, u.device_cap, u.first_login,
  u.last_login_at AT TIME ZONE 'UTC', u.created_at AT TIME ZONE 'UTC')`;

type PageRow = [
  id: number,
  user_name: string,
  name: string,
  email: string | null,
  phone: string | null,
  type: User['type'],
  status: User['status'],
  rep_id: string | null,
  territory: string | null,
  sim_cap: number | null,
  device_cap: number | null,
  first_login: 0 | 1,
  last_login_at: string | null,
  created_at: string,
];

/**
 * A UTC time as JSON writes it (2026-01-31T08:01:03.339123, trailing zeros of the fraction
 * dropped) in the API's form, which is Date's toISOString (milliseconds, cut not rounded).
 */
export function isoOfUtc(time: string): string {
  return time.length === 19 ? `${time}.000Z` : `${time.slice(0, 23).padEnd(23, '0')}Z`;
}

type RoleRef = User['roles'][number];
type RankedRole = { readonly ref: RoleRef; readonly rank: number };

/**
 * What a list needs that changes only with the access version (decision 0002): any change of
 * users' names, emails, types or statuses, of roles or of role assignments moves it, so within
 * one version the totals of each filter, the role names and each user's roles stay as they are.
 * One snapshot per database, replaced by the first request that brings another version.
 */
type AccessSnapshot = {
  readonly version: number;
  readonly totals: Map<string, number>;
  roles: Promise<Map<number, RankedRole>> | null;
  readonly roleIdsByUser: Map<number, readonly number[]>;
};
const snapshots = new WeakMap<Queryable, AccessSnapshot>();
/** Enough for every user and filter of a site; past it a cache starts over rather than grow. */
const SNAPSHOT_LIMIT = 10_000;

function snapshotOf(db: Queryable, version: number): AccessSnapshot {
  let snapshot = snapshots.get(db);
  if (snapshot?.version !== version) {
    snapshot = { version, totals: new Map(), roles: null, roleIdsByUser: new Map() };
    snapshots.set(db, snapshot);
  }
  return snapshot;
}

/** Every role by id, with its place in the database's order of names. */
function rolesOf(db: Queryable, snapshot: AccessSnapshot): Promise<Map<number, RankedRole>> {
  snapshot.roles ??= db
    .query<RoleRef>('SELECT id, name FROM roles ORDER BY name, id')
    .then((rows) => new Map(rows.map((ref, rank) => [ref.id, { ref, rank }])));
  snapshot.roles.catch(() => {
    snapshot.roles = null;
  });
  return snapshot.roles;
}

/** The role ids of the given users; only those not yet in the snapshot are read. */
async function roleIdsOf(db: Queryable, snapshot: AccessSnapshot, userIds: readonly number[]) {
  const missing = userIds.filter((id) => !snapshot.roleIdsByUser.has(id));
  if (missing.length > 0) {
    // node-postgres gives bigint[] as strings (PGlite as numbers), hence Number.
    const rows = await db.query<{ id: number; role_ids: Array<number | string> }>(
      `SELECT u.id, ARRAY(SELECT ur.role_id FROM user_roles ur WHERE ur.user_id = u.id) AS role_ids
       FROM unnest($1::bigint[]) AS u (id)`,
      [missing],
    );
    if (snapshot.roleIdsByUser.size + rows.length > SNAPSHOT_LIMIT) snapshot.roleIdsByUser.clear();
    for (const row of rows) snapshot.roleIdsByUser.set(row.id, row.role_ids.map(Number));
  }
  return snapshot.roleIdsByUser;
}

function userOfPageRow(
  row: PageRow,
  roleIds: readonly number[],
  roles: Map<number, RankedRole>,
): User {
  const [id, user_name, name, email, phone, type, status, rep_id, territory, sim_cap] = row;
  const [device_cap, first_login, last_login_at, created_at] = row.slice(10) as [
    number | null,
    0 | 1,
    string | null,
    string,
  ];
  const held = roleIds.flatMap((roleId) => roles.get(roleId) ?? []);
  if (held.length > 1) held.sort((a, b) => a.rank - b.rank);
  return {
    id,
    user_name,
    name,
    email,
    phone,
    type,
    status,
    roles: held.map((role) => role.ref),
    rep_id,
    territory,
    sim_cap,
    device_cap,
    first_login,
    last_login_at: last_login_at === null ? null : isoOfUtc(last_login_at),
    created_at: isoOfUtc(created_at),
  };
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

async function totalOf(
  db: Queryable,
  snapshot: AccessSnapshot,
  where: { sql: string; params: unknown[] },
) {
  const key = `${where.sql}|${JSON.stringify(where.params)}`;
  const cached = snapshot.totals.get(key);
  if (cached !== undefined) return cached;
  const [row] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM users u ${where.sql}`,
    where.params,
  );
  if (snapshot.totals.size >= SNAPSHOT_LIMIT) snapshot.totals.clear();
  snapshot.totals.set(key, row?.total ?? 0);
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
  const sortKey = SORT_COLUMNS[query.sort];
  const dir = direction(query.order);
  const page = where.params.length;
  const snapshot = snapshotOf(db, accessVersion);
  const [[found], total, roles] = await Promise.all([
    db.query<{ items: string }>(
      `SELECT COALESCE(json_agg(row ORDER BY sort_key ${dir} NULLS LAST, id), '[]')::text AS items
       FROM (SELECT ${PAGE_ROW} AS row, ${sortKey} AS sort_key, u.id
             FROM users u ${where.sql}
             ORDER BY ${sortKey} ${dir} NULLS LAST, u.id
             LIMIT $${page + 1} OFFSET $${page + 2}) page`,
      [...where.params, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    totalOf(db, snapshot, where),
    rolesOf(db, snapshot),
  ]);
  const rows = JSON.parse(found?.items ?? '[]') as PageRow[];
  const roleIds = await roleIdsOf(
    db,
    snapshot,
    rows.map((row) => row[0]),
  );
  return {
    items: rows.map((row) => userOfPageRow(row, roleIds.get(row[0]) ?? [], roles)),
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
