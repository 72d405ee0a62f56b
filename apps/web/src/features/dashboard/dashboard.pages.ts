import { MAIN_DASHBOARD_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/**
 * The main dashboard (DOMAIN.md 4.1). Its two neighbours in the Dashboard menu group, web orders
 * and product offers, are the order area's pages (features/order).
 */
export const dashboardPages: PageEntry[] = [
  {
    path: '/dashboard',
    group: 'Dashboard',
    label: 'Main dashboard',
    summary:
      'Ready-to-sell stock by OS, model and grade; the production pipeline; orders, SIM activations and returns at a glance.',
    ...MAIN_DASHBOARD_ACCESS,
    load: () => import('./pages/main-dashboard-page'),
  },
];
