/** What other areas use of the device registry. */
export { applyDeviceAction, deviceLifecycleStore, type DeviceStep } from './devices.service.js';
export { DEVICE_COLUMNS, DEVICE_FROM } from './devices.store.js';
