import {
  repairEndpoints,
  type RepairStatistics,
  type RepairStatisticsTable,
} from '@inventory/contract';
import { Alert, Input, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import type { ColumnsType } from 'antd/es/table';
import { callEndpoint } from '../../../shell/http-client';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useUrlState } from '../../../shell/use-url-state';
import { dollars } from '../../../toolkit/format';
import { ExportMenu } from '../../warehouse';
import { useRepairStatistics } from '../api/repair.queries';
import { hoursText } from './ticket-parts';

/*
 * What the repair dashboard and the technicians' statistics share: the date range kept in the
 * address (the last 30 days by default), the statistics of it, and a rates table with its export.
 */

const RANGE_KEYS = ['from', 'to'] as const;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The page's title, its date range and the statistics read for it. */
export function useStatisticsPage() {
  const [url, setUrl] = useUrlState(RANGE_KEYS);
  // The default range ends on the day the page opened, not on each render's moment.
  const [opened] = useState(() => Date.now());
  const range = {
    from: url.from ?? isoDay(opened - 29 * 86_400_000),
    to: url.to ?? isoDay(opened),
  };
  const statistics = useRepairStatistics(range);
  return { range, setRange: setUrl, statistics };
}

export function StatisticsHeader({
  title,
  page,
}: {
  title: string;
  page: ReturnType<typeof useStatisticsPage>;
}) {
  const { range, setRange, statistics } = page;
  return (
    <>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {title}
        </Typography.Title>
        <Space wrap>
          <label>
            From{' '}
            <Input
              type="date"
              value={range.from}
              onChange={(event) => setRange({ from: event.target.value })}
              style={{ width: 160 }}
            />
          </label>
          <label>
            To{' '}
            <Input
              type="date"
              value={range.to}
              onChange={(event) => setRange({ to: event.target.value })}
              style={{ width: 160 }}
            />
          </label>
        </Space>
      </Space>
      {statistics.isError && (
        <Alert
          type="error"
          showIcon
          title={statistics.error.message}
          style={{ marginBottom: 12 }}
        />
      )}
    </>
  );
}

type Rates = RepairStatistics['totals'];
export const percentOf = (part: number, whole: number) =>
  whole === 0 ? '—' : `${Math.round((100 * part) / whole)}%`;

/** The rates every row shows: throughput, first-pass yield, BER rate, labour and parts cost. */
export const rateColumns = <T extends Rates>(): ColumnsType<T> => [
  { title: 'Closed', dataIndex: 'tickets', sorter: (a, b) => a.tickets - b.tickets },
  { title: 'Released', dataIndex: 'released' },
  { title: 'First-pass yield', render: (_, row) => percentOf(row.first_pass, row.tested) },
  { title: 'BER rate', render: (_, row) => percentOf(row.beyond_repair, row.tickets) },
  { title: 'Labour', render: (_, row) => hoursText(row.labour_seconds) },
  { title: 'Parts cost', render: (_, row) => dollars(row.parts_cost_cents) },
];

/** A table of the statistics, with its export for the same range. */
export function RatesTable<T extends Rates>({
  title,
  table,
  range,
  rows,
  loading,
  first,
}: {
  title: string;
  table: RepairStatisticsTable;
  range: { from: string; to: string };
  rows: readonly T[];
  loading: boolean;
  first: ColumnsType<T>[number];
}) {
  return (
    <Table<T>
      rowKey={(row) => String(Object.values(row)[0])}
      size="small"
      loading={loading}
      dataSource={[...rows]}
      pagination={false}
      title={() => (
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
            {title}
          </Typography.Title>
          <ExportMenu
            title={title}
            linkOf={async (format) =>
              (
                await callEndpoint(repairEndpoints.statisticsExport, {
                  body: { ...range, table, format },
                })
              ).data
            }
          />
        </Space>
      )}
      locale={{ emptyText: 'No ticket closed in these days.' }}
      columns={[first, ...rateColumns<T>()]}
    />
  );
}
