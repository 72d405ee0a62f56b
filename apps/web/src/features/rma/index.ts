/** What other areas show of RMAs: a device's RMAs on its card. */
export { DeviceRmas } from './components/device-rmas';
