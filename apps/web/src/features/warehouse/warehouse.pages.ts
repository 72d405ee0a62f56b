import { STATION_ACCESS } from '@inventory/contract';
import { pendingPages } from '../../shell/page-types';

export const warehousePages = pendingPages('Warehouse', [
  [
    '/warehouse/dashboard-fulfill',
    'Fulfilment dashboard',
    STATION_ACCESS.warehouseDashboards,
    'Today’s orders by queue and stage, cut-off countdown, backlog and SLA breaches.',
  ],
  [
    '/warehouse/dashboard',
    'Warehouse dashboard',
    STATION_ACCESS.warehouseDashboards,
    'Ready-to-sell units, boxes by zone, location use, stock age and holds.',
  ],
]);
