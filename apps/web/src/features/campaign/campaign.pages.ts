import { pendingPages } from '../../shell/page-types';

export const campaignPages = pendingPages('Campaign', [
  [
    '/order/express-orders/import-file-campaign',
    'Import campaign',
    { permission: 'campaign.import' },
    'Import a campaign file of express orders with a row-by-row preview.',
  ],
  [
    '/order/express-orders/order',
    'Express orders',
    { permission: 'campaign.view-list' },
    'Campaigns and the progress of their orders.',
  ],
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
]);
