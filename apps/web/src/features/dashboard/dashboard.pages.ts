import { pendingPages } from '../../shell/page-types';

export const dashboardPages = pendingPages('Dashboard', [
  [
    '/dashboard',
    'Main dashboard',
    { permission: 'statistics.list-os' },
    'Ready-to-sell stock by OS, model and grade; the production pipeline; orders, SIM activations and returns at a glance.',
  ],
]);

/** After the web orders (built by the order area), in the spec's menu order. */
export const productOfferPages = pendingPages('Dashboard', [
  [
    '/dashboard/product-offer',
    'Product offers',
    { permission: 'product-offer.view-list' },
    'B2B quotes from retailers: accept, counter, reject or convert to an order.',
  ],
]);
