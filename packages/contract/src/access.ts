/**
 * The one access rule of the application (spec section 6), shared by the side menu, the route
 * guards of the web app and the permission checks of the server.
 */

/**
 * What a menu item, a page or an endpoint requires: a permission name, or 'roles' with a role list.
 * An action inside a role-guarded station that has its own permission (DOMAIN.md 6.3: scanning into
 * a warehouse box) names it in `andPermission`: both are then needed.
 */
export type Access = {
  readonly permission?: string;
  readonly roles?: readonly string[];
  readonly andPermission?: string;
};

/** The part of a profile the access rule reads. */
export type AccessSubject = {
  readonly allRoles: readonly string[];
  readonly allPermissions: readonly string[];
};

export const ADMIN_ROLE = 'admin';
export const ROLES_PERMISSION = 'roles';

const lower = (names: readonly string[]) => new Set(names.map((name) => name.toLowerCase()));

/** True when the roles include 'admin', compared case-insensitively. */
export function isAdmin(roles: readonly string[]): boolean {
  return roles.some((role) => role.toLowerCase() === ADMIN_ROLE);
}

/**
 * Spec section 6: admin passes everything; no permission means shown; permission 'roles' needs one
 * of the listed roles; otherwise the permission must be held; all comparisons case-insensitive; no
 * profile passes nothing.
 */
export function canAccess(subject: AccessSubject | null | undefined, access: Access): boolean {
  if (!subject) return false;
  if (isAdmin(subject.allRoles)) return true;
  const holds = (permission: string) => lower(subject.allPermissions).has(permission.toLowerCase());
  if (access.andPermission && !holds(access.andPermission)) return false;
  const permission = access.permission;
  if (!permission) return true;
  if (permission.toLowerCase() === ROLES_PERMISSION) {
    const held = lower(subject.allRoles);
    return (access.roles ?? []).some((role) => held.has(role.toLowerCase()));
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
