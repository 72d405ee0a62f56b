import type {
  createPermissionInputSchema,
  Permission,
  permissionListQuerySchema,
  updatePermissionInputSchema,
} from '@inventory/contract';
import type { z } from 'zod/mini';
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, ConflictError, NotFoundError, uniqueViolationAs } from '../../http/errors.js';
import { containsPattern, direction } from '../../http/sql.js';
import { auditActor, recordAudit } from '../audit/audit.service.js';
import {
  holdsAdministrator,
  type Principal,
  type RequestMeta,
} from '../session/session.service.js';

const PERMISSION_COLUMNS = `
  p.id, p.name, p.group_name AS "group", p.description, p.is_catalogue,
  (SELECT count(*)::int FROM role_permissions rp WHERE rp.permission_id = p.id) AS role_count`;

const SORT_COLUMNS = { name: 'lower(p.name)', group: 'p.group_name, lower(p.name)' } as const;

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

/** Permissions matching the query, by group by default. */
export async function listPermissions(db: Db, query: z.output<typeof permissionListQuerySchema>) {
  const where = `WHERE ($1::text IS NULL OR p.name ILIKE $1 OR p.description ILIKE $1)
                   AND ($2::text IS NULL OR p.group_name = $2)`;
  const filters = [containsPattern(query.search), query.group ?? null];
  const [items, [count]] = await Promise.all([
    db.query<Permission>(
      `SELECT ${PERMISSION_COLUMNS} FROM permissions p ${where}
       ORDER BY ${SORT_COLUMNS[query.sort]} ${direction(query.order)}, p.id LIMIT $3 OFFSET $4`,
      [...filters, query.pageSize, (query.page - 1) * query.pageSize],
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM permissions p ${where}`,
      filters,
    ),
  ]);
  return { items, total: count?.total ?? 0, page: query.page, pageSize: query.pageSize };
}

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
