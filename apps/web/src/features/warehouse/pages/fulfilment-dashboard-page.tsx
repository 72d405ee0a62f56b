import {
  HOLD_REASON_TEXT,
  hourText,
  orderLifecycle,
  PIPELINE_STATUSES,
  QUEUE_STAGE_TEXT,
  QUEUE_STAGES,
  type FulfilmentFigures,
  type QueueStage,
  type SlaOpenStatus,
} from '@inventory/contract';
import { Alert, Button, Card, Col, Row, Space, Spin, Table, Tag, Typography } from 'antd';
import { lazy } from 'react';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { ageText, snapshotAgeMs, useNow } from '../../../toolkit/snapshot-age';
import {
  useFulfilmentDashboard,
  useRefreshFulfilmentDashboard,
} from '../api/fulfilment-dashboard.queries';
import {
  ChartCard,
  Drill,
  Figure,
  KeptFiguresTitle,
  number,
  useDrillAccess,
  type DrillAccess,
} from '../components/dashboard-parts';
import { FulfilmentWidgetExport } from '../components/fulfilment-widget-export';
import { cutoffCountdown, QUEUE_TEXT, serverNow } from '../fulfilment-dashboard-text';
import {
  ASSIGNMENT_PAGE,
  backlogLink,
  ordersLink,
  packagesLink,
  pipelineLink,
} from '../fulfilment-links';
import { boxesLink } from '../warehouse-links';

// The chart library comes with the charts alone, after the figures: the tables never wait for it.
const charts = () => import('../components/fulfilment-charts');
const QueueChart = lazy(() => charts().then((module) => ({ default: module.QueueChart })));
const BacklogChart = lazy(() => charts().then((module) => ({ default: module.BacklogChart })));
const ThroughputChart = lazy(() =>
  charts().then((module) => ({ default: module.ThroughputChart })),
);

type Figures = FulfilmentFigures;
type Queue = Figures['queues'][number];
type Backlog = Figures['backlog'][number];
type Late = Figures['sla']['by_status'][number];
type Hour = Figures['throughput']['by_hour'][number];
type Demand = Figures['demand'][number];

/** Units a variant's ready orders want beyond its available stock. */
const shortOf = (row: Demand) => Math.max(0, row.units - row.available);

/** The list behind a stage of a queue (or of every queue), and who may open it. */
function stageLink(stage: QueueStage, can: DrillAccess, queue?: Queue['fulfilment_type']) {
  const filters = { status: stage, ...(queue && { fulfilment_type: queue }) };
  return stage === 'ready'
    ? { to: ordersLink({ filters }), allowed: can.orders }
    : { to: pipelineLink({ filters }), allowed: can.pipeline };
}

/** Orders of a status past their SLA: the list of that status, the most overdue first. */
function lateLink(status: SlaOpenStatus, can: DrillAccess) {
  const bySla = { sort: 'sla_due_at', order: 'asc' } as const;
  if (status === 'on_hold') return { to: backlogLink(bySla), allowed: can.backlog };
  return (PIPELINE_STATUSES as readonly string[]).includes(status)
    ? { to: pipelineLink({ filters: { status }, ...bySla }), allowed: can.pipeline }
    : { to: ordersLink({ filters: { status }, ...bySla }), allowed: can.orders };
}

/** The parcels scanned out, newest first: today's are the first rows. */
const SCANNED_OUT_NEWEST = packagesLink({ sort: 'scanned_out_at', order: 'desc' });

/** Orders a queue holds now or shipped today: a queue without any is left out. */
const ordersOf = (queue: Queue) =>
  QUEUE_STAGES.reduce((sum, stage) => sum + queue[stage], 0) + queue.shipped_today;

/**
 * The day's fulfilment at a glance (DOMAIN.md 4.18): kept figures, each with the list behind it,
 * how old they are and the time left to the carrier cut-off; a refresh reads them again.
 */
