import { pendingPages } from '../../shell/page-types';

export const blacklistPages = pendingPages('Blacklist devices', [
  [
    '/devices/blacklist',
    'Blacklisted devices',
    { permission: 'device.black-list' },
    'Devices on hold because they are blacklisted, with checks, evidence and clearing.',
  ],
]);
