import { createHash, randomBytes } from 'node:crypto';
import {
  LOGIN_MESSAGES,
  type LoginInput,
  type LoginResult,
  type UserType,
} from '@inventory/contract';
import type { Db, Queryable } from '../../db/db.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { ApiError, fieldError } from '../../http/errors.js';
import { recordAudit } from '../audit/index.js';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from './password-hashing.js';

export type SessionSettings = { readonly idleMs: number; readonly maxMs: number };

/**
 * Sign-in throttling over a sliding hour (decision 0012), answered with 429 and Retry-After until
 * the oldest counted failure leaves the window, even for the right password; nothing is locked
 * for good, and nobody locks another person out from elsewhere:
 * - an account from one address: `perAccountAndAddress` failures;
 * - an account under a spread attack (`attackedAccount` failures from anywhere): an address where
 *   it has not signed in within `knownAddressDays` gets `perUnknownAddressUnderAttack` failures,
 *   so many addresses buy few guesses each, while the owner still signs in from any other one;
 * - an address across accounts: `perAddress` failures, except for accounts known at that address,
 *   so an office behind one address keeps signing in after some people's mistakes.
 */
export const LOGIN_THROTTLE = {
  perAccountAndAddress: 100,
  attackedAccount: 100,
  perUnknownAddressUnderAttack: 3,
  perAddress: 300,
  knownAddressDays: 30,
  windowSeconds: 3600,
} as const;

/**
 * How often a request writes last_seen_at: a hundredth of the idle timeout, at most a minute.
 * A request that does not write leaves last_seen_at at most this far behind, so a session is
 * judged idle once idle timeout plus this has passed since last_seen_at: never while in use, and
 * never later than a hundredth of the timeout after its last request.
 */
const touchIntervalOf = (idleMs: number) => Math.min(60_000, Math.max(1, Math.floor(idleMs / 100)));

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Enough for every signed-in person of a site; past it the memo starts over rather than grow. */
const TOKEN_MEMO_LIMIT = 10_000;
const tokenHashes = new Map<string, string>();
/** The hash of a bearer token, remembered: every request of a session brings the same token. */
function tokenHashOf(token: string): string {
  let hash = tokenHashes.get(token);
  if (hash === undefined) {
    if (tokenHashes.size >= TOKEN_MEMO_LIMIT) tokenHashes.clear();
    hash = hashToken(token);
    tokenHashes.set(token, hash);
  }
  return hash;
}

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
 * The session of a token hash and the current access version, in one small indexed statement.
 * Validity is judged in code, which keeps the statement as cheap as a primary-key read.
 */
const sessionSql = (dataVersions: boolean) => `
  SELECT s.id AS session_id, s.user_id,
         date_part('epoch', s.last_seen_at) * 1000 AS last_seen_ms,
         date_part('epoch', s.expires_at) * 1000 AS expires_ms,
         s.revoked_at IS NOT NULL AS revoked,
         (SELECT version FROM access_state) AS access_version
         ${dataVersions ? `, (SELECT string_agg(table_name || '=' || version, ',') FROM data_versions) AS data_versions` : ''}
  FROM sessions s
  WHERE s.token_hash = $1`;
const SESSION_SQL = sessionSql(false);
/** For the endpoints whose answers are kept (decision 0010): the data versions come along. */
const SESSION_WITH_DATA_VERSIONS_SQL = sessionSql(true);

