import { type DailyOrderRow } from '@inventory/contract';
import { Alert, Button, Input, Space, Spin, Table, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { useDailyOrders } from '../api/orders.queries';

/** The same-day ship rate: shipped the day received, of those received before the cut-off. */
const rateOf = (shipped: number, received: number) =>
  received === 0 ? '—' : `${Math.round((shipped / received) * 100)}%`;

/** The order list of a row's orders received that day, optionally in one status. */
const listLink = (row: DailyOrderRow, status?: string) =>
  `/order/list?${new URLSearchParams({
    received_day: row.day,
    source: row.source,
    fulfilment_type: row.fulfilment_type,
    ...(status && { status }),
  }).toString()}`;

const COLUMNS = [
  'day',
  'source',
  'fulfilment_type',
  'received',
  'approved',
  'shipped',
  'backlog',
  'cancelled',
  'received_before_cutoff',
  'shipped_same_day',
] as const;

/** The report's rows as a CSV file, downloaded by the browser. */
function exportCsv(rows: readonly DailyOrderRow[], from: string, to: string) {
  const lines = [COLUMNS.join(','), ...rows.map((row) => COLUMNS.map((key) => row[key]).join(','))];
  const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `daily-orders-${from}-${to}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

/**
 * The daily order report (`/order/daily-order`): per business day, source and type, orders
 * received, approved, shipped, in backlog (received that day and on hold now) and cancelled,
 * with the same-day ship rate of those received before the cut-off. Figures are kept as orders
 * change, so a year reads as fast as a day.
 */
export default function DailyOrdersPage({ entry }: PageProps) {
  const [from, setFrom] = useUrlParam('from');
  const [to, setTo] = useUrlParam('to');
  const report = useDailyOrders({ ...(from && { from }), ...(to && { to }) });
  const [draft, setDraft] = useState({ from: from ?? '', to: to ?? '' });
  const rows = report.data?.rows ?? [];
  const total = (key: (typeof COLUMNS)[number]) =>
    rows.reduce((sum, row) => sum + (row[key] as number), 0);

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Received and backlog count orders by the day they arrived; approved, shipped and cancelled
        by the day it happened. Backlog is what is on hold now.
        {report.data &&
          ` Days in ${report.data.time_zone}; same-day cut-off ${report.data.cutoff}.`}
      </Typography.Paragraph>
      <Space wrap align="end">
        <label>
          From{' '}
          <Input
            type="date"
            aria-label="From"
            value={draft.from}
            onChange={(event) => setDraft({ ...draft, from: event.target.value })}
            style={{ width: 170 }}
          />
        </label>
        <label>
          To{' '}
          <Input
            type="date"
            aria-label="To"
            value={draft.to}
            onChange={(event) => setDraft({ ...draft, to: event.target.value })}
            style={{ width: 170 }}
          />
        </label>
        <Button
          type="primary"
          onClick={() => {
            setFrom(draft.from || undefined);
            setTo(draft.to || undefined);
          }}
        >
          Show
        </Button>
        <Button
          disabled={!report.data}
          onClick={() => report.data && exportCsv(rows, report.data.from, report.data.to)}
        >
          Export CSV
        </Button>
      </Space>
      {report.error ? (
        <Alert type="error" message={report.error.message} />
      ) : !report.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text>
            {report.data.from} to {report.data.to}: {total('received')} received, {total('shipped')}{' '}
            shipped, {total('backlog')} in backlog; same-day ship rate{' '}
            {rateOf(total('shipped_same_day'), total('received_before_cutoff'))}.
          </Typography.Text>
          <Table<DailyOrderRow>
            size="small"
            rowKey={(row) => `${row.day} ${row.source} ${row.fulfilment_type}`}
            dataSource={rows}
            pagination={{ pageSize: 100, hideOnSinglePage: true }}
            locale={{ emptyText: 'No orders in these days.' }}
            columns={[
              { key: 'day', dataIndex: 'day', title: 'Day' },
              { key: 'source', dataIndex: 'source', title: 'Source' },
              { key: 'type', dataIndex: 'fulfilment_type', title: 'Type' },
              {
                key: 'received',
                title: 'Received',
                render: (_, row) => (
                  <Link
                    to={listLink(row)}
                    aria-label={`${row.received} ${row.source} ${row.fulfilment_type} orders received ${row.day}`}
                  >
                    {row.received}
                  </Link>
                ),
              },
              { key: 'approved', dataIndex: 'approved', title: 'Approved' },
              { key: 'shipped', dataIndex: 'shipped', title: 'Shipped' },
              {
                key: 'backlog',
                title: 'Backlog',
                render: (_, row) =>
                  row.backlog === 0 ? (
                    0
                  ) : (
                    <Link
                      to={listLink(row, 'on_hold')}
                      aria-label={`${row.backlog} ${row.source} ${row.fulfilment_type} orders of ${row.day} on hold`}
                    >
                      {row.backlog}
                    </Link>
                  ),
              },
              { key: 'cancelled', dataIndex: 'cancelled', title: 'Cancelled' },
              {
                key: 'same_day',
                title: 'Same-day ship rate',
                render: (_, row) => rateOf(row.shipped_same_day, row.received_before_cutoff),
              },
            ]}
          />
        </>
      )}
    </Space>
  );
}
