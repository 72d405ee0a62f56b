import { describe, expect, it } from 'vitest';
import { canAccess } from './access.js';

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

  it('shows items with no permission, and nothing without a profile', () => {
    expect(canAccess(subject([], []), {})).toBe(true);
    expect(canAccess(null, {})).toBe(false);
    expect(canAccess(undefined, { permission: 'sim.index' })).toBe(false);
  });
});
