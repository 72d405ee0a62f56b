import { ACCESSORY_DASHBOARD_ACCESS } from '@inventory/contract';
import { Button, Card, Col, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useCan } from '../../../shell/use-can';
import { LINK_ACCESS } from '../warehouse-links';

/**
 * What the warehouse and fulfilment dashboards share: numbers in words, who may open which list
 * behind a figure, the headline figure's card and a chart's frame beside its table.
 */

export const number = (value: number) => value.toLocaleString('en-US');
export const percentText = (value: number | null) =>
  value === null ? '—' : `${value.toFixed(1)} %`;

/** Which lists behind the figures the reader may open. */
export function useDrillAccess() {
  return {
    boxes: useCan(LINK_ACCESS.boxes),
    devices: useCan(LINK_ACCESS.devices),
    locations: useCan(LINK_ACCESS.locations),
    accessoryBins: useCan(LINK_ACCESS.accessoryBins),
    accessoryDashboard: useCan(ACCESSORY_DASHBOARD_ACCESS),
    orders: useCan(LINK_ACCESS.orders),
    pipeline: useCan(LINK_ACCESS.pipeline),
    backlog: useCan(LINK_ACCESS.backlog),
    packages: useCan(LINK_ACCESS.packages),
    assignment: useCan(LINK_ACCESS.assignment),
  };
}
export type DrillAccess = ReturnType<typeof useDrillAccess>;

/** A figure that opens the list behind it, for those who may open that list. */
export function Drill({
  to,
  allowed,
  children,
}: {
  to: string;
  allowed: boolean;
  children: ReactNode;
}) {
  return allowed ? <Link to={to}>{children}</Link> : <>{children}</>;
}

/**
 * One headline figure in a card, its value the link to the list behind it; without `to`, a figure
 * that no one list holds (its parts below it link to theirs).
 */
export function Figure({
  id,
  title,
  value,
  to,
  allowed = false,
  note,
}: {
  id: string;
  title: string;
  value: string;
  to?: string;
  allowed?: boolean;
  note?: ReactNode;
}) {
  return (
    <Col xs={12} md={8} xl={6}>
      <Card size="small" data-testid={`figure-${id}`} style={{ height: '100%' }}>
        <Statistic
          title={title}
          value={value}
          formatter={(shown) =>
            to === undefined ? (
              shown
            ) : (
              <Drill to={to} allowed={allowed}>
                {shown}
              </Drill>
            )
          }
        />
        {note && <Typography.Text type="secondary">{note}</Typography.Text>}
      </Card>
    </Col>
  );
}

/**
 * A chart and the table of its figures, side by side where there is room; the chart (its library
 * loaded lazily) shows a skeleton until it arrives, the table never waits for it.
 */
export function ChartCard({
  title,
  extra,
  chart,
  table,
}: {
  title: string;
  /** The card's export. */
  extra: ReactNode;
  chart: ReactNode;
  table: ReactNode;
}) {
  return (
    <Card title={title} size="small" extra={extra}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <figure aria-label={title} style={{ margin: 0 }}>
            <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>{chart}</Suspense>
          </figure>
        </Col>
        <Col xs={24} xl={12}>
          {table}
        </Col>
      </Row>
    </Card>
  );
}

/** A kept-figures refresh: reads them again, or answers another refresh's figures. */
type FiguresRefresh = {
  mutate: (
    variables: void,
    options: {
      onSuccess: (answer: { refreshed: boolean }) => void;
      onError: (error: Error) => void;
    },
  ) => void;
  isPending: boolean;
};

/** A kept-figures page's title with its "Refresh now", which says what the refresh did. */
export function KeptFiguresTitle({ title, refresh }: { title: string; refresh: FiguresRefresh }) {
  const readAgain = () =>
    refresh.mutate(undefined, {
      onSuccess: (answer) =>
        notify.success(
          answer.refreshed
            ? 'The figures are read again.'
            : 'Another refresh had just read them: these are its figures.',
        ),
      onError: (error) => showApiError(error),
    });
  return (
    <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {title}
      </Typography.Title>
      <Button type="primary" onClick={readAgain} loading={refresh.isPending}>
        Refresh now
      </Button>
    </Space>
  );
}
