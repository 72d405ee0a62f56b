import { ADMIN_ROLE_KEY } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { ApiError, NotFoundError } from '../../http/errors.js';
import { holdsAdministrator, type Principal } from '../../http/principal.js';

/** A role as the rules about rights read it. */
export type RoleGrant = { readonly id: number; readonly name: string; readonly key: string | null };

/** What an account holds, or what a role grants: who acts on it must hold all of it. */
export type Holdings = {
  readonly roles: readonly RoleGrant[];
  readonly permissions: readonly string[];
};

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));

/** Names in `next` that are not in `current`, compared case-insensitively. */
export function addedNames(current: readonly string[], next: readonly string[]): string[] {
  const existing = lower(current);
  return next.filter((name) => !existing.has(name.toLowerCase()));
}

const holdsAdmin = (holdings: Holdings) =>
  holdings.roles.some((role) => role.key === ADMIN_ROLE_KEY);

/**
 * Nobody grants a role they do not hold (administrators hold everything). Answers 403 naming
 * the first one that is not held.
 */
export function assertCanGrantRoles(actor: Principal, added: readonly RoleGrant[]): void {
  if (holdsAdministrator(actor)) return;
  const held = new Set(actor.roleIds);
  const missing = added.find((role) => !held.has(role.id));
  if (missing) {
    throw new ApiError(
      403,
      `You cannot grant the role ${missing.name}: you do not hold it yourself.`,
    );
  }
}

/** Nobody grants a permission they do not hold (administrators hold everything). */
export function assertCanGrantPermissions(actor: Principal, added: readonly string[]): void {
  if (holdsAdministrator(actor)) return;
  const held = lower(actor.permissions);
  const missing = added.find((name) => !held.has(name.toLowerCase()));
  if (missing) {
    throw new ApiError(
      403,
      `You cannot grant the permission ${missing}: you do not hold it yourself.`,
    );
  }
}

/**
 * Nobody acts on what holds more than they do: an account (or a role) holding a role or a
 * permission the actor does not hold is out of the actor's reach, and only an administrator acts
 * on an administrator. `subject` words the 403, as in "the account pi" or "the role Night Shift".
 */
export function assertOutranks(actor: Principal, subject: string, target: Holdings): void {
  if (holdsAdministrator(actor)) return;
  if (holdsAdmin(target)) {
    throw new ApiError(403, `Only an administrator can act on ${subject}.`);
  }
  const heldRoles = new Set(actor.roleIds);
  const role = target.roles.find((candidate) => !heldRoles.has(candidate.id));
  if (role) {
    throw new ApiError(
      403,
      `You cannot act on ${subject}: it holds the role ${role.name}, which you do not hold.`,
    );
  }
  const heldPermissions = lower(actor.permissions);
  const permission = target.permissions.find((name) => !heldPermissions.has(name.toLowerCase()));
  if (permission) {
    throw new ApiError(
      403,
      `You cannot act on ${subject}: it holds the permission ${permission}, which you do not hold.`,
    );
  }
}

type HoldingsRow = {
  user_name: string;
  roles: RoleGrant[];
  permissions: string[];
};

/**
 * The roles and permissions of a user; with `lock`, its row locked until the transaction ends so
 * that what was checked is what is changed. 404 when there is no such user.
 */
async function holdingsOfUser(
  tx: Queryable,
  userId: number,
  { lock = true } = {},
): Promise<Holdings & { readonly userName: string }> {
  const [row] = await tx.query<HoldingsRow>(
    `SELECT u.user_name,
       COALESCE((SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'key', r.key))
                 FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                 WHERE ur.user_id = u.id), '[]'::json) AS roles,
       COALESCE((SELECT array_agg(DISTINCT p.name)
                 FROM user_roles ur
                 JOIN role_permissions rp ON rp.role_id = ur.role_id
                 JOIN permissions p ON p.id = rp.permission_id
                 WHERE ur.user_id = u.id), '{}') AS permissions
     FROM users u WHERE u.id = $1 ${lock ? 'FOR UPDATE OF u' : ''}`,
    [userId],
  );
  if (!row) throw new NotFoundError(`There is no user with id ${userId}.`);
  return { userName: row.user_name, roles: row.roles, permissions: row.permissions };
}

/**
 * Checks that the actor may act on the user's account (see assertOutranks); 404 if none. A write
 * locks the account's row for its transaction; a read (`lock: false`) does not.
 */
export async function assertMayActOnUser(
  tx: Queryable,
  actor: Principal,
  userId: number,
  options: { lock?: boolean } = {},
): Promise<Holdings> {
  const target = await holdingsOfUser(tx, userId, options);
  assertOutranks(actor, `the account ${target.userName}`, target);
  return target;
}
