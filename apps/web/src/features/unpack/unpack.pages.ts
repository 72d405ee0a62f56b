import type { PageEntry } from '../../shell/page-types';

/** Returned parcels (DOMAIN.md 4.16), in the Shipment menu group. */
export const unpackPages: PageEntry[] = [
  {
    path: '/shipment-management/unpack',
    group: 'Shipment',
    label: 'Unpack',
    summary: 'Open returned parcels and match their contents to the shipment.',
    permission: 'unpack.process',
    load: () => import('./pages/unpack-page'),
  },
  {
    path: '/shipment-management/unpack/statistics',
    group: 'Shipment',
    label: 'Unpack statistics',
    summary: 'Returns per day, carrier, reason and client, and repeated addresses.',
    permission: 'unpack.statistics',
    load: () => import('./pages/unpack-statistics-page'),
  },
];

/** SIMs that came back (DOMAIN.md 4.10), in the RMA menu group. */
export const rmaSimPage: PageEntry = {
  path: '/RMA/sim',
  group: 'RMA',
  label: 'RMA SIMs',
  summary: 'SIMs that came back with returns: deactivate, destroy or restock.',
  permission: 'rma.sim',
  load: () => import('./pages/rma-sims-page'),
};
