import { pendingPages } from '../../shell/page-types';

export const dashboardPages = pendingPages('Dashboard', [
  [
    '/dashboard',
    'Main dashboard',
    { permission: 'statistics.list-os' },
    'Ready-to-sell stock by OS, model and grade; the production pipeline; orders, SIM activations and returns at a glance.',
  ],
]);
