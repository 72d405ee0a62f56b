import { DEFAULT_ROLES } from '@inventory/contract';
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

const call = (
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
) =>
  t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: bearer(token),
    ...(payload && { payload }),
  });

const roleId = async (name: string) =>
  (await t.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [name]))[0]!.id;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'boss', password: 'boss-password-1', roles: ['admin'] });
  admin = await login(t.app, 'boss', 'boss-password-1');
});
afterAll(() => t.close());

describe('roles', () => {
  it('lists the seeded roles with user counts and permissions', async () => {
    const { data } = bodyOf<{
      items: { name: string; permissions: string[]; is_admin: boolean }[];
    }>(await call(admin, 'GET', '/roles?limit=100'));
    const names = data.items.map((role) => role.name);
    for (const name of ['admin', 'Product Information', 'Repair Testing', 'SIM Coordinator']) {
      expect(names).toContain(name);
    }
    expect(data.items.find((role) => role.name === 'admin')?.is_admin).toBe(true);
  });

  it('creates, renames and re-permissions a role; a change applies on the next request', async () => {
    const created = await call(admin, 'POST', '/roles', {
      name: 'Night Shift',
      description: 'Dock at night',
      permissions: ['sim.index', 'ORDER.management'],
    });
    expect(created.statusCode).toBe(201);
    const role = bodyOf<{ id: number; permissions: string[] }>(created).data;
    expect(role.permissions).toEqual(['order.management', 'sim.index']);

    await createUser(t.db, {
      userName: 'night',
      password: 'night-password',
      roles: ['Night Shift'],
    });
    const night = await login(t.app, 'night', 'night-password');
    const profile = async () =>
      bodyOf<{ allPermissions: string[] }>(await call(night, 'GET', '/profile')).data
        .allPermissions;
    expect(await profile()).toEqual(expect.arrayContaining(['sim.index', 'order.management']));

    const updated = await call(admin, 'PUT', `/roles/${role.id}`, { permissions: ['sim.index'] });
    expect(updated.statusCode).toBe(200);
    expect(await profile()).not.toContain('order.management');
  });

  it('refuses unknown permissions and duplicate names on their fields', async () => {
    const unknown = await call(admin, 'POST', '/roles', { name: 'Odd', permissions: ['no.such'] });
    expect(bodyOf(unknown).message).toEqual({ permissions: ['Unknown permission: no.such.'] });
    const duplicate = await call(admin, 'POST', '/roles', { name: 'night shift' });
    expect(bodyOf(duplicate).message).toEqual({ name: ['A role with this name exists.'] });
  });

  it('a role in use cannot be deleted, and the answer says by how many users', async () => {
    const id = await roleId('Night Shift');
    const refused = await call(admin, 'DELETE', `/roles/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toBe('1 user holds this role: take it from them first.');
    await createRole(t.db, 'Unused', []);
    expect((await call(admin, 'DELETE', `/roles/${await roleId('Unused')}`)).statusCode).toBe(200);
  });

  it('admin cannot be changed or deleted; default roles cannot be deleted', async () => {
    const adminRole = await roleId('admin');
    expect((await call(admin, 'PUT', `/roles/${adminRole}`, { name: 'boss' })).statusCode).toBe(
      409,
    );
    expect((await call(admin, 'DELETE', `/roles/${adminRole}`)).statusCode).toBe(409);
    expect(
      (await call(admin, 'DELETE', `/roles/${await roleId('Repair Testing')}`)).statusCode,
    ).toBe(409);
  });

  it('nobody grants a permission they do not hold', async () => {
    await createRole(t.db, 'Role Clerk', ['role.view-list', 'role.manage', 'sim.index']);
    await createUser(t.db, {
      userName: 'roleclerk',
      password: 'roleclerk-password',
      roles: ['Role Clerk'],
    });
    const clerk = await login(t.app, 'roleclerk', 'roleclerk-password');
    const ok = await call(clerk, 'POST', '/roles', {
      name: 'SIM Reader',
      permissions: ['sim.index'],
    });
    expect(ok.statusCode).toBe(201);
    const refused = await call(clerk, 'POST', '/roles', {
      name: 'Too Much',
      permissions: ['user.manage'],
    });
    expect(refused.statusCode).toBe(403);
  });

  it('writes the permission diff to the audit log', async () => {
    const { data } = bodyOf<{
      items: { action: string; after: { permissions_removed?: string[] } }[];
    }>(await call(admin, 'GET', '/audit-events?entity_type=role&action=role.updated'));
    expect(data.items[0]?.after.permissions_removed).toEqual(['order.management']);
  });
});

describe('permissions', () => {
  it('lists the catalogue, searchable', async () => {
    const { data } = bodyOf<{ items: { name: string; is_catalogue: boolean }[] }>(
      await call(admin, 'GET', '/permissions?search=TacNumber'),
    );
    expect(data.items.map((p) => p.name).sort()).toEqual([
      'TacNumber.create',
      'TacNumber.view-list',
    ]);
    expect(data.items.every((p) => p.is_catalogue)).toBe(true);
  });

  it('custom permissions can be created, renamed and deleted; catalogue ones cannot', async () => {
    const created = await call(admin, 'POST', '/permissions', {
      name: 'report.export',
      description: 'Export reports',
    });
    expect(created.statusCode).toBe(201);
    const id = bodyOf<{ id: number }>(created).data.id;
    const renamed = await call(admin, 'PUT', `/permissions/${id}`, { name: 'report.download' });
    expect(bodyOf<{ name: string }>(renamed).data.name).toBe('report.download');
    expect((await call(admin, 'DELETE', `/permissions/${id}`)).statusCode).toBe(200);

    const [catalogue] = await t.db.query<{ id: number }>(
      "SELECT id FROM permissions WHERE name = 'sim.index'",
    );
    expect(
      (await call(admin, 'PUT', `/permissions/${catalogue!.id}`, { name: 'sim.all' })).statusCode,
    ).toBe(409);
    expect((await call(admin, 'DELETE', `/permissions/${catalogue!.id}`)).statusCode).toBe(409);
  });

  it('refuses a name that is not resource.action', async () => {
    const response = await call(admin, 'POST', '/permissions', { name: 'export everything' });
    expect(bodyOf(response).message).toEqual({
      name: ['Use the form resource.action, e.g. report.export.'],
    });
  });
});

describe('role guards go by a role key that no edit changes', () => {
  it('a role manager cannot rename a default role, take its name, nor gain its stations', async () => {
    // Every permission of Warehouse Sorting, so that only the default role's own rule refuses.
    const sortingRole = DEFAULT_ROLES.find((role) => role.name === 'Warehouse Sorting')!;
    await createRole(t.db, 'Role Keeper', [
      'role.view-list',
      'role.manage',
      ...sortingRole.permissions,
    ]);
    await createUser(t.db, {
      userName: 'keeper',
      password: 'keeper-password',
      roles: ['Role Keeper'],
    });
    const keeper = await login(t.app, 'keeper', 'keeper-password');
    const sorting = await roleId('Warehouse Sorting');
    // It holds every permission of the default role, yet renaming a default role needs admin.
    const rename = await call(keeper, 'PUT', `/roles/${sorting}`, { name: 'Old Sorting' });
    expect(rename.statusCode).toBe(403);
    expect(bodyOf(rename).message).toBe('Only an administrator can rename a default role.');
    for (const name of ['Warehouse Sorting', 'warehouse  SORTING', 'Warehouse-Sorting']) {
      const taken = await call(keeper, 'PUT', `/roles/${await roleId('Role Keeper')}`, { name });
      expect(taken.statusCode, name).toBe(422);
      expect(bodyOf(taken).message).toEqual({
        name: ['This name is reserved for a default role.'],
      });
    }
    // Even a role that takes the name behind the API's back grants no station.
    await t.db.query("UPDATE roles SET name = 'Old Sorting' WHERE name = 'Warehouse Sorting'");
    await t.db.query("UPDATE roles SET name = 'Warehouse Sorting' WHERE name = 'Role Keeper'");
    expect(
      bodyOf<{ allRoles: string[] }>(await call(keeper, 'GET', '/profile')).data.allRoles,
    ).toEqual(['Warehouse Sorting']);
    const station = await call(keeper, 'GET', '/warehouse-boxes');
    expect(station.statusCode).toBe(403);
    expect(bodyOf(station).message).toBe(
      'This needs one of the roles Warehouse Sorting, Invoice Management.',
    );
    await t.db.query("UPDATE roles SET name = 'Role Keeper' WHERE name = 'Warehouse Sorting'");
    await t.db.query("UPDATE roles SET name = 'Warehouse Sorting' WHERE name = 'Old Sorting'");
  });

  it('an administrator renames a default role, and its holders keep their stations', async () => {
    await createUser(t.db, {
      userName: 'sorter',
      password: 'sorter-password',
      roles: ['Warehouse Sorting'],
    });
    const sorter = await login(t.app, 'sorter', 'sorter-password');
    const sorting = await roleId('Warehouse Sorting');
    const renamed = await call(admin, 'PUT', `/roles/${sorting}`, { name: 'Dock Sorting' });
    expect(renamed.statusCode).toBe(200);
    expect(bodyOf<{ key: string }>(renamed).data.key).toBe('warehouse-sorting');
    const profile = bodyOf<{ allRoles: string[]; allRoleKeys: string[] }>(
      await call(sorter, 'GET', '/profile'),
    ).data;
    expect(profile).toMatchObject({
      allRoles: ['Dock Sorting'],
      allRoleKeys: ['warehouse-sorting'],
    });
    expect((await call(sorter, 'GET', '/warehouse-boxes')).statusCode).toBe(200);
    // The old name stays the default role's: nobody else takes it.
    const impostor = await call(admin, 'POST', '/roles', { name: 'Warehouse Sorting' });
    expect(impostor.statusCode).toBe(422);
    expect(
      (await call(admin, 'PUT', `/roles/${sorting}`, { name: 'Warehouse Sorting' })).statusCode,
    ).toBe(200);
    await expect(
      t.db.query(`UPDATE roles SET key = 'other' WHERE id = ${sorting}`),
    ).rejects.toThrow(/cannot change/);
  });
});
