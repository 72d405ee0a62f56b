import {
  backlogOrderList,
  backlogOrderListEndpoints,
  FULFILMENT_TYPES,
  ORDER_CANCEL_ACCESS,
  ORDER_HOLD_REASONS,
  orderEndpoints,
  type BacklogOrderRow,
} from '@inventory/contract';
import { Button, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { ResourcePageConfig } from '../../../toolkit/resource-page-config';
import { ResourcePage } from '../../../toolkit/resource-page';
import { optionsOf } from '../../master-data';
import { useBacklogActions } from '../api/fulfilment.queries';
import { customerColumn, holdReasonColumn, slaColumn } from '../components/order-columns';

const HOUR = 3_600_000;

/** The colour of an ageing alert by how many thresholds the hold passed (24, 48, 72 h by default). */
const ALERT_COLORS = ['gold', 'orange', 'red'] as const;

/**
 * How long an order has waited on hold, tagged once its hold was alerted at a threshold of
 * `order_settings.backlog_alert_hours` (the server's ageing job, every 15 minutes).
 */
function Age({ order }: { order: BacklogOrderRow }) {
  // The moment the row was first drawn: the age does not move under the reader's eyes.
  const [now] = useState(() => Date.now());
  if (!order.held_at) return <>—</>;
  const hours = Math.floor((now - new Date(order.held_at).getTime()) / HOUR);
  const text = hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
  if (order.alert_level === 0) return <>{text}</>;
  const color = ALERT_COLORS[Math.min(order.alert_level, ALERT_COLORS.length) - 1];
  return (
    <Tag color={color} title={`Past the ${order.alert_hours}-hour ageing alert`}>
      {text}
    </Tag>
  );
}

/**
 * The backlog (`/fulfill/backlog-order`): orders on hold with their reason, age in the backlog
 * and SLA. Release validates the order again (ready, or the 409 says why it stays); cancel is the
 * order's own cancellation; the export is the file for the client carrier.
 */
export default function BacklogPage(props: PageProps) {
  const { release, cancel } = useBacklogActions();
  const canCancel = useCan(ORDER_CANCEL_ACCESS);

  const releaseOrder = async (order: BacklogOrderRow) => {
    try {
      await release.mutateAsync(order.id);
      notify.success(`${order.number} is released: it waits in the assignment queue.`);
    } catch (error) {
      showApiError(error);
    }
  };
  const cancelOrder = async (order: BacklogOrderRow) => {
    try {
      await cancel.mutateAsync({ id: order.id, reason: 'Cancelled from the backlog' });
      notify.success(`${order.number} is cancelled.`);
    } catch (error) {
      showApiError(error);
    }
  };

  const config: ResourcePageConfig<BacklogOrderRow, typeof backlogOrderList> = {
    resource: backlogOrderList,
    endpoints: backlogOrderListEndpoints,
    titleOf: (order) => order.number,
    searchPlaceholder: 'Order number or reference',
    header: (
      <Typography.Paragraph type="secondary">
        Orders waiting on a decision. Fix what the reason says (the address on the order&apos;s
        page, stock by receiving or substitution), then release: the order is validated again.
      </Typography.Paragraph>
    ),
    columns: [
      { key: 'number', title: 'Order' },
      holdReasonColumn,
      { key: 'hold_note', title: 'Note', render: (order) => order.hold_note ?? '—' },
      { key: 'held_at', title: 'In backlog', render: (order) => <Age order={order} /> },
      { key: 'fulfilment_type', title: 'Queue' },
      {
        key: 'client_carrier',
        title: 'Client carrier',
        render: (order) => order.client_carrier ?? '—',
      },
      customerColumn,
      { key: 'items_text', title: 'Items' },
      slaColumn,
      {
        key: 'created_at',
        title: 'Created',
        sortKey: 'created_at',
        render: (order) => when(order.created_at),
      },
    ],
    filters: [
      { key: 'hold_reason', label: 'Reason', options: optionsOf(ORDER_HOLD_REASONS) },
      { key: 'fulfilment_type', label: 'Queue', options: optionsOf(FULFILMENT_TYPES) },
      {
        key: 'client_carrier_id',
        label: 'Client carrier',
        load: pickerLoader(orderEndpoints.carrierOptions),
      },
      {
        key: 'alerted',
        label: 'Ageing',
        options: [
          { value: 'true', label: 'Past an ageing alert' },
          { value: 'false', label: 'Not yet alerted' },
        ],
      },
    ],
    rowActions: (order) => (
      <Space size="small">
        <Button size="small" type="primary" onClick={() => void releaseOrder(order)}>
          Release
        </Button>
        {canCancel && (
          <Popconfirm
            title={`Cancel ${order.number}?`}
            okText="Cancel the order"
            cancelText="Keep it"
            onConfirm={() => cancelOrder(order)}
          >
            <Button size="small" danger>
              Cancel
            </Button>
          </Popconfirm>
        )}
      </Space>
    ),
  };

  return <ResourcePage {...props} config={config} />;
}
