import {
  ORDER_ACCESS,
  RETAILER_LATEST_ORDERS,
  type Retailer,
  type RetailerOrder,
} from '@inventory/contract';
import { Alert, Space, Table, Typography } from 'antd';
import { useCan } from '../../../shell/use-can';
import { dollars, when } from '../../../toolkit/format';
import { RowLink } from '../../../toolkit/record-link';
import { OrderStatusTag } from '../../order';
import { useRetailerOrders } from '../api/retail.queries';

/** The order list with only this retailer's orders, and one of them open when `orderId` given. */
const ordersHref = (retailerId: number, orderId?: number) =>
  `/order/list?retailer_id=${retailerId}${orderId === undefined ? '' : `&order=${orderId}`}`;

/**
 * The retailer's latest orders. Each opens in the order list filtered by the retailer, for those
 * who may read orders; the others see the figures only.
 */
export function RetailerOrders({ retailer }: { retailer: Retailer }) {
  const orders = useRetailerOrders(retailer.id);
  const canReadOrders = useCan(ORDER_ACCESS);
  if (orders.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="The orders could not be loaded."
        description={orders.error.message}
      />
    );
  }
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Typography.Text type="secondary">
          {retailer.open_orders} open, {dollars(retailer.revenue_12m_cents)} in the last 12 months;
          the latest {RETAILER_LATEST_ORDERS} below.
        </Typography.Text>
        {canReadOrders && (
          <RowLink
            to={ordersHref(retailer.id)}
            where={`The orders of ${retailer.name} in the order list`}
          >
            All orders of {retailer.name}
          </RowLink>
        )}
      </Space>
      <Table<RetailerOrder>
        size="small"
        rowKey="id"
        loading={orders.isPending}
        dataSource={orders.data}
        pagination={false}
        locale={{ emptyText: `${retailer.name} has no orders yet.` }}
        columns={[
          {
            key: 'number',
            title: 'Order',
            render: (_, order) =>
              canReadOrders ? (
                <RowLink
                  to={ordersHref(retailer.id, order.id)}
                  where={`Order ${order.number} in the order list`}
                >
                  {order.number}
                </RowLink>
              ) : (
                order.number
              ),
          },
          {
            key: 'status',
            title: 'Status',
            render: (_, order) => <OrderStatusTag status={order.status} />,
          },
          { key: 'total', title: 'Total', render: (_, order) => dollars(order.total_cents) },
          { key: 'created_at', title: 'Date', render: (_, order) => when(order.created_at) },
        ]}
      />
    </Space>
  );
}
