import { SHIP_METHODS, WEB_ORDER_DECIDE_ACCESS, type WebOrder } from '@inventory/contract';
import { Alert, Button, Input, Modal, Select, Space, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { counted, dollars, when } from '../../../toolkit/format';
import { useWebOrderActions, useWebOrderQueue } from '../api/web-orders.queries';

/** How long ago, in the largest whole unit: "3 h", "2 d", "12 min". */
function age(iso: string): string {
  const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h`;
  return `${Math.floor(minutes / 1440)} d`;
}

const CREDIT_TAGS: Record<WebOrder['credit_decision'], { color: string; text: string }> = {
  within_limit: { color: 'green', text: 'Within limit' },
  prepaid: { color: 'blue', text: 'Prepaid' },
  over_limit: { color: 'red', text: 'Over limit' },
  inactive: { color: 'red', text: 'Deactivated' },
};

/** The reason a web order is rejected, asked in a dialog. */
function RejectDialog({ order, onClose }: { order: WebOrder; onClose: () => void }) {
  const { reject } = useWebOrderActions();
  const [reason, setReason] = useState('');
  return (
    <Modal
      open
      title={`Reject order ${order.number}`}
      okText="Reject"
      okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: reject.isPending }}
      onCancel={onClose}
      onOk={() =>
        reject.mutate(
          { id: order.id, reason },
          {
            onSuccess: (detail) => {
              notify.success(`Order ${detail.number} is rejected; its units are given back.`);
              onClose();
            },
            onError: (error) => showApiError(error),
          },
        )
      }
    >
      <label htmlFor="reject-reason">Why is it rejected?</label>
      <Input.TextArea
        id="reject-reason"
        value={reason}
        maxLength={500}
        autoSize={{ minRows: 2 }}
        onChange={(event) => setReason(event.target.value)}
      />
    </Modal>
  );
}

/**
 * Web orders (`/dashboard/web-order`, DOMAIN.md 4.1): the carts checked out by retailers and
 * agents, oldest first, with what their listings and the stock hold now and the customer's credit.
 * Approving checks all three again (ready, or the refusal says why); rejecting asks the reason
 * and gives the units back. An order not approved within its hold is cancelled by the server.
 */
export default function WebOrdersPage({ entry }: PageProps) {
  const queue = useWebOrderQueue();
  const { approve, shipMethod } = useWebOrderActions();
  const canDecide = useCan(WEB_ORDER_DECIDE_ACCESS);
  const [rejecting, setRejecting] = useState<WebOrder | null>(null);

  const columns = [
    {
      title: 'Order',
      key: 'number',
      render: (_: unknown, order: WebOrder) => (
        <Link to={`/order/list?order=${order.id}`}>{order.number}</Link>
      ),
    },
    {
      title: 'Customer',
      key: 'customer',
      render: (_: unknown, order: WebOrder) => (
        <>
          {order.customer}
          <br />
          <Typography.Text type="secondary">
            by {order.placed_by ?? 'a former user'}
            {order.channel === 'web' && ' (agent)'}
          </Typography.Text>
        </>
      ),
    },
    {
      title: 'Items',
      key: 'items',
      render: (_: unknown, order: WebOrder) => (
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {order.lines.map((line) => (
            <li key={line.sku}>
              {line.qty} × {line.sku} at {dollars(line.unit_price_cents)}
            </li>
          ))}
        </ul>
      ),
    },
    {
      title: 'Total',
      key: 'total',
      align: 'right' as const,
      render: (_: unknown, order: WebOrder) => dollars(order.total_cents),
    },
    {
      title: 'Terms and credit',
      key: 'credit',
      render: (_: unknown, order: WebOrder) => (
        <>
          <Tag color={CREDIT_TAGS[order.credit_decision].color}>
            {CREDIT_TAGS[order.credit_decision].text}
          </Tag>
          {order.credit_terms}
          <br />
          <Typography.Text type="secondary">{order.credit_note}</Typography.Text>
        </>
      ),
    },
    {
      title: 'Availability',
      key: 'availability',
      render: (_: unknown, order: WebOrder) => (
        <>
          <Tag color={order.available ? 'green' : 'red'}>
            {order.available ? 'Available' : 'Short'}
          </Tag>
          <ul style={{ margin: 0, paddingLeft: 16 }}>
            {order.lines.map((line) => (
              <li key={line.sku}>
                {line.sku}: {line.listing_left ?? '—'} more on the listing, {line.in_stock} in stock
              </li>
            ))}
          </ul>
          {order.availability_note && (
            <Typography.Text type="danger">{order.availability_note}</Typography.Text>
          )}
        </>
      ),
    },
    {
      title: 'Status',
      key: 'status',
      render: (_: unknown, order: WebOrder) => <Tag>{order.status}</Tag>,
    },
    {
      title: 'Age',
      key: 'age',
      render: (_: unknown, order: WebOrder) => (
        <>
          {age(order.created_at)}
          <br />
          <Typography.Text type="secondary">held until {when(order.expires_at)}</Typography.Text>
        </>
      ),
    },
    {
      title: 'Ship method',
      key: 'ship_method',
      render: (_: unknown, order: WebOrder) =>
        canDecide ? (
          <Select
            size="small"
            aria-label={`Ship method of ${order.number}`}
            value={order.ship_method}
            options={SHIP_METHODS.map((method) => ({ value: method, label: method }))}
            onChange={(value) =>
              shipMethod.mutate(
                { id: order.id, ship_method: value },
                { onError: (error) => showApiError(error) },
              )
            }
            style={{ width: 120 }}
          />
        ) : (
          order.ship_method
        ),
    },
    ...(canDecide
      ? [
          {
            title: 'Actions',
            key: 'actions',
            render: (_: unknown, order: WebOrder) => (
              <Space>
                <Button
                  type="primary"
                  size="small"
                  aria-label={`Approve ${order.number}`}
                  loading={approve.isPending && approve.variables === order.id}
                  onClick={() =>
                    approve.mutate(order.id, {
                      onSuccess: (detail) =>
                        notify.success(`Order ${detail.number} is approved: ready to fulfil.`),
                      onError: (error) => showApiError(error),
                    })
                  }
                >
                  Approve
                </Button>
                <Button
                  danger
                  size="small"
                  aria-label={`Reject ${order.number}`}
                  onClick={() => setRejecting(order)}
                >
                  Reject
                </Button>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
          {entry.label}
        </Typography.Title>
        <Button onClick={() => void queue.refetch()} loading={queue.isFetching}>
          Refresh
        </Button>
      </Space>
      <Typography.Paragraph type="secondary">
        Carts checked out by retailers and agents, waiting for approval, oldest first. Approving
        checks the listing, the stock and the credit limit again; an order not approved before its
        hold ends is cancelled and its units go back.
      </Typography.Paragraph>
      {queue.error ? (
        <Alert type="error" message={queue.error.message} />
      ) : !queue.data ? (
        <Spin />
      ) : (
        <>
          <Typography.Text>
            {counted(queue.data.total, 'order')} awaiting approval
            {queue.data.total > queue.data.orders.length &&
              `; the oldest ${queue.data.orders.length} shown`}
            .
          </Typography.Text>
          <Table<WebOrder>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={queue.data.orders}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: 'No web orders await approval.' }}
          />
        </>
      )}
      {rejecting && <RejectDialog order={rejecting} onClose={() => setRejecting(null)} />}
    </Space>
  );
}
