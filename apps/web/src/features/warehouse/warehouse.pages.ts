import { FULFILMENT_DASHBOARD_ACCESS, WAREHOUSE_DASHBOARD_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** The warehouse dashboards (DOMAIN.md 4.18). */
export const warehousePages: PageEntry[] = [
  {
    path: '/warehouse/dashboard-fulfill',
    group: 'Warehouse',
    label: 'Fulfilment dashboard',
    summary: 'Today’s orders by queue and stage, cut-off countdown, backlog and SLA breaches.',
    ...FULFILMENT_DASHBOARD_ACCESS,
    load: () => import('./pages/fulfilment-dashboard-page'),
  },
  {
    path: '/warehouse/dashboard',
    group: 'Warehouse',
    label: 'Warehouse dashboard',
    summary: 'Ready-to-sell units, boxes by zone, location use, stock age and holds.',
    ...WAREHOUSE_DASHBOARD_ACCESS,
    load: () => import('./pages/warehouse-dashboard-page'),
  },
];
