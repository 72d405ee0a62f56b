import {
  PTS_BUNDLE_VIEW,
  PTS_COMBO_VIEW,
  PTS_LIST_ACCESS,
  PTS_PRODUCT_VIEW,
  PTS_UPDATE_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

export const ptsPages: PageEntry[] = [
  {
    path: '/pts-management/list',
    group: 'PTS Management',
    label: 'Listings',
    summary:
      'Push-to-sale listings per channel: quantity pushed, reserved, sold and remaining, with price.',
    ...PTS_LIST_ACCESS,
    load: () => import('./pages/listings-page'),
  },
  {
    path: '/pts-management/products',
    group: 'PTS Management',
    label: 'Products',
    summary: 'Products and their variants with matching stock.',
    ...PTS_PRODUCT_VIEW,
    load: () => import('./pages/products-page'),
  },
  {
    path: '/pts-management/bundles',
    group: 'PTS Management',
    label: 'Bundles',
    summary: 'Fixed kits and how many can be built from stock.',
    ...PTS_BUNDLE_VIEW,
    load: () => import('./pages/bundles-page'),
  },
  {
    path: '/pts-management/combo',
    group: 'PTS Management',
    label: 'Combos',
    summary: 'Offers with choice slots and the stock pool of each slot.',
    ...PTS_COMBO_VIEW,
    load: () => import('./pages/combos-page'),
  },
  {
    path: '/push-to-sale/update',
    group: 'PTS Management',
    label: 'Bulk update',
    summary: 'Change quantities, prices and status of many listings at once, with a preview.',
    ...PTS_UPDATE_ACCESS,
    load: () => import('./pages/pts-update-page'),
  },
];
