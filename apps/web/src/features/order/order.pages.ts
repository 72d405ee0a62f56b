import { ORDER_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';

/** Orders (DOMAIN.md 4.7); order boxes and shipments come with fulfilment. */
export const orderPages: PageEntry[] = [
  {
    path: '/order/list',
    group: 'Order',
    label: 'All orders',
    summary: 'Every order with its source, status, units and shipments.',
    ...ORDER_ACCESS,
    load: () => import('./pages/orders-page'),
  },
  {
    path: '/order/daily-order',
    group: 'Order',
    label: 'Daily orders',
    summary: 'Orders received, shipped and in backlog per day, source and type.',
    ...ORDER_ACCESS,
    load: () => import('./pages/daily-orders-page'),
  },
  ...pendingPages('Order', [
    [
      '/order/box',
      'Order boxes',
      { permission: 'order-box.view-list' },
      'Wholesale cartons: scan units into boxes and close them by weight.',
    ],
    [
      '/shipment',
      'Order shipments',
      { permission: 'order.shipping-processing' },
      'Shipments of wholesale orders: labels, bills of lading and checks.',
    ],
    [
      '/shipment/scan-out-to-ship',
      'Dock scan-out',
      { permission: 'order.shipping-processing' },
      'Scan boxes and pallets out of the dock.',
    ],
  ]),
];
