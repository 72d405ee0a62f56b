import { WEB_ORDER_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Web orders (DOMAIN.md 4.1): in the Dashboard menu group, built by the order area. */
export const webOrderPages: PageEntry[] = [
  {
    path: '/dashboard/web-order',
    group: 'Dashboard',
    label: 'Web orders',
    summary:
      'Orders placed from the cart by retailers and agents, to approve or reject after a stock and credit check.',
    ...WEB_ORDER_ACCESS,
    load: () => import('./pages/web-orders-page'),
  },
];
