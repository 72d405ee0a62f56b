import type { PageEntry } from '../../shell/page-types';

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
