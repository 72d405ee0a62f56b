import type { PageEntry } from '../../shell/page-types';

/** Carrier claims (DOMAIN.md 4.16), in the Shipment menu group. */
export const claimPages: PageEntry[] = [
  {
    path: '/shipment-management/claim',
    group: 'Shipment',
    label: 'Claims',
    summary: 'Claims against carriers for lost or damaged parcels.',
    permission: 'claim.manage',
    load: () => import('./pages/claims-page'),
  },
];
