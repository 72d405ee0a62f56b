import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import type { Db } from '../../db/db.js';
import { bearer, bodyOf, createRole, createUser, login } from '../../test/test-app.js';
import { openTestDatabase } from '../../test/test-database.js';
import {
  createSessionService,
  type SessionService,
  type SessionSettings,
} from './session.service.js';

/**
 * Decision 0002: on PGlite open sessions and the access version live in memory, on PostgreSQL
 * every request asks the database. Either way each change must apply on the very next request;
 * every session here is used twice before the change, so on PGlite it is held in memory.
 */

let db: Db;
let app: FastifyInstance;
let adminToken: string;
const statements: string[] = [];

/** The database as the app sees it, recording each statement it runs. */
function recording(inner: Db): Db {
  return {
    ...inner,
    query: (sql, params) => {
      statements.push(sql);
      return inner.query(sql, params);
    },
  };
}

const isSessionRead = (sql: string) => sql.includes('FROM sessions s');
const isTouch = (sql: string) => sql.includes('SET last_seen_at = now()');
const count = (test: (sql: string) => boolean) => statements.filter(test).length;

beforeAll(async () => {
  db = await openTestDatabase({ prepared: true });
  const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: null };
  app = await buildApp(config, recording(db), { validateResponses: true });
  await createRole(db, 'Session Test Admin', ['user.view-list', 'user.manage']);
  await createUser(db, {
    userName: 'session.admin',
    password: 'session-admin-1',
    roles: ['admin'],
  });
  adminToken = await login(app, 'session.admin', 'session-admin-1');
});
afterAll(() => app.close());
afterEach(() => {
  vi.useRealTimers();
});

const get = (url: string, token: string) =>
  app.inject({ url: `/api/v1${url}`, headers: bearer(token) });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload = {}) =>
  app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), payload });
const status = async (token: string, url = '/profile') => (await get(url, token)).statusCode;

/** A session service of its own, for timeouts other than the app's. */
const serviceWith = (settings: SessionSettings) => createSessionService(recording(db), settings);

const meta = { ip: '127.0.0.1', userAgent: null, requestId: 'session-test' };

let users = 0;
/** A new user, signed in, whose session has already served two requests. */
async function signedIn(roles: string[] = []) {
  users += 1;
  const userName = `person${users}`;
  const password = `password-of-${userName}`;
  const id = await createUser(db, { userName, password, roles });
  const token = await login(app, userName, password);
  expect(await status(token)).toBe(200);
  expect(await status(token)).toBe(200);
  return { id, userName, password, token };
}

/** A new user signed in through a session service, whose session served two requests. */
async function signedInTo(sessions: SessionService) {
  users += 1;
  const userName = `person${users}`;
  const password = `password-of-${userName}`;
  await createUser(db, { userName, password });
  const { token } = await sessions.login({ user_name: userName, password }, meta, {
    agentOnly: false,
  });
  expect(await sessions.authenticate(token)).not.toBeNull();
  expect(await sessions.authenticate(token)).not.toBeNull();
  return { token };
}

const lastSessionOf = (userId: number) =>
  `(SELECT max(id) FROM sessions WHERE user_id = ${Number(userId)})`;

