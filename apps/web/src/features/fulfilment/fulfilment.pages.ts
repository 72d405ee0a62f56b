import {
  ORDER_ACCESS,
  ORDER_ASSIGNMENT_ACCESS,
  ORDER_FULFIL_ACCESS,
  ORDER_OTA_ACCESS,
  SUBSTITUTE_ACCESS,
  SUPPORT_CREATE_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';
import { gaylordsPage, printLabelPage, scanToShipPage } from '../shipment';

/** The label desk, the gaylords and the dock are the shipment area's pages, in this menu group. */
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
  // The same station, scoped to the orders of each queue of its own (`pick-queues.ts`).
  {
    path: '/fulfill/prepaid',
    group: 'Fulfilment',
    label: 'Prepaid',
    summary: 'Prepaid orders, with activation before shipping where required.',
    ...ORDER_FULFIL_ACCESS,
    load: () => import('./pages/pick-station-page'),
  },
  {
    path: '/fulfill/existing-customer',
    group: 'Fulfilment',
    label: 'Existing customers',
    summary: 'Device changes and upgrades for active subscribers, acknowledged by the carrier.',
    ...ORDER_FULFIL_ACCESS,
    load: () => import('./pages/pick-station-page'),
  },
  {
    path: '/fulfill/ota-orders',
    group: 'Fulfilment',
    label: 'OTA orders',
    summary: 'Over-the-air orders: pair IMEI and ICCID with the carrier before the label.',
    ...ORDER_OTA_ACCESS,
    load: () => import('./pages/pick-station-page'),
  },
  {
    path: '/fulfill/replacement',
    group: 'Fulfilment',
    label: 'Replacements',
    summary: 'Replacement orders linked to an RMA or an original order.',
    ...ORDER_FULFIL_ACCESS,
    load: () => import('./pages/pick-station-page'),
  },
  printLabelPage,
  gaylordsPage,
  scanToShipPage,
  {
    path: '/fulfill/substitute',
    group: 'Fulfilment',
    label: 'Substitutions',
    summary: 'Orders without stock and the substitutes the rules allow.',
    ...SUBSTITUTE_ACCESS,
    load: () => import('./pages/substitute-page'),
  },
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
  {
    path: '/fulfill/support-order',
    group: 'Fulfilment',
    label: 'Support orders',
    summary: 'Manual orders for chargers, SIM replacements and goodwill devices.',
    ...SUPPORT_CREATE_ACCESS,
    load: () => import('./pages/support-order-page'),
  },
];
