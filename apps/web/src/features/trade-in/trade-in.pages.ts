import type { PageEntry } from '../../shell/page-types';

/** Trade-ins (DOMAIN.md 4.16), in the Shipment menu group. */
export const tradeInPages: PageEntry[] = [
  {
    path: '/shipment-management/trade-in',
    group: 'Shipment',
    label: 'Trade-ins',
    summary: 'Receive, inspect and grade trade-ins; accept or revalue.',
    permission: 'trade-in.process',
    load: () => import('./pages/trade-ins-page'),
  },
];
