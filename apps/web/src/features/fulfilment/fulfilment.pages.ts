import { ORDER_ACCESS, ORDER_ASSIGNMENT_ACCESS, ORDER_FULFIL_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';
import { printLabelPage, scanToShipPage } from '../shipment';

/** The label desk and the dock are the shipment area's pages, in this menu group. */
export const fulfilmentPages: PageEntry[] = [
  {
    path: '/fulfill/assignment',
    group: 'Fulfilment',
    label: 'Assignment',
    summary: 'Assign ready orders to workers in batches, reserving stock.',
    ...ORDER_ASSIGNMENT_ACCESS,
    load: () => import('./pages/assignment-page'),
  },
  {
    path: '/fulfill/need-to-fulfill',
    group: 'Fulfilment',
    label: 'Need to fulfil',
    summary: 'My assigned orders: scan order, IMEI and ICCID, then print the packing slip.',
    ...ORDER_FULFIL_ACCESS,
    load: () => import('./pages/pick-station-page'),
  },
  ...pendingPages('Fulfilment', [
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
  ]),
  printLabelPage,
  ...pendingPages('Fulfilment', [
    [
      '/fulfill/gaylord',
      'Gaylords',
      { permission: 'order.shipping-processing' },
      'Sort labelled parcels into gaylords per carrier and service.',
    ],
  ]),
  scanToShipPage,
  ...pendingPages('Fulfilment', [
    [
      '/fulfill/substitute',
      'Substitutions',
      { permission: 'order.substitute' },
      'Orders without stock and the substitutes the rules allow.',
    ],
  ]),
  {
    path: '/fulfill/order',
    group: 'Fulfilment',
    label: 'Fulfilment orders',
    summary: 'Every order in the fulfilment pipeline by stage.',
    ...ORDER_FULFIL_ACCESS,
    load: () => import('./pages/fulfilment-orders-page'),
  },
  {
    path: '/fulfill/backlog-order',
    group: 'Fulfilment',
    label: 'Backlog',
    summary: 'Orders on hold with their reason, age and owner.',
    ...ORDER_ACCESS,
    load: () => import('./pages/backlog-page'),
  },
  ...pendingPages('Fulfilment', [
    [
      '/fulfill/support-order',
      'Support orders',
      { permission: 'order.support-create' },
      'Manual orders for chargers, SIM replacements and goodwill devices.',
    ],
  ]),
];
