import { Space, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useRefreshDockDay } from '../api/dock-day.queries';
import { Dock } from '../components/dock';
import { DockDayPanel } from '../components/dock-day-panel';

/**
 * Scan to ship (`/fulfill/scan-to-ship`, DOMAIN.md 4.14): the dock over every parcel, and the
 * day's figures with its end-of-day close.
 */
export default function ScanToShipPage({ entry }: PageProps) {
  const refreshDay = useRefreshDockDay();
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Dock onShipped={() => void refreshDay()} />
      <DockDayPanel />
    </Space>
  );
}
