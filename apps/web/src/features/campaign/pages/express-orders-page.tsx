import {
  CAMPAIGN_IMPORT_ACCESS,
  HOLD_REASON_TEXT,
  type Campaign,
  type CampaignStatus,
  type OrderRow,
} from '@inventory/contract';
import {
  Button,
  Descriptions,
  Popconfirm,
  Segmented,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { counted, dollars, when } from '../../../toolkit/format';
import { OrderDrawer, OrderStatusTag } from '../../order';
import { useCampaign, useCampaigns, useCloseCampaign } from '../api/campaigns.queries';
import { ordersToShip, ProgressStep } from '../components/campaign-progress';

type StatusChoice = CampaignStatus | 'all';

const ORDER_COLUMNS = [
  { key: 'number', dataIndex: 'number', title: 'Order' },
  {
    key: 'external_ref',
    title: 'Reference',
    render: (_: unknown, o: OrderRow) => o.external_ref ?? '—',
  },
  {
    key: 'customer',
    title: 'Subscriber',
    render: (_: unknown, o: OrderRow) => `${o.customer} · ${o.place}`,
  },
  { key: 'items_text', dataIndex: 'items_text', title: 'Items' },
  {
    key: 'status',
    title: 'Status',
    render: (_: unknown, o: OrderRow) => <OrderStatusTag status={o.status} />,
  },
  {
    key: 'hold_reason',
    title: 'Hold reason',
    render: (_: unknown, o: OrderRow) =>
      o.hold_reason ? (
        <Tooltip title={o.hold_note}>
          <Tag color="orange">{HOLD_REASON_TEXT[o.hold_reason]}</Tag>
        </Tooltip>
      ) : (
        '—'
      ),
  },
  { key: 'total', title: 'Total', render: (_: unknown, o: OrderRow) => dollars(o.total_cents) },
];

/** One campaign: its figures, closing it, and its orders, each opening the order's drawer. */
function CampaignOrders({ id, onOrder }: { id: number; onOrder: (orderId: number) => void }) {
  const detail = useCampaign(id);
  const close = useCloseCampaign();
  const canClose = useCan(CAMPAIGN_IMPORT_ACCESS);
  if (!detail.data) return null;
  const { campaign, orders } = detail.data;
  const { progress } = campaign;

  const closeIt = async () => {
    try {
      await close.mutateAsync(campaign.id);
      notify.success(`Campaign ${campaign.name} is closed.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <section aria-label={`Campaign ${campaign.name}`} style={{ marginTop: 24 }}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        {campaign.name}
      </Typography.Title>
      <Descriptions
        size="small"
        column={3}
        items={[
          { key: 'carrier', label: 'Client carrier', children: campaign.client_carrier },
          { key: 'program', label: 'Programme', children: campaign.program },
          { key: 'type', label: 'Fulfilment type', children: campaign.fulfilment_type },
          { key: 'file', label: 'File', children: campaign.file_name ?? '—' },
          {
            key: 'left',
            label: 'Rows left out',
            children: campaign.rows_left_out,
          },
          { key: 'status', label: 'Status', children: campaign.status },
          { key: 'orders', label: 'Orders', children: progress.orders },
          { key: 'units', label: 'Units', children: progress.units },
          { key: 'total', label: 'Total', children: dollars(progress.total_cents) },
          { key: 'waiting', label: 'Waiting to be picked', children: progress.waiting },
          { key: 'hold', label: 'On hold', children: progress.on_hold },
          { key: 'cancelled', label: 'Cancelled', children: progress.cancelled },
        ]}
      />
      <Space wrap style={{ margin: '12px 0' }}>
        <Link to={`/order/list?campaign_id=${campaign.id}`}>Open in All orders</Link>
        {canClose && campaign.status === 'open' && (
          <Popconfirm
            title={`Close ${campaign.name}?`}
            description="Its orders go on as they are."
            okText="Close the campaign"
            onConfirm={() => void closeIt()}
          >
            <Button loading={close.isPending}>Close the campaign</Button>
          </Popconfirm>
        )}
      </Space>
      <Table<OrderRow>
        size="small"
        rowKey="id"
        data-testid="campaign-orders"
        dataSource={orders}
        columns={ORDER_COLUMNS}
        pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
        onRow={(order) => ({ onClick: () => onOrder(order.id), style: { cursor: 'pointer' } })}
      />
    </section>
  );
}

/**
 * Express orders (`/order/express-orders/order`): the newest campaigns with their orders' pick,
 * label and scan progress as the orders' statuses say; a campaign (`?campaign=`) shows its
 * orders, each opening the order's drawer to hold or cancel it, and can be closed.
 */
export default function ExpressOrdersPage({ entry }: PageProps) {
  const [status, setStatus] = useState<StatusChoice>('open');
  const [opened, setOpened] = useUrlParam('campaign');
  const [order, setOrder] = useState<number | null>(null);
  const campaigns = useCampaigns(status === 'all' ? undefined : status);
  const openedId = Number(opened) || null;
  const detail = useCampaign(openedId);

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<StatusChoice>
          aria-label="Campaign status"
          value={status}
          onChange={setStatus}
          options={[
            { value: 'open', label: 'Open' },
            { value: 'closed', label: 'Closed' },
            { value: 'all', label: 'All' },
          ]}
        />
        <Link to="/order/express-orders/import-file-campaign">Import a campaign file</Link>
      </Space>
      <Table<Campaign>
        size="small"
        rowKey="id"
        data-testid="campaigns"
        loading={campaigns.isPending}
        dataSource={campaigns.data ?? []}
        pagination={false}
        rowClassName={(campaign) => (campaign.id === openedId ? 'ant-table-row-selected' : '')}
        columns={[
          {
            key: 'name',
            title: 'Campaign',
            render: (_, campaign) => (
              <Button type="link" onClick={() => setOpened(String(campaign.id))}>
                {campaign.name}
              </Button>
            ),
          },
          { key: 'carrier', dataIndex: 'client_carrier', title: 'Client carrier' },
          { key: 'program', dataIndex: 'program', title: 'Programme' },
          {
            key: 'orders',
            title: 'Orders',
            render: (_, campaign) => counted(campaign.progress.orders, 'order'),
          },
          {
            key: 'picked',
            title: 'Picked',
            render: (_, c) => (
              <ProgressStep label="Picked" done={c.progress.picked} of={ordersToShip(c.progress)} />
            ),
          },
          {
            key: 'labeled',
            title: 'Labelled',
            render: (_, c) => (
              <ProgressStep
                label="Labelled"
                done={c.progress.labeled}
                of={ordersToShip(c.progress)}
              />
            ),
          },
          {
            key: 'scanned',
            title: 'Scanned out',
            render: (_, c) => (
              <ProgressStep
                label="Scanned out"
                done={c.progress.scanned}
                of={ordersToShip(c.progress)}
              />
            ),
          },
          { key: 'hold', title: 'On hold', render: (_, c) => c.progress.on_hold },
          { key: 'total', title: 'Total', render: (_, c) => dollars(c.progress.total_cents) },
          {
            key: 'status',
            title: 'Status',
            render: (_, c) => (
              <Tag color={c.status === 'open' ? 'blue' : undefined}>{c.status}</Tag>
            ),
          },
          { key: 'created', title: 'Created', render: (_, c) => when(c.created_at) },
        ]}
      />
      {openedId !== null && (
        <CampaignOrders id={openedId} onOrder={(orderId) => setOrder(orderId)} />
      )}
      {order !== null && (
        <OrderDrawer
          id={order}
          onClose={() => {
            setOrder(null);
            void detail.refetch();
            void campaigns.refetch();
          }}
        />
      )}
    </div>
  );
}
