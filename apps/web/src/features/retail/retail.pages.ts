import { pendingPages } from '../../shell/page-types';

export const retailPages = pendingPages('Retail customers', [
  [
    '/retailer',
    'Retailers',
    { permission: 'customer.management' },
    'B2B customers: contacts, price tier, credit terms and resale certificates.',
  ],
]);
