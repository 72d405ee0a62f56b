import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { Dock } from '../../shipment';
import { CampaignOutbound } from '../components/campaign-outbound';

/**
 * Campaign scan-out (`/order/express-orders/scan`, DOMAIN.md 4.15): the dock of
 * `/fulfill/scan-to-ship` scoped to one campaign (a parcel of another is set aside), with the
 * campaign's progress.
 */
export default function CampaignScanPage({ entry }: PageProps) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <CampaignOutbound step="scanned">
        {(campaign, onProgress) => (
          <Dock key={campaign.id} campaignId={campaign.id} onShipped={onProgress} />
        )}
      </CampaignOutbound>
    </Space>
  );
}
