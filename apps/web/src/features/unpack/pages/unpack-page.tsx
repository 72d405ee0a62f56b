import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { UnidentifiedSearch } from '../components/unidentified-parcels';
import { UnpackStation } from '../components/unpack-station';

/** Unpack returned parcels (`/shipment-management/unpack`, DOMAIN.md 4.16). */
export default function UnpackPage({ entry }: PageProps) {
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <UnpackStation />
      <Typography.Title level={2} style={{ fontSize: 18, margin: 0 }}>
        Unidentified parcels
      </Typography.Title>
      <UnidentifiedSearch />
    </Space>
  );
}
