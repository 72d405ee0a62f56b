import { ADMIN_ROLE_KEY, type AccessSubject, type UserType } from '@inventory/contract';

/*
 * Who calls and from where: read by the HTTP layer, the toolkit and every module, so it lives
 * below them all (session.service.ts, which reads it from the database, included).
 */

/** The signed-in caller of a request, read fresh from the database on every request. */
export type Principal = {
  readonly sessionId: number;
  readonly userId: number;
  readonly userName: string;
  readonly name: string;
  readonly type: UserType;
  readonly firstLogin: 0 | 1;
  /** Role names, as the profile shows them. */
  readonly roles: string[];
  readonly roleIds: number[];
  /** The keys of the system roles held: what role guards and the administrator check read. */
  readonly roleKeys: string[];
  readonly permissions: string[];
  /** Moves whenever any account, role or permission changes: a key for caches of those. */
  readonly accessVersion: number;
  /**
   * PostgreSQL: the data versions (migration 0010) read with the session, one statement for
   * both; null where the server keeps them in memory (PGlite).
   */
  readonly dataVersions: string | null;
};

/** What the one access rule (`canAccess`) reads of a principal: roles by their keys. */
export const accessSubjectOf = (principal: Principal): AccessSubject => ({
  allRoles: principal.roles,
  allPermissions: principal.permissions,
  allRoleKeys: principal.roleKeys,
});

/** True when the principal holds the administrator role, known by its key, never its name. */
export const holdsAdministrator = (principal: Principal) =>
  principal.roleKeys.includes(ADMIN_ROLE_KEY);

/** Where a request came from, for the session record and the audit log. */
export type RequestMeta = {
  readonly ip: string;
  readonly userAgent: string | null;
  readonly requestId: string;
};
