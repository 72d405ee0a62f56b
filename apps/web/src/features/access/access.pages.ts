import type { PageEntry } from '../../shell/page-types';

export const accessPages: PageEntry[] = [
  {
    path: '/users',
    group: 'RTS Office',
    label: 'Users',
    summary:
      'Staff and agent accounts: roles, status, password resets, sessions and recent activity.',
    permission: 'user.view-list',
    load: () => import('./pages/users-page'),
  },
  {
    path: '/roles',
    group: 'RTS Office',
    label: 'Roles',
    summary: 'Roles and their permission matrix, grouped by menu group.',
    permission: 'role.view-list',
    load: () => import('./pages/roles-page'),
  },
  {
    // Not in the spec's menu: reached from the users page. The client carriers' systems are
    // accounts too, so their keys sit under /users (issue 16).
    path: '/users/api-keys',
    group: null,
    label: 'Carrier API keys',
    summary: "Client carriers' API keys for sending orders: create (shown once), last use, revoke.",
    permission: 'client-carrier-key.manage',
    load: () => import('./pages/client-carrier-keys-page'),
  },
  {
    // Not in the spec's menu: reached from the users page and a user's record.
    path: '/audit-log',
    group: null,
    label: 'Audit log',
    summary: 'Every change, newest first, by user, entity, action and time.',
    permission: 'audit.view-list',
    load: () => import('./pages/audit-log-page'),
  },
];
