import { STATION_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';

const S = STATION_ACCESS;

export const invoicePages: PageEntry[] = [
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
  {
    path: '/invoice/warehouse-box',
    group: 'Invoice',
    label: 'Warehouse boxes',
    summary: 'Receive devices by scanning their IMEIs into warehouse boxes.',
    ...S.warehouseBox,
    load: () => import('./pages/warehouse-boxes-page'),
  },
  ...pendingPages('Invoice', [
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
  ]),
  {
    path: '/invoice/warehouse-box/dashboard',
    group: 'Invoice',
    label: 'Warehouse box dashboard',
    summary: 'Boxes by status, units received and unprocessed stock by age.',
    ...S.warehouseBoxDashboard,
    load: () => import('./pages/box-dashboard-page'),
  },
  {
    path: '/invoice/warehouse-box/dashboard/model',
    group: 'Invoice',
    label: 'Warehouse boxes by model',
    summary: 'Received, requested, in production, graded and failed per model, with yield.',
    ...S.warehouseBoxDashboard,
    load: () => import('./pages/model-dashboard-page'),
  },
  ...pendingPages('Invoice', [
    [
      '/invoice/product-team/update-device',
      'Correct device',
      S.productTeamUpdateDevice,
      'Correct a device’s model, colour, capacity or grade, with a reason.',
    ],
  ]),
];

export const invoiceImeiPages: PageEntry[] = [
  {
    path: '/invoice-imei',
    group: 'Invoice IMEI',
    label: 'Invoice IMEI register',
    summary: 'IMEIs of purchase invoices: expected, received, missing, unexpected and duplicate.',
    permission: 'invoice-imei.index',
    load: () => import('./pages/invoice-imei-page'),
  },
];
