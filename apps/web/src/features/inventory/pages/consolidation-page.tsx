import type { ConsolidationGroup, InventoryBox } from '@inventory/contract';
import { Alert, Progress, Table, Typography } from 'antd';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useConsolidationOverview } from '../api/inventory.queries';
import { boxKind } from '../consolidation-feedback';

/**
 * The consolidation leader's overview (DOMAIN.md 4.17): graded and reuse devices waiting, grouped
 * by model, colour, capacity, grade and lock, and the open boxes with their fill.
 */
export default function ConsolidationPage({ entry }: PageProps) {
  const overview = useConsolidationOverview();
  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      {overview.isError && (
        <Alert
          type="error"
          showIcon
          title="The overview could not be read."
          description={overview.error.message}
        />
      )}
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        Devices waiting
      </Typography.Title>
      <Table<ConsolidationGroup>
        size="small"
        rowKey={(row) =>
          [row.model_id, row.color, row.capacity_gb, row.grade, row.carrier_lock].join('|')
        }
        loading={overview.isLoading}
        dataSource={overview.data?.waiting ?? []}
        pagination={false}
        columns={[
          { title: 'Kind', render: (_, row) => boxKind(row) },
          { title: 'Devices', dataIndex: 'devices' },
        ]}
        style={{ marginBottom: 16 }}
      />
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        Open boxes
      </Typography.Title>
      <Table<InventoryBox>
        size="small"
        rowKey="id"
        loading={overview.isLoading}
        dataSource={overview.data?.open_boxes ?? []}
        pagination={false}
        columns={[
          { title: 'Box', dataIndex: 'code' },
          { title: 'Holds', render: (_, row) => boxKind(row) },
          {
            title: 'Fill',
            render: (_, row) => (
              <Progress
                percent={Math.round((row.qty / row.max_qty) * 100)}
                size="small"
                aria-label={`${row.code}: ${row.qty} of ${row.max_qty}`}
              />
            ),
          },
        ]}
      />
    </section>
  );
}
