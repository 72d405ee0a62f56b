import { ORDER_CANCEL_ACCESS, RESHIP_ACCESS, RESHIP_STATISTICS_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Exceptions on orders (DOMAIN.md 4.16), in the Shipment menu group in the spec's order. */
export const reshipPages: PageEntry[] = [
  {
    path: '/shipment-management/reship-statistics',
    group: 'Shipment',
    label: 'Reship statistics',
    summary: 'Reships by reason, carrier and client.',
    ...RESHIP_STATISTICS_ACCESS,
    load: () => import('./pages/reship-statistics-page'),
  },
  {
    path: '/shipment-management/reship',
    group: 'Shipment',
    label: 'Reship requests',
    summary: 'Requests to ship an order again after a return or loss.',
    ...RESHIP_ACCESS,
    load: () => import('./pages/reships-page'),
  },
  {
    path: '/shipment-management/cancel',
    group: 'Shipment',
    label: 'Cancellations',
    summary: 'Cancellation requests by stage: before label, labelled or shipped.',
    ...ORDER_CANCEL_ACCESS,
    load: () => import('./pages/cancel-requests-page'),
  },
  {
    path: '/shipment-management/reship/order',
    group: 'Shipment',
    label: 'Reship orders',
    summary: 'Orders created by reships and their progress.',
    ...RESHIP_ACCESS,
    load: () => import('./pages/reship-orders-page'),
  },
];
