import { REQUESTED_UNIT_TEXT, RESHIP_REASON_TEXT, type ReshipOrder } from '@inventory/contract';
import { Alert, Button, Space, Spin, Table, Typography } from 'antd';
import { Link } from 'react-router';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { counted, when } from '../../../toolkit/format';
import { OrderStatusTag } from '../../order';
import { useReshipOrders } from '../api/reship.queries';

/**
 * Reship orders (`/shipment-management/reship/order`, DOMAIN.md 4.16): the child orders created by
 * approved reships, with their parent and where fulfilment has them. They are assigned, picked,
 * labelled and shipped through the normal fulfilment queues.
 */
export default function ReshipOrdersPage({ entry }: PageProps) {
  const orders = useReshipOrders();
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Button onClick={() => void orders.refetch()} loading={orders.isFetching}>
          Refresh
        </Button>
      </Space>
      <Typography.Paragraph type="secondary">
        Orders created by approved reships. They go through the normal fulfilment queues:{' '}
        <Link to="/fulfill/assignment" style={{ textDecoration: 'underline' }}>
          assign them there
        </Link>
        . A returned unit the reship names is reserved at assignment if it is back in stock by then;
        otherwise another matching unit ships, so the customer does not wait for it.
      </Typography.Paragraph>
      {orders.error ? (
        <Alert type="error" message={orders.error.message} />
      ) : !orders.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text>
            {counted(orders.data.total, 'reship order')}
            {orders.data.total > orders.data.orders.length &&
              `; the newest ${orders.data.orders.length} shown`}
            .
          </Typography.Text>
          <Table<ReshipOrder>
            rowKey="id"
            size="small"
            dataSource={orders.data.orders}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: 'No reship orders yet.' }}
            columns={[
              {
                title: 'Order',
                key: 'number',
                render: (_: unknown, row) => (
                  <Link to={`/order/list?order=${row.id}`}>{row.number}</Link>
                ),
              },
              {
                title: 'Parent',
                key: 'parent',
                render: (_: unknown, row) => (
                  <Link to={`/order/list?order=${row.parent_order_id}`}>{row.parent_number}</Link>
                ),
              },
              {
                title: 'Reason',
                key: 'reason',
                render: (_: unknown, row) => RESHIP_REASON_TEXT[row.reason],
              },
              { title: 'Items', dataIndex: 'items_text', key: 'items' },
              {
                title: 'Returned unit',
                key: 'requested_unit',
                render: (_: unknown, row) =>
                  row.requested_imei && row.requested_unit
                    ? `${row.requested_imei}: ${REQUESTED_UNIT_TEXT[row.requested_unit]}`
                    : '—',
              },
              { title: 'Ship to', dataIndex: 'place', key: 'place' },
              { title: 'Priority', dataIndex: 'priority', key: 'priority' },
              {
                title: 'Status',
                key: 'status',
                render: (_: unknown, row) => <OrderStatusTag status={row.status} />,
              },
              {
                title: 'Created',
                key: 'created',
                render: (_: unknown, row) => when(row.created_at),
              },
              {
                title: 'Shipped',
                key: 'shipped',
                render: (_: unknown, row) => (row.shipped_at ? when(row.shipped_at) : '—'),
              },
            ]}
          />
        </>
      )}
    </Space>
  );
}
