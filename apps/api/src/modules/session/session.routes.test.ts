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
import { throttleAddressOf } from './session.service.js';

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

describe('sign-in throttling (per account and address, never a lock-out from elsewhere)', () => {
  const attempt = (userName: string, password: string, address: string) =>
    postLogin({ user_name: userName, password }, '/api/v1/login', address);
  /** Failures of an account from an address, recorded as the server records them. */
  const failures = async (userName: string, address: string, count: number) => {
    for (let i = 0; i < count; i += 1) {
      expect((await attempt(userName, `guess-${i}`, address)).statusCode).toBe(422);
    }
  };

  it('refuses the 101st failure from one address within the hour, even with the right password', async () => {
    await createUser(t.db, { userName: 'target', password: 'target-password' });
    await failures('target', '10.0.0.1', 100);
    const blocked = await attempt('TARGET', 'target-password', '10.0.0.1');
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(3500);
    expect(String(bodyOf(blocked).message)).toMatch(/Too many failed sign-ins/);

    // The owner still signs in from another address.
    expect((await attempt('target', 'target-password', '10.0.0.2')).statusCode).toBe(200);

    // Failures older than the hour no longer count: nothing is locked for good.
    await t.db.query("UPDATE login_failures SET at = at - interval '61 minutes'");
    expect((await attempt('target', 'target-password', '10.0.0.1')).statusCode).toBe(200);
  });

  it('slows a spread attack to a few guesses per address, while the owner signs in', async () => {
    await createUser(t.db, { userName: 'spread', password: 'spread-password' });
    await login(t.app, 'spread', 'spread-password'); // from 127.0.0.1, now known to the account
    // 100 failures from 50 addresses: the account is under attack.
    for (let host = 1; host <= 50; host += 1) await failures('spread', `10.1.0.${host}`, 2);
    // A new address gets three guesses, then waits out the hour.
    await failures('spread', '10.2.0.1', 3);
    const slowed = await attempt('spread', 'spread-password', '10.2.0.1');
    expect(slowed.statusCode).toBe(429);
    expect(slowed.headers['retry-after']).toBeDefined();
    // The owner signs in from the known address, and from any address that has not failed.
    expect((await attempt('spread', 'spread-password', '127.0.0.1')).statusCode).toBe(200);
    expect((await attempt('spread', 'spread-password', '10.3.0.1')).statusCode).toBe(200);
  });

  it('limits one address across accounts, but not for accounts that sign in there', async () => {
    await t.db.query(
      "INSERT INTO login_failures (key) SELECT 'client:10.9.9.9' FROM generate_series(1, 300)",
    );
    const stranger = await attempt('Clerk.One', 'clerk-password', '10.9.9.9');
    expect(stranger.statusCode).toBe(429);
    expect(stranger.headers['retry-after']).toBeDefined();
    // An office behind one address: a colleague who signed in there before still can.
    await createUser(t.db, { userName: 'office.mate', password: 'office-mate-password' });
    await t.db.query(
      `INSERT INTO sessions (user_id, token_hash, expires_at, ip)
       SELECT id, 'earlier-session-of-office-mate', now(), '10.9.9.9' FROM users
       WHERE user_name = 'office.mate'`,
    );
    expect((await attempt('office.mate', 'office-mate-password', '10.9.9.9')).statusCode).toBe(200);
  });
});

describe('behind a proxy named in TRUST_PROXY', () => {
  it('throttles and records the client the proxy forwards for, not the proxy', async () => {
    const proxied = await createTestApp({ environment: { TRUST_PROXY: '10.20.0.1' } });
    try {
      await createUser(proxied.db, { userName: 'behind', password: 'behind-password' });
      const attempt = (password: string, client: string, from = '10.20.0.1') =>
        proxied.app.inject({
          method: 'POST',
          url: '/api/v1/login',
          payload: { user_name: 'behind', password },
          remoteAddress: from,
          headers: { 'x-forwarded-for': client },
        });
      for (let i = 0; i < 100; i += 1) {
        expect((await attempt(`guess-${i}`, '198.51.100.7')).statusCode).toBe(422);
      }
      expect((await attempt('behind-password', '198.51.100.7')).statusCode).toBe(429);
      // Another client behind the same proxy is not locked out.
      expect((await attempt('behind-password', '203.0.113.9')).statusCode).toBe(200);
      const [session] = await proxied.db.query<{ ip: string }>('SELECT ip FROM sessions');
      expect(session?.ip).toBe('203.0.113.9');
      // A header from anyone but the proxy is not believed.
      expect((await attempt('behind-password', '203.0.113.9', '192.0.2.1')).statusCode).toBe(200);
      const ips = await proxied.db.query<{ ip: string }>('SELECT ip FROM sessions ORDER BY id');
      expect(ips.map((row) => row.ip)).toEqual(['203.0.113.9', '192.0.2.1']);
    } finally {
      await proxied.close();
    }
  });
});

describe('IPv6 addresses', () => {
  it('are throttled by their /64 network, whose addresses one holder chooses freely', async () => {
    expect(throttleAddressOf('2001:db8:0:5:1:2:3:4')).toBe('2001:db8:0:5::/64');
    expect(throttleAddressOf('2001:DB8::1')).toBe('2001:db8:0:0::/64');
    expect(throttleAddressOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(throttleAddressOf('::ffff:10.0.0.7')).toBe('10.0.0.7');
    expect(throttleAddressOf('10.0.0.7')).toBe('10.0.0.7');

    await createUser(t.db, { userName: 'six', password: 'six-password-42' });
    const attempt = (password: string, address: string) =>
      postLogin({ user_name: 'six', password }, '/api/v1/login', address);
    for (let host = 1; host <= 100; host += 1) {
      expect(
        (await attempt(`guess-${host}`, `2001:db8:0:7::${host.toString(16)}`)).statusCode,
      ).toBe(422);
    }
    expect((await attempt('six-password-42', '2001:db8:0:7::beef')).statusCode).toBe(429);
    expect((await attempt('six-password-42', '2001:db8:0:8::1')).statusCode).toBe(200);
  });
});
