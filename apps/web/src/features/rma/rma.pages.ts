import { pendingPages } from '../../shell/page-types';

export const rmaPages = pendingPages('RMA', [
  [
    '/RMA/reuse',
    'Reuse queue',
    { permission: 'rma.reuse' },
    'Returned and repaired devices waiting for re-inspection and reuse.',
  ],
  [
    '/RMA',
    'RMA list',
    { permission: 'rma.index' },
    'Return authorisations: reason, warranty, resolution and status.',
  ],
  [
    '/RMA/scan',
    'RMA receiving',
    { permission: 'rma.scan' },
    'Scan returned devices against their RMA.',
  ],
  [
    '/RMA/sim',
    'RMA SIMs',
    { permission: 'rma.sim' },
    'SIMs that came back with returns: deactivate, destroy or restock.',
  ],
]);
