import { DEVICE_GRADES, STOCK_AGE_BUCKETS, type WarehouseFigures } from '@inventory/contract';
import { Alert, Button, Col, Row, Space, Spin, Table, Tag, Typography } from 'antd';
import { lazy } from 'react';
import { useNavigate } from 'react-router';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { ageText, snapshotAgeMs, useNow } from '../../../toolkit/snapshot-age';
import { useRefreshWarehouseDashboard, useWarehouseDashboard } from '../api/warehouse.queries';
import {
  ChartCard,
  Drill,
  Figure,
  KeptFiguresTitle,
  number,
  percentText,
  useDrillAccess,
} from '../components/dashboard-parts';
import { AccessoriesCard, AuditsCard, HoldsCard } from '../components/warehouse-widgets';
import { WidgetExport } from '../components/widget-export';
import { boxesLink, devicesLink, locationsLink } from '../warehouse-links';

// The chart library comes with the charts alone, after the figures: the tables never wait for it.
const charts = () => import('../components/warehouse-charts');
const RtsChart = lazy(() => charts().then((module) => ({ default: module.RtsChart })));
const ZoneChart = lazy(() => charts().then((module) => ({ default: module.ZoneChart })));
const AgeChart = lazy(() => charts().then((module) => ({ default: module.AgeChart })));

/** The models the chart draws; the table beside it pages through them all. */
const CHART_MODELS = 10;
const ACCESSORY_BELOW_REORDER = '/master-data/accessories/dashboard?below=true';
/** The oldest units in stock first: the list behind the stock age. */
const OLDEST_IN_STOCK = devicesLink({
  filters: { status: 'in_stock' },
  sort: 'received_at',
  order: 'asc',
});

type Figures = WarehouseFigures;
type Model = Figures['rts']['by_model'][number];
type Zone = Figures['boxes']['by_zone'][number];
type Age = Figures['stock_age'][number];

const AGE_LABELS = new Map(STOCK_AGE_BUCKETS.map((bucket) => [bucket.key, bucket.label]));

/**
 * The warehouse at a glance (DOMAIN.md 4.18): kept figures, each with the list behind it, and how
 * old they are; a refresh reads them again.
 */
