import { pendingPages } from '../../shell/page-types';

export const invoiceImeiPages = pendingPages('Invoice IMEI', [
  [
    '/invoice-imei',
    'Invoice IMEI register',
    { permission: 'invoice-imei.index' },
    'IMEIs of purchase invoices: expected, received, missing, unexpected and duplicate.',
  ],
]);
