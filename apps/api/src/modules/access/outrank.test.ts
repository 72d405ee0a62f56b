import type { EndpointDefinition } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, type ApiClient } from '../../test/api-client.js';
import {
  bodyOf,
  createRole,
  createTestApp,
  createUser,
  login,
  type TestApp,
} from '../../test/test-app.js';

/**
 * Nobody acts above their own rights: a manager of users and roles who is not an administrator
 * reaches no account, role or permission that holds something the manager does not hold. Every
 * endpoint on one user, role or permission is walked, new ones included, except the reads
 * that anyone allowed to list them may make of any of them.
 */

let t: TestApp;
let manager: ApiClient;
let admin: ApiClient;
const ids = { user: {} as Record<string, number>, role: {} as Record<string, number> };
let nightAuditPermission: number;

/**
 * Reads that the rule leaves open: one user, role or permission as its list shows it to whoever
 * may read the list, and a user's audited activity.
 */
const OPEN_READS = new Set([
  'GET /users/:id',
  'GET /users/:id/activity',
  'GET /roles/:id',
  'GET /permissions/:id',
]);

/** A body each write would accept, so that only the rule can refuse it. */
const BODIES: Record<string, object> = {
  'PUT /users/:id': {
    name: 'Taken Over',
    email: 'taken.over@example.com',
    status: 'disabled',
    role_ids: [],
  },
  'PUT /roles/:id': { name: 'Renamed Role', description: 'changed', permissions: [] },
  'PUT /permissions/:id': { name: 'renamed.permission', description: 'changed' },
};

