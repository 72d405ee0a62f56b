import {
  ADMIN_ROLE,
  type createRoleInputSchema,
  type Role,
  type roleListQuerySchema,
  type UpdateRoleInput,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import { containsPattern, direction } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/audit.service.js';
import type { Principal, RequestMeta } from '../session/session.service.js';
import { addedNames, assertCanGrant } from './grants.js';

const ROLE_COLUMNS = `
  r.id, r.name, r.description, r.is_system, lower(r.name) = '${ADMIN_ROLE}' AS is_admin,
  (SELECT count(*)::int FROM user_roles ur WHERE ur.role_id = r.id) AS user_count,
  COALESCE((SELECT array_agg(p.name ORDER BY p.name)
            FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
            WHERE rp.role_id = r.id), '{}') AS permissions`;

const SORT_COLUMNS = {
  name: 'lower(r.name)',
  user_count: 'user_count',
  created_at: 'r.created_at',
} as const;

async function findRole(db: Queryable, id: number): Promise<Role> {
  const [role] = await db.query<Role>(`SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.id = $1`, [id]);
  if (!role) throw new NotFoundError(`There is no role with id ${id}.`);
  return role;
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

const isAdminRole = (role: Pick<Role, 'name'>) => role.name.toLowerCase() === ADMIN_ROLE;

/** Roles matching the query with user counts and permissions, one page. */
export async function listRoles(db: Db, query: z.output<typeof roleListQuerySchema>) {
  const where = 'WHERE ($1::text IS NULL OR r.name ILIKE $1 OR r.description ILIKE $1)';
  const search = containsPattern(query.search);
  const [items, [count]] = await Promise.all([
    db.query<Role>(
      `SELECT ${ROLE_COLUMNS} FROM roles r ${where}
       ORDER BY ${SORT_COLUMNS[query.sort]} ${direction(query.order)}, r.id LIMIT $2 OFFSET $3`,
      [search, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(`SELECT count(*)::int AS total FROM roles r ${where}`, [search]),
  ]);
  return { items, total: count?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

/** Creates a role with permissions the actor holds. */
export async function createRole(
  db: Db,
  actor: Principal,
  input: z.output<typeof createRoleInputSchema>,
  meta: RequestMeta,
): Promise<Role> {
  if (isAdminRole(input)) throw new ValidationError({ name: ['This name is reserved.'] });
  assertCanGrant(actor, 'permission', input.permissions);
  return db.transaction(async (tx) => {
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

/** Renames a role or replaces its permissions; admin is fixed; grants need holding. */
export async function updateRole(
  db: Db,
  actor: Principal,
  id: number,
  input: UpdateRoleInput,
  meta: RequestMeta,
): Promise<Role> {
  return db.transaction(async (tx) => {
    const before = await findRole(tx, id);
    if (before.is_admin) throw new ConflictError('The admin role cannot be changed.');
    if (input.name !== undefined && isAdminRole({ name: input.name })) {
      throw new ValidationError({ name: ['This name is reserved.'] });
    }
    if (input.permissions) {
      assertCanGrant(actor, 'permission', addedNames(before.permissions, input.permissions));
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

/** Deletes a role no user holds; admin and the default roles stay. */
export async function deleteRole(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  await db.transaction(async (tx) => {
    const role = await findRole(tx, id);
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
