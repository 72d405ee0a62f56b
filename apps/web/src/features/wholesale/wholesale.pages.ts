import { ORDER_BOX_ACCESS, ORDER_SHIPPING_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/**
 * Wholesale outbound (DOMAIN.md 4.7, 5.2 "Wholesale (retailer) variant"), in the Order menu group
 * after the order list and the daily report: cartons, shipments, the dock.
 */
export const wholesalePages: PageEntry[] = [
  {
    path: '/order/box',
    group: 'Order',
    label: 'Order boxes',
    summary: 'Wholesale cartons: scan units into boxes and close them by weight.',
    ...ORDER_BOX_ACCESS,
    load: () => import('./pages/order-boxes-page'),
  },
  {
    path: '/shipment',
    group: 'Order',
    label: 'Order shipments',
    summary: 'Shipments of wholesale orders: labels, bills of lading and checks.',
    ...ORDER_SHIPPING_ACCESS,
    load: () => import('./pages/wholesale-shipments-page'),
  },
  {
    path: '/shipment/scan-out-to-ship',
    group: 'Order',
    label: 'Dock scan-out',
    summary: 'Scan boxes and pallets out of the dock.',
    ...ORDER_SHIPPING_ACCESS,
    load: () => import('./pages/dock-scan-out-page'),
  },
];
