import type { PageEntry } from '../../shell/page-types';

/** RMAs (DOMAIN.md 4.10): the reuse queue, the list and receiving. `/RMA/sim` is the unpack area's. */
export const rmaPages: PageEntry[] = [
  {
    path: '/RMA/reuse',
    group: 'RMA',
    label: 'Reuse queue',
    summary: 'Returned and repaired devices waiting for re-inspection and reuse.',
    permission: 'rma.reuse',
    load: () => import('./pages/rma-reuse-page'),
  },
  {
    path: '/RMA',
    group: 'RMA',
    label: 'RMA list',
    summary: 'Return authorisations: reason, warranty, resolution and status.',
    permission: 'rma.index',
    load: () => import('./pages/rma-list-page'),
  },
  {
    path: '/RMA/scan',
    group: 'RMA',
    label: 'RMA receiving',
    summary: 'Scan returned devices against their RMA.',
    permission: 'rma.scan',
    load: () => import('./pages/rma-scan-page'),
  },
];
