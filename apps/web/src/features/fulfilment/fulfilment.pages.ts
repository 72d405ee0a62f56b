import { pendingPages } from '../../shell/page-types';

export const fulfilmentPages = pendingPages('Fulfilment', [
  [
    '/fulfill/assignment',
    'Assignment',
    { permission: 'order.assignment' },
    'Assign ready orders to workers in batches, reserving stock.',
  ],
  [
    '/fulfill/need-to-fulfill',
    'Need to fulfil',
    { permission: 'order.fulfill-processing' },
    'My assigned orders: scan order, IMEI and ICCID, then print the packing slip.',
  ],
  [
    '/fulfill/prepaid',
    'Prepaid',
    { permission: 'order.fulfill-processing' },
    'Prepaid orders, with activation before shipping where required.',
  ],
  [
    '/fulfill/existing-customer',
    'Existing customers',
    { permission: 'order.fulfill-processing' },
    'Device changes and upgrades for active subscribers.',
  ],
  [
    '/fulfill/ota-orders',
    'OTA orders',
    { permission: 'order.OTA-processing' },
    'Over-the-air orders: pair IMEI and ICCID with the carrier before the label.',
  ],
  [
    '/fulfill/replacement',
    'Replacements',
    { permission: 'order.fulfill-processing' },
    'Replacement orders linked to an RMA or an original order.',
  ],
  [
    '/fulfill/print-label',
    'Print labels',
    { permission: 'order.shipping-processing' },
    'Create and print shipping labels for fulfilled orders.',
  ],
  [
    '/fulfill/gaylord',
    'Gaylords',
    { permission: 'order.shipping-processing' },
    'Sort labelled parcels into gaylords per carrier and service.',
  ],
  [
    '/fulfill/scan-to-ship',
    'Scan to ship',
    { permission: 'order.shipping-processing' },
    'Scan parcels out at the dock.',
  ],
  [
    '/fulfill/substitute',
    'Substitutions',
    { permission: 'order.substitute' },
    'Orders without stock and the substitutes the rules allow.',
  ],
  [
    '/fulfill/order',
    'Fulfilment orders',
    { permission: 'order.fulfill-processing' },
    'Every order in the fulfilment pipeline by stage.',
  ],
  [
    '/fulfill/backlog-order',
    'Backlog',
    { permission: 'order.management' },
    'Orders on hold with their reason, age and owner.',
  ],
  [
    '/fulfill/support-order',
    'Support orders',
    { permission: 'order.support-create' },
    'Manual orders for chargers, SIM replacements and goodwill devices.',
  ],
]);
