import { Alert, Empty, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useRepairHistory } from '../api/repair.queries';
import { TicketDetail } from '../components/ticket-parts';

/** Repair history (DOMAIN.md 4.19): scan an IMEI, see every repair ticket of the device in full. */
export default function HistoryPage({ entry }: PageProps) {
  const [code, setCode] = useState<string | null>(null);
  const history = useRepairHistory(code);
  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Input.Search
        aria-label="Scan an IMEI"
        placeholder="Scan an IMEI"
        enterButton="Look up"
        autoFocus
        autoComplete="off"
        size="large"
        onSearch={(value) => setCode(value.trim() || null)}
        style={{ width: 560, maxWidth: '100%', marginBottom: 12 }}
      />
      {history.isError && <Alert type="error" showIcon title={history.error.message} />}
      {history.data && history.data.length === 0 && (
        <Empty description={`${code} has never been in repair.`} />
      )}
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        {history.data?.map((ticket) => (
          <TicketDetail key={ticket.id} ticket={ticket} />
        ))}
      </Space>
    </div>
  );
}