describe('an open session', () => {
  it('is read from the database once on PGlite, and on every request on PostgreSQL', async () => {
    const { token } = await signedIn();
    statements.length = 0;
    for (let i = 0; i < 5; i += 1) expect(await status(token)).toBe(200);
    expect(count(isSessionRead)).toBe(db.kind === 'pglite' ? 0 : 5);
  });

  it('writes last_seen_at at most once a minute', async () => {
    const { id, token } = await signedIn();
    await db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE id = ${lastSessionOf(id)}`,
    );
    statements.length = 0;
    for (let i = 0; i < 3; i += 1) expect(await status(token)).toBe(200);
    expect(count(isTouch)).toBe(1);
    const [row] = await db.query<{ recent: boolean }>(
      `SELECT last_seen_at > now() - interval '10 seconds' AS recent FROM sessions
       WHERE id = ${lastSessionOf(id)}`,
    );
    expect(row?.recent).toBe(true);
  });

  it('writes last_seen_at once when many requests find it due at the same time (PGlite)', async () => {
    if (db.kind !== 'pglite') return;
    const sessions = serviceWith({ idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 });
    const { token } = await signedInTo(sessions);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 61_000);
    statements.length = 0;
    const principals = await Promise.all(
      Array.from({ length: 10 }, () => sessions.authenticate(token)),
    );
    expect(principals.every((principal) => principal !== null)).toBe(true);
    expect(count(isTouch)).toBe(1);
  });

  it('ends when idle for longer than the idle timeout, with no database change', async () => {
    const sessions = serviceWith({ idleMs: 30 * 60_000, maxMs: 60 * 60_000 });
    const { token } = await signedInTo(sessions);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 31 * 60_000);
    expect(await sessions.authenticate(token)).toBeNull();
  });

  it('is never ended by idleness while in use, and ends once idle for the timeout', async () => {
    // Real time, on both databases: a two-second timeout, a request every second.
    const sessions = serviceWith({ idleMs: 2_000, maxMs: 60_000 });
    const { token } = await signedInTo(sessions);
    for (let i = 0; i < 4; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await sessions.authenticate(token), `request ${i + 1}`).not.toBeNull();
    }
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    expect(await sessions.authenticate(token)).toBeNull();
  });

  it('ends at its absolute expiry, with no database change', async () => {
    // A request at 9 minutes keeps it from idling; at 11 its 10 minutes are over.
    const sessions = serviceWith({ idleMs: 30 * 60_000, maxMs: 10 * 60_000 });
    const { token } = await signedInTo(sessions);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 9 * 60_000);
    expect(await sessions.authenticate(token)).not.toBeNull();
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect(await sessions.authenticate(token)).toBeNull();
  });
});

type Change = (person: Awaited<ReturnType<typeof signedIn>>) => Promise<unknown>;

describe('each way a session ends applies on the very next request', () => {
  const cases: Array<[string, Change]> = [
    ['logout', ({ token }) => send('POST', '/logout', token)],
    [
      'a password change',
      ({ password, token }) =>
        send('POST', '/profile/password', token, {
          current_password: password,
          new_password: 'a-brand-new-password-7',
          new_password_confirm: 'a-brand-new-password-7',
        }),
    ],
    ['disabling', ({ id }) => send('PUT', `/users/${id}`, adminToken, { status: 'disabled' })],
    ['a password reset', ({ id }) => send('POST', `/users/${id}/password-reset`, adminToken)],
    ['signing out everywhere', ({ id }) => send('DELETE', `/users/${id}/sessions`, adminToken)],
    ['deleting the user', ({ id }) => send('DELETE', `/users/${id}`, adminToken)],
    [
      'a revocation in SQL',
      ({ id }) =>
        db.query(
          `UPDATE sessions SET revoked_at = now(), revoked_reason = 'test' WHERE id = ${lastSessionOf(id)}`,
        ),
    ],
    [
      'idling, set in SQL',
      ({ id }) =>
        db.query(
          `UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE id = ${lastSessionOf(id)}`,
        ),
    ],
    [
      'expiry, set in SQL',
      ({ id }) =>
        db.query(
          `UPDATE sessions SET expires_at = now() - interval '1 second' WHERE id = ${lastSessionOf(id)}`,
        ),
    ],
    [
      'deleting the session in SQL',
      ({ id }) => db.query(`DELETE FROM sessions WHERE user_id = ${id}`),
    ],
    [
      'disabling in SQL',
      ({ id }) => db.query(`UPDATE users SET status = 'disabled' WHERE id = ${id}`),
    ],
  ];
  it.each(cases)('%s', async (_name, change) => {
    const person = await signedIn();
    const response = (await change(person)) as { statusCode?: number } | undefined;
    if (response?.statusCode !== undefined) expect(response.statusCode).toBe(200);
    expect(await status(person.token)).toBe(401);
  });

  it('a revocation committed between the read of a session and its use', async () => {
    // The revocation lands after the session row was read and before the read resolves.
    let between: (() => Promise<unknown>) | null = null;
    const sessions = createSessionService(
      {
        ...recording(db),
        async query(sql, params) {
          const rows = await db.query(sql, params);
          const run = isSessionRead(sql) ? between : null;
          between = null;
          if (run) await run();
          return rows as never;
        },
      },
      { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 },
    );
    users += 1;
    const userName = `person${users}`;
    const id = await createUser(db, { userName, password: 'racing-password' });
    const { token } = await sessions.login(
      { user_name: userName, password: 'racing-password' },
      meta,
      {
        agentOnly: false,
      },
    );
    between = () =>
      db.query(`UPDATE sessions SET revoked_at = now() WHERE id = ${lastSessionOf(id)}`);
    expect(await sessions.authenticate(token)).not.toBeNull();
    expect(await sessions.authenticate(token)).toBeNull();
  });
});

describe('role and permission changes apply on the very next request', () => {
  it('a permission taken from a role, then given back', async () => {
    await createRole(db, 'List Readers', ['user.view-list']);
    const { token } = await signedIn(['List Readers']);
    expect(await status(token, '/users')).toBe(200);
    expect(await status(token, '/users')).toBe(200);
    const permission = `(SELECT id FROM permissions WHERE name = 'user.view-list')`;
    const role = `(SELECT id FROM roles WHERE name = 'List Readers')`;
    await db.query(`DELETE FROM role_permissions WHERE role_id = ${role}`);
    expect(await status(token, '/users')).toBe(403);
    await db.query(
      `INSERT INTO role_permissions (role_id, permission_id) VALUES (${role}, ${permission})`,
    );
    expect(await status(token, '/users')).toBe(200);
  });

  it('a role taken away and given through the users API', async () => {
    const { id, token } = await signedIn(['Session Test Admin']);
    expect(await status(token, '/users')).toBe(200);
    const roleId = async (name: string) =>
      (await db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]))[0]!.id;
    const update = (roleIds: number[]) =>
      send('PUT', `/users/${id}`, adminToken, { role_ids: roleIds });
    expect((await update([await roleId('Warehouse Sorting')])).statusCode).toBe(200);
    expect(await status(token, '/users')).toBe(403);
    const profile = bodyOf<{ allRoles: string[] }>(await get('/profile', token)).data;
    expect(profile.allRoles).toEqual(['Warehouse Sorting']);
    expect((await update([await roleId('Session Test Admin')])).statusCode).toBe(200);
    expect(await status(token, '/users')).toBe(200);
  });

  it('a rename of the user shows in the profile', async () => {
    const { id, token } = await signedIn();
    await db.query(`UPDATE users SET name = 'Renamed Person' WHERE id = ${id}`);
    expect(bodyOf<{ name: string }>(await get('/profile', token)).data.name).toBe('Renamed Person');
  });
});

describe('signing in', () => {
  it('takes two statements: the throttle and user lookup, then the session with its audit', async () => {
    const { userName, password } = await signedIn();
    statements.length = 0;
    await login(app, userName, password);
    expect(statements).toHaveLength(2);
    const [event] = await db.query<{ action: string; actor_name: string; after: unknown }>(
      `SELECT action, actor_name, after FROM audit_events ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({
      action: 'login.succeeded',
      actor_name: userName,
      after: { agentLogin: false },
    });
  });
});

describe('emptying the sessions table', () => {
  it('ends every session on the next request', async () => {
    const { token } = await signedIn();
    // CASCADE: rows of other areas refer to sessions.
    await db.exec('TRUNCATE sessions CASCADE');
    expect(await status(token)).toBe(401);
    expect(await status(adminToken)).toBe(401);
  });
});
