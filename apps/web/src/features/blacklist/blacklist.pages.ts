import type { PageEntry } from '../../shell/page-types';

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
