import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.js';
import { LOGIN_THROTTLE } from './session.service.js';

/**
 * Sign-ins racing past the throttle. On PostgreSQL (TEST_DATABASE_URL) the attempts run on
 * concurrent connections; on PGlite their statements run one at a time while their password
 * checks overlap. Either way an attempt counts from the moment it is read.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'racer', password: 'racer-password-9' });
});
afterAll(() => t.close());

const attempt = (password: string, address: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { user_name: 'racer', password },
    remoteAddress: address,
  });

describe('many wrong passwords sent at once', () => {
  it('get no more guesses than the limit leaves', async () => {
    const left = 2;
    await t.db.query(
      `INSERT INTO login_failures (key) SELECT 'pair:racer|10.4.4.4' FROM generate_series(1, $1)`,
      [LOGIN_THROTTLE.perAccountAndAddress - left],
    );
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => attempt(`guess-${i}`, '10.4.4.4')),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(left).fill(422), ...Array(10 - left).fill(429)]);
    // The refused attempts were never read: the failures stop at the limit.
    const [row] = await t.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM login_failures WHERE key = 'pair:racer|10.4.4.4'",
    );
    expect(row?.count).toBe(LOGIN_THROTTLE.perAccountAndAddress);
    // The owner, elsewhere, signs in, and a success leaves no failure behind.
    expect((await attempt('racer-password-9', '10.4.4.5')).statusCode).toBe(200);
    const [after] = await t.db.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM login_failures WHERE key = 'pair:racer|10.4.4.5'",
    );
    expect(after?.count).toBe(0);
  });
});
