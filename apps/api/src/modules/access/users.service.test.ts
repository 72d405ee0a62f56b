import type { User } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/test-app.js';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'lister', password: 'lister-password', roles: ['admin'] });
  admin = await login(t.app, 'lister', 'lister-password');
});
afterAll(() => t.close());

const get = async <T>(url: string) => {
  const response = await t.app.inject({ url: `/api/v1${url}`, headers: bearer(admin) });
  expect(response.statusCode).toBe(200);
  return bodyOf<T>(response).data;
};
type Page = { items: User[]; nextCursor: string | null };
const list = (query: string) => get<Page>(`/users?${query}`);
const total = async (query: string) =>
  (await get<{ total: number }>(`/users/count?${query}`)).total;
const itemOf = async (userName: string) =>
  (await list(`search=${userName}`)).items.find((user) => user.user_name === userName);

describe('a user in the list', () => {
  it('is the user that GET /users/:id answers, field for field', async () => {
    await createRole(t.db, 'zeta role', []);
    await createRole(t.db, 'Alpha role', []);
    const id = await createUser(t.db, {
      userName: 'detailed',
      password: 'detailed-password',
      roles: ['zeta role', 'Warehouse Sorting', 'Alpha role'],
    });
    await t.db.query(
      `UPDATE users SET email = 'd@example.com', phone = '+1 555', rep_id = 'R-1', territory = 'T',
         sim_cap = 5, device_cap = 0,
         created_at = '2026-01-31 08:01:03.339999+00', last_login_at = '2026-02-01 10:00:00+00'
       WHERE id = $1`,
      [id],
    );
    const one = await get<User>(`/users/${id}`);
    expect(await itemOf('detailed')).toEqual(one);
    expect(one.created_at).toBe('2026-01-31T08:01:03.339Z');
    expect(one.last_login_at).toBe('2026-02-01T10:00:00.000Z');
  });

  it('has null for a user who never signed in, and no roles when it holds none', async () => {
    const id = await createUser(t.db, { userName: 'newcomer', password: 'newcomer-password' });
    await t.db.query('UPDATE users SET last_login_at = NULL WHERE id = $1', [id]);
    const item = await itemOf('newcomer');
    expect(item).toEqual(await get<User>(`/users/${id}`));
    expect(item).toMatchObject({ last_login_at: null, roles: [] });
  });
});

describe('the list after a change', () => {
  it('shows granted, renamed and removed roles at once', async () => {
    const id = await createUser(t.db, { userName: 'mover', password: 'mover-password' });
    expect((await itemOf('mover'))?.roles).toEqual([]);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'Agent'`,
      [id],
    );
    expect((await itemOf('mover'))?.roles.map((role) => role.name)).toEqual(['Agent']);
    await t.db.query(`UPDATE roles SET name = 'Field Agent' WHERE name = 'Agent'`);
    expect((await itemOf('mover'))?.roles.map((role) => role.name)).toEqual(['Field Agent']);
    await t.db.query(`UPDATE roles SET name = 'Agent' WHERE name = 'Field Agent'`);
    await t.db.query('DELETE FROM user_roles WHERE user_id = $1', [id]);
    expect((await itemOf('mover'))?.roles).toEqual([]);
  });

  it('counts new and disabled users at once', async () => {
    const before = await total('status=active');
    const id = await createUser(t.db, { userName: 'counted', password: 'counted-password' });
    expect(await total('status=active')).toBe(before + 1);
    await t.db.query(`UPDATE users SET status = 'disabled' WHERE id = $1`, [id]);
    expect(await total('status=active')).toBe(before);
  });

  it('shows fields outside access administration at once', async () => {
    const id = await createUser(t.db, { userName: 'phoned', password: 'phoned-password' });
    await list('search=phoned');
    await t.db.query(
      `UPDATE users SET phone = '+1 713', last_login_at = '2026-03-01 00:00:00.5+00' WHERE id = $1`,
      [id],
    );
    expect(await itemOf('phoned')).toMatchObject({
      phone: '+1 713',
      last_login_at: '2026-03-01T00:00:00.500Z',
    });
  });
});

describe('sorting', () => {
  it('keeps the database order of every sort and direction across keyset pages', async () => {
    // Never signed in sorts as the earliest sign-in; ties go by id in the same direction.
    const columns = {
      name: 'lower(name)',
      user_name: 'lower(user_name)',
      created_at: 'created_at',
      last_login_at: "COALESCE(last_login_at, '-infinity')",
    };
    await t.db.query(
      `UPDATE users SET last_login_at = now() - id * interval '1 hour' WHERE id % 2 = 0`,
    );
    for (const [sort, column] of Object.entries(columns)) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = await t.db.query<{ user_name: string }>(
          `SELECT user_name FROM users ORDER BY ${column} ${order}, id ${order}`,
        );
        const names: string[] = [];
        let cursor = '';
        for (let page = 0; page < 3; page += 1) {
          const answer = await list(`sort=${sort}&order=${order}&limit=3${cursor}`);
          names.push(...answer.items.map((user) => user.user_name));
          if (!answer.nextCursor) break;
          cursor = `&cursor=${answer.nextCursor}`;
        }
        expect(names, `${sort} ${order}`).toEqual(expected.slice(0, 9).map((row) => row.user_name));
      }
    }
  });
});
