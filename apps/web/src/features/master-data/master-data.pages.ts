import type { PageEntry } from '../../shell/page-types';

export const masterDataPages: PageEntry[] = [
  {
    path: '/master-data/models',
    group: 'Master Data',
    label: 'Models',
    summary: 'Device models: brand, model numbers, type, OS, storage, network and shipping weight.',
    permission: 'model.view-list',
    load: () => import('./pages/models-page'),
  },
  {
    path: '/master-data/colors',
    group: 'Master Data',
    label: 'Colours',
    summary: 'Colours with their vendor spellings; merge duplicates.',
    permission: 'color.view-list',
    load: () => import('./pages/colors-page'),
  },
  {
    path: '/master-data/tac-number',
    group: 'Master Data',
    label: 'TAC numbers',
    summary: 'TACs that resolve an IMEI to its model, and the unknown TACs met at scanning.',
    permission: 'TacNumber.view-list',
    load: () => import('./pages/tac-numbers-page'),
  },
  {
    path: '/master-data/accessories',
    group: 'Master Data',
    label: 'Accessories',
    summary: 'Accessory master: SKU, kind, barcode, compatible models and reorder point.',
    permission: 'accessory.view-list',
    load: () => import('./pages/accessories-page'),
  },
  {
    path: '/transfer/vendor',
    group: 'Master Data',
    label: 'Vendors',
    summary: 'The vendor directory and returns to vendors.',
    permission: 'vendor.view-list',
    load: () => import('./pages/vendors-page'),
  },
  {
    path: '/master-data/part',
    group: 'Master Data',
    label: 'Parts',
    summary: 'Part master: part number, category, compatible models, cost and reorder point.',
    permission: 'part.view-list',
    load: () => import('./pages/parts-page'),
  },
];

/**
 * Master data that the PTS Management group shows: its place in the spec's menu, after the PTS
 * pages (decision 0016).
 */
export const ptsMasterDataPages: PageEntry[] = [
  {
    path: '/master-data/tag',
    group: 'PTS Management',
    label: 'Tags',
    summary: 'Labels for filtering products, bundles and combos.',
    permission: 'tag.view-list',
    load: () => import('./pages/tags-page'),
  },
  {
    path: '/master-data/property',
    group: 'PTS Management',
    label: 'Properties',
    summary: 'Typed product attributes such as battery health or screen size.',
    permission: 'property.view-list',
    load: () => import('./pages/properties-page'),
  },
];
