import {
  DASHBOARD_WIDGET_FILES,
  DEVICE_OS_TEXT,
  mainDashboardExportEndpoint,
  PIPELINE_STAGE_TEXT,
  PIPELINE_STAGES,
  type DashboardWidget,
  type DashboardWidgets,
  type DeviceGrade,
} from '@inventory/contract';
import { Alert, Button, Card, Col, Input, Row, Select, Space, Spin, Table, Typography } from 'antd';
import { lazy, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { callEndpoint } from '../../../shell/http-client';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { ageText, snapshotAgeMs, useNow } from '../../../toolkit/snapshot-age';
import { ChartCard, Drill, ExportMenu, Figure, KeptFiguresTitle, number } from '../../warehouse';
import {
  useMainDashboard,
  useRefreshMainDashboard,
  type DashboardFilters,
} from '../api/main-dashboard.queries';
import {
  backlogLink,
  boxesLink,
  devicesLink,
  DRILL_ACCESS,
  ordersLink,
  rmasLink,
  simsLink,
  UNPACK_STATISTICS_PAGE,
} from '../dashboard-links';

// The chart library comes with the chart alone, after the figures: the tables never wait for it.
const ShippedReceivedChart = lazy(() =>
  import('../components/main-dashboard-charts').then((module) => ({
    default: module.ShippedReceivedChart,
  })),
);

/**
 * The filters in the address, so a filtered dashboard is a link to share. A range is asked for
 * once both its days are chosen; until then each widget keeps its own period.
 */
function useFilters() {
  const [params, setParams] = useSearchParams();
  const carrier = Number(params.get('client_carrier_id'));
  const [from, to] = [params.get('from'), params.get('to')];
  const filters: DashboardFilters = {
    ...(from && to && { from, to }),
    ...(Number.isInteger(carrier) && carrier > 0 && { client_carrier_id: carrier }),
  };
  const chosen = { from: from ?? '', to: to ?? '' };
  const change = (changes: Record<string, string | undefined>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
  return [filters, chosen, change] as const;
}

/** Which lists behind the figures the reader may open. */
function useDrillAccess() {
  return {
    devices: useCan(DRILL_ACCESS.devices),
    boxes: useCan(DRILL_ACCESS.boxes),
    orders: useCan(DRILL_ACCESS.orders),
    backlog: useCan(DRILL_ACCESS.backlog),
    sims: useCan(DRILL_ACCESS.sims),
    rmas: useCan(DRILL_ACCESS.rmas),
    unpacks: useCan(DRILL_ACCESS.unpacks),
  };
}

/** A period in words: "today", "2026-03-02", "2026-03-02 to 2026-03-08". */
const periodText = (period: { from: string; to: string }, today: string) =>
  period.from === period.to
    ? period.from === today
      ? 'today'
      : period.from
    : `${period.from} to ${period.to}`;

/** One widget: its card, titled, with its export of the figures shown. */
function WidgetCard({
  widget,
  filters,
  note,
  children,
}: {
  widget: DashboardWidget;
  filters: DashboardFilters;
  note?: ReactNode;
  children: ReactNode;
}) {
  const { title } = DASHBOARD_WIDGET_FILES[widget];
  return (
    <Card
      size="small"
      data-testid={`widget-${widget}`}
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {title}
        </Typography.Title>
      }
      extra={<WidgetExport widget={widget} title={title} filters={filters} />}
    >
      {note && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
          {note}
        </Typography.Paragraph>
      )}
      {children}
    </Card>
  );
}

function WidgetExport({
  widget,
  title,
  filters,
}: {
  widget: DashboardWidget;
  title: string;
  filters: DashboardFilters;
}) {
  return (
    <ExportMenu
      title={title}
      linkOf={async (format) =>
        (
          await callEndpoint(mainDashboardExportEndpoint, {
            body: { widget, format, ...filters },
          })
        ).data
      }
    />
  );
}

/**
 * The main dashboard (DOMAIN.md 4.1): the widgets the reader's access allows (the server answers
 * no other), each figure the link to the list behind it, each widget exportable; kept figures,
 * with how old they are.
 */
