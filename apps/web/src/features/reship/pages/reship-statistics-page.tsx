import {
  COST_OWNER_TEXT,
  RESHIP_REASON_TEXT,
  type CostOwner,
  type ReshipReason,
  type ReshipStatistics,
} from '@inventory/contract';
import { Alert, Button, Card, Col, Input, Row, Space, Spin, Table, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { useReshipStatistics } from '../api/reship.queries';

const ReshipsByDayChart = lazy(() =>
  import('../components/reship-charts').then((module) => ({ default: module.ReshipsByDayChart })),
);

type Counts = ReshipStatistics['by_reason'];
type Dimension = 'by_reason' | 'by_cost_owner' | 'by_carrier' | 'by_client';

const DIMENSIONS: readonly { key: Dimension; title: string; words: (key: string) => string }[] = [
  {
    key: 'by_reason',
    title: 'By reason',
    words: (key) => RESHIP_REASON_TEXT[key as ReshipReason] ?? key,
  },
  {
    key: 'by_cost_owner',
    title: 'By cost owner',
    words: (key) => COST_OWNER_TEXT[key as CostOwner] ?? key,
  },
  {
    key: 'by_carrier',
    title: 'By shipping carrier',
    words: (key) => (key === 'none' ? 'No parcel' : key.toUpperCase()),
  },
  { key: 'by_client', title: 'By client', words: (key) => (key === 'none' ? '—' : key) },
];

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => isoDay(new Date(Date.now() - days * 86_400_000));

const rate = (reships: number, shipped: number) =>
  shipped === 0 ? '—' : `${((reships / shipped) * 100).toFixed(1)}%`;

/** Every figure of the range as one CSV file: a section per dimension. */
function exportCsv(stats: ReshipStatistics) {
  const lines = [
    'dimension,key,reships',
    ...stats.by_day.map((row) => `day,${row.day},${row.reships}`),
    ...DIMENSIONS.flatMap(({ key }) =>
      stats[key].map((row) => `${key.slice(3)},"${row.key.replace(/"/g, '""')}",${row.reships}`),
    ),
  ];
  const url = URL.createObjectURL(new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `reships-${stats.from}-${stats.to}.csv`;
  link.click();
  URL.revokeObjectURL(url);
}

function CountsTable({
  title,
  rows,
  words,
}: {
  title: string;
  rows: Counts;
  words: (key: string) => string;
}) {
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {title}
        </Typography.Title>
      }
    >
      <Table
        size="small"
        rowKey="key"
        dataSource={[...rows]}
        pagination={false}
        locale={{ emptyText: 'No reships.' }}
        columns={[
          {
            title: 'Name',
            key: 'key',
            render: (_: unknown, row: Counts[number]) => words(row.key),
          },
          { title: 'Reships', dataIndex: 'reships', key: 'reships', align: 'right' as const },
        ]}
      />
    </Card>
  );
}

/**
 * Reship statistics (`/shipment-management/reship-statistics`, DOMAIN.md 4.16): the reships asked
 * for in a range of days (UTC, not denied) by day, reason, cost owner, shipping carrier and
 * client, with the reship rate against the orders shipped in the range. Export as CSV.
 */
export default function ReshipStatisticsPage({ entry }: PageProps) {
  const [fromParam, setFrom] = useUrlParam('from');
  const [toParam, setTo] = useUrlParam('to');
  const from = fromParam ?? daysAgo(29);
  const to = toParam ?? isoDay(new Date());
  const [draft, setDraft] = useState({ from, to });
  const stats = useReshipStatistics({ from, to });

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
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
        <Button disabled={!stats.data} onClick={() => stats.data && exportCsv(stats.data)}>
          Export CSV
        </Button>
      </Space>
      {stats.error ? (
        <Alert type="error" message={stats.error.message} />
      ) : !stats.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text data-testid="reship-totals">
            {stats.data.from} to {stats.data.to}: {stats.data.reships} reships of{' '}
            {stats.data.shipped} orders shipped (reship rate{' '}
            {rate(stats.data.reships, stats.data.shipped)}).
          </Typography.Text>
          <Card
            size="small"
            title={
              <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
                Reships per day
              </Typography.Title>
            }
          >
            <Suspense fallback={<Spin />}>
              <ReshipsByDayChart days={stats.data.by_day} />
            </Suspense>
          </Card>
          <Row gutter={[16, 16]}>
            {DIMENSIONS.map((dimension) => (
              <Col key={dimension.key} xs={24} lg={12}>
                <CountsTable
                  title={dimension.title}
                  rows={stats.data[dimension.key]}
                  words={dimension.words}
                />
              </Col>
            ))}
          </Row>
        </>
      )}
    </Space>
  );
}
