import { STATION_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

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
];

/** The Invoice group's pages after consolidation's (features/inventory) in the menu. */
export const invoiceDashboardPages: PageEntry[] = [
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
