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

/** A client carrier's system calling with one of its API keys (guard 'client-carrier'). */
export type ClientCarrierCaller = {
  readonly keyId: number;
  /** The vendor of type 'carrier-client' the key belongs to. */
  readonly clientCarrierId: number;
  readonly clientCarrierName: string;
};

/**
 * Who does a write, as timelines and the audit log name them: a signed-in person, or a client
 * carrier's system, which has no account, roles or permissions, so that it runs only the steps
 * that ask for none (an order's validation).
 */
export type Actor = {
  readonly userId: number | null;
  readonly userName: string;
  readonly roles: readonly string[];
  readonly permissions: readonly string[];
  readonly roleKeys: readonly string[];
};

/** Who does a write and from where: what every service that writes takes. */
export type Acting = { readonly actor: Actor; readonly meta: RequestMeta };

/** A client carrier's system as the actor of what its call writes. */
export const clientCarrierActor = (caller: ClientCarrierCaller): Actor => ({
  userId: null,
  userName: `carrier: ${caller.clientCarrierName}`,
  roles: [],
  permissions: [],
  roleKeys: [],
});

/** What the one access rule (`canAccess`) reads of a principal: roles by their keys. */
export const accessSubjectOf = (principal: Actor): AccessSubject => ({
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
