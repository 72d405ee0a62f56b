import { BOX_REOPEN_PERMISSION, STATION_ACCESS, type InventoryBox } from '@inventory/contract';
import { Alert, Button, Popconfirm, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { countText } from '../../../toolkit/station';
import {
  openInventoryBoxLabel,
  useConsolidationBoxes,
  useReopenBox,
} from '../api/inventory.queries';
import { boxKind, INVENTORY_BOX_STATUS_COLORS } from '../consolidation-feedback';

type Shown = 'all' | 'open' | 'sealed' | 'located';

/**
 * Consolidation boxes (DOMAIN.md 4.17): the newest boxes with what they hold, their fill and
 * status; a leader reopens a sealed box not put away yet (box.reopen); any box's label reprints.
 */
export default function ConsolidationBoxesPage({ entry }: PageProps) {
  const [shown, setShown] = useState<Shown>('all');
  const boxes = useConsolidationBoxes(shown === 'all' ? undefined : shown);
  const reopen = useReopenBox();
  const canReopen = useCan({
    ...STATION_ACCESS.consolidationBox,
    andPermission: BOX_REOPEN_PERMISSION,
  });

  const reopenBox = async (box: InventoryBox) => {
    try {
      await reopen.mutateAsync(box.id);
      notify.success(`${box.code} is open again.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <section aria-label={entry.label}>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 12 }}>
        {entry.label}
      </Typography.Title>
      <Segmented<Shown>
        aria-label="Status"
        value={shown}
        onChange={setShown}
        options={[
          { label: 'All', value: 'all' },
          { label: 'Open', value: 'open' },
          { label: 'Sealed', value: 'sealed' },
          { label: 'Located', value: 'located' },
        ]}
        style={{ marginBottom: 12 }}
      />
      {boxes.isError && (
        <Alert
          type="error"
          showIcon
          title="The boxes could not be read."
          description={boxes.error.message}
        />
      )}
      <Table<InventoryBox>
        size="small"
        rowKey="id"
        loading={boxes.isLoading}
        dataSource={boxes.data ?? []}
        pagination={false}
        columns={[
          { title: 'Box', dataIndex: 'code' },
          { title: 'Holds', render: (_, row) => boxKind(row) },
          { title: 'Fill', render: (_, row) => countText(row.qty, row.max_qty) },
          {
            title: 'Status',
            render: (_, row) => (
              <Tag color={INVENTORY_BOX_STATUS_COLORS[row.status]}>
                {row.status.replace('_', ' ')}
              </Tag>
            ),
          },
          { title: 'Location', render: (_, row) => row.location_code ?? '—' },
          {
            title: 'Sealed',
            render: (_, row) =>
              row.sealed_at
                ? `${when(row.sealed_at)}${row.sealed_by_name ? ` by ${row.sealed_by_name}` : ''}`
                : '—',
          },
          {
            title: 'Actions',
            render: (_, row) => (
              <Space>
                <Button
                  size="small"
                  aria-label={`Print the label of ${row.code}`}
                  onClick={() => void openInventoryBoxLabel(row.id).catch(showApiError)}
                >
                  Label
                </Button>
                {canReopen && row.status === 'sealed' && (
                  <Popconfirm
                    title={`Reopen ${row.code} to put more in it?`}
                    okText="Reopen"
                    onConfirm={() => reopenBox(row)}
                  >
                    <Button size="small" aria-label={`Reopen ${row.code}`}>
                      Reopen
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
    </section>
  );
}
