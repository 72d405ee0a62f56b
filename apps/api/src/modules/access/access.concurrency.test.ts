import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * Administrators racing on each other's accounts. On PostgreSQL (TEST_DATABASE_URL) the two
 * requests run on concurrent connections; on PGlite one at a time, and the rule holds there too.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The first administrator steps aside, so that the two below are the only active ones.
  await t.db.query("UPDATE users SET status = 'disabled' WHERE user_name = 'admin'");
});
afterAll(() => t.close());

const activeAdmins = async () =>
  (
    await t.db.query<{ user_name: string }>(
      `SELECT u.user_name FROM users u JOIN user_roles ur ON ur.user_id = u.id
       JOIN roles r ON r.id = ur.role_id WHERE r.key = 'admin' AND u.status = 'active'`,
    )
  ).map((row) => row.user_name);

describe('two administrators taking each other’s role at the same moment', () => {
  it('leave one administrator, however the race falls', async () => {
    for (let round = 0; round < 5; round += 1) {
      const names = [`left.${round}`, `right.${round}`] as const;
      const ids = await Promise.all(
        names.map((userName) =>
          createUser(t.db, { userName, password: `${userName}-pw-77`, roles: ['admin'] }),
        ),
      );
      const clients = await Promise.all(
        names.map(async (userName) =>
          apiClient(t, await login(t.app, userName, `${userName}-pw-77`)),
        ),
      );
      const [left, right] = await Promise.all([
        clients[0]!.put(`/users/${ids[1]}`, { role_ids: [] }),
        clients[1]!.put(`/users/${ids[0]}`, { role_ids: [] }),
      ]);
      const statuses = [left.statusCode, right.statusCode].sort();
      // One wins; the other is told it is the last administrator, or to try again.
      expect(statuses[0], `${left.body} ${right.body}`).toBe(200);
      expect([403, 409], `${left.body} ${right.body}`).toContain(statuses[1]);
      expect(await activeAdmins()).toHaveLength(1);
      // The winner hands over to the next round's pair.
      await t.db.query("UPDATE users SET status = 'disabled' WHERE user_name = ANY ($1)", [
        [...names],
      ]);
    }
  });
});
