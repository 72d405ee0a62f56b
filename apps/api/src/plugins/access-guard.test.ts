import { API_BASE, type EndpointDefinition, type Guard } from '@inventory/contract';
import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../test/test-app.js';
import { PASSWORD_CHANGE_FIRST, registerAccessGuard } from './access-guard.js';
import { registerErrorHandler } from './error-handler.js';

let t: TestApp;
let tokens: { none: string; revoked: string; expired: string; firstLogin: string };
const CARRIER_KEY = `ck_${'a'.repeat(43)}`;

/**
 * A user with exactly what a guard asks for: no role for 'session'; the first listed role for a
 * role list; a role of its own holding the permission, and the extra permission of an action
 * inside a role-guarded station.
 */
async function grantingUser(guard: Exclude<Guard, 'public' | 'client-carrier'>, userName: string) {
  const roles: string[] = [];
  if (guard !== 'session') {
    const permissions: string[] = [];
    for (const name of [guard.permission, guard.andPermission]) {
      if (name !== undefined && name !== 'roles') permissions.push(name);
    }
    if (guard.permission === 'roles') roles.push(...(guard.roles ?? []).slice(0, 1));
    if (permissions.length > 0) {
      await createRole(t.db, `holds ${userName}`, permissions);
      roles.push(`holds ${userName}`);
    }
  }
  await createUser(t.db, { userName, password: 'granted-password', roles });
  return login(t.app, userName, 'granted-password');
}

/**
 * One granting user's session per distinct permission guard: endpoints sharing a permission share
 * it, so the walk hashes a password per permission rather than per endpoint. A session-guarded
 * endpoint gets a session of its own, since one of them signs out.
 */
const grantingSessions = new Map<string, Promise<string>>();
const grantingSession = (guard: Exclude<Guard, 'public' | 'client-carrier'>, userName: string) => {
  if (guard === 'session') return grantingUser(guard, userName);
  const key = JSON.stringify(guard);
  let session = grantingSessions.get(key);
  if (!session) {
    session = grantingUser(guard, userName);
    grantingSessions.set(key, session);
  }
  return session;
};

/**
 * Ids of no record: what is checked here is the guard, so that a rule on the record itself (who
 * may act on an account) does not answer first.
 */
const urlOf = (endpoint: EndpointDefinition) =>
  `${API_BASE}${endpoint.path.replace(/:([A-Za-z_]+)/g, '987654')}`;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'nobody-special', password: 'plain-password' });
  const none = await login(t.app, 'nobody-special', 'plain-password');
  const revoked = await login(t.app, 'nobody-special', 'plain-password');
  const expired = await login(t.app, 'nobody-special', 'plain-password');
  await t.db.query(
    "UPDATE sessions SET revoked_at = now(), revoked_reason = 'test' WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')",
    [revoked],
  );
  await t.db.query(
    "UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')",
    [expired],
  );
  // Signed in with a temporary password, holding everything: only the password change is open.
  await createUser(t.db, {
    userName: 'temporary-admin',
    password: 'temporary-password',
    roles: ['admin'],
    firstLogin: 1,
  });
  const firstLogin = await login(t.app, 'temporary-admin', 'temporary-password');
  tokens = { none, revoked, expired, firstLogin };
  const [carrier] = await t.db.query<{ id: number }>(
    "INSERT INTO vendors (name, type) VALUES ('Guarded Carrier', 'carrier-client') RETURNING id",
  );
  await t.db.query(
    `INSERT INTO client_carrier_api_keys (client_carrier_id, name, key_prefix, key_hash)
     VALUES ($1, 'guard test', 'ck_aaaaa', encode(sha256(convert_to($2, 'UTF8')), 'hex'))`,
    [carrier!.id, CARRIER_KEY],
  );
});
afterAll(() => t.close());

describe('every registered endpoint', () => {
  it('declares a guard, and the access matrix holds for each', async () => {
    expect(t.app.endpoints.length).toBeGreaterThan(0);
    let n = 0;
    for (const endpoint of t.app.endpoints) {
      if (endpoint.guard === 'public') continue;
      n += 1;
      const request = (token?: string) =>
        t.app.inject({
          method: endpoint.method,
          url: urlOf(endpoint),
          headers: token ? bearer(token) : {},
          ...(endpoint.method !== 'GET' && { payload: {} }),
        });
      const label = `${endpoint.method} ${endpoint.path}`;
      expect((await request()).statusCode, `${label} anonymous`).toBe(401);
      if (endpoint.guard === 'client-carrier') {
        // A carrier's system only: no person's session opens it, whatever it holds.
        expect((await request(tokens.firstLogin)).statusCode, `${label} by a session`).toBe(401);
        const keyed = await t.app.inject({
          method: endpoint.method,
          url: urlOf(endpoint),
          headers: { 'x-api-key': CARRIER_KEY },
          ...(endpoint.method !== 'GET' && { payload: {} }),
        });
        expect([401, 403], `${label} with an API key`).not.toContain(keyed.statusCode);
        continue;
      }
      expect((await request(tokens.revoked)).statusCode, `${label} revoked`).toBe(401);
      expect((await request(tokens.expired)).statusCode, `${label} expired`).toBe(401);
      if (endpoint.guard !== 'session') {
        const denied = await request(tokens.none);
        expect(denied.statusCode, `${label} without permission`).toBe(403);
        expect(String(bodyOf(denied).message)).toContain(
          endpoint.guard.permission === 'roles' ? 'roles' : endpoint.guard.permission,
        );
      }
      const granted = await request(await grantingSession(endpoint.guard, `granted-${n}`));
      expect([401, 403], `${label} with access`).not.toContain(granted.statusCode);
      if (endpoint.beforePasswordChange) {
        // A session of its own: signing out ends it.
        const fresh = await login(t.app, 'temporary-admin', 'temporary-password');
        expect([401, 403], `${label} before the password change`).not.toContain(
          (await request(fresh)).statusCode,
        );
      } else {
        const beforeChange = await request(tokens.firstLogin);
        expect(beforeChange.statusCode, `${label} before the password change`).toBe(403);
        expect(bodyOf(beforeChange).message).toBe(PASSWORD_CHANGE_FIRST);
      }
    }
    // Six requests for each of several hundred endpoints: it grows with every area.
  }, 180_000);
});

