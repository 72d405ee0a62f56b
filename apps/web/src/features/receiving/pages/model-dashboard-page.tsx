import {
  dashboardVendorOptionsEndpoint,
  modelDashboardExportEndpoint,
  type ModelPipeline,
} from '@inventory/contract';
import { Alert, Button, Dropdown, Space, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useUrlState } from '../../../shell/use-url-state';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteFilter } from '../../../toolkit/resource-page';
import { startDownload } from '../../../toolkit/resource-queries';
import { useModelDashboard } from '../api/warehouse-boxes.queries';

const URL_KEYS = ['vendor_id'] as const;
const vendorFilter = {
  key: 'vendor_id',
  label: 'Vendor',
  load: pickerLoader(dashboardVendorOptionsEndpoint),
};

/** The counted stages of a model's pipeline, in the order a device goes through them. */
const STAGES = [
  ['received', 'Received'],
  ['requested', 'Requested'],
  ['in_production', 'In production'],
  ['graded', 'Graded'],
  ['failed', 'Failed'],
  ['held', 'On hold'],
] as const;

const percent = (value: number | null) => (value === null ? '—' : `${value.toFixed(1)} %`);

/** Per model: received, requested, in production, graded, failed and held, with the yield. */
export default function ModelDashboardPage({ entry }: PageProps) {
  const [url, setUrl] = useUrlState(URL_KEYS);
  const vendorId = url.vendor_id ? Number(url.vendor_id) : undefined;
  const figures = useModelDashboard(vendorId);

  const exportAs = async (format: 'csv' | 'xlsx') => {
    try {
      const answer = await callEndpoint(modelDashboardExportEndpoint, {
        body: { vendor_id: vendorId, format },
      });
      startDownload(answer.data);
      notify.success('The export of the per-model figures has started.');
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <div>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 16 }} wrap>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Link to="/invoice/warehouse-box/dashboard">Warehouse box dashboard</Link>
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        <RemoteFilter
          filter={vendorFilter}
          value={url.vendor_id}
          onChange={(value) => setUrl({ vendor_id: value })}
        />
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
          <Button>Export</Button>
        </Dropdown>
      </Space>
      {figures.isError ? (
        <Alert
          type="error"
          showIcon
          title="The figures could not be loaded."
          description={figures.error.message}
          action={<Button onClick={() => void figures.refetch()}>Try again</Button>}
        />
      ) : (
        <Table<ModelPipeline>
          aria-label="Figures per model"
          size="middle"
          rowKey="model_id"
          loading={figures.isFetching}
          dataSource={figures.data ?? []}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: 'No device received yet.' }}
          columns={[
            { key: 'model', dataIndex: 'model', title: 'Model' },
            ...STAGES.map(([key, title]) => ({
              key,
              dataIndex: key,
              title,
              align: 'right' as const,
            })),
            {
              key: 'yield_pct',
              title: 'Yield',
              align: 'right',
              render: (_, row) => percent(row.yield_pct),
            },
          ]}
        />
      )}
    </div>
  );
}
