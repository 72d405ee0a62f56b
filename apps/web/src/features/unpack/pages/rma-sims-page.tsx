import type { ReturnedSim } from '@inventory/contract';
import { Alert, Button, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { when } from '../../../toolkit/format';
import { startDownload } from '../../../toolkit/resource-queries';
import { deactivationLink, useDecideSims, useReturnedSims } from '../api/returned-sims.queries';

/**
 * SIMs returned (`/RMA/sim`, DOMAIN.md 4.10): every SIM back and waiting. Those from parcels are
 * restocked (never active only) or destroyed here; those of a SIM return on /sim/return. The
 * carrier's deactivation list is a file.
 */
export default function RmaSimsPage({ entry }: PageProps) {
  const sims = useReturnedSims();
  const decide = useDecideSims();
  const [chosen, setChosen] = useState<number[]>([]);
  const rows = sims.data ?? [];
  const chosenRows = rows.filter((row) => chosen.includes(row.id));
  const act = async (action: 'restock' | 'destroy') => {
    try {
      const { moved } = await decide.mutateAsync({ action, sim_ids: chosen });
      notify.success(`${moved} SIM(s) ${action === 'restock' ? 'restocked' : 'destroyed'}.`);
      setChosen([]);
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Alert type="info" showIcon title="A SIM ever seen active is destroyed, never restocked." />
      <Space wrap>
        <Button
          disabled={chosen.length === 0 || chosenRows.some((row) => row.ever_active)}
          loading={decide.isPending}
          onClick={() => void act('restock')}
        >
          Restock chosen
        </Button>
        <Button
          danger
          disabled={chosen.length === 0}
          loading={decide.isPending}
          onClick={() => void act('destroy')}
        >
          Destroy chosen
        </Button>
        <Button
          onClick={async () => {
            try {
              startDownload(await deactivationLink());
            } catch (error) {
              showApiError(error);
            }
          }}
        >
          Export ICCIDs to deactivate
        </Button>
      </Space>
      <Table<ReturnedSim>
        size="small"
        rowKey="id"
        loading={sims.isLoading}
        dataSource={rows}
        pagination={false}
        data-testid="returned-sims"
        rowSelection={{
          selectedRowKeys: chosen,
          onChange: (keys) => setChosen(keys as number[]),
          getCheckboxProps: (row) => ({
            disabled: row.source !== 'parcel',
            'aria-label': `Choose ${row.iccid}`,
          }),
        }}
        columns={[
          { key: 'iccid', title: 'ICCID', dataIndex: 'iccid' },
          { key: 'carrier', title: 'Client carrier', dataIndex: 'client_carrier' },
          {
            key: 'source',
            title: 'Came back in',
            render: (_, row) =>
              `${row.source === 'parcel' ? 'Parcel' : 'SIM return'} ${row.reference ?? ''}`,
          },
          { key: 'order', title: 'Original order', render: (_, row) => row.order_number ?? '—' },
          {
            key: 'detected',
            title: 'Last detection',
            render: (_, row) => (
              <Space size={4}>
                {row.last_detect_state ?? 'never seen'}
                {row.ever_active && <Tag color="red">was active</Tag>}
              </Space>
            ),
          },
          { key: 'returned', title: 'Returned', render: (_, row) => when(row.returned_at) },
        ]}
      />
    </Space>
  );
}
