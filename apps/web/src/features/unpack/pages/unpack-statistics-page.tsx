import {
  CARRIER_NAMES,
  UNPACK_REASON_TEXT,
  type UnpackStatistics,
  type UnpackStatisticsQuery,
  type UnpackStatisticsTable,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  Input,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  Typography,
} from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { startDownload } from '../../../toolkit/resource-queries';
import { statisticsExportLink, useUnpackStatistics } from '../api/unpack-statistics.queries';
import { rateText } from '../unpack-statistics-text';

// The chart library comes with the charts alone, after the tables.
const charts = () => import('../components/unpack-charts');
const ReturnsByDayChart = lazy(() =>
  charts().then((module) => ({ default: module.ReturnsByDayChart })),
);
const ReturnsByGroupChart = lazy(() =>
  charts().then((module) => ({ default: module.ReturnsByGroupChart })),
);

const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (days: number) => isoDay(new Date(Date.now() - days * 86_400_000));

type Counts = { returns: number; mismatches: number; empties: number };
/** A group's rows as its chart draws them. */
const grouped = <R extends Counts>(rows: readonly R[], label: (row: R) => string) =>
  rows.map((row) => ({ group: label(row), returns: row.returns }));

const COUNT_COLUMNS = [
  { key: 'returns', title: 'Returns', dataIndex: 'returns' },
  { key: 'mismatches', title: 'Mismatches', dataIndex: 'mismatches' },
  { key: 'empties', title: 'Empty', dataIndex: 'empties' },
];

/** A table of the page in a card, with its export and, beside it, its chart. */
function Section({
  title,
  table,
  range,
  chart,
  children,
}: {
  title: string;
  table: UnpackStatisticsTable;
  range: UnpackStatisticsQuery;
  chart?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card
      size="small"
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {title}
        </Typography.Title>
      }
      extra={
        <Button
          size="small"
          aria-label={`Export ${title}`}
          onClick={async () => {
            try {
              startDownload(await statisticsExportLink(range, table));
            } catch (error) {
              showApiError(error);
            }
          }}
        >
          Export CSV
        </Button>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={chart ? 12 : 24}>
          {children}
        </Col>
        {chart && (
          <Col xs={24} lg={12}>
            <Suspense fallback={<Spin />}>{chart}</Suspense>
          </Col>
        )}
      </Row>
    </Card>
  );
}

function GroupTable<R extends Counts>({
  rows,
  label,
  title,
}: {
  rows: readonly R[];
  label: (row: R) => string;
  title: string;
}) {
  return (
    <Table<R>
      size="small"
      rowKey={label}
      pagination={false}
      dataSource={[...rows]}
      columns={[{ key: 'group', title, render: (_, row) => label(row) }, ...COUNT_COLUMNS]}
    />
  );
}

/** Unpack statistics (`/shipment-management/unpack/statistics`, DOMAIN.md 4.16). */
export default function UnpackStatisticsPage({ entry }: PageProps) {
  const [range, setRange] = useState<UnpackStatisticsQuery>({
    from: daysAgo(29),
    to: isoDay(new Date()),
  });
  const stats = useUnpackStatistics(range);
  const figures: UnpackStatistics | undefined = stats.data;
  const dateInput = (key: 'from' | 'to', label: string) => (
    <label>
      {label}{' '}
      <Input
        type="date"
        style={{ width: 160 }}
        value={range[key]}
        onChange={(event) => {
          if (event.target.value) setRange({ ...range, [key]: event.target.value });
        }}
      />
    </label>
  );
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap>
        {dateInput('from', 'From')}
        {dateInput('to', 'To')}
      </Space>
      {stats.error && <Alert type="error" showIcon title={stats.error.message} />}
      {figures && (
        <>
          <Space wrap size="large">
            <Statistic
              title="Returns"
              value={figures.totals.returns}
              valueRender={(node) => <span data-testid="total-returns">{node}</span>}
            />
            <Statistic title="Orders shipped" value={figures.totals.shipped} />
            <Statistic
              title="Return rate"
              value={rateText(figures.totals.returns, figures.totals.shipped)}
            />
            <Statistic title="Mismatches" value={figures.totals.mismatches} />
            <Statistic title="Empty parcels" value={figures.totals.empties} />
          </Space>
          <Section
            title="Returns by day"
            table="by_day"
            range={range}
            chart={<ReturnsByDayChart days={figures.by_day} />}
          >
            <Table
              size="small"
              rowKey="day"
              pagination={{ pageSize: 31, hideOnSinglePage: true }}
              dataSource={figures.by_day}
              columns={[
                { key: 'day', title: 'Day', dataIndex: 'day' },
                { key: 'shipped', title: 'Orders shipped', dataIndex: 'shipped' },
                ...COUNT_COLUMNS,
                {
                  key: 'rate',
                  title: 'Return rate',
                  render: (_, row) => rateText(row.returns, row.shipped),
                },
              ]}
            />
          </Section>
          <Section
            title="Returns by carrier"
            table="by_carrier"
            range={range}
            chart={
              <ReturnsByGroupChart
                rows={grouped(figures.by_carrier, (row) => CARRIER_NAMES[row.carrier])}
              />
            }
          >
            <GroupTable
              rows={figures.by_carrier}
              title="Carrier"
              label={(row) => CARRIER_NAMES[row.carrier]}
            />
          </Section>
          <Section
            title="Returns by reason"
            table="by_reason"
            range={range}
            chart={
              <ReturnsByGroupChart
                rows={grouped(figures.by_reason, (row) => UNPACK_REASON_TEXT[row.reason])}
              />
            }
          >
            <GroupTable
              rows={figures.by_reason}
              title="Reason"
              label={(row) => UNPACK_REASON_TEXT[row.reason]}
            />
          </Section>
          <Section
            title="Returns by client carrier"
            table="by_client"
            range={range}
            chart={
              <ReturnsByGroupChart rows={grouped(figures.by_client, (row) => row.client_carrier)} />
            }
          >
            <GroupTable
              rows={figures.by_client}
              title="Client carrier"
              label={(row) => row.client_carrier}
            />
          </Section>
          <Section title="Repeated addresses" table="repeated_addresses" range={range}>
            <Table
              size="small"
              rowKey="address"
              pagination={false}
              dataSource={figures.repeated_addresses}
              columns={[
                { key: 'address', title: 'Address', dataIndex: 'address' },
                { key: 'zip', title: 'ZIP', dataIndex: 'zip' },
                { key: 'returns', title: 'Returns', dataIndex: 'returns' },
                { key: 'last', title: 'Last return', render: (_, row) => when(row.last_at) },
              ]}
            />
          </Section>
        </>
      )}
    </Space>
  );
}
