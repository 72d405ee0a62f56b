import { createHash, randomBytes } from 'node:crypto';
import {
  LOGIN_MESSAGES,
  type LoginInput,
  type LoginResult,
  type UserType,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import { ApiError, fieldError } from '../../http/errors.js';
import { recordAudit } from '../audit/audit.service.js';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './password-hashing.js';

/** The signed-in caller of a request, read fresh from the database on every request. */
export type Principal = {
  readonly sessionId: number;
  readonly userId: number;
  readonly userName: string;
  readonly name: string;
  readonly type: UserType;
  readonly firstLogin: 0 | 1;
  readonly roles: string[];
  readonly permissions: string[];
  /** Moves whenever any account, role or permission changes: a key for caches of those. */
  readonly accessVersion: number;
};

/** Where a request came from, for the session record and the audit log. */
export type RequestMeta = {
  readonly ip: string;
  readonly userAgent: string | null;
  readonly requestId: string;
};

export type SessionSettings = { readonly idleMs: number; readonly maxMs: number };

/**
 * Sign-in throttling over a sliding hour: failures per account, and per client address across
 * accounts (a shared office address still has room). Past either, sign-in answers 429 until the
 * oldest failure leaves the window, even with the right password; nothing is locked for good.
 */
export const LOGIN_THROTTLE = { perAccount: 100, perClient: 300, windowSeconds: 3600 } as const;

/** last_seen_at is written at most once a minute per session, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type UserRow = {
  id: number;
  user_name: string;
  name: string;
  type: UserType;
  status: 'active' | 'disabled';
  password_hash: string;
  first_login: 0 | 1;
};

/**
 * One small indexed lookup per request: the session and the current access version. Validity is
 * judged in code, which keeps the statement as cheap as a primary-key read on PGlite too.
 */
const SESSION_SQL = `
  SELECT s.id AS session_id, s.user_id,
         date_part('epoch', s.last_seen_at) * 1000 AS last_seen_ms,
         date_part('epoch', s.expires_at) * 1000 AS expires_ms,
         s.revoked_at IS NOT NULL AS revoked,
         (SELECT version FROM access_state) AS access_version
  FROM sessions s
  WHERE s.token_hash = $1`;

const ACCOUNT_SQL = `
  SELECT u.user_name, u.name, u.type, u.first_login, u.status,
    COALESCE((SELECT array_agg(r.name ORDER BY r.name)
              FROM user_roles ur JOIN roles r ON r.id = ur.role_id
              WHERE ur.user_id = u.id), '{}') AS roles,
    COALESCE((SELECT array_agg(DISTINCT p.name)
              FROM user_roles ur
              JOIN role_permissions rp ON rp.role_id = ur.role_id
              JOIN permissions p ON p.id = rp.permission_id
              WHERE ur.user_id = u.id), '{}') AS permissions
  FROM users u WHERE u.id = $1`;

/**
 * Times as epoch milliseconds: a float parses faster than a timestamp on every request (and
 * date_part gives a float where extract would compute a numeric).
 */
type SessionRow = {
  session_id: number;
  user_id: number;
  last_seen_ms: number;
  expires_ms: number;
  revoked: boolean;
  access_version: number;
};

const isOpen = (session: SessionRow, idleMs: number, now: number) =>
  !session.revoked && session.expires_ms > now && session.last_seen_ms > now - idleMs;

type AccountRow = {
  user_name: string;
  name: string;
  type: UserType;
  first_login: 0 | 1;
  status: 'active' | 'disabled';
  roles: string[];
  permissions: string[];
};

type CachedAccount = AccountRow & { readonly version: number };

/** Enough for every user of a site; past it the cache starts over rather than grow. */
const ACCOUNT_CACHE_LIMIT = 10_000;

/** The role names of a user, sorted. */
export async function rolesOf(db: Queryable, userId: number): Promise<string[]> {
  const rows = await db.query<{ name: string }>(
    `SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id
     WHERE ur.user_id = $1 ORDER BY r.name`,
    [userId],
  );
  return rows.map((row) => row.name);
}

/** Ends the open sessions of a user (all, or all but one), returning how many were ended. */
export async function endSessionsOfUser(
  db: Queryable,
  userId: number,
  reason: string,
  exceptSessionId: number | null = null,
): Promise<number> {
  const rows = await db.query(
    `UPDATE sessions SET revoked_at = now(), revoked_reason = $2
     WHERE user_id = $1 AND revoked_at IS NULL AND ($3::bigint IS NULL OR id <> $3::bigint)
     RETURNING id`,
    [userId, reason, exceptSessionId],
  );
  return rows.length;
}

const accountKey = (userName: string) => `account:${userName.toLowerCase()}`;
const clientKey = (ip: string) => `client:${ip}`;

/** 429 with Retry-After when the account or the client is past its limit in the window. */
async function assertNotThrottled(db: Queryable, userName: string, ip: string): Promise<void> {
  const [row] = await db.query<{
    account: number;
    client: number;
    account_wait: number | null;
    client_wait: number | null;
  }>(
    `SELECT count(*) FILTER (WHERE key = $1)::int AS account,
            count(*) FILTER (WHERE key = $2)::int AS client,
            ceil(extract(epoch FROM min(at) FILTER (WHERE key = $1) + make_interval(secs => $3) - now()))::int AS account_wait,
            ceil(extract(epoch FROM min(at) FILTER (WHERE key = $2) + make_interval(secs => $3) - now()))::int AS client_wait
     FROM login_failures
     WHERE key IN ($1, $2) AND at > now() - make_interval(secs => $3)`,
    [accountKey(userName), clientKey(ip), LOGIN_THROTTLE.windowSeconds],
  );
  if (!row) return;
  const wait =
    row.account >= LOGIN_THROTTLE.perAccount
      ? row.account_wait
      : row.client >= LOGIN_THROTTLE.perClient
        ? row.client_wait
        : null;
  if (wait === null) return;
  const seconds = Math.max(1, wait);
  throw new ApiError(
    429,
    `Too many failed sign-ins. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    { 'retry-after': String(seconds) },
  );
}

async function recordLoginFailure(db: Queryable, userName: string, ip: string): Promise<void> {
  const keys = [accountKey(userName), clientKey(ip)];
  await db.query('INSERT INTO login_failures (key) SELECT unnest($1::text[])', [keys]);
  await db.query(
    `DELETE FROM login_failures
     WHERE key = ANY ($1::text[]) AND at < now() - make_interval(secs => $2)`,
    [keys, LOGIN_THROTTLE.windowSeconds],
  );
}

export type SessionService = ReturnType<typeof createSessionService>;

export function createSessionService(db: Db, settings: SessionSettings) {
  const accounts = new Map<number, CachedAccount>();

  /** A user with roles and permissions, re-read whenever the access version has moved. */
  async function accountOf(userId: number, version: number): Promise<CachedAccount | null> {
    const cached = accounts.get(userId);
    if (cached && cached.version === version) return cached;
    const [row] = await db.query<AccountRow>(ACCOUNT_SQL, [userId]);
    if (!row) return null;
    if (accounts.size >= ACCOUNT_CACHE_LIMIT) accounts.clear();
    const account = { ...row, version };
    accounts.set(userId, account);
    return account;
  }

  return {
    /**
     * Checks user name and password and opens a session. Unknown user and wrong password give the
     * same answer after the same work (a dummy hash is verified for unknown users).
     */
    async login(
      input: LoginInput,
      meta: RequestMeta,
      options: { agentOnly: boolean },
    ): Promise<LoginResult> {
      await assertNotThrottled(db, input.user_name, meta.ip);
      const [user] = await db.query<UserRow>(
        `SELECT id, user_name, name, type, status, password_hash, first_login
         FROM users WHERE lower(user_name) = lower($1)`,
        [input.user_name],
      );
      const passwordOk = await verifyPassword(
        user?.password_hash ?? (await dummyPasswordHash()),
        input.password,
      );
      const refuse = async (reason: string, field: string, message: string) => {
        await recordAudit(db, {
          actorId: user?.id ?? null,
          actorName: input.user_name,
          action: 'login.failed',
          entityType: 'session',
          after: { reason, agentLogin: options.agentOnly },
          ip: meta.ip,
          requestId: meta.requestId,
        });
        return fieldError(field, message);
      };
      if (!user || !passwordOk) {
        await recordLoginFailure(db, input.user_name, meta.ip);
        throw await refuse('bad_credentials', 'password', LOGIN_MESSAGES.invalid);
      }
      if (user.status !== 'active')
        throw await refuse('disabled', 'user_name', LOGIN_MESSAGES.disabled);
      if (options.agentOnly && user.type !== 'agent') {
        throw await refuse('not_agent', 'user_name', LOGIN_MESSAGES.agentOnly);
      }

      const rehashed = needsRehash(user.password_hash) ? await hashPassword(input.password) : null;
      const token = randomBytes(32).toString('base64url');
      const roles = await db.transaction(async (tx) => {
        const [session] = await tx.query<{ id: number }>(
          `INSERT INTO sessions (user_id, token_hash, expires_at, ip, user_agent)
           VALUES ($1, $2, now() + make_interval(secs => $3), $4, $5) RETURNING id`,
          [user.id, hashToken(token), settings.maxMs / 1000, meta.ip, meta.userAgent],
        );
        await tx.query(
          `UPDATE users SET last_login_at = now(), password_hash = COALESCE($2, password_hash)
           WHERE id = $1`,
          [user.id, rehashed],
        );
        await recordAudit(tx, {
          actorId: user.id,
          actorName: user.user_name,
          action: 'login.succeeded',
          entityType: 'session',
          entityId: session?.id,
          after: { agentLogin: options.agentOnly },
          ip: meta.ip,
          requestId: meta.requestId,
        });
        return rolesOf(tx, user.id);
      });
      return {
        token,
        type: user.type,
        user_name: user.user_name,
        userInfoId: user.id,
        userInfo: roles,
        first_login: user.first_login,
      };
    },

    /** The principal of a bearer token, or null when the session is unknown, ended or expired. */
    async authenticate(token: string): Promise<Principal | null> {
      const [session] = await db.query<SessionRow>(SESSION_SQL, [hashToken(token)]);
      const now = Date.now();
      if (!session || !isOpen(session, settings.idleMs, now)) return null;
      const account = await accountOf(session.user_id, session.access_version);
      if (!account || account.status !== 'active') return null;
      if (now - session.last_seen_ms > TOUCH_INTERVAL_MS) {
        await db.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [
          session.session_id,
        ]);
      }
      return {
        sessionId: session.session_id,
        userId: session.user_id,
        userName: account.user_name,
        name: account.name,
        type: account.type,
        firstLogin: account.first_login,
        roles: account.roles,
        permissions: account.permissions,
        accessVersion: session.access_version,
      };
    },

    /** Ends the caller's session. */
    async logout(principal: Principal, meta: RequestMeta): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.query(
          `UPDATE sessions SET revoked_at = now(), revoked_reason = 'logout'
           WHERE id = $1 AND revoked_at IS NULL`,
          [principal.sessionId],
        );
        await recordAudit(tx, {
          actorId: principal.userId,
          actorName: principal.userName,
          action: 'logout',
          entityType: 'session',
          entityId: principal.sessionId,
          ip: meta.ip,
          requestId: meta.requestId,
        });
      });
    },
  };
}