export default function MainDashboardPage({ entry }: PageProps) {
  const [filters, chosenDays, changeFilters] = useFilters();
  const dashboard = useMainDashboard(filters);
  const refresh = useRefreshMainDashboard(filters);
  const navigate = useNavigate();
  const now = useNow();
  const can = useDrillAccess();
  const data = dashboard.data;

  const header = <KeptFiguresTitle title={entry.label} refresh={refresh} />;

  if (dashboard.isError && !data) {
    return (
      <div>
        {header}
        <Alert
          type="error"
          showIcon
          title="The figures could not be loaded."
          description={dashboard.error.message}
          action={
            <Space>
              <Button onClick={() => changeFilters({ from: undefined, to: undefined })}>
                Clear the dates
              </Button>
              <Button onClick={() => void dashboard.refetch()}>Try again</Button>
            </Space>
          }
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
  const { widgets } = figures;
  const today = figures.business_day;
  const carrier = figures.client_carrier_id ?? undefined;
  const age = snapshotAgeMs(data, dashboard.dataUpdatedAt, now);
  const late = age > 2 * data.max_age_seconds * 1000;
  const dateInput = (key: 'from' | 'to', label: string) => (
    <label>
      {label}{' '}
      <Input
        type="date"
        style={{ width: 160 }}
        min={figures.first_day}
        max={today}
        value={chosenDays[key]}
        onChange={(event) => changeFilters({ [key]: event.target.value || undefined })}
      />
    </label>
  );

  return (
    <div>
      {header}
      <Typography.Paragraph type="secondary" data-testid="figures-age">
        Figures as of {when(data.as_of)} ({ageText(age)}
        {data.refreshed_by ? `, asked for by ${data.refreshed_by}` : ''}); the server reads them
        again every {Math.round(data.max_age_seconds / 60)} minutes.{' '}
        {late && (
          <Typography.Text type="warning">
            They are older than that: refresh them to read them now.
          </Typography.Text>
        )}
      </Typography.Paragraph>

      <Space wrap style={{ marginBottom: 8 }}>
        {dateInput('from', 'From')}
        {dateInput('to', 'To')}
        <label>
          Client carrier{' '}
          <Select
            aria-label="Client carrier"
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder="Every client carrier"
            style={{ width: 220 }}
            value={carrier}
            options={figures.carriers.map((known) => ({ value: known.id, label: known.name }))}
            onChange={(value?: number) =>
              changeFilters({ client_carrier_id: value === undefined ? undefined : String(value) })
            }
          />
        </label>
        {(chosenDays.from || chosenDays.to) && (
          <Button onClick={() => changeFilters({ from: undefined, to: undefined })}>
            Each widget’s own period
          </Button>
        )}
      </Space>
      {dashboard.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 8 }}
          title="These filters cannot be answered."
          description={dashboard.error.message}
        />
      )}
      <Typography.Paragraph type="secondary">
        The dates reach back to {figures.first_day}; without them each widget shows its own period.
        Stock and the pipeline are the whole warehouse’s now: dates and client carriers do not apply
        to them.
      </Typography.Paragraph>

      <Row gutter={[16, 16]}>
        {widgets.stock && (
          <Col xs={24} xl={12}>
            <StockWidget stock={widgets.stock} filters={filters} can={can} />
          </Col>
        )}
        {widgets.pipeline && (
          <Col xs={24} xl={12}>
            <WidgetCard widget="pipeline" filters={filters}>
              <Row gutter={[8, 8]}>
                {PIPELINE_STAGES.map((stage) => (
                  <Figure
                    key={stage}
                    id={`pipeline-${stage}`}
                    title={PIPELINE_STAGE_TEXT[stage]}
                    value={number(widgets.pipeline![stage])}
                    to={devicesLink({ filters: { status: stage } })}
                    allowed={can.devices}
                  />
                ))}
              </Row>
            </WidgetCard>
          </Col>
        )}
        {widgets.orders && (
          <Col xs={24} xl={12}>
            <WidgetCard
              widget="orders"
              filters={filters}
              note={`Received and shipped ${periodText(widgets.orders, today)}; on hold now.`}
            >
              <Row gutter={[8, 8]}>
                <Figure
                  id="orders-received"
                  title="Received"
                  value={number(widgets.orders.received)}
                  to={ordersLink({
                    filters: {
                      received_from: widgets.orders.from,
                      received_to: widgets.orders.to,
                      client_carrier_id: carrier,
                    },
                  })}
                  allowed={can.orders}
                />
                <Figure
                  id="orders-shipped"
                  title="Shipped"
                  value={number(widgets.orders.shipped)}
                  to={ordersLink({
                    filters: {
                      shipped_from: widgets.orders.from,
                      shipped_to: widgets.orders.to,
                      client_carrier_id: carrier,
                    },
                  })}
                  allowed={can.orders}
                />
                <Figure
                  id="orders-backlog"
                  title="Backlog (on hold)"
                  value={number(widgets.orders.backlog)}
                  to={backlogLink({ filters: { client_carrier_id: carrier } })}
                  allowed={can.backlog}
                />
              </Row>
            </WidgetCard>
          </Col>
        )}
        {widgets.sims && (
          <Col xs={24} xl={12}>
            <WidgetCard
              widget="sims"
              filters={filters}
              note={`Held by agents now; activated ${periodText(widgets.sims, today)}.`}
            >
              <Row gutter={[8, 8]}>
                <Figure
                  id="sims-with-agents"
                  title="SIMs with agents"
                  value={number(widgets.sims.with_agents)}
                  to={simsLink({ filters: { status: 'with_agent', client_carrier_id: carrier } })}
                  allowed={can.sims}
                  note={`${number(widgets.sims.agents)} agents`}
                />
                <Figure
                  id="sims-activations"
                  title="Activations"
                  value={number(widgets.sims.activations)}
                  to={simsLink({ filters: { status: 'active', client_carrier_id: carrier } })}
                  allowed={can.sims}
                />
              </Row>
            </WidgetCard>
          </Col>
        )}
        {(widgets.rmas || widgets.unpacks) && (
          <Col xs={24} xl={12}>
            <Space direction="vertical" style={{ width: '100%' }}>
              {widgets.rmas && (
                <WidgetCard
                  widget="rmas"
                  filters={filters}
                  note={`Opened ${periodText(widgets.rmas, today)}${
                    filters.from ? '' : ' (this week)'
                  }.`}
                >
                  <Row gutter={[8, 8]}>
                    <Figure
                      id="rmas"
                      title="RMAs"
                      value={number(widgets.rmas.rmas)}
                      to={rmasLink({
                        filters: { created_from: widgets.rmas.from, created_to: widgets.rmas.to },
                        sort: 'created_at',
                        order: 'desc',
                      })}
                      allowed={can.rmas}
                    />
                  </Row>
                </WidgetCard>
              )}
              {widgets.unpacks && (
                <WidgetCard
                  widget="unpacks"
                  filters={filters}
                  note={`Returned parcels unpacked ${periodText(widgets.unpacks, today)}${
                    filters.from ? '' : ' (this week)'
                  }.`}
                >
                  <Row gutter={[8, 8]}>
                    <Figure
                      id="unpacks"
                      title="Unpacked"
                      value={number(widgets.unpacks.unpacks)}
                      to={UNPACK_STATISTICS_PAGE}
                      allowed={can.unpacks}
                    />
                  </Row>
                </WidgetCard>
              )}
            </Space>
          </Col>
        )}
        {widgets.shipped_received && (
          <Col xs={24}>
            <div data-testid="widget-shipped_received">
              <ChartCard
                title={`${DASHBOARD_WIDGET_FILES.shipped_received.title}, ${periodText(
                  widgets.shipped_received,
                  today,
                )}`}
                extra={
                  <WidgetExport
                    widget="shipped_received"
                    title={DASHBOARD_WIDGET_FILES.shipped_received.title}
                    filters={filters}
                  />
                }
                chart={
                  <ShippedReceivedChart
                    days={widgets.shipped_received.by_day}
                    onSelect={(day) => {
                      if (can.orders)
                        void navigate(
                          ordersLink({
                            filters: { received_day: day, client_carrier_id: carrier },
                          }),
                        );
                    }}
                  />
                }
                table={
                  <ShippedReceivedTable
                    chart={widgets.shipped_received}
                    carrier={carrier}
                    canOrders={can.orders}
                  />
                }
              />
            </div>
          </Col>
        )}
      </Row>
    </div>
  );
}

