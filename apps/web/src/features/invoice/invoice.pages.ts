import { STATION_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';

const S = STATION_ACCESS;

const receivingPages: PageEntry[] = [
  {
    path: '/shipment-management/invoice',
    group: 'Invoice',
    label: 'Purchase invoices',
    summary:
      'Vendor invoices with their lines and IMEI manifests, reconciled against what arrived.',
    permission: 'invoice.view-list',
    load: () => import('./pages/purchase-invoices-page'),
  },
  {
    path: '/shipment-management/invoice/shipment',
    group: 'Invoice',
    label: 'Inbound shipments',
    summary: 'Inbound shipments: register, check in at the dock, note damage.',
    permission: 'invoice-shipment.view-list',
    load: () => import('./pages/inbound-shipments-page'),
  },
];

const pendingInvoicePages = pendingPages('Invoice', [
  [
    '/invoice/warehouse-box',
    'Warehouse boxes',
    S.warehouseBox,
    'Receive devices by scanning their IMEIs into warehouse boxes.',
  ],
  [
    '/invoice/product-request',
    'Product requests',
    { permission: 'request.index' },
    'Requests to the product team to process received stock.',
  ],
  [
    '/invoice/product-team',
    'Product team',
    S.productTeam,
    'Production overview: boxes waiting, in production and done; load per leader and worker.',
  ],
  [
    '/invoice/product-team/leader',
    'Production leader',
    S.productTeamLeader,
    'Assign boxes and devices to workers and review failures.',
  ],
  [
    '/invoice/product-team/worker',
    'Production worker',
    S.productTeamWorker,
    'Test, wipe and grade devices.',
  ],
  [
    '/consolidation',
    'Consolidation',
    S.consolidation,
    'Graded devices waiting, grouped by model, colour, capacity and grade.',
  ],
  [
    '/consolidation/worker',
    'Consolidation worker',
    S.consolidationWorker,
    'Scan devices into homogeneous inventory boxes and seal them.',
  ],
  [
    '/consolidation/box',
    'Consolidation boxes',
    S.consolidationBox,
    'Consolidation boxes: fill, status, reopen and putaway.',
  ],
  [
    '/consolidation/inquire-device',
    'Inquire device',
    S.consolidationInquireDevice,
    'Scan an IMEI to see its production and consolidation history.',
  ],
  [
    '/invoice/warehouse-box/dashboard',
    'Warehouse box dashboard',
    S.warehouseBoxDashboard,
    'Boxes by status, units received and unprocessed stock by age.',
  ],
  [
    '/invoice/warehouse-box/dashboard/model',
    'Warehouse boxes by model',
    S.warehouseBoxDashboard,
    'Received, requested, in production, graded and failed per model, with yield.',
  ],
  [
    '/invoice/product-team/update-device',
    'Correct device',
    S.productTeamUpdateDevice,
    'Correct a device’s model, colour, capacity or grade, with a reason.',
  ],
]);

export const invoicePages: PageEntry[] = [...receivingPages, ...pendingInvoicePages];
