import { PRODUCT_REQUEST_ACCESS, STATION_ACCESS } from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

const S = STATION_ACCESS;

/** Product requests, the product team's overview and the leader's and worker's stations. */
export const productionPages: PageEntry[] = [
  {
    path: '/invoice/product-request',
    group: 'Invoice',
    label: 'Product requests',
    summary: 'Requests to the product team to process received stock.',
    ...PRODUCT_REQUEST_ACCESS,
    load: () => import('./pages/product-requests-page'),
  },
  {
    path: '/invoice/product-team',
    group: 'Invoice',
    label: 'Product team',
    summary:
      'Production overview: boxes waiting, in production and done; today’s graded and failed.',
    ...S.productTeam,
    load: () => import('./pages/product-team-page'),
  },
  {
    path: '/invoice/product-team/leader',
    group: 'Invoice',
    label: 'Production leader',
    summary: 'Assign boxes and devices to workers and review failures.',
    ...S.productTeamLeader,
    load: () => import('./pages/leader-page'),
  },
  {
    path: '/invoice/product-team/worker',
    group: 'Invoice',
    label: 'Production worker',
    summary: 'Test, wipe and grade devices.',
    ...S.productTeamWorker,
    load: () => import('./pages/worker-page'),
  },
];

/** Correcting a device's attributes: after the warehouse box dashboards in the menu. */
export const deviceCorrectionPages: PageEntry[] = [
  {
    path: '/invoice/product-team/update-device',
    group: 'Invoice',
    label: 'Correct device',
    summary:
      'Correct a device’s model, colour, capacity or grade with a reason, one by one or by file.',
    ...S.productTeamUpdateDevice,
    load: () => import('./pages/update-device-page'),
  },
];
