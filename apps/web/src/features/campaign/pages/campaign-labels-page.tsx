import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { LabelDesk } from '../../shipment';
import { CampaignOutbound } from '../components/campaign-outbound';

/**
 * Campaign labels (`/order/express-orders/print-label`, DOMAIN.md 4.15): the label desk of
 * `/fulfill/print-label` scoped to one campaign, with the campaign's progress.
 */
export default function CampaignLabelsPage({ entry }: PageProps) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Choose a campaign: its fulfilled orders wait here for their labels, by carrier and service.
        The labels are made in batches as at the label desk, and the bar shows how many of the
        campaign&apos;s orders are labelled.
      </Typography.Paragraph>
      <CampaignOutbound step="labeled">
        {(campaign, onProgress) => (
          <LabelDesk key={campaign.id} campaignId={campaign.id} onChange={onProgress} />
        )}
      </CampaignOutbound>
    </Space>
  );
}
