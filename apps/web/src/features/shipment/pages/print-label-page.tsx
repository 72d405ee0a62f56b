import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { LabelDesk } from '../components/label-desk';

/** Print labels (`/fulfill/print-label`, DOMAIN.md 4.14): the label desk over every order. */
export default function PrintLabelPage({ entry }: PageProps) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Fulfilled orders waiting for a label, by carrier and service, the oldest first. Choose
        orders and create their labels in one batch: each label is bought once, whatever happens to
        the connection, and the weight is the devices&apos; models plus the packaging.
      </Typography.Paragraph>
      <LabelDesk />
    </Space>
  );
}
