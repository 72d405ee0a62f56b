import { STATION_ACCESS, WAREHOUSE_DASHBOARD_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';

/** The warehouse dashboards (DOMAIN.md 4.18); the fulfilment one is still to be built. */
export const warehousePages: PageEntry[] = [
  ...pendingPages('Warehouse', [
    [
      '/warehouse/dashboard-fulfill',
      'Fulfilment dashboard',
      STATION_ACCESS.warehouseDashboards,
      'Today’s orders by queue and stage, cut-off countdown, backlog and SLA breaches.',
    ],
  ]),
  {
    path: '/warehouse/dashboard',
    group: 'Warehouse',
    label: 'Warehouse dashboard',
    summary: 'Ready-to-sell units, boxes by zone, location use, stock age and holds.',
    ...WAREHOUSE_DASHBOARD_ACCESS,
    load: () => import('./pages/warehouse-dashboard-page'),
  },
];
