import { pendingPages } from '../../shell/page-types';

/** The Shipment group's short routes live under /shipment-management/ (DOMAIN.md decision 2). */
export const shipmentPages = pendingPages('Shipment', [
  [
    '/shipment-management/shipment',
    'Parcel shipments',
    { permission: 'shipment.view-list' },
    'Parcels with their tracking status, exceptions and delivery.',
  ],
  [
    '/shipment-management/package',
    'Packages',
    { permission: 'package.view-list' },
    'Packages with their contents, labels and gaylord.',
  ],
  [
    '/shipment-management/claim',
    'Claims',
    { permission: 'claim.manage' },
    'Claims against carriers for lost or damaged parcels.',
  ],
  [
    '/shipment-management/unpack',
    'Unpack',
    { permission: 'unpack.process' },
    'Open returned parcels and match their contents to the shipment.',
  ],
  [
    '/shipment-management/unpack/statistics',
    'Unpack statistics',
    { permission: 'unpack.statistics' },
    'Returns per day, carrier and reason, and mismatch rates.',
  ],
  [
    '/shipment-management/trade-in',
    'Trade-ins',
    { permission: 'trade-in.process' },
    'Receive, inspect and grade trade-ins; accept or revalue.',
  ],
  [
    '/shipment-management/reship-statistics',
    'Reship statistics',
    { permission: 'reship.statistics' },
    'Reships by reason, carrier and client.',
  ],
  [
    '/shipment-management/reship',
    'Reship requests',
    { permission: 'order.manually-reship' },
    'Requests to ship an order again after a return or loss.',
  ],
  [
    '/shipment-management/cancel',
    'Cancellations',
    { permission: 'order.cancel' },
    'Cancellation requests by stage: before label, labelled or shipped.',
  ],
  [
    '/shipment-management/reship/order',
    'Reship orders',
    { permission: 'order.manually-reship' },
    'Orders created by reships and their progress.',
  ],
]);