describe('the guard', () => {
  const principal = (roles: string[], permissions: string[]) =>
    ({
      roles,
      permissions,
      sessionId: 1,
      userId: 1,
      userName: 'u',
      name: 'U',
      type: 'staff',
      firstLogin: 0,
    }) as const;
  const sessions = {
    authenticate: async (token: string) =>
      ({
        'token-of-a-clerk-0000000': principal(['Warehouse Sorting'], ['box.view-list']),
        'token-of-an-admin-000000': principal(['Admin'], []),
      })[token] ?? null,
  };
  const carrierKey = `ck_${'k'.repeat(43)}`;
  const clientCarriers = async (apiKey: string) =>
    apiKey === carrierKey
      ? { keyId: 1, clientCarrierId: 7, clientCarrierName: 'AirTalk Wireless' }
      : null;
  let app: ReturnType<typeof Fastify>;
  beforeAll(async () => {
    app = Fastify();
    registerErrorHandler(app);
    registerAccessGuard(app, sessions as never, clientCarriers);
    app.get(
      `${API_BASE}/carrier-orders`,
      { config: { guard: 'client-carrier' } },
      (request: FastifyRequest) => Promise.resolve(request.clientCarrier?.clientCarrierName),
    );
    app.get(
      `${API_BASE}/boxes`,
      { config: { guard: { permission: 'BOX.view-list' } } },
      async () => 'ok',
    );
    app.get(
      `${API_BASE}/users`,
      { config: { guard: { permission: 'user.view-list' } } },
      async () => 'ok',
    );
    app.get(
      `${API_BASE}/repair`,
      { config: { guard: { permission: 'roles', roles: ['Repair Leader'] } } },
      async () => 'ok',
    );
    await app.ready();
  });
  afterAll(() => app.close());
  const get = (url: string, token?: string) =>
    app.inject({ url: `${API_BASE}${url}`, headers: token ? bearer(token) : {} });

  it('refuses to register an API route that declares no guard', () => {
    const bare = Fastify();
    registerAccessGuard(bare, sessions as never, clientCarriers);
    expect(() => bare.get(`${API_BASE}/unguarded`, async () => 'open')).toThrow(
      /declares no guard/,
    );
  });

  it("lets a client carrier's route be called only with its API key, never with a session", async () => {
    expect((await get('/carrier-orders')).statusCode).toBe(401);
    expect((await get('/carrier-orders', 'token-of-an-admin-000000')).statusCode).toBe(401);
    const wrongKey = await app.inject({
      url: `${API_BASE}/carrier-orders`,
      headers: { 'x-api-key': `ck_${'x'.repeat(43)}` },
    });
    expect(wrongKey.statusCode).toBe(401);
    const called = await app.inject({
      url: `${API_BASE}/carrier-orders`,
      headers: { 'x-api-key': carrierKey },
    });
    expect(called.statusCode).toBe(200);
    expect(called.body).toBe('AirTalk Wireless');
  });

  it('answers 401 without a session and 403 naming what is missing', async () => {
    expect((await get('/users')).statusCode).toBe(401);
    const denied = await get('/users', 'token-of-a-clerk-0000000');
    expect(denied.statusCode).toBe(403);
    expect(bodyOf(denied).message).toBe('This needs the permission user.view-list.');
    const noRole = await get('/repair', 'token-of-a-clerk-0000000');
    expect(bodyOf(noRole).message).toBe('This needs one of the roles Repair Leader.');
  });

  it('compares permission names case-insensitively and lets admin pass everything', async () => {
    expect((await get('/boxes', 'token-of-a-clerk-0000000')).statusCode).toBe(200);
    for (const url of ['/boxes', '/users', '/repair']) {
      expect((await get(url, 'token-of-an-admin-000000')).statusCode).toBe(200);
    }
  });
});
