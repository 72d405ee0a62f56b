import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedAccess } from './access.seed.js';

/** The access seed at a start after an upgrade: new catalogue permissions and the default roles. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const holds = async (role: string, permission: string) =>
  (
    await t.db.query(
      `SELECT 1 FROM role_permissions rp JOIN roles r ON r.id = rp.role_id
       JOIN permissions p ON p.id = rp.permission_id WHERE r.name = $1 AND p.name = $2`,
      [role, permission],
    )
  ).length === 1;

describe('a permission a release adds', () => {
  it('goes to the default roles that list it, once; an administrator removing it later wins', async () => {
    // As a database seeded by a release before the permission existed.
    await t.db.query("DELETE FROM permissions WHERE name = 'warehouse-box.override'");
    expect(await holds('Invoice Management', 'warehouse-box.override')).toBe(false);

    await seedAccess(t.db);
    expect(await holds('Invoice Management', 'warehouse-box.override')).toBe(true);
    expect(await holds('admin', 'warehouse-box.override')).toBe(true);
    expect(await holds('Warehouse Sorting', 'warehouse-box.override')).toBe(false);

    await t.db.query(
      `DELETE FROM role_permissions WHERE role_id = (SELECT id FROM roles WHERE name = 'Invoice Management')
         AND permission_id = (SELECT id FROM permissions WHERE name = 'warehouse-box.override')`,
    );
    await seedAccess(t.db);
    expect(await holds('Invoice Management', 'warehouse-box.override')).toBe(false);
  });
});

describe('a grant a release adds to a default role', () => {
  it('reaches a database seeded before, once; an administrator removing it later wins', async () => {
    // As a database seeded before Invoice Management was given model.view-list.
    const removeGrant = () =>
      t.db.query(
        `DELETE FROM role_permissions
         WHERE role_id = (SELECT id FROM roles WHERE name = 'Invoice Management')
           AND permission_id = (SELECT id FROM permissions WHERE name = 'model.view-list')`,
      );
    await removeGrant();
    await t.db.query('DELETE FROM default_role_grants_given');
    expect(await holds('Invoice Management', 'model.view-list')).toBe(false);

    await seedAccess(t.db);
    expect(await holds('Invoice Management', 'model.view-list')).toBe(true);
    expect(await holds('Repair Testing', 'device.scan')).toBe(true);

    await removeGrant();
    await seedAccess(t.db);
    expect(await holds('Invoice Management', 'model.view-list')).toBe(false);
  });
});
