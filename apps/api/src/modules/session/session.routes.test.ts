import { LOGIN_MESSAGES } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  bodyOf,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/test-app.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, {
    userName: 'Clerk.One',
    password: 'clerk-password',
    roles: ['Warehouse Sorting'],
  });
  await createUser(t.db, {
    userName: 'agent7',
    password: 'agent-password',
    type: 'agent',
    roles: ['Agent'],
  });
  await createUser(t.db, { userName: 'gone', password: 'gone-password', status: 'disabled' });
});
afterAll(() => t.close());

const postLogin = (payload: unknown, url = '/api/v1/login', remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, remoteAddress });

describe('POST /api/v1/login', () => {
  it('returns what browser storage needs', async () => {
    const response = await postLogin({ user_name: 'Clerk.One', password: 'clerk-password' });
    expect(response.statusCode).toBe(200);
    const { data } = bodyOf<Record<string, unknown>>(response);
    expect(data).toMatchObject({
      type: 'staff',
      user_name: 'Clerk.One',
      userInfo: ['Warehouse Sorting'],
      first_login: 0,
    });
    expect(typeof data.userInfoId).toBe('number');
    expect(String(data.token)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('matches the user name case-insensitively', async () => {
    const response = await postLogin({ user_name: 'clerk.one', password: 'clerk-password' });
    expect(response.statusCode).toBe(200);
  });

  it('answers an unknown user and a wrong password alike, with a field message', async () => {
    const unknown = await postLogin({ user_name: 'nobody', password: 'whatever' });
    const wrong = await postLogin({ user_name: 'Clerk.One', password: 'not-it' });
    for (const response of [unknown, wrong]) {
      expect(response.statusCode).toBe(422);
      expect(bodyOf(response).message).toEqual({ password: [LOGIN_MESSAGES.invalid] });
    }
  });

  it('refuses a disabled account once the password is right', async () => {
    const response = await postLogin({ user_name: 'gone', password: 'gone-password' });
    expect(response.statusCode).toBe(422);
    expect(bodyOf(response).message).toEqual({ user_name: [LOGIN_MESSAGES.disabled] });
  });

  it('names the missing fields', async () => {
    const response = await postLogin({});
    expect(response.statusCode).toBe(422);
    expect(bodyOf(response).message).toEqual({
      user_name: ['Please enter your user name.'],
      password: ['Please enter your password.'],
    });
  });

  it('stores only a hash of the token and audits success and failure', async () => {
    const token = await login(t.app, 'Clerk.One', 'clerk-password');
    const stored = await t.db.query<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(stored.some((row) => row.token_hash === token)).toBe(false);
    expect(stored.every((row) => /^[0-9a-f]{64}$/.test(row.token_hash))).toBe(true);
    const actions = await t.db.query<{ action: string }>(
      "SELECT DISTINCT action FROM audit_events WHERE entity_type = 'session'",
    );
    expect(actions.map((row) => row.action).sort()).toEqual(['login.failed', 'login.succeeded']);
  });
});

describe('POST /api/v1/agent/login', () => {
  it('accepts an agent', async () => {
    const response = await postLogin(
      { user_name: 'agent7', password: 'agent-password' },
      '/api/v1/agent/login',
    );
    expect(response.statusCode).toBe(200);
    expect(bodyOf<{ type: string }>(response).data.type).toBe('agent');
  });

  it('refuses a staff user', async () => {
    const response = await postLogin(
      { user_name: 'Clerk.One', password: 'clerk-password' },
      '/api/v1/agent/login',
    );
    expect(response.statusCode).toBe(422);
    expect(bodyOf(response).message).toEqual({ user_name: [LOGIN_MESSAGES.agentOnly] });
  });
});

describe('sessions', () => {
  it('logout ends the session on the server', async () => {
    const token = await login(t.app, 'Clerk.One', 'clerk-password');
    const profile = () => t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect((await profile()).statusCode).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/v1/logout',
      headers: bearer(token),
    });
    expect(logout.statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(401);
  });

  it('an idle session expires', async () => {
    const token = await login(t.app, 'Clerk.One', 'clerk-password');
    await t.db.query(
      `UPDATE sessions SET last_seen_at = now() - interval '31 minutes'
       WHERE id = (SELECT max(id) FROM sessions)`,
    );
    const response = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
  });

  it('a session past its absolute lifetime expires', async () => {
    const token = await login(t.app, 'Clerk.One', 'clerk-password');
    await t.db.query(
      `UPDATE sessions SET expires_at = now() - interval '1 second'
       WHERE id = (SELECT max(id) FROM sessions)`,
    );
    const response = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
  });

  it('disabling a user ends its sessions at once', async () => {
    const token = await login(t.app, 'agent7', 'agent-password');
    await t.db.query("UPDATE users SET status = 'disabled' WHERE user_name = 'agent7'");
    const response = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(response.statusCode).toBe(401);
    await t.db.query("UPDATE users SET status = 'active' WHERE user_name = 'agent7'");
  });
});

describe('sign-in throttling', () => {
  it('refuses the 101st failed sign-in of an account within the hour, even with the right password', async () => {
    await createUser(t.db, { userName: 'target', password: 'target-password' });
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const response = await postLogin(
        { user_name: 'target', password: `guess-${attempt}` },
        '/api/v1/login',
        '10.0.0.1',
      );
      expect(response.statusCode).toBe(422);
    }
    const blocked = await postLogin(
      { user_name: 'TARGET', password: 'target-password' },
      '/api/v1/login',
      '10.0.0.2',
    );
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3500);
    expect(String(bodyOf(blocked).message)).toMatch(/Too many failed sign-ins/);

    // Failures older than the hour no longer count: nothing is locked for good.
    await t.db.query("UPDATE login_failures SET at = at - interval '61 minutes'");
    const later = await postLogin(
      { user_name: 'target', password: 'target-password' },
      '/api/v1/login',
      '10.0.0.2',
    );
    expect(later.statusCode).toBe(200);
  });

  it('limits one client address across accounts', async () => {
    await t.db.query(
      "INSERT INTO login_failures (key) SELECT 'client:10.9.9.9' FROM generate_series(1, 300)",
    );
    const response = await postLogin(
      { user_name: 'Clerk.One', password: 'clerk-password' },
      '/api/v1/login',
      '10.9.9.9',
    );
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBeDefined();
  });
});
