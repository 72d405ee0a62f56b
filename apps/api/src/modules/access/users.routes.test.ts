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
let adminId: number;
let roleIds: Record<string, number>;

const api = (token: string) => ({
  get: (url: string) => t.app.inject({ url: `/api/v1${url}`, headers: bearer(token) }),
  post: (url: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: bearer(token),
      payload: payload ?? {},
    }),
  put: (url: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: `/api/v1${url}`, headers: bearer(token), payload }),
  delete: (url: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/v1${url}`, headers: bearer(token) }),
});

beforeAll(async () => {
  t = await createTestApp();
  adminId = await createUser(t.db, {
    userName: 'boss',
    password: 'boss-password-1',
    roles: ['admin'],
  });
  admin = await login(t.app, 'boss', 'boss-password-1');
  const roles = await t.db.query<{ id: number; name: string }>('SELECT id, name FROM roles');
  roleIds = Object.fromEntries(roles.map((role) => [role.name, role.id]));
});
afterAll(() => t.close());

describe('creating users', () => {
  it('gives a temporary password and first_login = 1', async () => {
    const response = await api(admin).post('/users', {
      user_name: 'ws.amy',
      name: 'Amy Sorter',
      email: 'amy@example.com',
      type: 'staff',
      role_ids: [roleIds['Warehouse Sorting']],
    });
    expect(response.statusCode).toBe(201);
    const { data } = bodyOf<{ user: Record<string, unknown>; temporary_password: string }>(
      response,
    );
    expect(data.user).toMatchObject({
      user_name: 'ws.amy',
      first_login: 1,
      status: 'active',
      roles: [{ name: 'Warehouse Sorting' }],
    });
    const token = await login(t.app, 'ws.amy', data.temporary_password);
    const profile = await api(token).get('/profile');
    expect(bodyOf<{ first_login: number }>(profile).data.first_login).toBe(1);
  });

  it('refuses a taken user name, case-insensitively, on its field', async () => {
    const response = await api(admin).post('/users', {
      user_name: 'WS.AMY',
      name: 'Another Amy',
      type: 'staff',
      role_ids: [],
    });
    expect(response.statusCode).toBe(422);
    expect(bodyOf(response).message).toEqual({ user_name: ['This user name is taken.'] });
  });

  it('names every invalid field', async () => {
    const response = await api(admin).post('/users', { user_name: 'bad name!', type: 'robot' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(bodyOf(response).message as object).sort()).toEqual([
      'name',
      'role_ids',
      'type',
      'user_name',
    ]);
  });

  it('keeps agent fields', async () => {
    const response = await api(admin).post('/users', {
      user_name: 'agent.bo',
      name: 'Bo Agent',
      type: 'agent',
      role_ids: [roleIds.Agent],
      rep_id: 'RAD-1234',
      territory: 'Houston',
      sim_cap: 200,
      device_cap: 10,
    });
    expect(bodyOf<{ user: unknown }>(response).data.user).toMatchObject({
      type: 'agent',
      rep_id: 'RAD-1234',
      territory: 'Houston',
      sim_cap: 200,
      device_cap: 10,
    });
  });
});

describe('listing users', () => {
  it('searches, filters, sorts and pages on the server', async () => {
    for (const n of [1, 2, 3]) {
      await createUser(t.db, {
        userName: `picker${n}`,
        password: 'picker-password',
        roles: ['Fulfilment Worker'],
      });
    }
    const filters = `search=picker&role=${roleIds['Fulfilment Worker']}`;
    const page = await api(admin).get(`/users?${filters}&sort=user_name&order=desc&limit=2`);
    const { data } = bodyOf<{ items: { user_name: string }[]; nextCursor: string }>(page);
    expect(data.items.map((user) => user.user_name)).toEqual(['picker3', 'picker2']);
    const next = await api(admin).get(
      `/users?${filters}&sort=user_name&order=desc&limit=2&cursor=${data.nextCursor}`,
    );
    expect(bodyOf<{ items: { user_name: string }[] }>(next).data.items).toMatchObject([
      { user_name: 'picker1' },
    ]);
    const count = await api(admin).get(`/users/count?${filters}`);
    expect(bodyOf(count).data).toEqual({ total: 3, capped: false });
    const agents = bodyOf<{ items: { type: string }[] }>(
      await api(admin).get('/users?type=agent'),
    ).data;
    expect(agents.items.every((user) => user.type === 'agent')).toBe(true);
  });

  it('treats % and _ in a search literally', async () => {
    const { data } = bodyOf<{ total: number }>(await api(admin).get('/users/count?search=%25'));
    expect(data.total).toBe(0);
  });
});

describe('updating users', () => {
  it('changes only the fields given', async () => {
    const id = await createUser(t.db, { userName: 'partial', password: 'partial-password' });
    await api(admin).put(`/users/${id}`, { phone: '+1 713 555 0100' });
    const response = await api(admin).put(`/users/${id}`, { territory: 'Dallas' });
    expect(bodyOf(response).data).toMatchObject({
      name: 'Name of partial',
      phone: '+1 713 555 0100',
      territory: 'Dallas',
    });
  });

  it('disabling ends all sessions at once', async () => {
    const id = await createUser(t.db, { userName: 'leaver', password: 'leaver-password' });
    const token = await login(t.app, 'leaver', 'leaver-password');
    const response = await api(admin).put(`/users/${id}`, { status: 'disabled' });
    expect(response.statusCode).toBe(200);
    expect((await api(token).get('/profile')).statusCode).toBe(401);
  });

  it('nobody disables or deletes themselves, or removes their own admin role', async () => {
    expect((await api(admin).put(`/users/${adminId}`, { status: 'disabled' })).statusCode).toBe(
      409,
    );
    expect((await api(admin).delete(`/users/${adminId}`)).statusCode).toBe(409);
    const demote = await api(admin).put(`/users/${adminId}`, { role_ids: [] });
    expect(demote.statusCode).toBe(409);
    expect(bodyOf(demote).message).toBe('You cannot remove your own admin role.');
  });

  it('leaves administrators, the last one included, to administrators', async () => {
    const [first] = await t.db.query<{ id: number }>(
      "SELECT id FROM users WHERE user_name = 'admin'",
    );
    expect((await api(admin).put(`/users/${first!.id}`, { status: 'disabled' })).statusCode).toBe(
      200,
    );
    await createRole(t.db, 'User Manager', ['user.view-list', 'user.manage']);
    await createUser(t.db, {
      userName: 'manager',
      password: 'manager-password',
      roles: ['User Manager'],
    });
    const manager = await login(t.app, 'manager', 'manager-password');
    for (const change of [{ status: 'disabled' }, { role_ids: [] }]) {
      const refused = await api(manager).put(`/users/${adminId}`, change);
      expect(refused.statusCode).toBe(403);
      expect(bodyOf(refused).message).toBe('Only an administrator can act on the account boss.');
    }
    expect((await api(manager).delete(`/users/${adminId}`)).statusCode).toBe(403);
  });

  it('nobody grants a role they do not hold', async () => {
    await createRole(t.db, 'User Clerk', ['user.view-list', 'user.manage']);
    const clerkId = await createUser(t.db, {
      userName: 'clerk',
      password: 'clerk-password',
      roles: ['User Clerk', 'Warehouse Sorting'],
    });
    const clerk = await login(t.app, 'clerk', 'clerk-password');
    const target = await createUser(t.db, { userName: 'target', password: 'target-password' });
    const allowed = await api(clerk).put(`/users/${target}`, {
      role_ids: [roleIds['Warehouse Sorting']],
    });
    expect(allowed.statusCode).toBe(200);
    const refused = await api(clerk).put(`/users/${target}`, { role_ids: [roleIds.admin] });
    expect(refused.statusCode).toBe(403);
    expect(bodyOf(refused).message).toBe(
      'You cannot grant the role admin: you do not hold it yourself.',
    );
    expect(clerkId).toBeGreaterThan(0);
  });
});

describe('passwords and sessions of a user', () => {
  it('a reset sets first_login and ends the sessions', async () => {
    const id = await createUser(t.db, { userName: 'forgetful', password: 'forgetful-password' });
    const token = await login(t.app, 'forgetful', 'forgetful-password');
    const sessions = bodyOf<unknown[]>(await api(admin).get(`/users/${id}/sessions`)).data;
    expect(sessions).toHaveLength(1);
    const reset = await api(admin).post(`/users/${id}/password-reset`);
    const { data } = bodyOf<{ user: { first_login: number }; temporary_password: string }>(reset);
    expect(data.user.first_login).toBe(1);
    expect((await api(token).get('/profile')).statusCode).toBe(401);
    await login(t.app, 'forgetful', data.temporary_password);
    const ended = await api(admin).delete(`/users/${id}/sessions`);
    expect(bodyOf(ended).data).toEqual({ ended: 1 });
  });

  it('shows recent activity from the audit log', async () => {
    const id = await createUser(t.db, { userName: 'watched', password: 'watched-password' });
    await login(t.app, 'watched', 'watched-password');
    await api(admin).put(`/users/${id}`, { name: 'Watched Person' });
    const events = bodyOf<{ action: string }[]>(await api(admin).get(`/users/${id}/activity`)).data;
    expect(events.map((event) => event.action)).toEqual(['user.updated', 'login.succeeded']);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await api(admin).get('/users/999999')).statusCode).toBe(404);
    expect((await api(admin).get('/users/abc')).statusCode).toBe(422);
  });

  it('deletes a user and audits it', async () => {
    const id = await createUser(t.db, { userName: 'temporary', password: 'temporary-password' });
    expect((await api(admin).delete(`/users/${id}`)).statusCode).toBe(200);
    expect((await api(admin).get(`/users/${id}`)).statusCode).toBe(404);
    const audit = bodyOf<{ items: { action: string }[] }>(
      await api(admin).get(`/audit-events?entity_type=user&entity_id=${id}`),
    ).data;
    expect(audit.items[0]?.action).toBe('user.deleted');
  });
});
