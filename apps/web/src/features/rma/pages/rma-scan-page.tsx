import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { RmaStation } from '../components/rma-station';

/** RMA receiving (`/RMA/scan`, DOMAIN.md 4.10). */
export default function RmaScanPage({ entry }: PageProps) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <RmaStation />
    </Space>
  );
}