const ACCOUNT_SQL = `
  SELECT u.user_name, u.name, u.type, u.first_login, u.status,
    COALESCE((SELECT array_agg(r.name ORDER BY r.name)
              FROM user_roles ur JOIN roles r ON r.id = ur.role_id
              WHERE ur.user_id = u.id), '{}') AS roles,
    COALESCE((SELECT array_agg(ur.role_id ORDER BY ur.role_id)
              FROM user_roles ur WHERE ur.user_id = u.id), '{}') AS role_ids,
    COALESCE((SELECT array_agg(r.key ORDER BY r.key)
              FROM user_roles ur JOIN roles r ON r.id = ur.role_id
              WHERE ur.user_id = u.id AND r.key IS NOT NULL), '{}') AS role_keys,
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
  data_versions?: string;
};

/** A session that was not revoked when read; expiry and idleness are judged on each request. */
type OpenSession = {
  readonly sessionId: number;
  readonly userId: number;
  readonly expiresMs: number;
  /** Moved forward in memory when a request writes last_seen_at, so one request writes it. */
  lastSeenMs: number;
};

const openSessionOf = (row: SessionRow): OpenSession | null =>
  row.revoked
    ? null
    : {
        sessionId: row.session_id,
        userId: row.user_id,
        expiresMs: row.expires_ms,
        lastSeenMs: row.last_seen_ms,
      };

const isOpen = (session: OpenSession, idleMs: number, touchMs: number, now: number) =>
  session.expiresMs > now && now - session.lastSeenMs <= idleMs + touchMs;

/** Where each request finds its session and the access version. */
type SessionSource = {
  lookup(
    tokenHash: string,
    withDataVersions: boolean,
  ): Promise<{
    session: OpenSession;
    accessVersion: number;
    dataVersions: string | null;
  } | null>;
};

/** PostgreSQL (any number of app servers): the database is asked on every request. */
function databaseSessions(db: Db): SessionSource {
  return {
    async lookup(tokenHash, withDataVersions) {
      const [row] = await db.query<SessionRow>(
        withDataVersions ? SESSION_WITH_DATA_VERSIONS_SQL : SESSION_SQL,
        [tokenHash],
      );
      const session = row ? openSessionOf(row) : null;
      return session && row
        ? { session, accessVersion: row.access_version, dataVersions: row.data_versions ?? null }
        : null;
    },
  };
}

/** Enough for every signed-in person of a site; past it the cache starts over rather than grow. */
const SESSION_CACHE_LIMIT = 10_000;

/**
 * PGlite (one process owns the database, see directory-lock.ts): open sessions and the access
 * version are kept in memory. The database notifies every change of a session row and every
 * move of the access version (migration 0006), whoever made it, before the changing statement
 * resolves; the entry is dropped or the version replaced then, so the next request sees the
 * change. A read that a notification overtook is used once but not kept. Until the
 * subscriptions are in place, or if they fail, requests read the database as on PostgreSQL.
 */
function localSessions(
  db: Db & Required<Pick<Db, 'listen'>>,
  fallback: SessionSource,
): SessionSource {
  const byTokenHash = new Map<string, OpenSession>();
  const tokenHashById = new Map<number, string>();
  let sessionChanges = 0;
  let accessVersion: number | null = null;
  let accessChanges = 0;

  const forget = (payload: string) => {
    sessionChanges += 1;
    const id = Number(payload);
    const tokenHash = payload === '' ? undefined : tokenHashById.get(id);
    if (payload === '' || !Number.isSafeInteger(id)) {
      byTokenHash.clear();
      tokenHashById.clear();
    } else if (tokenHash !== undefined) {
      byTokenHash.delete(tokenHash);
      tokenHashById.delete(id);
    }
  };
  const versionMoved = (payload: string) => {
    accessChanges += 1;
    const version = Number(payload);
    accessVersion = payload !== '' && Number.isSafeInteger(version) ? version : null;
  };

  let subscribed = false;
  const subscribing = (async () => {
    await db.query("SELECT set_config('inventory.notify_changes', 'on', false)");
    await db.listen('session_changed', forget);
    await db.listen('access_changed', versionMoved);
    subscribed = true;
  })().catch(() => {});

  async function currentAccessVersion(): Promise<number> {
    if (accessVersion !== null) return accessVersion;
    const seen = accessChanges;
    const [row] = await db.query<{ version: number }>('SELECT version FROM access_state');
    if (accessChanges === seen) accessVersion = row!.version;
    return accessVersion ?? row!.version;
  }

  return {
    async lookup(tokenHash, withDataVersions) {
      if (!subscribed) await subscribing;
      if (!subscribed) return fallback.lookup(tokenHash, withDataVersions);
      const cached = byTokenHash.get(tokenHash);
      if (cached) {
        return { session: cached, accessVersion: await currentAccessVersion(), dataVersions: null };
      }

      const [seenSessions, seenAccess] = [sessionChanges, accessChanges];
      const [row] = await db.query<SessionRow>(SESSION_SQL, [tokenHash]);
      const session = row ? openSessionOf(row) : null;
      if (!session || !row) return null;
      if (sessionChanges === seenSessions) {
        if (byTokenHash.size >= SESSION_CACHE_LIMIT) {
          byTokenHash.clear();
          tokenHashById.clear();
        }
        byTokenHash.set(tokenHash, session);
        tokenHashById.set(session.sessionId, tokenHash);
      }
      if (accessVersion === null && accessChanges === seenAccess) {
        accessVersion = row.access_version;
      }
      return { session, accessVersion: accessVersion ?? row.access_version, dataVersions: null };
    },
  };
}

type AccountRow = {
  user_name: string;
  name: string;
  type: UserType;
  first_login: 0 | 1;
  status: 'active' | 'disabled';
  roles: string[];
  /** node-postgres gives bigint[] as strings (PGlite as numbers). */
  role_ids: Array<number | string>;
  role_keys: string[];
  permissions: string[];
};

type CachedAccount = Omit<AccountRow, 'role_ids'> & {
  readonly role_ids: number[];
  readonly version: number;
};

/** Enough for every user of a site; past it the cache starts over rather than grow. */
const ACCOUNT_CACHE_LIMIT = 10_000;

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

/**
 * The address the throttle counts failures by: an IPv4 address as it is, an IPv6 address by its
 * /64 network, since whoever holds one network chooses freely among its addresses.
 */
export function throttleAddressOf(ip: string): string {
  const address = ip.split('%')[0]!;
  if (!address.includes(':')) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  const [head = '', tail] = address.split('::');
  const groups = head === '' ? [] : head.split(':');
  if (tail !== undefined) {
    const after = tail === '' ? [] : tail.split(':');
    groups.push(
      ...Array<string>(Math.max(0, 8 - groups.length - after.length)).fill('0'),
      ...after,
    );
  }
  const network = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}

const accountKey = (userName: string) => `account:${userName.toLowerCase()}`;
const clientKey = (ip: string) => `client:${throttleAddressOf(ip)}`;
const pairKey = (userName: string, ip: string) =>
  `pair:${userName.toLowerCase()}|${throttleAddressOf(ip)}`;

/**
 * The first statement of a sign-in (migration 0017): it records the attempt as a failure, then
 * answers the failures before it that the throttle counts, whether the account is known at the
 * address, the user with its role names if there is one, and the attempt's rows.
 */
const SIGN_IN_SQL = 'SELECT * FROM sign_in_attempt($1, $2, $3, $4, $5, $6, $7)';

type SignInRow = { [K in keyof UserRow]: UserRow[K] | null } & {
  roles: string[] | null;
  pair_failures: number;
  client_failures: number;
  account_failures: number;
  pair_wait: number | null;
  client_wait: number | null;
  known_address: boolean | null;
  /** node-postgres gives bigint[] as strings (PGlite as numbers). */
  attempt_ids: Array<number | string>;
};

/** The seconds to wait when a limit of LOGIN_THROTTLE is reached, or null. */
function throttleWait(row: SignInRow): number | null {
  const limits = LOGIN_THROTTLE;
  const known = row.known_address === true;
  if (row.pair_failures >= limits.perAccountAndAddress) return row.pair_wait;
  const underAttack = row.account_failures >= limits.attackedAccount;
  if (underAttack && !known && row.pair_failures >= limits.perUnknownAddressUnderAttack) {
    return row.pair_wait;
  }
  if (row.client_failures >= limits.perAddress && !known) return row.client_wait;
  return null;
}

/** 429 with Retry-After, for a wait of the throttle. */
function throttled(wait: number): ApiError {
  const seconds = Math.max(1, wait);
  return new ApiError(
    429,
    `Too many failed sign-ins. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    { 'retry-after': String(seconds) },
  );
}

