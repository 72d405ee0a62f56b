import { pendingPages, type PageEntry } from '../../shell/page-types';

/** The stock area's pages (boxes, locations, putaway), not built yet. */
export const inventoryPages: PageEntry[] = pendingPages('RTS Inventory', [
  [
    '/inventory-box/device',
    'Device boxes',
    { permission: 'box.view-list' },
    'Homogeneous boxes of ready-to-sell devices with their IMEIs, location and age.',
  ],
  [
    '/inventory-box/accessories',
    'Accessory boxes',
    { permission: 'box.view-list' },
    'Accessory bins: on hand, reserved and available per SKU, with receipts, adjustments and moves.',
  ],
  [
    '/master-data/accessories/dashboard',
    'Accessory stock',
    { permission: 'accessory.dashboard' },
    'Accessory usage, days of cover and reorder flags.',
  ],
  [
    '/parts',
    'Repair parts stock',
    { permission: 'part-stock.view-list' },
    'Parts on hand, reserved for tickets and used, with receipts and issues to repairs.',
  ],
  [
    '/inventory-box/scan-device',
    'Scan devices to boxes',
    { permission: 'box.scan-device' },
    'Scan station to add, remove, move and verify devices in inventory boxes.',
  ],
  [
    '/inventory-box/location/update-location',
    'Locations',
    { permission: 'location.activation' },
    'The location tree: create ranges, activate, print labels and record location audits.',
  ],
  [
    '/inventory-box/location/assign-location',
    'Putaway',
    { permission: 'location.assignment' },
    'Scan sealed boxes to their storage locations.',
  ],
]);
