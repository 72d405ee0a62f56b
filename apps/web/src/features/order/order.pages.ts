import { pendingPages } from '../../shell/page-types';

export const orderPages = pendingPages('Order', [
  [
    '/order/list',
    'All orders',
    { permission: 'order.management' },
    'Every order with its source, status, units and shipments.',
  ],
  [
    '/order/daily-order',
    'Daily orders',
    { permission: 'order.management' },
    'Orders received, shipped and in backlog per day, source and type.',
  ],
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
]);