/** An attempt refused for another reason than its password is no failure: its rows go. */
const forgetAttempt = (db: Queryable, row: SignInRow) =>
  db.query('DELETE FROM login_failures WHERE id = ANY ($1::bigint[])', [
    row.attempt_ids.map(Number),
  ]);

/**
 * A successful sign-in in one call (migration 0017), atomic without BEGIN and COMMIT: the
 * attempt's rows go, then the session, the user's last login (and re-hashed password) and the
 * audit event.
 */
const OPEN_SESSION_SQL = 'SELECT open_session($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)';

/** A failed sign-in stays recorded by its attempt's rows; the window's older rows go. */
async function pruneLoginFailures(db: Queryable, userName: string, ip: string): Promise<void> {
  const keys = [pairKey(userName, ip), clientKey(ip), accountKey(userName)];
  await db.query(
    `DELETE FROM login_failures
     WHERE key = ANY ($1::text[]) AND at < now() - make_interval(secs => $2)`,
    [keys, LOGIN_THROTTLE.windowSeconds],
  );
}

export type SessionService = ReturnType<typeof createSessionService>;

export function createSessionService(db: Db, settings: SessionSettings) {
  const accounts = new Map<number, CachedAccount>();
  const touchMs = touchIntervalOf(settings.idleMs);
  const fromDatabase = databaseSessions(db);
  const sessions = db.listen
    ? localSessions(db as Db & Required<Pick<Db, 'listen'>>, fromDatabase)
    : fromDatabase;

  /** A user with roles and permissions, re-read whenever the access version has moved. */
  async function accountOf(userId: number, version: number): Promise<CachedAccount | null> {
    const cached = accounts.get(userId);
    if (cached && cached.version === version) return cached;
    const [row] = await db.query<AccountRow>(ACCOUNT_SQL, [userId]);
    if (!row) return null;
    if (accounts.size >= ACCOUNT_CACHE_LIMIT) accounts.clear();
    const account = { ...row, role_ids: row.role_ids.map(Number), version };
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
      const [found] = await db.query<SignInRow>(SIGN_IN_SQL, [
        input.user_name,
        pairKey(input.user_name, meta.ip),
        clientKey(meta.ip),
        accountKey(input.user_name),
        meta.ip,
        LOGIN_THROTTLE.windowSeconds,
        LOGIN_THROTTLE.knownAddressDays,
      ]);
      const wait = throttleWait(found!);
      if (wait !== null) {
        await forgetAttempt(db, found!);
        throw throttled(wait);
      }
      const user = found?.id == null ? undefined : (found as UserRow & { roles: string[] });
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
        await pruneLoginFailures(db, input.user_name, meta.ip);
        throw await refuse('bad_credentials', 'password', LOGIN_MESSAGES.invalid);
      }
      if (user.status !== 'active') {
        await forgetAttempt(db, found!);
        throw await refuse('disabled', 'user_name', LOGIN_MESSAGES.disabled);
      }
      if (options.agentOnly && user.type !== 'agent') {
        await forgetAttempt(db, found!);
        throw await refuse('not_agent', 'user_name', LOGIN_MESSAGES.agentOnly);
      }

      const rehashed = needsRehash(user.password_hash) ? await hashPassword(input.password) : null;
      const token = randomBytes(32).toString('base64url');
      await db.query(OPEN_SESSION_SQL, [
        user.id,
        hashToken(token),
        settings.maxMs / 1000,
        meta.ip,
        meta.userAgent,
        rehashed,
        user.user_name,
        JSON.stringify({ agentLogin: options.agentOnly }),
        meta.requestId,
        found!.attempt_ids,
      ]);
      return {
        token,
        type: user.type,
        user_name: user.user_name,
        userInfoId: user.id,
        userInfo: user.roles,
        first_login: user.first_login,
      };
    },

    /**
     * The principal of a bearer token, or null when the session is unknown, ended or expired.
     * `withDataVersions`: the endpoint keeps answers, and on PostgreSQL reads the data versions
     * in the same statement.
     */
    async authenticate(token: string, withDataVersions = false): Promise<Principal | null> {
      const found = await sessions.lookup(tokenHashOf(token), withDataVersions);
      const now = Date.now();
      if (!found || !isOpen(found.session, settings.idleMs, touchMs, now)) return null;
      const { session, accessVersion, dataVersions } = found;
      const account = await accountOf(session.userId, accessVersion);
      if (!account || account.status !== 'active') return null;
      if (now - session.lastSeenMs >= touchMs) {
        session.lastSeenMs = now;
        await db.query('UPDATE sessions SET last_seen_at = now() WHERE id = $1', [
          session.sessionId,
        ]);
      }
      return {
        sessionId: session.sessionId,
        userId: session.userId,
        userName: account.user_name,
        name: account.name,
        type: account.type,
        firstLogin: account.first_login,
        roles: account.roles,
        roleIds: account.role_ids,
        roleKeys: account.role_keys,
        permissions: account.permissions,
        accessVersion,
        dataVersions,
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
