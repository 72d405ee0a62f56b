import {
  CAMPAIGN_IMPORT_ACCESS,
  CAMPAIGN_LIST_ACCESS,
  ORDER_SHIPPING_ACCESS,
} from '@inventory/contract';
import type { PageEntry } from '../../shell/page-types';

/** Campaigns (DOMAIN.md 4.15): the file's import, their progress, their labels and scan-out. */
export const campaignPages: PageEntry[] = [
  {
    path: '/order/express-orders/import-file-campaign',
    group: 'Campaign',
    label: 'Import campaign',
    summary: 'Import a campaign file of express orders with a row-by-row preview.',
    ...CAMPAIGN_IMPORT_ACCESS,
    load: () => import('./pages/import-campaign-page'),
  },
  {
    path: '/order/express-orders/order',
    group: 'Campaign',
    label: 'Express orders',
    summary: 'Campaigns and the progress of their orders.',
    ...CAMPAIGN_LIST_ACCESS,
    load: () => import('./pages/express-orders-page'),
  },
  {
    path: '/order/express-orders/print-label',
    group: 'Campaign',
    label: 'Campaign labels',
    summary: 'Print labels for a campaign’s orders.',
    ...ORDER_SHIPPING_ACCESS,
    load: () => import('./pages/campaign-labels-page'),
  },
  {
    path: '/order/express-orders/scan',
    group: 'Campaign',
    label: 'Campaign scan-out',
    summary: 'Scan a campaign’s parcels out.',
    ...ORDER_SHIPPING_ACCESS,
    load: () => import('./pages/campaign-scan-page'),
  },
];
