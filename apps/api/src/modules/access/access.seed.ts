import {
  ADMIN_ROLE,
  ADMIN_ROLE_KEY,
  DEFAULT_ROLE_GRANTS_ADDED,
  DEFAULT_ROLES,
  roleKeyOf,
  PERMISSION_CATALOGUE,
  type PermissionDefinition,
  type RoleDefinition,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { recordAudit } from '../audit/index.js';
import { hashPassword } from '../session/index.js';

/** Any fixed number: app servers starting together seed one at a time. */
const SEED_LOCK_KEY = 7_261_355;

export const FIRST_ADMIN = { userName: 'admin', password: 'admin' } as const;

/**
 * Inserts or refreshes the catalogue permissions, matched case-insensitively by name. Answers the
 * names that are new to this database.
 */
async function syncPermissionCatalogue(
  tx: Queryable,
  catalogue: readonly PermissionDefinition[],
): Promise<string[]> {
  const written = await tx.query<{ name: string; created: boolean }>(
    `INSERT INTO permissions (name, group_name, description, is_catalogue)
     SELECT name, group_name, description, true
     FROM unnest($1::text[], $2::text[], $3::text[]) AS c (name, group_name, description)
     ON CONFLICT ((lower(name))) DO UPDATE
       SET name = EXCLUDED.name, group_name = EXCLUDED.group_name,
           description = EXCLUDED.description, is_catalogue = true
     RETURNING name, (xmax = 0) AS created`,
    [
      catalogue.map((p) => p.name),
      catalogue.map((p) => p.group),
      catalogue.map((p) => p.description),
    ],
  );
  return written.filter((row) => row.created).map((row) => row.name);
}

/**
 * Creates the system roles that do not exist yet, found by key, with their default permissions;
 * existing ones keep their name and grants, however edited.
 */
async function seedRoles(tx: Queryable, roles: readonly RoleDefinition[]) {
  for (const role of roles) {
    const created = await tx.query<{ id: number }>(
      `INSERT INTO roles (name, description, is_system, key)
       SELECT $1, $2, true, $3 WHERE NOT EXISTS (SELECT 1 FROM roles WHERE key = $3)
       ON CONFLICT ((lower(name))) DO NOTHING RETURNING id`,
      [role.name, role.description, roleKeyOf(role.name)],
    );
    const roleId = created[0]?.id;
    if (roleId === undefined) continue;
    await tx.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT $1, id FROM permissions WHERE lower(name) = ANY ($2::text[])`,
      [roleId, role.permissions.map((name) => name.toLowerCase())],
    );
  }
}

/**
 * A permission that a release adds to the catalogue goes to the default roles that list it, once:
 * a role seeded by an earlier release would otherwise never get it, and a grant an administrator
 * removes later stays removed.
 */
async function grantNewPermissions(
  tx: Queryable,
  roles: readonly RoleDefinition[],
  added: readonly string[],
) {
  const isNew = new Set(added.map((name) => name.toLowerCase()));
  for (const role of roles) {
    const names = role.permissions.filter((name) => isNew.has(name.toLowerCase()));
    if (names.length === 0) continue;
    await tx.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT r.id, p.id FROM roles r, permissions p
       WHERE r.key = $1 AND lower(p.name) = ANY ($2::text[])
       ON CONFLICT DO NOTHING`,
      [roleKeyOf(role.name), names.map((name) => name.toLowerCase())],
    );
  }
}

/**
 * Grants a release added to default roles, given once to each role and remembered (migration
 * 0016), in one statement: a database seeded before the release gets them at its next start, and
 * a grant an administrator removes afterwards stays removed.
 */
async function giveAddedGrants(tx: Queryable, additions: typeof DEFAULT_ROLE_GRANTS_ADDED) {
  const pairs = additions.flatMap(({ role, permissions }) =>
    permissions.map((permission) => [roleKeyOf(role), permission.toLowerCase()] as const),
  );
  await tx.query(
    `WITH given AS (
       INSERT INTO default_role_grants_given (role_key, permission)
       SELECT * FROM unnest($1::text[], $2::text[])
       ON CONFLICT DO NOTHING RETURNING role_key, permission)
     INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM given g
     JOIN roles r ON r.key = g.role_key JOIN permissions p ON lower(p.name) = g.permission
     ON CONFLICT DO NOTHING`,
    [pairs.map(([key]) => key), pairs.map(([, permission]) => permission)],
  );
}

/** The admin role holds every permission, so its profile lists them all. */
async function grantAllToAdmin(tx: Queryable) {
  await tx.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, p.id FROM roles r CROSS JOIN permissions p
     WHERE r.key = $1
     ON CONFLICT DO NOTHING`,
    [ADMIN_ROLE_KEY],
  );
}

/**
 * Brings the access data up to date at every start: catalogue, default roles, admin's grants,
 * and on an empty database the first administrator (admin / admin, must set a password).
 * Returns true when the first administrator was created.
 */
export async function seedAccess(db: Db): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const added = await syncPermissionCatalogue(tx, PERMISSION_CATALOGUE);
    await grantNewPermissions(tx, DEFAULT_ROLES, added);
    await seedRoles(tx, [
      { name: ADMIN_ROLE, description: 'Administrator: every page and action', permissions: [] },
      ...DEFAULT_ROLES,
    ]);
    await giveAddedGrants(tx, DEFAULT_ROLE_GRANTS_ADDED);
    await grantAllToAdmin(tx);
    const [{ count } = { count: 0 }] = await tx.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM users',
    );
    if (count > 0) return false;
    // Hashed only here: every later start skips the cost.
    const passwordHash = await hashPassword(FIRST_ADMIN.password);
    const [admin] = await tx.query<{ id: number }>(
      `INSERT INTO users (user_name, name, type, password_hash, first_login)
       VALUES ($1, 'Administrator', 'staff', $2, 1) RETURNING id`,
      [FIRST_ADMIN.userName, passwordHash],
    );
    await tx.query(
      `INSERT INTO user_roles (user_id, role_id)
       SELECT $1, id FROM roles WHERE key = $2`,
      [admin?.id, ADMIN_ROLE_KEY],
    );
    await recordAudit(tx, {
      actorId: null,
      actorName: 'system',
      action: 'user.created',
      entityType: 'user',
      entityId: admin?.id,
      after: { user_name: FIRST_ADMIN.userName, roles: [ADMIN_ROLE], first_login: 1 },
    });
    return true;
  });
}
