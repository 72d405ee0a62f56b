import { Card, Col, Row, Spin, Statistic, Table } from 'antd';
import { lazy, Suspense } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { dollars, when } from '../../../toolkit/format';
import {
  percentOf,
  RatesTable,
  StatisticsHeader,
  useStatisticsPage,
} from '../components/statistics-parts';
import { ticketStatusText } from '../components/ticket-parts';

// The chart library comes with the charts alone, after the figures: the tables never wait for it.
const charts = () => import('../components/repair-charts');
const ThroughputChart = lazy(() =>
  charts().then((module) => ({ default: module.ThroughputChart })),
);
const OpenTicketsChart = lazy(() =>
  charts().then((module) => ({ default: module.OpenTicketsChart })),
);

/**
 * The repair dashboard (DOMAIN.md 4.19): open tickets by state and age, and for the tickets
 * closed in the range their throughput, first-pass yield, parts cost and BER rate.
 */
export default function DashboardPage({ entry }: PageProps) {
  const page = useStatisticsPage();
  const data = page.statistics.data;
  const totals = data?.totals;
  return (
    <div>
      <StatisticsHeader title={entry.label} page={page} />
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic title="Tickets closed" value={totals?.tickets ?? 0} loading={!totals} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title="First-pass yield"
              value={totals ? percentOf(totals.first_pass, totals.tested) : '—'}
              loading={!totals}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title="BER rate"
              value={totals ? percentOf(totals.beyond_repair, totals.tickets) : '—'}
              loading={!totals}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small">
            <Statistic
              title="Parts cost"
              value={dollars(totals?.parts_cost_cents ?? 0)}
              loading={!totals}
            />
          </Card>
        </Col>
      </Row>
      <Row gutter={[12, 12]} style={{ marginBottom: 12 }}>
        <Col xs={24} lg={12}>
          <Card size="small" title="Open tickets by state and age">
            <Table
              rowKey="status"
              size="small"
              pagination={false}
              loading={page.statistics.isLoading}
              dataSource={data?.open_by_state ?? []}
              locale={{ emptyText: 'No open ticket.' }}
              columns={[
                { title: 'State', render: (_, row) => ticketStatusText(row.status) },
                { title: 'Open', dataIndex: 'tickets' },
                { title: '3 days or more', dataIndex: 'older_than_3_days' },
                { title: 'Oldest since', render: (_, row) => when(row.oldest_at) },
              ]}
            />
            {data && (
              <Suspense fallback={<Spin />}>
                <OpenTicketsChart states={data.open_by_state} />
              </Suspense>
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title="Raised and closed per day">
            {data && (
              <Suspense fallback={<Spin />}>
                <ThroughputChart days={data.days} />
              </Suspense>
            )}
          </Card>
        </Col>
      </Row>
      <RatesTable
        title="By technician"
        table="technicians"
        range={page.range}
        rows={data?.technicians ?? []}
        loading={page.statistics.isLoading}
        first={{ title: 'Technician', dataIndex: 'technician' }}
      />
    </div>
  );
}
