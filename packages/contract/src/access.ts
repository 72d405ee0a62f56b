/**
 * The one access rule of the application (spec section 6), shared by the side menu, the route
 * guards of the web app and the permission checks of the server.
 */
import type { PermissionName } from './permissions.js';

/**
 * What a menu item, a page or an endpoint requires: a permission name, or 'roles' with a role list.
 * An action inside a role-guarded station that has its own permission (DOMAIN.md 6.3: scanning into
 * a warehouse box) names it in `andPermission`: both are then needed.
 */
export type Access = {
  readonly permission?: PermissionName | typeof ROLES_PERMISSION;
  readonly roles?: readonly string[];
  readonly andPermission?: PermissionName;
};

/** The part of a profile the access rule reads. */
export type AccessSubject = {
  readonly allRoles: readonly string[];
  readonly allPermissions: readonly string[];
  /**
   * The stable keys of the system roles held (see `roleKeyOf`). Where they are given (the server
   * always gives them, the profile too) role checks use them, so renaming a role, or giving a
   * custom role a system role's name, moves no access. Without them role names are compared.
   */
  readonly allRoleKeys?: readonly string[];
};

export const ADMIN_ROLE = 'admin';
/** The key of the administrator role: it passes every check. */
export const ADMIN_ROLE_KEY = 'admin';
export const ROLES_PERMISSION = 'roles';

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));

/**
 * The key a system role is seeded with, from its name as the contract spells it ('Warehouse
 * Sorting' is 'warehouse-sorting'). Stored with the role and never edited: guards name roles,
 * and the server compares the keys of those names with the keys of the roles a user holds.
 */
export function roleKeyOf(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** True when the role names include 'admin', compared case-insensitively. */
export function isAdmin(roles: readonly string[]): boolean {
  return roles.some((role) => role.toLowerCase() === ADMIN_ROLE);
}

/** True when the subject holds the administrator role: by key where keys are given. */
export function isAdministrator(subject: AccessSubject): boolean {
  return subject.allRoleKeys
    ? subject.allRoleKeys.includes(ADMIN_ROLE_KEY)
    : isAdmin(subject.allRoles);
}

/** True when the subject holds one of the roles named (by their keys where keys are given). */
function holdsOneOf(subject: AccessSubject, roles: readonly string[]): boolean {
  if (subject.allRoleKeys) {
    const held = new Set(subject.allRoleKeys);
    return roles.some((role) => held.has(roleKeyOf(role)));
  }
  const held = lower(subject.allRoles);
  return roles.some((role) => held.has(role.toLowerCase()));
}

/**
 * Spec section 6: admin passes everything; no permission means shown; permission 'roles' needs one
 * of the listed roles; otherwise the permission must be held; all comparisons case-insensitive; no
 * profile passes nothing. Roles are matched by their keys when the subject carries them.
 */
export function canAccess(subject: AccessSubject | null | undefined, access: Access): boolean {
  if (!subject) return false;
  if (isAdministrator(subject)) return true;
  const holds = (permission: string) => lower(subject.allPermissions).has(permission.toLowerCase());
  if (access.andPermission && !holds(access.andPermission)) return false;
  const permission = access.permission;
  if (!permission) return true;
  if (permission.toLowerCase() === ROLES_PERMISSION) {
    return holdsOneOf(subject, access.roles ?? []);
  }
  return holds(permission);
}

/** Human wording of what an access rule requires, used in 403 answers and on the 403 page. */
export function describeAccess(access: Access): string {
  const also = access.andPermission ? ` and the permission ${access.andPermission}` : '';
  if (!access.permission)
    return access.andPermission ? `the permission ${access.andPermission}` : 'a signed-in user';
  if (access.permission.toLowerCase() === ROLES_PERMISSION) {
    return `one of the roles ${(access.roles ?? []).join(', ')}${also}`;
  }
  return `the permission ${access.permission}${also}`;
}
