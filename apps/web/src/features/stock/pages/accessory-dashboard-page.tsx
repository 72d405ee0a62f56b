import {
  reorderListExportEndpoint,
  type AccessoryCover,
  type AccessoryDashboard,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Dropdown,
  Skeleton,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useUrlState } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { startDownload } from '../../../toolkit/resource-queries';
import { useAccessoryDashboard } from '../api/stock.queries';

// The chart library comes with the chart alone, after the figures: the page's tables never wait.
const WeeklyConsumptionChart = lazy(() => import('../components/weekly-consumption-chart'));

const URL_KEYS = ['week', 'below'] as const;
type Week = AccessoryDashboard['weeks'][number];
type WeekSku = NonNullable<AccessoryDashboard['week_detail']>['skus'][number];

/** The bins of one accessory: the list behind its figures. */
const binsOf = (accessoryId: number) => `/inventory-box/accessories?accessory_id=${accessoryId}`;

const number = (value: number) => value.toLocaleString('en-US');

/** Per SKU on hand, reserved, available, 30-day usage, cover and reorder flag; weekly consumption. */
export default function AccessoryDashboardPage({ entry }: PageProps) {
  const [url, setUrl] = useUrlState(URL_KEYS);
  const dashboard = useAccessoryDashboard(url.week);
  const belowOnly = url.below === 'true';
  const skus = (dashboard.data?.skus ?? []).filter((sku) => !belowOnly || sku.below_reorder);
  const showWeek = (week: string | undefined) => setUrl({ week });

  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      startDownload((await callEndpoint(reorderListExportEndpoint, { body: { format } })).data);
      notify.success('The reorder list is downloading.');
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'csv', label: 'CSV' },
              { key: 'xlsx', label: 'Excel (XLSX)' },
            ],
            onClick: ({ key }) => void exportAs(key as 'csv' | 'xlsx'),
          }}
        >
          <Button type="primary">Export reorder list</Button>
        </Dropdown>
      </Space>
      <Typography.Paragraph type="secondary">
        What each accessory has left, how fast it goes and which to reorder.
        {dashboard.data && ` Figures as of ${when(dashboard.data.as_of)}; usage counts whole days.`}
      </Typography.Paragraph>
      {dashboard.isError ? (
        <Alert
          type="error"
          showIcon
          title="The figures could not be loaded."
          description={dashboard.error.message}
          action={<Button onClick={() => void dashboard.refetch()}>Try again</Button>}
        />
      ) : (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Card title="Weekly consumption" size="small">
            <figure aria-label="Units consumed and received per week" style={{ margin: 0 }}>
              <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
                {dashboard.data && (
                  <WeeklyConsumptionChart
                    weeks={dashboard.data.weeks}
                    onWeek={(week) => showWeek(week)}
                  />
                )}
              </Suspense>
            </figure>
            <Table<Week>
              aria-label="Weekly consumption figures"
              size="small"
              rowKey="week"
              loading={dashboard.isFetching && !dashboard.data}
              dataSource={dashboard.data?.weeks ?? []}
              pagination={false}
              columns={[
                {
                  key: 'week',
                  title: 'Week of',
                  render: (_, week) => (
                    <Button type="link" size="small" onClick={() => showWeek(week.week)}>
                      {week.week}
                    </Button>
                  ),
                },
                {
                  key: 'consumed',
                  title: 'Consumed',
                  align: 'right',
                  render: (_, week) => number(week.consumed),
                },
                {
                  key: 'received',
                  title: 'Received',
                  align: 'right',
                  render: (_, week) => number(week.received),
                },
              ]}
            />
          </Card>
          {url.week && (
            <Card
              size="small"
              title={`Consumed in the week of ${dashboard.data?.week_detail?.week ?? url.week}`}
              extra={<Button onClick={() => showWeek(undefined)}>Close the week</Button>}
            >
              <Table<WeekSku>
                aria-label="Accessories consumed in the week"
                size="small"
                rowKey="accessory_id"
                loading={dashboard.isFetching}
                dataSource={dashboard.data?.week_detail?.skus ?? []}
                pagination={false}
                locale={{ emptyText: 'Nothing was consumed that week.' }}
                columns={[
                  {
                    key: 'sku',
                    title: 'SKU',
                    render: (_, sku) => <Link to={binsOf(sku.accessory_id)}>{sku.sku}</Link>,
                  },
                  { key: 'name', dataIndex: 'name', title: 'Name' },
                  {
                    key: 'consumed',
                    title: 'Consumed',
                    align: 'right',
                    render: (_, sku) => number(sku.consumed),
                  },
                ]}
              />
            </Card>
          )}
          <Card
            size="small"
            title="Stock per SKU"
            extra={
              <Space>
                <Switch
                  id="below-reorder-only"
                  checked={belowOnly}
                  onChange={(checked) => setUrl({ below: checked ? 'true' : undefined })}
                />
                <label htmlFor="below-reorder-only">At or below reorder point only</label>
              </Space>
            }
          >
            <Table<AccessoryCover>
              aria-label="Stock per SKU"
              size="small"
              rowKey="accessory_id"
              loading={dashboard.isFetching && !dashboard.data}
              dataSource={skus}
              pagination={{ pageSize: 50, hideOnSinglePage: true }}
              scroll={{ x: 'max-content' }}
              locale={{
                emptyText: belowOnly
                  ? 'No accessory is at or below its reorder point.'
                  : 'No accessory yet: add them in the accessory master, then receive them into bins.',
              }}
              columns={[
                {
                  key: 'sku',
                  title: 'SKU',
                  fixed: 'left',
                  render: (_, sku) => (
                    <Link to={binsOf(sku.accessory_id)} title={`The bins of ${sku.sku}`}>
                      {sku.sku}
                    </Link>
                  ),
                },
                { key: 'name', dataIndex: 'name', title: 'Name' },
                { key: 'kind', dataIndex: 'kind', title: 'Kind' },
                { key: 'on_hand', dataIndex: 'on_hand', title: 'On hand', align: 'right' },
                { key: 'reserved', dataIndex: 'reserved', title: 'Reserved', align: 'right' },
                { key: 'available', dataIndex: 'available', title: 'Available', align: 'right' },
                {
                  key: 'used_30d',
                  dataIndex: 'used_30d',
                  title: 'Used in 30 days',
                  align: 'right',
                },
                {
                  key: 'days_of_cover',
                  title: 'Days of cover',
                  align: 'right',
                  render: (_, sku) =>
                    sku.days_of_cover === null ? 'No recent use' : sku.days_of_cover.toFixed(1),
                },
                {
                  key: 'reorder_point',
                  dataIndex: 'reorder_point',
                  title: 'Reorder point',
                  align: 'right',
                },
                {
                  key: 'below_reorder',
                  title: 'Reorder',
                  render: (_, sku) =>
                    sku.below_reorder ? <Tag color="red">Below reorder point</Tag> : <Tag>OK</Tag>,
                },
              ]}
            />
          </Card>
        </Space>
      )}
    </div>
  );
}
