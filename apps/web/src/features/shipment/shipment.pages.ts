import {
  ORDER_SHIPPING_ACCESS,
  PACKAGE_LIST_ACCESS,
  SHIPMENT_LIST_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** The label desk (DOMAIN.md 4.14), in the Fulfilment menu group (`fulfilment.pages.ts`). */
export const printLabelPage: PageEntry = {
  path: '/fulfill/print-label',
  group: 'Fulfilment',
  label: 'Print labels',
  summary: 'Create and print shipping labels for fulfilled orders.',
  ...ORDER_SHIPPING_ACCESS,
  load: () => import('./pages/print-label-page'),
};

/** The dock (DOMAIN.md 4.14), in the Fulfilment menu group. */
export const scanToShipPage: PageEntry = {
  path: '/fulfill/scan-to-ship',
  group: 'Fulfilment',
  label: 'Scan to ship',
  summary: 'Scan parcels out at the dock.',
  ...ORDER_SHIPPING_ACCESS,
  load: () => import('./pages/scan-to-ship-page'),
};

/** Outbound gaylords and their SCAN forms (DOMAIN.md 4.14), in the Fulfilment menu group. */
export const gaylordsPage: PageEntry = {
  path: '/fulfill/gaylord',
  group: 'Fulfilment',
  label: 'Gaylords',
  summary: 'Sort labelled parcels into gaylords per carrier and service.',
  ...ORDER_SHIPPING_ACCESS,
  load: () => import('./pages/gaylords-page'),
};

/** The Shipment group's short routes live under /shipment-management/ (DOMAIN.md decision 2). */
export const shipmentPages: PageEntry[] = [
  {
    path: '/shipment-management/shipment',
    group: 'Shipment',
    label: 'Parcel shipments',
    summary: 'Parcels with their tracking status, exceptions and delivery.',
    ...SHIPMENT_LIST_ACCESS,
    load: () => import('./pages/shipments-page'),
  },
  {
    path: '/shipment-management/package',
    group: 'Shipment',
    label: 'Packages',
    summary: 'Packages with their contents, labels and gaylord.',
    ...PACKAGE_LIST_ACCESS,
    load: () => import('./pages/packages-page'),
  },
];
