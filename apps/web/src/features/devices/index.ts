/** What other areas use of the device registry. */
export { BlacklistEntryDrawer } from './components/blacklist-entry-drawer';
export { DeviceStatusTag, HoldTag } from './components/device-tags';
export { useRefreshDevices } from './api/devices.queries';

/** The device lookup opened on a code: other pages link a device here. */
export const deviceLookupPath = (code: string) => `/devices/scan?code=${encodeURIComponent(code)}`;
