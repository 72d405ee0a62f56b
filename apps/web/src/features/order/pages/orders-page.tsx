import {
  campaignEndpoints,
  FULFILMENT_TYPES,
  HOLD_REASON_TEXT,
  ORDER_HOLD_REASONS,
  ORDER_PROGRAMS,
  ORDER_SOURCES,
  ORDER_STATUSES,
  orderEndpoints,
  orderList,
  orderListEndpoints,
  SUPPORT_ORDER_ACCESS,
  type OrderRow,
} from '@inventory/contract';
import { Button, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
import { dayOption, dayRangeFilters, pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { OrderDrawer } from '../components/order-drawer';
import { OrderStatusTag } from '../components/order-status';
import { SupportOrderDrawer } from '../components/support-order-drawer';

/** The address key of the order whose drawer is open. */
export const ORDER_PARAM = 'order';

const config = (
  canCreate: boolean,
  startOrder: () => void,
): ResourcePageConfig<OrderRow, typeof orderList> => ({
  resource: orderList,
  endpoints: orderListEndpoints,
  titleOf: (order) => order.number,
  searchPlaceholder: 'Order number or reference',
  header: (
    <Typography.Paragraph type="secondary">
      Every order from every channel. Orders are validated when they arrive (address, one benefit
      per subscriber and address, listing cap, stock); those that fail wait on hold with their
      reason. Customers are masked here: open an order to read its lines, units and timeline.
    </Typography.Paragraph>
  ),
  actions: canCreate && (
    <Button type="primary" onClick={startOrder}>
      New order
    </Button>
  ),
  record: { param: ORDER_PARAM, rowClick: true },
  columns: [
    { key: 'number', title: 'Order' },
    { key: 'source', title: 'Source' },
    {
      key: 'client_carrier',
      title: 'Client carrier',
      render: (order) => order.client_carrier ?? '—',
    },
    { key: 'fulfilment_type', title: 'Type' },
    { key: 'program', title: 'Programme', render: (order) => order.program ?? '—' },
    {
      key: 'customer',
      title: 'Customer',
      render: (order) => (
        <>
          {order.customer}
          <Typography.Text type="secondary"> · {order.place}</Typography.Text>
        </>
      ),
    },
    { key: 'items_text', title: 'Items' },
    {
      key: 'status',
      title: 'Status',
      render: (order) => <OrderStatusTag status={order.status} />,
    },
    {
      key: 'hold_reason',
      title: 'Hold reason',
      render: (order) =>
        order.hold_reason ? (
          <Tooltip title={order.hold_note}>
            <Tag color="orange">{HOLD_REASON_TEXT[order.hold_reason]}</Tag>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      key: 'sla_due_at',
      title: 'SLA due',
      sortKey: 'sla_due_at',
      render: (order) => when(order.sla_due_at),
    },
    {
      key: 'created_at',
      title: 'Created',
      sortKey: 'created_at',
      render: (order) => when(order.created_at),
    },
    { key: 'shipped_at', title: 'Shipped', render: (order) => when(order.shipped_at) },
    { key: 'external_ref', title: 'Reference', hidden: true },
  ],
  filters: [
    { key: 'status', label: 'Status', options: optionsOf(ORDER_STATUSES) },
    { key: 'hold_reason', label: 'Hold reason', options: optionsOf(ORDER_HOLD_REASONS) },
    { key: 'source', label: 'Source', options: optionsOf(ORDER_SOURCES) },
    { key: 'fulfilment_type', label: 'Type', options: optionsOf(FULFILMENT_TYPES) },
    { key: 'program', label: 'Programme', options: optionsOf(ORDER_PROGRAMS) },
    { key: 'received_day', label: 'Received on (YYYY-MM-DD)', load: dayOption('Received') },
    ...dayRangeFilters('Received', 'received_from', 'received_to'),
    ...dayRangeFilters('Shipped', 'shipped_from', 'shipped_to'),
    {
      key: 'client_carrier_id',
      label: 'Client carrier',
      load: pickerLoader(orderEndpoints.carrierOptions),
    },
    { key: 'campaign_id', label: 'Campaign', load: pickerLoader(campaignEndpoints.options) },
    // Set by the link from a retailer's drawer.
    { key: 'retailer_id', label: 'Retailer', fromAddress: true },
  ],
});

/**
 * All orders (`/order/list`): the list, an order's drawer (`?order=`) and, for support staff, a
 * support order entered by hand through the same intake as every channel.
 */
export default function OrdersPage(props: PageProps) {
  const [opened, setOpened] = useUrlParam(ORDER_PARAM);
  const [creating, setCreating] = useState(false);
  const canCreate = useCan(SUPPORT_ORDER_ACCESS);
  const pageConfig = useMemo(() => config(canCreate, () => setCreating(true)), [canCreate]);
  const openedId = Number(opened) || null;
  return (
    <>
      <ResourcePage {...props} config={pageConfig} />
      {openedId && <OrderDrawer id={openedId} onClose={() => setOpened(undefined)} />}
      {creating && (
        <SupportOrderDrawer
          onClose={() => setCreating(false)}
          onCreated={(id) => setOpened(String(id))}
        />
      )}
    </>
  );
}
