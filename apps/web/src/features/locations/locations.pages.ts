import { LOCATION_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Storage locations (DOMAIN.md 4.2): the tree, its ranges, activation, labels and audits. */
export const locationPages: PageEntry[] = [
  {
    path: '/inventory-box/location/update-location',
    group: 'RTS Inventory',
    label: 'Locations',
    summary: 'The location tree: create ranges, activate, print labels and record location audits.',
    ...LOCATION_ACCESS,
    load: () => import('./pages/locations-page'),
  },
];
