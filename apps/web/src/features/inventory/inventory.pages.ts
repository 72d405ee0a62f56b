import {
  BOX_LIST_ACCESS,
  BOX_SCAN_ACCESS,
  PUTAWAY_ACCESS,
  STATION_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** The device boxes' list (DOMAIN.md 4.2). */
export const inventoryPages: PageEntry[] = [
  {
    path: '/inventory-box/device',
    group: 'RTS Inventory',
    label: 'Device boxes',
    summary: 'Homogeneous boxes of ready-to-sell devices with their IMEIs, location and age.',
    ...BOX_LIST_ACCESS,
    load: () => import('./pages/inventory-boxes-page'),
  },
];

/** The pages that follow the counted stock's (features/stock) in the menu. */
export const inventoryStationPages: PageEntry[] = [
  {
    path: '/inventory-box/scan-device',
    group: 'RTS Inventory',
    label: 'Scan devices to boxes',
    summary: 'Scan station to add, remove, move and verify devices in inventory boxes.',
    ...BOX_SCAN_ACCESS,
    load: () => import('./pages/box-scan-page'),
  },
];

/** The pages that follow the locations' (features/locations) in the menu. */
export const putawayPages: PageEntry[] = [
  {
    path: '/inventory-box/location/assign-location',
    group: 'RTS Inventory',
    label: 'Putaway',
    summary: 'Scan sealed boxes to their storage locations.',
    ...PUTAWAY_ACCESS,
    load: () => import('./pages/putaway-page'),
  },
];

const S = STATION_ACCESS;

/** Consolidation (DOMAIN.md 4.17): in the Invoice group, after production's pages. */
export const consolidationPages: PageEntry[] = [
  {
    path: '/consolidation',
    group: 'Invoice',
    label: 'Consolidation',
    summary: 'Graded devices waiting, grouped by model, colour, capacity and grade.',
    ...S.consolidation,
    load: () => import('./pages/consolidation-page'),
  },
  {
    path: '/consolidation/worker',
    group: 'Invoice',
    label: 'Consolidation worker',
    summary: 'Scan devices into homogeneous inventory boxes and seal them.',
    ...S.consolidationWorker,
    load: () => import('./pages/consolidation-worker-page'),
  },
  {
    path: '/consolidation/box',
    group: 'Invoice',
    label: 'Consolidation boxes',
    summary: 'Consolidation boxes: fill, status, reopen and putaway.',
    ...S.consolidationBox,
    load: () => import('./pages/consolidation-boxes-page'),
  },
  {
    path: '/consolidation/inquire-device',
    group: 'Invoice',
    label: 'Inquire device',
    summary: 'Scan an IMEI to see its production and consolidation history.',
    ...S.consolidationInquireDevice,
    load: () => import('./pages/inquire-device-page'),
  },
];
