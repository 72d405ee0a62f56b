import { pendingPages } from '../../shell/page-types';

export const officePages = pendingPages('RTS Office', [
  [
    '/users',
    'Users',
    { permission: 'user.view-list' },
    'Staff and agent accounts: roles, status, password resets, sessions and recent activity.',
  ],
  [
    '/roles',
    'Roles',
    { permission: 'role.view-list' },
    'Roles and their permission matrix, grouped by menu group.',
  ],
]);
