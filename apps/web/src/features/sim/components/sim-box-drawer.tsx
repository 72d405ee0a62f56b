import {
  simBoxListEndpoints,
  simCardListEndpoints,
  simLifecycle,
  type SimBoxRow,
  type SimCardRow,
  type SimPack,
} from '@inventory/contract';
import { Alert, Button, Drawer, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { ListPager } from '../../../toolkit/list-pager';
import { useResourceItem, useResourceList } from '../../../toolkit/resource-queries';
import { printLabels, useBoxPacks } from '../api/sim-stock.queries';
import { SIM_STATUS_COLORS } from '../sim-stock-links';

/** A box's SIMs, a page at a time in ICCID order, with their status and pack. */
function BoxSims({ box }: { box: SimBoxRow }) {
  const [cursor, setCursor] = useState<string | undefined>();
  const [limit, setLimit] = useState(50);
  const sims = useResourceList<SimCardRow>(simCardListEndpoints, {
    box_id: box.id,
    sort: 'iccid',
    order: 'asc',
    limit,
    cursor,
  });
  if (sims.isError) return <Alert type="error" showIcon title="The ICCIDs could not be read." />;
  return (
    <section aria-label={`ICCIDs of ${box.code}`}>
      <Table<SimCardRow>
        size="small"
        rowKey="id"
        data-testid="box-iccids"
        loading={sims.isFetching}
        dataSource={sims.data?.items ?? []}
        pagination={false}
        columns={[
          { title: 'ICCID', dataIndex: 'iccid' },
          {
            title: 'Status',
            dataIndex: 'status',
            render: (status: SimCardRow['status']) => (
              <Tag color={SIM_STATUS_COLORS[status]}>{simLifecycle.stateText(status)}</Tag>
            ),
          },
          { title: 'Pack', dataIndex: 'pack_code', render: (code: string | null) => code ?? '—' },
        ]}
      />
      <ListPager
        noun={{ singular: 'SIM', plural: 'SIMs' }}
        count={{ total: box.qty, capped: false }}
        page={sims.data}
        cursor={cursor}
        limit={limit}
        onChange={(changes) => {
          setCursor(changes.cursor);
          if (changes.limit) setLimit(changes.limit);
        }}
      />
    </section>
  );
}

/** A box's packs, each with its label. */
function BoxPacks({ box }: { box: SimBoxRow }) {
  const packs = useBoxPacks(box.id);
  if (box.pack_count === 0) return null;
  return (
    <section aria-label={`Packs of ${box.code}`} style={{ marginTop: 24 }}>
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        Packs
      </Typography.Title>
      <Table<SimPack>
        size="small"
        rowKey="id"
        loading={packs.isFetching}
        dataSource={packs.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
        columns={[
          { title: 'Pack', dataIndex: 'code' },
          { title: 'SIMs', dataIndex: 'size' },
          { title: 'First ICCID', dataIndex: 'iccid_first' },
          { title: 'Last ICCID', dataIndex: 'iccid_last' },
          {
            title: 'Label',
            key: 'label',
            render: (_, pack) => (
              <Button
                size="small"
                aria-label={`Print the label of ${pack.code}`}
                onClick={() => void printLabels.pack(pack.id).catch(showApiError)}
              >
                Label
              </Button>
            ),
          },
        ]}
      />
    </section>
  );
}

/** A box opened from the list (`?box=`): its ICCIDs and packs. */
export function SimBoxDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const box = useResourceItem<SimBoxRow>(simBoxListEndpoints, id);
  const shown = box.data;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={720}
      title={shown ? `${shown.code}: ${shown.client_carrier}` : 'SIM box'}
      onClose={onClose}
    >
      {box.isError && <Alert type="error" showIcon title="The box could not be read." />}
      {shown && (
        <>
          <Space wrap style={{ marginBottom: 12 }}>
            <Typography.Text>
              {shown.iccid_first} to {shown.iccid_last}
            </Typography.Text>
            <Typography.Text type="secondary">
              {shown.qty_available} of {shown.qty} in stock
            </Typography.Text>
          </Space>
          <BoxSims box={shown} />
          <BoxPacks box={shown} />
        </>
      )}
    </Drawer>
  );
}
