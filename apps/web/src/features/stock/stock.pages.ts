import type { PageEntry } from '../../shell/page-types';

/** Counted stock: accessory bins, repair parts and the accessory dashboard (DOMAIN.md 4.2). */
export const stockPages: PageEntry[] = [
  {
    path: '/inventory-box/accessories',
    group: 'RTS Inventory',
    label: 'Accessory boxes',
    summary:
      'Accessory bins: on hand, reserved and available per SKU, with receipts, adjustments and moves.',
    permission: 'box.view-list',
    load: () => import('./pages/accessory-stock-page'),
  },
  {
    path: '/master-data/accessories/dashboard',
    group: 'RTS Inventory',
    label: 'Accessory stock',
    summary: 'Accessory usage, days of cover and reorder flags.',
    permission: 'accessory.dashboard',
    load: () => import('./pages/accessory-dashboard-page'),
  },
  {
    path: '/parts',
    group: 'RTS Inventory',
    label: 'Repair parts stock',
    summary:
      'Parts on hand, reserved and used, with receipts at a unit cost, adjustments and moves.',
    permission: 'part-stock.view-list',
    load: () => import('./pages/part-stock-page'),
  },
];
