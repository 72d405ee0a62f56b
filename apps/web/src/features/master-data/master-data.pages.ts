import { pendingPages, type PageEntry } from '../../shell/page-types';

export const masterDataPages: PageEntry[] = [
  {
    path: '/master-data/colors',
    group: 'Master Data',
    label: 'Colours',
    summary: 'Colours with their vendor spellings; merge duplicates.',
    permission: 'color.view-list',
    load: () => import('./pages/colors-page'),
  },
  ...pendingPages('Master Data', [
    [
      '/master-data/models',
      'Models',
      { permission: 'model.view-list' },
      'Device models: brand, model numbers, type, OS, storage, network and shipping weight.',
    ],
    [
      '/master-data/tac-number',
      'TAC numbers',
      { permission: 'TacNumber.view-list' },
      'TACs that resolve an IMEI to its model, and the unknown TACs met at scanning.',
    ],
    [
      '/master-data/accessories',
      'Accessories',
      { permission: 'accessory.view-list' },
      'Accessory master: SKU, kind, barcode, compatible models and reorder point.',
    ],
    [
      '/transfer/vendor',
      'Vendors',
      { permission: 'vendor.view-list' },
      'The vendor directory and returns to vendors.',
    ],
    [
      '/master-data/part',
      'Parts',
      { permission: 'part.view-list' },
      'Part master: part number, category, compatible models, cost and reorder point.',
    ],
  ]),
];
