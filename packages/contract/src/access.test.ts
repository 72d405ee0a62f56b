import { describe, expect, it } from 'vitest';
import { canAccess, describeAccess, roleKeyOf } from './access.js';
import { DEFAULT_ROLE_GRANTS_ADDED, DEFAULT_ROLES } from './roles.js';

const subject = (allRoles: string[], allPermissions: string[]) => ({ allRoles, allPermissions });

describe('canAccess (spec section 6)', () => {
  it('lets a user whose roles include admin, in any case, see everything', () => {
    expect(canAccess(subject(['ADMIN'], []), { permission: 'user.view-list' })).toBe(true);
    expect(
      canAccess(subject(['Admin'], []), { permission: 'roles', roles: ['Repair Leader'] }),
    ).toBe(true);
  });

  it('compares permission names case-insensitively', () => {
    expect(
      canAccess(subject([], ['tacnumber.VIEW-LIST']), { permission: 'TacNumber.view-list' }),
    ).toBe(true);
    expect(canAccess(subject([], ['model.view-list']), { permission: 'TacNumber.view-list' })).toBe(
      false,
    );
  });

  it("needs one of the listed roles for permission 'roles'", () => {
    const access = { permission: 'roles', roles: ['Repair Leader', 'Repair Worker'] };
    expect(canAccess(subject(['repair worker'], []), access)).toBe(true);
    expect(canAccess(subject(['Repair Testing'], ['roles']), access)).toBe(false);
    expect(canAccess(subject(['Repair Testing'], []), { permission: 'roles' })).toBe(false);
  });

  it('needs the role and the permission of an action inside a role-guarded station', () => {
    const scan = {
      permission: 'roles',
      roles: ['Warehouse Sorting'],
      andPermission: 'warehouse-box.scan',
    };
    expect(canAccess(subject(['Warehouse Sorting'], ['WAREHOUSE-BOX.scan']), scan)).toBe(true);
    expect(canAccess(subject(['Warehouse Sorting'], []), scan)).toBe(false);
    expect(canAccess(subject(['Repair Worker'], ['warehouse-box.scan']), scan)).toBe(false);
    expect(canAccess(subject(['admin'], []), scan)).toBe(true);
    expect(describeAccess(scan)).toBe(
      'one of the roles Warehouse Sorting and the permission warehouse-box.scan',
    );
  });

  it('shows items with no permission, and nothing without a profile', () => {
    expect(canAccess(subject([], []), {})).toBe(true);
    expect(canAccess(null, {})).toBe(false);
    expect(canAccess(undefined, { permission: 'sim.index' })).toBe(false);
  });

  it('matches roles by their keys when the subject carries them, never by a name', () => {
    const sorting = { permission: 'roles', roles: ['Warehouse Sorting'] };
    const impostor = { allRoles: ['Warehouse Sorting'], allPermissions: [], allRoleKeys: [] };
    expect(canAccess(impostor, sorting)).toBe(false);
    const renamed = {
      allRoles: ['Dock Sorting'],
      allPermissions: [],
      allRoleKeys: ['warehouse-sorting'],
    };
    expect(canAccess(renamed, sorting)).toBe(true);
    expect(canAccess({ allRoles: ['admin'], allPermissions: [], allRoleKeys: [] }, {})).toBe(true);
    expect(
      canAccess({ allRoles: ['admin'], allPermissions: [], allRoleKeys: [] }, { permission: 'x' }),
    ).toBe(false);
    expect(canAccess({ allRoles: [], allPermissions: [], allRoleKeys: ['admin'] }, sorting)).toBe(
      true,
    );
  });

  it('keys a role by its seeded name', () => {
    expect(roleKeyOf('Warehouse Sorting')).toBe('warehouse-sorting');
    expect(roleKeyOf('Sales / Account Manager')).toBe('sales-account-manager');
    expect(roleKeyOf(' admin ')).toBe('admin');
  });
});

describe('the grants added to default roles', () => {
  it('are grants of those default roles', () => {
    for (const { role, permissions } of DEFAULT_ROLE_GRANTS_ADDED) {
      const definition = DEFAULT_ROLES.find((candidate) => candidate.name === role);
      expect(definition, role).toBeDefined();
      expect(definition!.permissions, role).toEqual(expect.arrayContaining([...permissions]));
    }
  });
});
