import { RETAILER_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Retail customers (DOMAIN.md 4.8). */
export const retailPages: PageEntry[] = [
  {
    path: '/retailer',
    group: 'Retail customers',
    label: 'Retailers',
    summary: 'B2B customers: contacts, price tier, credit terms and resale certificates.',
    ...RETAILER_ACCESS,
    load: () => import('./pages/retailers-page'),
  },
];
