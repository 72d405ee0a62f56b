import type { ProductionOverview } from '@inventory/contract';
import { Alert, Card, Space, Statistic, Table, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useProductionOverview } from '../api/overview.queries';

type RequestRow = ProductionOverview['requests'][number];

/** The product team at a glance (DOMAIN.md 4.17 `/invoice/product-team`): a read page. */
export default function ProductTeamPage({ entry }: PageProps) {
  const overview = useProductionOverview();
  const data = overview.data;
  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      {overview.isError && <Alert type="error" title={overview.error.message} />}
      <Space wrap style={{ marginBottom: 16 }}>
        <Card size="small">
          <Statistic title="Graded today" value={data?.today.graded ?? 0} />
        </Card>
        <Card size="small">
          <Statistic title="Failed today" value={data?.today.failed ?? 0} />
        </Card>
        <Card size="small">
          <Statistic title="Held today" value={data?.today.held ?? 0} />
        </Card>
        <Card size="small" title="Grades of open requests">
          {data?.grades.length
            ? data.grades.map((grade) => `${grade.grade}: ${grade.devices}`).join(' · ')
            : 'None graded yet.'}
        </Card>
      </Space>
      <Table<RequestRow>
        rowKey="id"
        size="small"
        loading={overview.isLoading}
        dataSource={data?.requests ?? []}
        pagination={false}
        locale={{ emptyText: 'No open request.' }}
        columns={[
          { title: 'Request', dataIndex: 'number' },
          { title: 'Model', dataIndex: 'model' },
          { title: 'Priority', dataIndex: 'priority' },
          { title: 'Status', render: (_, row) => row.status.replace(/_/g, ' ') },
          { title: 'Boxes waiting', dataIndex: 'boxes_waiting' },
          { title: 'Boxes in production', dataIndex: 'boxes_in_production' },
          { title: 'Boxes done', dataIndex: 'boxes_done' },
        ]}
      />
    </div>
  );
}
