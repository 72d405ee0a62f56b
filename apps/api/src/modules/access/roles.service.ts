import {
  ADMIN_ROLE_KEY,
  roleKeyOf,
  type createRoleInputSchema,
  type Role,
  roleList,
  type UpdateRoleInput,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import {
  ApiError,
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import type { ListStore } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { holdsAdministrator, type Principal, type RequestMeta } from '../../http/principal.js';
import { addedNames, assertCanGrantPermissions, assertOutranks } from './grants.js';

const ROLE_COLUMNS = `
  r.id, r.name, r.key, r.description, r.is_system, r.key IS NOT DISTINCT FROM '${ADMIN_ROLE_KEY}' AS is_admin,
  (SELECT count(*)::int FROM user_roles ur WHERE ur.role_id = r.id) AS user_count,
  COALESCE((SELECT array_agg(p.name ORDER BY p.name)
            FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
            WHERE rp.role_id = r.id), '{}') AS permissions`;

/** Roles with their user counts and permissions; a site has tens, so any order is cheap. */
export const roleStore: ListStore<typeof roleList> = {
  contract: roleList,
  reads: ['permissions', 'role_permissions', 'roles', 'user_roles'],
  list: {
    from: 'roles r',
    id: 'r.id',
    columns: ROLE_COLUMNS,
    sorts: {
      name: { sql: 'lower(r.name)', type: 'text' },
      user_count: {
        sql: '(SELECT count(*) FROM user_roles ur WHERE ur.role_id = r.id)',
        type: 'bigint',
      },
      created_at: { sql: 'r.created_at', type: 'timestamptz' },
    },
    search: (pattern) => ['(r.name ILIKE ? OR r.description ILIKE ?)', pattern, pattern],
  },
};

async function findRole(db: Queryable, id: number, { lock = false } = {}): Promise<Role> {
  const [role] = await db.query<Role>(
    `SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.id = $1 ${lock ? 'FOR UPDATE OF r' : ''}`,
    [id],
  );
  if (!role) throw new NotFoundError(`There is no role with id ${id}.`);
  return role;
}

/**
 * The role the actor changes or deletes, locked, after the rule that nobody acts on a role that
 * grants something they do not hold (holding the role itself is not needed to manage it).
 */
async function roleToChange(tx: Queryable, actor: Principal, id: number): Promise<Role> {
  const role = await findRole(tx, id, { lock: true });
  assertOutranks(actor, `the role ${role.name}`, {
    roles: role.is_admin ? [{ id: role.id, name: role.name, key: role.key }] : [],
    permissions: role.permissions,
  });
  return role;
}

/**
 * A name whose key is a system role's key is that role's alone, in any spelling: no other role
 * may take "Warehouse Sorting" or "warehouse  sorting", even after the default role is renamed.
 */
async function assertNameFree(tx: Queryable, name: string, roleId: number | null) {
  const [taken] = await tx.query<{ id: number }>(
    'SELECT id FROM roles WHERE key = $1 AND id IS DISTINCT FROM $2',
    [roleKeyOf(name), roleId],
  );
  if (taken) throw new ValidationError({ name: ['This name is reserved for a default role.'] });
}

/** The stored spelling of each permission name; an unknown name is a 422. */
async function permissionIds(db: Queryable, names: readonly string[]) {
  const rows = await db.query<{ id: number; name: string }>(
    'SELECT id, name FROM permissions WHERE lower(name) = ANY ($1::text[])',
    [names.map((name) => name.toLowerCase())],
  );
  const known = new Set(rows.map((row) => row.name.toLowerCase()));
  const unknown = names.filter((name) => !known.has(name.toLowerCase()));
  if (unknown.length > 0) {
    throw new ValidationError({ permissions: [`Unknown permission: ${unknown.join(', ')}.`] });
  }
  return rows;
}

async function setPermissions(db: Queryable, roleId: number, names: readonly string[]) {
  const permissions = await permissionIds(db, names);
  await db.query('DELETE FROM role_permissions WHERE role_id = $1', [roleId]);
  await db.query(
    'INSERT INTO role_permissions (role_id, permission_id) SELECT $1, unnest($2::bigint[])',
    [roleId, permissions.map((permission) => permission.id)],
  );
}

const nameTaken = uniqueViolationAs({
  roles_name_key: ['name', 'A role with this name exists.'],
});

/** Creates a role with permissions the actor holds. */
export async function createRole(
  db: Db,
  actor: Principal,
  input: z.output<typeof createRoleInputSchema>,
  meta: RequestMeta,
): Promise<Role> {
  assertCanGrantPermissions(actor, input.permissions);
  return db.transaction(async (tx) => {
    await assertNameFree(tx, input.name, null);
    const [created] = await tx
      .query<{ id: number }>('INSERT INTO roles (name, description) VALUES ($1, $2) RETURNING id', [
        input.name,
        input.description,
      ])
      .catch(nameTaken);
    await setPermissions(tx, created!.id, input.permissions);
    const role = await findRole(tx, created!.id);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'role.created',
      entityType: 'role',
      entityId: role.id,
      after: role,
    });
    return role;
  });
}

/**
 * Renames a role or replaces its permissions, when the actor holds everything it grants; admin is
 * fixed, a default role is renamed by an administrator only (its key stays), grants need holding.
 */
export async function updateRole(
  db: Db,
  actor: Principal,
  id: number,
  input: UpdateRoleInput,
  meta: RequestMeta,
): Promise<Role> {
  return db.transaction(async (tx) => {
    const before = await roleToChange(tx, actor, id);
    if (before.is_admin) throw new ConflictError('The admin role cannot be changed.');
    const renamed = input.name !== undefined && input.name !== before.name;
    if (renamed && before.is_system && !holdsAdministrator(actor)) {
      throw new ApiError(403, 'Only an administrator can rename a default role.');
    }
    if (renamed) await assertNameFree(tx, input.name!, id);
    if (input.permissions) {
      assertCanGrantPermissions(actor, addedNames(before.permissions, input.permissions));
    }
    if (input.name !== undefined || input.description !== undefined) {
      await tx
        .query(
          `UPDATE roles SET name = COALESCE($2, name), description = COALESCE($3, description),
             updated_at = now() WHERE id = $1`,
          [id, input.name ?? null, input.description ?? null],
        )
        .catch(nameTaken);
    }
    if (input.permissions) await setPermissions(tx, id, input.permissions);
    const after = await findRole(tx, id);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'role.updated',
      entityType: 'role',
      entityId: id,
      before,
      after: {
        ...after,
        permissions_added: addedNames(before.permissions, after.permissions),
        permissions_removed: addedNames(after.permissions, before.permissions),
      },
    });
    return after;
  });
}

/** Deletes a role no user holds and whose grants the actor holds; admin and default roles stay. */
export async function deleteRole(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  await db.transaction(async (tx) => {
    const role = await roleToChange(tx, actor, id);
    if (role.is_admin) throw new ConflictError('The admin role cannot be deleted.');
    if (role.is_system) {
      throw new ConflictError('A default role cannot be deleted; change its permissions instead.');
    }
    if (role.user_count > 0) {
      throw new ConflictError(
        `${role.user_count} ${role.user_count === 1 ? 'user holds' : 'users hold'} this role: ` +
          'take it from them first.',
      );
    }
    await tx.query('DELETE FROM roles WHERE id = $1', [id]);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'role.deleted',
      entityType: 'role',
      entityId: id,
      before: role,
    });
  });
}
