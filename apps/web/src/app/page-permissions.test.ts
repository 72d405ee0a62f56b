import { PERMISSION_NAMES, ROLES_PERMISSION } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { AGENT_PAGES, STAFF_PAGES } from './page-registry';

/**
 * The compiler holds page guards to the catalogue's names (`PermissionName`); this checks the
 * same of every registered page, the agent layout's included.
 */
describe('every page of the registry', () => {
  it('is guarded by permission names of the catalogue only', () => {
    const unknown = [...STAFF_PAGES, ...AGENT_PAGES].flatMap((page) =>
      [page.permission, page.andPermission]
        .flatMap((name) => (name === undefined || name === ROLES_PERMISSION ? [] : [name]))
        .filter((name) => !PERMISSION_NAMES.has(name))
        .map((name) => `${page.path}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
