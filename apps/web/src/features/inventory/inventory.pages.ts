import { pendingPages, type PageEntry } from '../../shell/page-types';

/** The stock area's pages (boxes, locations, putaway), not built yet. */
export const inventoryPages: PageEntry[] = pendingPages('RTS Inventory', [
  [
    '/inventory-box/device',
    'Device boxes',
    { permission: 'box.view-list' },
    'Homogeneous boxes of ready-to-sell devices with their IMEIs, location and age.',
  ],
]);

/** The pages that follow the counted stock's (features/stock) in the menu. */
export const inventoryStationPages: PageEntry[] = pendingPages('RTS Inventory', [
  [
    '/inventory-box/scan-device',
    'Scan devices to boxes',
    { permission: 'box.scan-device' },
    'Scan station to add, remove, move and verify devices in inventory boxes.',
  ],
]);

/** The pages that follow the locations' (features/locations) in the menu. */
export const putawayPages: PageEntry[] = pendingPages('RTS Inventory', [
  [
    '/inventory-box/location/assign-location',
    'Putaway',
    { permission: 'location.assignment' },
    'Scan sealed boxes to their storage locations.',
  ],
]);