type Can = ReturnType<typeof useDrillAccess>;
type Stock = NonNullable<DashboardWidgets['stock']>;

function StockWidget({
  stock,
  filters,
  can,
}: {
  stock: Stock;
  filters: DashboardFilters;
  can: Can;
}) {
  const inStock = devicesLink({ filters: { status: 'in_stock' } });
  return (
    <WidgetCard
      widget="stock"
      filters={filters}
      note="Ready-to-sell units (in stock, not reserved)."
    >
      <Row gutter={[8, 8]} style={{ marginBottom: 8 }}>
        <Figure
          id="stock-units"
          title="Ready to sell"
          value={number(stock.units)}
          to={inStock}
          allowed={can.devices}
        />
        {stock.by_os.map((row) => (
          <Figure
            key={row.os}
            id={`stock-${row.os}`}
            title={DEVICE_OS_TEXT[row.os]}
            value={number(row.units)}
            to={devicesLink({ filters: { status: 'in_stock', os: row.os } })}
            allowed={can.devices}
          />
        ))}
      </Row>
      <Row gutter={[16, 8]}>
        <Col xs={24} md={14}>
          <Table
            size="small"
            rowKey="model_id"
            pagination={false}
            dataSource={stock.top_models}
            columns={[
              { key: 'model', title: 'Top models', dataIndex: 'model' },
              { key: 'os', title: 'OS', render: (_, row) => DEVICE_OS_TEXT[row.os] },
              {
                key: 'units',
                title: 'Units',
                align: 'right',
                render: (_, row) => (
                  <Drill
                    to={devicesLink({ filters: { status: 'in_stock', model_id: row.model_id } })}
                    allowed={can.devices}
                  >
                    {number(row.units)}
                  </Drill>
                ),
              },
            ]}
          />
        </Col>
        <Col xs={24} md={10}>
          <Table
            size="small"
            rowKey={(row) => row.grade ?? 'none'}
            pagination={false}
            dataSource={stock.by_grade}
            columns={[
              { key: 'grade', title: 'Grade', render: (_, row) => row.grade ?? 'Ungraded' },
              {
                key: 'units',
                title: 'Units',
                align: 'right',
                render: (_, row) =>
                  row.grade === null ? (
                    number(row.units)
                  ) : (
                    <Drill
                      to={boxesLink({ filters: { grade: row.grade as DeviceGrade } })}
                      allowed={can.boxes}
                    >
                      {number(row.units)}
                    </Drill>
                  ),
              },
            ]}
          />
        </Col>
      </Row>
    </WidgetCard>
  );
}

