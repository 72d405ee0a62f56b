import { PRODUCT_OFFER_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Product offers (DOMAIN.md 4.1): in the Dashboard menu group after web orders. */
export const productOfferPages: PageEntry[] = [
  {
    path: '/dashboard/product-offer',
    group: 'Dashboard',
    label: 'Product offers',
    summary: 'B2B quotes from retailers: accept, counter, reject or convert to an order.',
    ...PRODUCT_OFFER_ACCESS,
    load: () => import('./pages/product-offers-page'),
  },
];
