import { describe, expect, it } from 'vitest';
import { visibleMenu } from './menu';
import type { PageEntry } from './page-types';

const page = (
  path: string,
  group: PageEntry['group'],
  access: Partial<PageEntry> = {},
): PageEntry => ({
  path,
  group,
  label: path,
  summary: '',
  load: async () => ({ default: () => null }),
  ...access,
});

const pages = [
  page('/dashboard', 'Dashboard', { permission: 'statistics.list-os' }),
  page('/users', 'RTS Office', { permission: 'user.view-list' }),
  page('/roles', 'RTS Office', { permission: 'role.view-list' }),
  page('/consolidation', 'Invoice', { permission: 'roles', roles: ['Consolidation Leader'] }),
  page('/help', 'Warehouse'),
];

const paths = (sections: ReturnType<typeof visibleMenu>) =>
  sections.map((section) => [section.group, section.pages.map((p) => p.path)]);

describe('visibleMenu (spec section 6)', () => {
  it('shows admin everything', () => {
    expect(paths(visibleMenu(pages, { allRoles: ['Admin'], allPermissions: [] }))).toEqual([
      ['Dashboard', ['/dashboard']],
      ['RTS Office', ['/users', '/roles']],
      ['Invoice', ['/consolidation']],
      ['Warehouse', ['/help']],
    ]);
  });

  it('filters by permission and role, hides empty groups, shows items with no permission', () => {
    const menu = visibleMenu(pages, {
      allRoles: ['consolidation leader'],
      allPermissions: ['USER.VIEW-LIST'],
    });
    expect(paths(menu)).toEqual([
      ['RTS Office', ['/users']],
      ['Invoice', ['/consolidation']],
      ['Warehouse', ['/help']],
    ]);
  });

  it('is empty without a profile', () => {
    expect(visibleMenu(pages, undefined)).toEqual([]);
    expect(visibleMenu(pages, null)).toEqual([]);
  });
});
