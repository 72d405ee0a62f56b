import {
  permissionList,
  type createPermissionInputSchema,
  type Permission,
  type updatePermissionInputSchema,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, ConflictError, NotFoundError, uniqueViolationAs } from '../../http/errors.js';
import type { ListStore } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { holdsAdministrator, type Principal, type RequestMeta } from '../../http/principal.js';

const PERMISSION_COLUMNS = `
  p.id, p.name, p.group_name AS "group", p.description, p.is_catalogue,
  (SELECT count(*)::int FROM role_permissions rp WHERE rp.permission_id = p.id) AS role_count`;

/**
 * Permissions by group, then name: one key for the keyset, in byte order so that the group's end
 * (chr(1)) comes before any name of the next group. The catalogue holds hundreds at most.
 */
export const permissionStore: ListStore<typeof permissionList> = {
  contract: permissionList,
  reads: ['permissions', 'role_permissions'],
  list: {
    from: 'permissions p',
    id: 'p.id',
    columns: PERMISSION_COLUMNS,
    sorts: {
      name: { sql: 'lower(p.name)', type: 'text' },
      group: { sql: `(p.group_name || chr(1) || lower(p.name)) COLLATE "C"`, type: 'text' },
    },
    search: (pattern) => ['(p.name ILIKE ? OR p.description ILIKE ?)', pattern, pattern],
    filters: (query) => [query.group !== undefined && ['p.group_name = ?', query.group]],
  },
};

const CATALOGUE_FIXED =
  'Catalogue permissions are defined by the application and cannot be changed or deleted.';

/**
 * The permission the actor changes or deletes, locked: nobody changes a permission they do not
 * hold themselves (it may stand in roles that hold more than they do).
 */
async function permissionToChange(tx: Queryable, actor: Principal, id: number) {
  const permission = await findPermission(tx, id, { lock: true });
  const held = actor.permissions.some(
    (name) => name.toLowerCase() === permission.name.toLowerCase(),
  );
  if (!held && !holdsAdministrator(actor)) {
    throw new ApiError(
      403,
      `You cannot change the permission ${permission.name}: you do not hold it yourself.`,
    );
  }
  if (permission.is_catalogue) throw new ConflictError(CATALOGUE_FIXED);
  return permission;
}

async function findPermission(
  db: Queryable,
  id: number,
  { lock = false } = {},
): Promise<Permission> {
  const [row] = await db.query<Permission>(
    `SELECT ${PERMISSION_COLUMNS} FROM permissions p WHERE p.id = $1 ${lock ? 'FOR UPDATE OF p' : ''}`,
    [id],
  );
  if (!row) throw new NotFoundError(`There is no permission with id ${id}.`);
  return row;
}

const nameTaken = uniqueViolationAs({
  permissions_name_key: ['name', 'A permission with this name exists.'],
});

/** Creates a custom permission. */
export async function createPermission(
  db: Db,
  actor: Principal,
  input: z.output<typeof createPermissionInputSchema>,
  meta: RequestMeta,
): Promise<Permission> {
  return db.transaction(async (tx) => {
    const [created] = await tx
      .query<{ id: number }>(
        `INSERT INTO permissions (name, group_name, description, is_catalogue)
         VALUES ($1, $2, $3, false) RETURNING id`,
        [input.name, input.group, input.description],
      )
      .catch(nameTaken);
    const permission = await findPermission(tx, created!.id);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'permission.created',
      entityType: 'permission',
      entityId: permission.id,
      after: permission,
    });
    return permission;
  });
}

/** Edits a custom permission the actor holds; catalogue ones are fixed (409). */
export async function updatePermission(
  db: Db,
  actor: Principal,
  id: number,
  input: z.output<typeof updatePermissionInputSchema>,
  meta: RequestMeta,
): Promise<Permission> {
  return db.transaction(async (tx) => {
    const before = await permissionToChange(tx, actor, id);
    await tx
      .query(
        `UPDATE permissions SET name = COALESCE($2, name), group_name = COALESCE($3, group_name),
           description = COALESCE($4, description) WHERE id = $1`,
        [id, input.name ?? null, input.group ?? null, input.description ?? null],
      )
      .catch(nameTaken);
    const after = await findPermission(tx, id);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'permission.updated',
      entityType: 'permission',
      entityId: id,
      before,
      after,
    });
    return after;
  });
}

/** Deletes a custom permission the actor holds, taking it from every role. */
export async function deletePermission(db: Db, actor: Principal, id: number, meta: RequestMeta) {
  await db.transaction(async (tx) => {
    const before = await permissionToChange(tx, actor, id);
    await tx.query('DELETE FROM permissions WHERE id = $1', [id]);
    await recordAudit(tx, {
      ...auditActor(actor, meta),
      action: 'permission.deleted',
      entityType: 'permission',
      entityId: id,
      before,
    });
  });
}