export default function WarehouseDashboardPage({ entry }: PageProps) {
  const dashboard = useWarehouseDashboard();
  const refresh = useRefreshWarehouseDashboard();
  const navigate = useNavigate();
  const now = useNow();
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
  const quarantineZone = figures.boxes.by_zone.find((zone) => zone.quarantine);
  const grades = [
    ...DEVICE_GRADES.filter((grade) => figures.rts.by_grade.some((row) => row.grade === grade)),
    ...(figures.rts.by_grade.some((row) => row.grade === null) ? [null] : []),
  ];
  const gradeUnits = (model: Model, grade: string | null) =>
    model.by_grade.find((row) => row.grade === grade)?.units ?? 0;

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

      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Figure
          id="rts"
          title="Ready to sell"
          value={number(figures.rts.units)}
          to={devicesLink({ filters: { status: 'in_stock' } })}
          allowed={can.devices}
          note="units in stock"
        />
        <Figure
          id="boxes"
          title="Boxes put away"
          value={number(figures.boxes.located)}
          to={boxesLink({ filters: { status: 'located' } })}
          allowed={can.boxes}
          note={
            <>
              <Drill to={boxesLink({ filters: { status: 'open' } })} allowed={can.boxes}>
                {number(figures.boxes.open)} open
              </Drill>
              ,{' '}
              <Drill to={boxesLink({ filters: { status: 'sealed' } })} allowed={can.boxes}>
                {number(figures.boxes.sealed)} waiting for putaway
              </Drill>
            </>
          }
        />
        <Figure
          id="utilisation"
          title="Location utilisation"
          value={percentText(figures.utilisation.percent)}
          to={locationsLink({ filters: { active: true } })}
          allowed={can.locations}
          note={`${number(figures.utilisation.boxes)} of ${number(figures.utilisation.capacity)} box places`}
        />
        <Figure
          id="on-hold"
          title="On hold"
          value={number(figures.holds.on_hold)}
          to={devicesLink({ filters: { status: 'hold' } })}
          allowed={can.devices}
          note="devices"
        />
        <Figure
          id="quarantine"
          title="In quarantine"
          value={number(figures.holds.quarantine_boxes)}
          to={boxesLink(quarantineZone ? { filters: { zone_id: quarantineZone.zone_id } } : {})}
          allowed={can.boxes && quarantineZone !== undefined}
          note={`boxes, ${number(figures.holds.quarantine_units)} devices`}
        />
        <Figure
          id="in-repair"
          title="In repair"
          value={number(figures.holds.in_repair)}
          to={devicesLink({ filters: { status: 'in_repair' } })}
          allowed={can.devices}
          note="devices"
        />
        <Figure
          id="accessories"
          title="Accessories below reorder"
          value={number(figures.accessories_below_reorder.length)}
          to={ACCESSORY_BELOW_REORDER}
          allowed={can.accessoryDashboard}
          note="SKUs at or under their reorder point"
        />
        <Figure
          id="audits"
          title="Location audits due"
          value={number(figures.audits.due)}
          to={locationsLink({ filters: { audit_due: true } })}
          allowed={can.locations}
          note={`${number(figures.audits.due_soon)} more within a week`}
        />
      </Row>

      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <ChartCard
          title="Ready to sell by model and grade"
          extra={<WidgetExport widget="rts" title="Ready to sell by model and grade" />}
          chart={
            figures.rts.units === 0 ? (
              <Typography.Text type="secondary">No device is in stock.</Typography.Text>
            ) : (
              <RtsChart
                models={figures.rts.by_model.slice(0, CHART_MODELS)}
                onSelect={(modelId, grade) => {
                  if (can.boxes)
                    void navigate(
                      boxesLink({ filters: { model_id: modelId, ...(grade && { grade }) } }),
                    );
                }}
              />
            )
          }
          table={
            <Table<Model>
              aria-label="Ready to sell by model and grade, figures"
              size="small"
              rowKey="model_id"
              dataSource={figures.rts.by_model}
              pagination={{ pageSize: CHART_MODELS, hideOnSinglePage: true }}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: 'No device is in stock.' }}
              columns={[
                {
                  key: 'model',
                  title: 'Model',
                  render: (_, model) => (
                    <Drill
                      to={boxesLink({ filters: { model_id: model.model_id } })}
                      allowed={can.boxes}
                    >
                      {model.model}
                    </Drill>
                  ),
                },
                ...grades.map((grade) => ({
                  key: grade ?? 'ungraded',
                  title: grade ?? 'Ungraded',
                  align: 'right' as const,
                  render: (_: unknown, model: Model) => {
                    const units = gradeUnits(model, grade);
                    return units === 0 || grade === null ? (
                      number(units)
                    ) : (
                      <Drill
                        to={boxesLink({ filters: { model_id: model.model_id, grade } })}
                        allowed={can.boxes}
                      >
                        {number(units)}
                      </Drill>
                    );
                  },
                })),
                {
                  key: 'units',
                  title: 'Total',
                  align: 'right',
                  render: (_, model) => <strong>{number(model.units)}</strong>,
                },
              ]}
            />
          }
        />

        <ChartCard
          title="Boxes by zone"
          extra={<WidgetExport widget="zones" title="Boxes by zone" />}
          chart={
            <ZoneChart
              zones={figures.boxes.by_zone}
              onSelect={(zoneId) => {
                if (can.boxes) void navigate(boxesLink({ filters: { zone_id: zoneId } }));
              }}
            />
          }
          table={
            <Table<Zone>
              aria-label="Boxes by zone, figures"
              size="small"
              rowKey="zone_id"
              dataSource={figures.boxes.by_zone}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: 'No zone yet: create the location tree first.' }}
              columns={[
                {
                  key: 'zone',
                  title: 'Zone',
                  render: (_, zone) => (
                    <Space size={4}>
                      <Drill
                        to={boxesLink({ filters: { zone_id: zone.zone_id } })}
                        allowed={can.boxes}
                      >
                        {zone.name ? `${zone.zone} ${zone.name}` : zone.zone}
                      </Drill>
                      {zone.quarantine && <Tag color="orange">Quarantine</Tag>}
                    </Space>
                  ),
                },
                {
                  key: 'boxes',
                  title: 'Boxes',
                  align: 'right',
                  render: (_, zone) => number(zone.boxes),
                },
                {
                  key: 'units',
                  title: 'Devices',
                  align: 'right',
                  render: (_, zone) => number(zone.units),
                },
                {
                  key: 'capacity',
                  title: 'Capacity',
                  align: 'right',
                  render: (_, zone) => number(zone.capacity),
                },
                {
                  key: 'utilisation',
                  title: 'Utilisation',
                  align: 'right',
                  render: (_, zone) => (
                    <Drill
                      to={locationsLink({ filters: { zone_id: zone.zone_id, active: true } })}
                      allowed={can.locations}
                    >
                      {percentText(zone.utilisation)}
                    </Drill>
                  ),
                },
              ]}
            />
          }
        />

        <ChartCard
          title="Stock age"
          extra={<WidgetExport widget="stock_age" title="Stock age" />}
          chart={
            <AgeChart
              ages={figures.stock_age}
              onSelect={() => {
                if (can.devices) void navigate(OLDEST_IN_STOCK);
              }}
            />
          }
          table={
            <Table<Age>
              aria-label="Stock age, figures"
              size="small"
              rowKey="bucket"
              dataSource={figures.stock_age}
              pagination={false}
              columns={[
                {
                  key: 'bucket',
                  title: 'Since receipt',
                  render: (_, age) => AGE_LABELS.get(age.bucket),
                },
                {
                  key: 'units',
                  title: 'Units in stock',
                  align: 'right',
                  render: (_, age) => (
                    <Drill to={OLDEST_IN_STOCK} allowed={can.devices}>
                      {number(age.units)}
                    </Drill>
                  ),
                },
                {
                  key: 'share',
                  title: 'Share',
                  align: 'right',
                  render: (_, age) =>
                    figures.rts.units === 0
                      ? '—'
                      : percentText(Math.round((age.units * 1000) / figures.rts.units) / 10),
                },
              ]}
            />
          }
        />

        <Row gutter={[16, 16]}>
          <Col xs={24} xl={8}>
            <HoldsCard figures={figures} can={can} />
          </Col>
          <Col xs={24} xl={8}>
            <AccessoriesCard figures={figures} can={can} />
          </Col>
          <Col xs={24} xl={8}>
            <AuditsCard figures={figures} can={can} />
          </Col>
        </Row>
      </Space>
    </div>
  );
}
