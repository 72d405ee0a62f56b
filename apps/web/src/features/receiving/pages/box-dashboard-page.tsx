import {
  WAREHOUSE_BOX_ACCESS,
  type WarehouseBoxDashboard,
  type WarehouseBoxStatus,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Col,
  Row,
  Space,
  Spin,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PageProps } from '../../../shell/page-types';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { useBoxDashboard } from '../api/warehouse-boxes.queries';
import { BOX_STATUS_COLORS } from '../scan-feedback';

const BOXES_PATH = '/invoice/warehouse-box';
const MODELS_PATH = '/invoice/warehouse-box/dashboard/model';

type Group = WarehouseBoxDashboard['unprocessed_by_vendor'][number];

/** A link to the boxes behind a figure, for those who may open the boxes' page. */
function BoxesLink({
  filter,
  canOpen,
  children,
}: {
  filter: string;
  canOpen: boolean;
  children: ReactNode;
}) {
  return canOpen ? <Link to={`${BOXES_PATH}?${filter}`}>{children}</Link> : <>{children}</>;
}

/** Unprocessed devices of a vendor or an invoice, oldest receipt alongside. */
function GroupCard({
  title,
  groups,
  filterKey,
  canOpen,
}: {
  title: string;
  groups: readonly Group[];
  filterKey: 'vendor_id' | 'invoice_id';
  canOpen: boolean;
}) {
  return (
    <Card title={title} size="small">
      <Table<Group>
        aria-label={title}
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={[...groups]}
        locale={{ emptyText: 'Nothing waiting.' }}
        columns={[
          {
            key: 'label',
            title: filterKey === 'vendor_id' ? 'Vendor' : 'Invoice',
            render: (_, group) => (
              <BoxesLink filter={`${filterKey}=${group.id}`} canOpen={canOpen}>
                {group.label}
              </BoxesLink>
            ),
          },
          { key: 'devices', dataIndex: 'devices', title: 'Devices', align: 'right' },
          {
            key: 'oldest',
            title: 'Oldest received',
            render: (_, group) => when(group.oldest_received_at),
          },
        ]}
      />
    </Card>
  );
}

/** Boxes by status, units received today and this week, unprocessed stock by age and source. */
export default function BoxDashboardPage({ entry }: PageProps) {
  const dashboard = useBoxDashboard();
  const canOpenBoxes = useCan(WAREHOUSE_BOX_ACCESS);
  const figures = dashboard.data;

  const title = (
    <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap>
        <Link to={MODELS_PATH}>By model</Link>
        <Button onClick={() => void dashboard.refetch()} loading={dashboard.isFetching}>
          Refresh
        </Button>
      </Space>
    </Space>
  );
  if (dashboard.isError) {
    return (
      <div>
        {title}
        <Alert
          type="error"
          showIcon
          title="The dashboard could not be loaded."
          description={dashboard.error.message}
          action={<Button onClick={() => void dashboard.refetch()}>Try again</Button>}
        />
      </div>
    );
  }
  if (!figures) {
    return (
      <div>
        {title}
        <Spin />
      </div>
    );
  }
  const unprocessed = figures.unprocessed_by_age.reduce((sum, bucket) => sum + bucket.devices, 0);

  return (
    <div>
      {title}
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        {[
          { key: 'today', title: 'Received today', value: figures.received_today },
          { key: 'week', title: 'Received this week', value: figures.received_this_week },
          { key: 'unprocessed', title: 'Waiting for production', value: unprocessed },
          {
            key: 'undecided',
            title: 'Discrepancies to decide',
            value: figures.discrepancies.undecided,
          },
        ].map((figure) => (
          <Col key={figure.key} xs={24} sm={12} lg={6}>
            <Card size="small" data-testid={`figure-${figure.key}`}>
              <Statistic title={figure.title} value={figure.value} />
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title="Boxes by status" size="small">
            <Table<WarehouseBoxDashboard['boxes_by_status'][number]>
              aria-label="Boxes by status"
              size="small"
              rowKey="status"
              pagination={false}
              dataSource={figures.boxes_by_status}
              locale={{ emptyText: 'No box yet.' }}
              columns={[
                {
                  key: 'status',
                  title: 'Status',
                  render: (_, row) => (
                    <BoxesLink filter={`status=${row.status}`} canOpen={canOpenBoxes}>
                      <Tag color={BOX_STATUS_COLORS[row.status as WarehouseBoxStatus]}>
                        {row.status.replace('_', ' ')}
                      </Tag>
                    </BoxesLink>
                  ),
                },
                { key: 'boxes', dataIndex: 'boxes', title: 'Boxes', align: 'right' },
                { key: 'devices', dataIndex: 'devices', title: 'Devices', align: 'right' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title="Waiting for production, by age" size="small">
            <Table<WarehouseBoxDashboard['unprocessed_by_age'][number]>
              aria-label="Waiting for production, by age"
              size="small"
              rowKey="label"
              pagination={false}
              dataSource={figures.unprocessed_by_age}
              columns={[
                { key: 'label', dataIndex: 'label', title: 'Since receipt' },
                { key: 'devices', dataIndex: 'devices', title: 'Devices', align: 'right' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <GroupCard
            title="Waiting for production, by vendor"
            groups={figures.unprocessed_by_vendor}
            filterKey="vendor_id"
            canOpen={canOpenBoxes}
          />
        </Col>
        <Col xs={24} lg={12}>
          <GroupCard
            title="Waiting for production, by invoice"
            groups={figures.unprocessed_by_invoice}
            filterKey="invoice_id"
            canOpen={canOpenBoxes}
          />
        </Col>
        <Col xs={24}>
          <Card title="Discrepancies of open invoices" size="small">
            <Row gutter={16}>
              {(
                [
                  ['missing', 'Missing'],
                  ['unexpected', 'Unexpected'],
                  ['duplicate', 'Duplicate'],
                  ['mismatched', 'Other model than claimed'],
                  ['undecided', 'Without a decision'],
                ] as const
              ).map(([key, label]) => (
                <Col key={key} xs={12} md={4}>
                  <Statistic title={label} value={figures.discrepancies[key]} />
                </Col>
              ))}
            </Row>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