const roleIdOf = async (name: string) =>
  (await t.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]))[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
  await createRole(t.db, 'Account Manager', [
    'user.view-list',
    'user.manage',
    'role.view-list',
    'role.manage',
    'audit.view-list',
  ]);
  await createRole(t.db, 'Night Audit', ['device.black-list']);
  await t.db.query(
    `INSERT INTO permissions (name, group_name, description) VALUES ('night.audit', 'Custom', '')`,
  );
  nightAuditPermission = (
    await t.db.query<{ id: number }>("SELECT id FROM permissions WHERE name = 'night.audit'")
  )[0]!.id;
  await t.db.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT r.id, $1 FROM roles r WHERE r.name = 'Night Audit'`,
    [nightAuditPermission],
  );
  await createUser(t.db, {
    userName: 'acct.mgr',
    password: 'acct-mgr-password',
    roles: ['Account Manager'],
  });
  manager = apiClient(t, await login(t.app, 'acct.mgr', 'acct-mgr-password'));
  ids.user.admin = await createUser(t.db, {
    userName: 'chief',
    password: 'chief-password-1',
    roles: ['admin'],
  });
  admin = apiClient(t, await login(t.app, 'chief', 'chief-password-1'));
  // A greater account that is no administrator: a default role the manager does not hold.
  ids.user.warehouseManager = await createUser(t.db, {
    userName: 'wh.manager',
    password: 'wh-manager-password',
    roles: ['Warehouse Manager'],
  });
  // Equal rights but through a role the manager does not hold: still out of reach.
  ids.user.nightAuditor = await createUser(t.db, {
    userName: 'night.auditor',
    password: 'night-auditor-password',
    roles: ['Night Audit'],
  });
  // Open sessions, so that listing and ending them would show.
  for (const [userName, password] of [
    ['chief', 'chief-password-1'],
    ['wh.manager', 'wh-manager-password'],
    ['night.auditor', 'night-auditor-password'],
  ] as const) {
    await login(t.app, userName, password);
  }
  ids.role.admin = await roleIdOf('admin');
  ids.role.warehouseManager = await roleIdOf('Warehouse Manager');
  ids.role.nightAudit = await roleIdOf('Night Audit');
});
afterAll(() => t.close());

/** Everything the walked endpoints could change, as one text. */
async function accessState(): Promise<string> {
  const [row] = await t.db.query<{ state: string }>(
    `SELECT json_build_array(
       (SELECT json_agg(json_build_array(id, user_name, name, email, status, password_hash,
                                         first_login) ORDER BY id) FROM users),
       (SELECT json_agg(json_build_array(user_id, role_id) ORDER BY user_id, role_id)
          FROM user_roles),
       (SELECT json_agg(json_build_array(id, revoked_at) ORDER BY id) FROM sessions),
       (SELECT json_agg(json_build_array(id, name, description, key) ORDER BY id) FROM roles),
       (SELECT json_agg(json_build_array(role_id, permission_id) ORDER BY role_id, permission_id)
          FROM role_permissions),
       (SELECT json_agg(json_build_array(id, name, group_name, description) ORDER BY id)
          FROM permissions))::text AS state`,
  );
  return row!.state;
}

const labelOf = (endpoint: EndpointDefinition) => `${endpoint.method} ${endpoint.path}`;

/** The endpoints that act on one account, role or permission, by the kind of their target. */
function walkedEndpoints(): Array<{ endpoint: EndpointDefinition; targets: number[] }> {
  const targets = {
    users: Object.values(ids.user),
    roles: Object.values(ids.role),
    permissions: [nightAuditPermission],
  };
  return t.app.endpoints.flatMap((endpoint) => {
    const kind = /^\/(users|roles|permissions)\/:id(\/|$)/.exec(endpoint.path)?.[1];
    if (!kind || OPEN_READS.has(labelOf(endpoint))) return [];
    return [{ endpoint, targets: targets[kind as keyof typeof targets] }];
  });
}

function call(client: ApiClient, endpoint: EndpointDefinition, id: number) {
  const url = endpoint.path.replace(':id', String(id));
  const body = BODIES[labelOf(endpoint)];
  switch (endpoint.method) {
    case 'GET':
      return client.get(url);
    case 'DELETE':
      return client.delete(url);
    case 'PUT':
      return client.put(url, body ?? {});
    default:
      return client.post(url, body);
  }
}

describe('a manager of users and roles who is not an administrator', () => {
  it('is refused, with nothing changed, on every account, role and permission above them', async () => {
    const walked = walkedEndpoints();
    // Reset, edit, delete, sessions read and ended; roles and permissions edited and deleted.
    expect(walked.map(({ endpoint }) => labelOf(endpoint)).sort()).toEqual(
      expect.arrayContaining([
        'DELETE /permissions/:id',
        'DELETE /roles/:id',
        'DELETE /users/:id',
        'DELETE /users/:id/sessions',
        'GET /users/:id/sessions',
        'POST /users/:id/password-reset',
        'PUT /permissions/:id',
        'PUT /roles/:id',
        'PUT /users/:id',
      ]),
    );
    for (const { endpoint, targets } of walked) {
      for (const id of targets) {
        const before = await accessState();
        const response = await call(manager, endpoint, id);
        const label = `${labelOf(endpoint)} on ${id}`;
        expect(response.statusCode, `${label}: ${response.body}`).toBe(403);
        expect(String(bodyOf(response).message), label).toMatch(
          /^(Only an administrator can act on|You cannot act on|You cannot change the permission)/,
        );
        expect(await accessState(), label).toBe(before);
      }
    }
  });

  it('still acts on accounts and roles within their own rights', async () => {
    const clerk = await createUser(t.db, { userName: 'plain.clerk', password: 'plain-clerk-pw1' });
    expect((await manager.put(`/users/${clerk}`, { name: 'Plain Clerk' })).statusCode).toBe(200);
    expect((await manager.get(`/users/${clerk}/sessions`)).statusCode).toBe(200);
    expect((await manager.post(`/users/${clerk}/password-reset`)).statusCode).toBe(200);
    const created = await manager.post('/roles', {
      name: 'Viewers',
      permissions: ['user.view-list'],
    });
    expect(created.statusCode).toBe(201);
    const viewers = bodyOf<{ id: number }>(created).data.id;
    expect((await manager.put(`/roles/${viewers}`, { description: 'Read users' })).statusCode).toBe(
      200,
    );
    expect((await manager.delete(`/roles/${viewers}`)).statusCode).toBe(200);
  });

  it('leaves administrators free to act on anyone', async () => {
    const reset = await admin.post(`/users/${ids.user.warehouseManager}/password-reset`);
    expect(reset.statusCode).toBe(200);
    expect((await admin.get(`/users/${ids.user.nightAuditor}/sessions`)).statusCode).toBe(200);
  });
});
