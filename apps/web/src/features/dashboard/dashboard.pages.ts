import { pendingPages } from '../../shell/page-types';

export const dashboardPages = pendingPages('Dashboard', [
  [
    '/dashboard',
    'Main dashboard',
    { permission: 'statistics.list-os' },
    'Ready-to-sell stock by OS, model and grade; the production pipeline; orders, SIM activations and returns at a glance.',
  ],
  [
    '/dashboard/web-order',
    'Web orders',
    { permission: 'web-order.view-list' },
    'Orders placed from the cart by retailers and agents, to approve or reject after a stock and credit check.',
  ],
  [
    '/dashboard/product-offer',
    'Product offers',
    { permission: 'product-offer.view-list' },
    'B2B quotes from retailers: accept, counter, reject or convert to an order.',
  ],
]);
