import { ORDER_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Orders (DOMAIN.md 4.7); the wholesale cartons and shipments follow (`wholesale.pages.ts`). */
export const orderPages: PageEntry[] = [
  {
    path: '/order/list',
    group: 'Order',
    label: 'All orders',
    summary: 'Every order with its source, status, units and shipments.',
    ...ORDER_ACCESS,
    load: () => import('./pages/orders-page'),
  },
  {
    path: '/order/daily-order',
    group: 'Order',
    label: 'Daily orders',
    summary: 'Orders received, shipped and in backlog per day, source and type.',
    ...ORDER_ACCESS,
    load: () => import('./pages/daily-orders-page'),
  },
];
