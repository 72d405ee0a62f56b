import { CAMPAIGN_IMPORT_ACCESS, CAMPAIGN_LIST_ACCESS } from '@inventory/contract';
import { pendingPages, type PageEntry } from '../../shell/page-types';

/** Campaigns (DOMAIN.md 4.15); their labels and scan-out come with fulfilment. */
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
  ...pendingPages('Campaign', [
    [
      '/order/express-orders/print-label',
      'Campaign labels',
      { permission: 'order.shipping-processing' },
      'Print labels for a campaign’s orders.',
    ],
    [
      '/order/express-orders/scan',
      'Campaign scan-out',
      { permission: 'order.shipping-processing' },
      'Scan a campaign’s parcels out.',
    ],
  ]),
];
