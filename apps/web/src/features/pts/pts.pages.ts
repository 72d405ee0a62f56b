import { pendingPages, type PageEntry } from '../../shell/page-types';

export const ptsPages: PageEntry[] = [
  ...pendingPages('PTS Management', [
    [
      '/pts-management/list',
      'Listings',
      { permission: 'pts.view-list' },
      'Push-to-sale listings per channel: quantity pushed, reserved, sold and remaining, with price.',
    ],
    [
      '/pts-management/products',
      'Products',
      { permission: 'pts-product.view-list' },
      'Products and their variants with matching stock.',
    ],
    [
      '/pts-management/bundles',
      'Bundles',
      { permission: 'pts-bundle.view-list' },
      'Fixed kits and how many can be built from stock.',
    ],
    [
      '/pts-management/combo',
      'Combos',
      { permission: 'pts-combo.view-list' },
      'Offers with choice slots and the stock pool of each slot.',
    ],
    [
      '/push-to-sale/update',
      'Bulk update',
      { permission: 'pts.update' },
      'Change quantities, prices and status of many listings at once, with a preview.',
    ],
  ]),
];
