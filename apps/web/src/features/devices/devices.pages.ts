import type { PageEntry } from '../../shell/page-types';

/** The device lookup, last of the RTS Inventory group. */
export const deviceLookupPages: PageEntry[] = [
  {
    path: '/devices/scan',
    group: 'RTS Inventory',
    label: 'Device lookup',
    summary: 'Scan an IMEI, IMEI2, MEID or serial to see the device card and its whole timeline.',
    permission: 'device.scan',
    load: () => import('./pages/device-scan-page'),
  },
];

export const blacklistPages: PageEntry[] = [
  {
    path: '/devices/blacklist',
    group: 'Blacklist devices',
    label: 'Blacklisted devices',
    summary: 'Devices on hold because they are blacklisted, with checks, evidence and clearing.',
    permission: 'device.black-list',
    load: () => import('./pages/blacklist-page'),
  },
];