function ShippedReceivedTable({
  chart,
  carrier,
  canOrders,
}: {
  chart: NonNullable<DashboardWidgets['shipped_received']>;
  carrier: number | undefined;
  canOrders: boolean;
}) {
  return (
    <Table
      size="small"
      rowKey="day"
      pagination={{ pageSize: 10, showSizeChanger: false }}
      dataSource={[...chart.by_day].reverse()}
      summary={() => (
        <Table.Summary.Row>
          <Table.Summary.Cell index={0}>Total</Table.Summary.Cell>
          <Table.Summary.Cell index={1} align="right">
            {number(chart.received)}
          </Table.Summary.Cell>
          <Table.Summary.Cell index={2} align="right">
            {number(chart.shipped)}
          </Table.Summary.Cell>
        </Table.Summary.Row>
      )}
      columns={[
        { key: 'day', title: 'Day', dataIndex: 'day' },
        {
          key: 'received',
          title: 'Received',
          align: 'right',
          render: (_, row) => (
            <Drill
              to={ordersLink({ filters: { received_day: row.day, client_carrier_id: carrier } })}
              allowed={canOrders}
            >
              {number(row.received)}
            </Drill>
          ),
        },
        {
          key: 'shipped',
          title: 'Shipped',
          align: 'right',
          render: (_, row) => (
            <Drill
              to={ordersLink({
                filters: { shipped_from: row.day, shipped_to: row.day, client_carrier_id: carrier },
              })}
              allowed={canOrders}
            >
              {number(row.shipped)}
            </Drill>
          ),
        },
      ]}
    />
  );
}