export default function FulfilmentDashboardPage({ entry }: PageProps) {
  const dashboard = useFulfilmentDashboard();
  const refresh = useRefreshFulfilmentDashboard();
  const navigate = useNavigate();
  const now = useNow(15_000);
  const can = useDrillAccess();
  const data = dashboard.data;

  const header = <KeptFiguresTitle title={entry.label} refresh={refresh} />;

  if (dashboard.isError) {
    return (
      <div>
        {header}
        <Alert
          type="error"
          showIcon
          title="The figures could not be loaded."
          description={dashboard.error.message}
          action={<Button onClick={() => void dashboard.refetch()}>Try again</Button>}
        />
      </div>
    );
  }
  if (!data) {
    return (
      <div>
        {header}
        <Spin />
      </div>
    );
  }

  const { figures } = data;
  const age = snapshotAgeMs(data, dashboard.dataUpdatedAt, now);
  const late = age > 2 * data.max_age_seconds * 1000;
  const cutoff = cutoffCountdown(
    figures.cutoff_at,
    serverNow(data.read_at, dashboard.dataUpdatedAt, now),
  );
  const { totals } = figures;
  const queues = figures.queues.filter((queue) => ordersOf(queue) > 0);
  const worked = figures.throughput.by_hour.filter(
    (hour) => hour.picked + hour.labelled + hour.scanned_out > 0,
  );
  const onHold = figures.backlog.reduce((sum, row) => sum + row.orders, 0);
  const stageCell = (stage: QueueStage) => ({
    key: stage,
    title: QUEUE_STAGE_TEXT[stage],
    align: 'right' as const,
    render: (_: unknown, queue: Queue) => (
      <Drill {...stageLink(stage, can, queue.fulfilment_type)}>{number(queue[stage])}</Drill>
    ),
  });

  return (
    <div>
      {header}
      <Typography.Paragraph type="secondary" data-testid="figures-age">
        Figures of {figures.day} ({figures.time_zone}) as of {when(data.as_of)} ({ageText(age)}
        {data.refreshed_by ? `, asked for by ${data.refreshed_by}` : ''}); the server reads them
        again every minute.{' '}
        {late && (
          <Typography.Text type="warning">
            They are older than that: refresh them to read them now.
          </Typography.Text>
        )}
      </Typography.Paragraph>

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Figure
          id="cutoff"
          title={`Carrier cut-off ${figures.cutoff}`}
          value={cutoff.text}
          note={
            <>
              {cutoff.passed ? 'Still to go out: ' : 'To go out before it: '}
              <Drill {...stageLink('labeled', can)}>{number(totals.labeled)} labelled</Drill>,{' '}
              <Drill {...stageLink('fulfilled', can)}>{number(totals.fulfilled)} to label</Drill>
            </>
          }
        />
        <Figure
          id="ready"
          title="Ready"
          value={number(totals.ready)}
          {...stageLink('ready', can)}
          note="orders waiting for a worker"
        />
        <Figure
          id="assigned"
          title="Assigned"
          value={number(totals.assigned)}
          {...stageLink('assigned', can)}
          note={
            <Drill {...stageLink('in_progress', can)}>
              {number(totals.in_progress)} being picked
            </Drill>
          }
        />
        <Figure
          id="picked"
          title="Picked, to label"
          value={number(totals.fulfilled)}
          {...stageLink('fulfilled', can)}
          note="orders"
        />
        <Figure
          id="labelled"
          title="Labelled, to scan out"
          value={number(totals.labeled)}
          {...stageLink('labeled', can)}
          note="orders"
        />
        <Figure
          id="shipped"
          title="Shipped today"
          value={number(totals.shipped_today)}
          to={SCANNED_OUT_NEWEST}
          allowed={can.packages}
          note="orders scanned out"
        />
        <Figure
          id="backlog"
          title="Backlog"
          value={number(onHold)}
          to={backlogLink()}
          allowed={can.backlog}
          note="orders on hold"
        />
        <Figure
          id="sla"
          title="SLA breaches"
          value={number(figures.sla.breached)}
          note="orders past their SLA, not shipped: by status below"
        />
      </Row>

      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <ChartCard
          title="Today by queue"
          extra={<FulfilmentWidgetExport widget="queues" title="Today by queue" />}
          chart={
            queues.length === 0 ? (
              <Typography.Text type="secondary">No order waits in any queue.</Typography.Text>
            ) : (
              <QueueChart
                queues={queues}
                onSelect={(type, stage) => {
                  const link = stageLink(stage, can, type);
                  if (link.allowed) void navigate(link.to);
                }}
              />
            )
          }
          table={
            <Table<Queue>
              aria-label="Today by queue, figures"
              size="small"
              rowKey="fulfilment_type"
              dataSource={queues}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: 'No order waits in any queue, and none shipped today.' }}
              columns={[
                {
                  key: 'queue',
                  title: 'Queue',
                  render: (_, queue) => QUEUE_TEXT[queue.fulfilment_type],
                },
                ...QUEUE_STAGES.map(stageCell),
                {
                  key: 'shipped_today',
                  title: 'Shipped today',
                  align: 'right',
                  render: (_, queue) => number(queue.shipped_today),
                },
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>
                    <strong>Total</strong>
                  </Table.Summary.Cell>
                  {QUEUE_STAGES.map((stage, index) => (
                    <Table.Summary.Cell key={stage} index={index + 1} align="right">
                      <Drill {...stageLink(stage, can)}>
                        <strong>{number(totals[stage])}</strong>
                      </Drill>
                    </Table.Summary.Cell>
                  ))}
                  <Table.Summary.Cell index={QUEUE_STAGES.length + 1} align="right">
                    <Drill to={SCANNED_OUT_NEWEST} allowed={can.packages}>
                      <strong>{number(totals.shipped_today)}</strong>
                    </Drill>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
            />
          }
        />

        <ChartCard
          title="Throughput per hour"
          extra={<FulfilmentWidgetExport widget="throughput" title="Throughput per hour" />}
          chart={<ThroughputChart hours={figures.throughput.by_hour} />}
          table={
            <Table<Hour>
              aria-label="Throughput per hour, figures"
              size="small"
              rowKey="hour"
              dataSource={worked}
              pagination={false}
              locale={{ emptyText: 'Nothing picked, labelled or scanned out today yet.' }}
              columns={[
                { key: 'hour', title: 'Hour', render: (_, hour) => hourText(hour.hour) },
                {
                  key: 'picked',
                  title: 'Units picked',
                  align: 'right',
                  render: (_, hour) => number(hour.picked),
                },
                {
                  key: 'labelled',
                  title: 'Labels',
                  align: 'right',
                  render: (_, hour) => number(hour.labelled),
                },
                {
                  key: 'scanned_out',
                  title: 'Scanned out',
                  align: 'right',
                  render: (_, hour) => number(hour.scanned_out),
                },
              ]}
              summary={() => (
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0}>
                    <strong>Today</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={1} align="right">
                    <strong>{number(figures.throughput.picked)}</strong>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={2} align="right">
                    <Drill to={packagesLink()} allowed={can.packages}>
                      <strong>{number(figures.throughput.labelled)}</strong>
                    </Drill>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right">
                    <Drill to={SCANNED_OUT_NEWEST} allowed={can.packages}>
                      <strong>{number(figures.throughput.scanned_out)}</strong>
                    </Drill>
                  </Table.Summary.Cell>
                </Table.Summary.Row>
              )}
            />
          }
        />

        <ChartCard
          title="Backlog by reason"
          extra={<FulfilmentWidgetExport widget="backlog" title="Backlog by reason" />}
          chart={
            figures.backlog.length === 0 ? (
              <Typography.Text type="secondary">No order is on hold.</Typography.Text>
            ) : (
              <BacklogChart
                backlog={figures.backlog}
                onSelect={(reason) => {
                  if (can.backlog) void navigate(backlogLink({ filters: { hold_reason: reason } }));
                }}
              />
            )
          }
          table={
            <Table<Backlog>
              aria-label="Backlog by reason, figures"
              size="small"
              rowKey="hold_reason"
              dataSource={figures.backlog}
              pagination={false}
              locale={{ emptyText: 'No order is on hold.' }}
              columns={[
                {
                  key: 'reason',
                  title: 'Reason',
                  render: (_, row) => (
                    <Drill
                      to={backlogLink({ filters: { hold_reason: row.hold_reason } })}
                      allowed={can.backlog}
                    >
                      {HOLD_REASON_TEXT[row.hold_reason]}
                    </Drill>
                  ),
                },
                {
                  key: 'orders',
                  title: 'Orders',
                  align: 'right',
                  render: (_, row) => number(row.orders),
                },
                {
                  key: 'sla_breached',
                  title: 'Past SLA',
                  align: 'right',
                  render: (_, row) => (
                    <Drill
                      to={backlogLink({
                        filters: { hold_reason: row.hold_reason },
                        sort: 'sla_due_at',
                        order: 'asc',
                      })}
                      allowed={can.backlog}
                    >
                      {number(row.sla_breached)}
                    </Drill>
                  ),
                },
              ]}
            />
          }
        />

        <Row gutter={[16, 16]}>
          <Col xs={24} xl={10}>
            <Card
              title="SLA breaches"
              size="small"
              style={{ height: '100%' }}
              extra={<FulfilmentWidgetExport widget="sla" title="SLA breaches" />}
            >
              <Table<Late>
                aria-label="SLA breaches"
                size="small"
                rowKey="status"
                dataSource={figures.sla.by_status}
                pagination={false}
                locale={{ emptyText: 'No order is past its SLA.' }}
                columns={[
                  {
                    key: 'status',
                    title: 'Status',
                    render: (_, row) => orderLifecycle.stateText(row.status),
                  },
                  {
                    key: 'orders',
                    title: 'Orders past SLA',
                    align: 'right',
                    render: (_, row) => (
                      <Drill {...lateLink(row.status, can)}>{number(row.orders)}</Drill>
                    ),
                  },
                ]}
              />
            </Card>
          </Col>
          <Col xs={24} xl={14}>
            <Card
              title="Demand against stock"
              size="small"
              style={{ height: '100%' }}
              extra={<FulfilmentWidgetExport widget="demand" title="Demand against stock" />}
            >
              {figures.demand_variants > figures.demand.length && (
                <Typography.Paragraph type="secondary">
                  The {figures.demand.length} variants shortest of stock, of{' '}
                  {number(figures.demand_variants)} that ready orders want:{' '}
                  <Drill to={ASSIGNMENT_PAGE} allowed={can.assignment}>
                    all on the assignment page
                  </Drill>
                  .
                </Typography.Paragraph>
              )}
              <Table<Demand>
                aria-label="Demand against stock"
                size="small"
                rowKey="variant_id"
                dataSource={figures.demand}
                pagination={{ pageSize: 10, hideOnSinglePage: true }}
                scroll={{ x: 'max-content' }}
                locale={{ emptyText: 'No order is ready.' }}
                columns={[
                  { key: 'model', dataIndex: 'model', title: 'Model' },
                  {
                    key: 'sku',
                    title: 'SKU',
                    render: (_, row) => (
                      <Drill to={ASSIGNMENT_PAGE} allowed={can.assignment}>
                        {row.sku}
                      </Drill>
                    ),
                  },
                  {
                    key: 'orders',
                    title: 'Ready orders',
                    align: 'right',
                    render: (_, row) => number(row.orders),
                  },
                  {
                    key: 'units',
                    title: 'Units wanted',
                    align: 'right',
                    render: (_, row) => number(row.units),
                  },
                  {
                    key: 'available',
                    title: 'Available',
                    align: 'right',
                    render: (_, row) => (
                      <Space size={4}>
                        <Drill
                          to={boxesLink({ filters: { model_id: row.model_id } })}
                          allowed={can.boxes}
                        >
                          {number(row.available)}
                        </Drill>
                        {shortOf(row) > 0 && <Tag color="red">Short {number(shortOf(row))}</Tag>}
                      </Space>
                    ),
                  },
                ]}
              />
            </Card>
          </Col>
        </Row>
      </Space>
    </div>
  );
}
