import {
  allowedActions,
  HOLD_REASON_TEXT,
  holdOrderSchema,
  ORDER_HOLD_REASONS,
  orderLifecycle,
  shipToSchema,
  SUBSCRIBER_PII_ACCESS,
  ADDRESS_EDITABLE_STATUSES,
  cancelOrderSchema,
  changePaymentSchema,
  PAYMENT_CHANGES,
  type OrderCustomer,
  type OrderDetail,
  type OrderEvent,
  type OrderLine,
  type OrderUnit,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Popconfirm,
  Space,
  Spin,
  Table,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { useProfile } from '../../../shell/use-profile';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { dollars, when } from '../../../toolkit/format';
import type { FormField } from '../../../toolkit/resource-page-config';
import { useOrderActions, useOrderCustomer, useOrderDetail } from '../api/orders.queries';
import { OrderStatusTag } from './order-status';
import { PAYMENT_WORDS, PaymentTag } from './payment-tag';

const SHIP_TO_FIELDS: FormField[] = [
  { name: 'name', label: 'Name', kind: 'text', required: true },
  { name: 'company', label: 'Company', kind: 'text' },
  { name: 'line1', label: 'Street address', kind: 'text', required: true },
  { name: 'line2', label: 'Address line 2', kind: 'text' },
  { name: 'city', label: 'City', kind: 'text', required: true },
  { name: 'state', label: 'State', kind: 'text', required: true, placeholder: 'TX' },
  { name: 'zip', label: 'ZIP code', kind: 'text', required: true },
  { name: 'phone', label: 'Phone', kind: 'text' },
];

const HOLD_FIELDS: FormField[] = [
  {
    name: 'reason',
    label: 'Reason',
    kind: 'select',
    required: true,
    options: ORDER_HOLD_REASONS.map((reason) => ({
      value: reason,
      label: HOLD_REASON_TEXT[reason],
    })),
  },
  { name: 'note', label: 'Note', kind: 'textarea' },
];

const CANCEL_FIELDS: FormField[] = [{ name: 'reason', label: 'Reason', kind: 'textarea' }];

const lineColumns = [
  { key: 'position', dataIndex: 'position', title: '#' },
  { key: 'sku', dataIndex: 'sku', title: 'SKU' },
  { key: 'description', dataIndex: 'description', title: 'Item' },
  { key: 'qty', dataIndex: 'qty', title: 'Qty' },
  { key: 'qty_reserved', dataIndex: 'qty_reserved', title: 'Reserved of listing' },
  {
    key: 'price',
    title: 'Unit price',
    render: (_: unknown, line: OrderLine) => dollars(line.unit_price_cents),
  },
  { key: 'status', dataIndex: 'status', title: 'Status' },
];

const unitColumns = [
  { key: 'imei', title: 'IMEI', render: (_: unknown, unit: OrderUnit) => unit.imei ?? '—' },
  { key: 'iccid', title: 'ICCID', render: (_: unknown, unit: OrderUnit) => unit.iccid ?? '—' },
  {
    key: 'substituted_from',
    title: 'Substituted for',
    render: (_: unknown, unit: OrderUnit) =>
      unit.substituted_from ? `${unit.substituted_from} (${unit.substitution_reason ?? ''})` : '—',
  },
  { key: 'status', dataIndex: 'status', title: 'Status' },
];

/** A timeline event in words: what happened, the states and its details. */
function eventText(event: OrderEvent) {
  const states =
    event.from_status && event.to_status
      ? ` (${orderLifecycle.stateText(event.from_status as never)} → ${orderLifecycle.stateText(event.to_status as never)})`
      : '';
  const data = event.data ?? {};
  const details = [
    // A prepaid payment's change: the statuses it went between, and who reported it.
    event.type === 'payment_changed' &&
      `${String(data.from ?? 'not reported')} → ${String(data.to)}, by ${String(data.by)}`,
    typeof data.reason === 'string' && `reason: ${data.reason}`,
    typeof data.note === 'string' && data.note,
    Array.isArray(data.fields) && `changed: ${data.fields.join(', ')}`,
  ].filter(Boolean);
  return `${event.type.replace(/_/g, ' ')}${states}${details.length ? ` — ${details.join('; ')}` : ''}`;
}

/** The customer's full names, addresses and phones, once read. */
function CustomerInFull({ customer }: { customer: OrderCustomer }) {
  const { subscriber, ship_to: shipTo } = customer;
  const address = (parts: (string | null)[]) => parts.filter(Boolean).join(', ');
  return (
    <Descriptions size="small" column={1} bordered data-testid="customer-in-full">
      {subscriber && (
        <>
          <Descriptions.Item label="Subscriber">
            {subscriber.first_name} {subscriber.last_name}
          </Descriptions.Item>
          <Descriptions.Item label="Enrolment number">
            {subscriber.external_id ?? '—'}
          </Descriptions.Item>
          <Descriptions.Item label="Phone">{subscriber.phone ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="Service address">
            {address([
              subscriber.service_address.line1,
              subscriber.service_address.line2 ?? null,
              subscriber.service_address.city,
              `${subscriber.service_address.state} ${subscriber.service_address.zip}`,
            ])}
          </Descriptions.Item>
        </>
      )}
      <Descriptions.Item label="Ship to">
        {address([
          shipTo.name,
          shipTo.company,
          shipTo.line1,
          shipTo.line2,
          shipTo.city,
          `${shipTo.state} ${shipTo.zip}`,
        ])}
      </Descriptions.Item>
    </Descriptions>
  );
}

type Dialog = 'address' | 'hold' | 'cancel' | 'payment' | null;

/** An order's record: what it is, its lines, units, shipments and timeline, and its actions. */
function OrderRecord({ order }: { order: OrderDetail }) {
  const profile = useProfile();
  const canReadPii = useCan(SUBSCRIBER_PII_ACCESS);
  const [asked, setAsked] = useState(false);
  const customer = useOrderCustomer(order.id, asked);
  const actions = useOrderActions(order.id);
  const [dialog, setDialog] = useState<Dialog>(null);
  const allowed = allowedActions(orderLifecycle, order, profile.data);
  const canEditAddress = ADDRESS_EDITABLE_STATUSES.includes(order.status);
  // A prepaid order's payment as the carrier reported it: the changes it may still take.
  const paymentChanges =
    order.fulfilment_type === 'prepaid'
      ? order.payment_status
        ? PAYMENT_CHANGES[order.payment_status]
        : (['authorized', 'captured', 'failed'] as const)
      : [];

  const release = async () => {
    try {
      await actions.release.mutateAsync();
      notify.success(`Order ${order.number} is released.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>
        <OrderStatusTag status={order.status} />
        {canEditAddress && <Button onClick={() => setDialog('address')}>Edit address</Button>}
        {allowed.includes('hold') && <Button onClick={() => setDialog('hold')}>Hold</Button>}
        {allowed.includes('release') && (
          <Popconfirm
            title="Release the order?"
            description="It is validated again: address, duplicates, listing and stock."
            okText="Release"
            onConfirm={release}
          >
            <Button>Release</Button>
          </Popconfirm>
        )}
        {(allowed.includes('cancel') || allowed.includes('request_cancel')) && (
          <Button danger onClick={() => setDialog('cancel')}>
            {allowed.includes('cancel') ? 'Cancel order' : 'Request cancellation'}
          </Button>
        )}
      </Space>
      {order.hold_reason && (
        <Alert
          type="warning"
          showIcon
          message={`On hold: ${HOLD_REASON_TEXT[order.hold_reason]}`}
          description={order.hold_note}
        />
      )}
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="Source">{order.source}</Descriptions.Item>
        <Descriptions.Item label="Type">{order.fulfilment_type}</Descriptions.Item>
        <Descriptions.Item label="Client carrier">{order.client_carrier ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Programme">{order.program ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Customer">{order.customer}</Descriptions.Item>
        <Descriptions.Item label="Ships to">{order.place}</Descriptions.Item>
        <Descriptions.Item label="Ship method">{order.ship_method}</Descriptions.Item>
        <Descriptions.Item label="Priority">{order.priority}</Descriptions.Item>
        <Descriptions.Item label="Created">{when(order.created_at)}</Descriptions.Item>
        <Descriptions.Item label="Approved">{when(order.approved_at)}</Descriptions.Item>
        <Descriptions.Item label="SLA due">{when(order.sla_due_at)}</Descriptions.Item>
        <Descriptions.Item label="Total">{dollars(order.total_cents)}</Descriptions.Item>
        {order.fulfilment_type === 'prepaid' && (
          <>
            <Descriptions.Item label="Payment">
              <Space>
                <PaymentTag status={order.payment_status} />
                {paymentChanges.length > 0 && (
                  <Button size="small" onClick={() => setDialog('payment')}>
                    Change payment
                  </Button>
                )}
              </Space>
            </Descriptions.Item>
            <Descriptions.Item label="Plan bought">{order.plan_name ?? '—'}</Descriptions.Item>
          </>
        )}
        <Descriptions.Item label="Reference">{order.external_ref ?? '—'}</Descriptions.Item>
        <Descriptions.Item label="Parent order">{order.parent_number ?? '—'}</Descriptions.Item>
      </Descriptions>

      <section aria-labelledby="order-customer">
        <Typography.Title level={5} id="order-customer">
          Customer
        </Typography.Title>
        {!canReadPii ? (
          <Typography.Text type="secondary">
            Names, addresses and phones are masked; reading them needs the permission
            subscriber.view-pii.
          </Typography.Text>
        ) : !asked ? (
          <Space direction="vertical">
            <Typography.Text type="secondary">
              Masked. Showing the full names, addresses and phones is recorded in the audit log.
            </Typography.Text>
            <Button onClick={() => setAsked(true)}>Show full customer details</Button>
          </Space>
        ) : customer.data ? (
          <CustomerInFull customer={customer.data} />
        ) : customer.error ? (
          <Alert type="error" message={customer.error.message} />
        ) : (
          <Spin />
        )}
      </section>

      <section aria-labelledby="order-lines">
        <Typography.Title level={5} id="order-lines">
          Lines
        </Typography.Title>
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={order.lines}
          columns={lineColumns}
        />
      </section>

      <section aria-labelledby="order-units">
        <Typography.Title level={5} id="order-units">
          Units
        </Typography.Title>
        {order.units.length === 0 ? (
          <Typography.Text type="secondary">
            No IMEI or ICCID bound yet: units are bound when the order is picked.
          </Typography.Text>
        ) : (
          <Table
            size="small"
            rowKey="id"
            pagination={false}
            dataSource={order.units}
            columns={unitColumns}
          />
        )}
      </section>

      <section aria-labelledby="order-shipments">
        <Typography.Title level={5} id="order-shipments">
          Shipments
        </Typography.Title>
        <Typography.Text type="secondary">
          {order.shipped_at
            ? `Shipped ${when(order.shipped_at)}.`
            : 'No shipments yet: the order has not been labelled or shipped.'}
        </Typography.Text>
      </section>

      <section aria-labelledby="order-events">
        <Typography.Title level={5} id="order-events">
          Timeline
        </Typography.Title>
        {order.events.length === 0 ? (
          <Empty />
        ) : (
          <Timeline
            items={order.events.map((event) => ({
              key: event.id,
              children: (
                <>
                  <Typography.Text>{eventText(event)}</Typography.Text>
                  <br />
                  <Typography.Text type="secondary">
                    {when(event.at)}
                    {event.actor_name ? ` · ${event.actor_name}` : ''}
                  </Typography.Text>
                </>
              ),
            }))}
          />
        )}
      </section>

      {dialog === 'address' && (
        <ActionDrawer
          title={`Address of ${order.number}`}
          intro="The ZIP code must lie in the state. The change is recorded on the order's timeline, without the address itself."
          fields={SHIP_TO_FIELDS}
          schema={shipToSchema}
          initialValues={customer.data ? { ...customer.data.ship_to } : {}}
          submitLabel="Save address"
          run={async (values) => {
            await actions.editAddress(values as never);
            return `The address of ${order.number} is changed.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'hold' && (
        <ActionDrawer
          title={`Hold ${order.number}`}
          fields={HOLD_FIELDS}
          schema={holdOrderSchema}
          initialValues={{}}
          submitLabel="Hold"
          run={async (values) => {
            await actions.hold.mutateAsync(values as never);
            return `Order ${order.number} is on hold.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'payment' && (
        <ActionDrawer
          title={`Payment of ${order.number}`}
          intro="Write down what the carrier reported. A prepaid order is picked once its payment is captured, and labelled while it stays captured."
          fields={[
            {
              name: 'status',
              label: 'Payment status',
              kind: 'select',
              required: true,
              options: paymentChanges.map((status) => ({
                value: status,
                label: PAYMENT_WORDS[status],
              })),
            },
            { name: 'note', label: 'Reference or note', kind: 'textarea' },
          ]}
          schema={changePaymentSchema}
          initialValues={{}}
          submitLabel="Change payment"
          run={async (values) => {
            const after = await actions.changePayment.mutateAsync(values as never);
            return `The payment of ${order.number} is ${after.payment_status ?? 'not reported'}.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === 'cancel' && (
        <ActionDrawer
          title={`Cancel ${order.number}`}
          intro={
            allowed.includes('cancel')
              ? 'The units it holds of its listings go back to them.'
              : 'The order is in fulfilment: its cancellation is requested, and fulfilment settles it.'
          }
          fields={CANCEL_FIELDS}
          schema={cancelOrderSchema}
          initialValues={{}}
          submitLabel={allowed.includes('cancel') ? 'Cancel order' : 'Request cancellation'}
          run={async (values) => {
            const after = await actions.cancel.mutateAsync((values.reason as string) || null);
            return `Order ${order.number} is ${orderLifecycle.stateText(after.status)}.`;
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </Space>
  );
}

/** The drawer of one order (`?order=`). */
export function OrderDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const detail = useOrderDetail(id);
  return (
    <Drawer
      {...dialogFocus}
      open
      size={820}
      title={detail.data ? `Order ${detail.data.number}` : 'Order'}
      onClose={onClose}
    >
      {detail.data ? (
        <OrderRecord order={detail.data} />
      ) : detail.error ? (
        <Alert type="error" message={detail.error.message} />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}
