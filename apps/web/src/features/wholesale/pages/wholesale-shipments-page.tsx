import {
  createShipmentSchema,
  SHIPPING_SERVICE_INFO,
  SHIPPING_SERVICES,
  shipmentBillSchema,
  WHOLESALE_SHIPMENT_STATUS_WORDS,
  type ShipmentReadyOrder,
  type WholesaleShipment,
} from '@inventory/contract';
import { Button, Space, Table, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import {
  printBillOfLading,
  printCartonParcelLabels,
  printManifest,
  useShipmentActions,
  useShipmentBoard,
} from '../api/wholesale.queries';

const when = (at: string | null) => (at ? at.slice(0, 16).replace('T', ' ') : '—');
const pounds = (grams: number) => `${(grams / 453.59237).toFixed(1)} lb`;

/** A shipment's carrier and how it travels: "Estes Express · BOL 778899". */
const transportText = (shipment: WholesaleShipment) =>
  shipment.mode === 'freight'
    ? `${shipment.carrier} · ${shipment.bol_number ? `BOL ${shipment.bol_number}` : 'no BOL yet'}`
    : `${shipment.service ? SHIPPING_SERVICE_INFO[shipment.service].name : shipment.carrier} · ${shipment.tracking_numbers.join(', ')}`;

function shipmentColumns(
  extra: 'open' | 'shipped',
  act: (shipment: WholesaleShipment) => ReactNode,
) {
  return [
    { key: 'number', title: 'Shipment', render: (_: unknown, s: WholesaleShipment) => s.number },
    {
      key: 'order',
      title: 'Order',
      render: (_: unknown, s: WholesaleShipment) =>
        `${s.order_number}${s.retailer ? ` · ${s.retailer}` : ''}`,
    },
    {
      key: 'transport',
      title: 'Carrier / tracking',
      render: (_: unknown, s: WholesaleShipment) => transportText(s),
    },
    {
      key: 'boxes',
      title: 'Cartons',
      render: (_: unknown, s: WholesaleShipment) =>
        `${s.boxes} (${s.units} devices, ${pounds(s.weight_g)})`,
    },
    { key: 'date', title: 'Ship date', render: (_: unknown, s: WholesaleShipment) => s.ship_date },
    {
      key: 'checked',
      title: 'Checked',
      render: (_: unknown, s: WholesaleShipment) =>
        s.checked_at ? (
          `${when(s.checked_at)} by ${s.checked_by_name ?? '—'}`
        ) : (
          <Tag color="orange">not checked</Tag>
        ),
    },
    {
      key: 'status',
      title: 'Status',
      render: (_: unknown, s: WholesaleShipment) => (
        <Tag color={s.status === 'open' ? 'blue' : 'green'}>
          {WHOLESALE_SHIPMENT_STATUS_WORDS[s.status]}
        </Tag>
      ),
    },
    ...(extra === 'shipped'
      ? [
          {
            key: 'pickup',
            title: 'Picked up',
            render: (_: unknown, s: WholesaleShipment) =>
              `${when(s.picked_up_at)}, ${s.pickup_carrier ?? ''}, driver ${s.driver_name ?? ''}${
                s.override_by_name ? ` (let go by ${s.override_by_name})` : ''
              }`,
          },
        ]
      : []),
    { key: 'actions', title: 'Actions', render: (_: unknown, s: WholesaleShipment) => act(s) },
  ];
}

/**
 * Order shipments (`/shipment`, DOMAIN.md 4.7): fulfilled wholesale orders whose cartons wait for
 * a shipment; shipments being prepared (freight with its BOL, or a parcel label per carton), each
 * checked (contents verified, by whom and when) before the dock; and those on their way. A
 * shipment leaves from the dock (`/shipment/scan-out-to-ship`).
 */
export default function WholesaleShipmentsPage({ entry }: PageProps) {
  const board = useShipmentBoard();
  const actions = useShipmentActions();
  const [creating, setCreating] = useState<ShipmentReadyOrder | null>(null);
  const [billing, setBilling] = useState<WholesaleShipment | null>(null);

  const check = async (shipment: WholesaleShipment) => {
    try {
      await actions.check.mutateAsync(shipment.id);
      notify.success(`${shipment.number} is checked: its contents are verified.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Title level={2}>Ready for a shipment</Typography.Title>
      <Table<ShipmentReadyOrder>
        size="small"
        rowKey="order_id"
        loading={board.isLoading}
        pagination={false}
        dataSource={board.data?.ready ?? []}
        locale={{ emptyText: 'No packed wholesale order waits for a shipment.' }}
        columns={[
          { key: 'number', title: 'Order', dataIndex: 'number' },
          { key: 'retailer', title: 'Retailer', render: (_, o) => o.retailer ?? '—' },
          { key: 'place', title: 'Ships to', dataIndex: 'place' },
          { key: 'boxes', title: 'Cartons', dataIndex: 'boxes' },
          { key: 'units', title: 'Devices', dataIndex: 'units' },
          { key: 'weight', title: 'Weight', render: (_, o) => pounds(o.weight_g) },
          {
            key: 'actions',
            title: 'Actions',
            render: (_, o) => (
              <Button size="small" type="primary" onClick={() => setCreating(o)}>
                Create shipment for {o.number}
              </Button>
            ),
          },
        ]}
      />
      <Typography.Title level={2}>Being prepared</Typography.Title>
      <Table<WholesaleShipment>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={board.data?.open ?? []}
        locale={{ emptyText: 'No shipment is being prepared.' }}
        columns={shipmentColumns('open', (s) => (
          <Space wrap size={4}>
            {s.mode === 'freight' && (
              <Button size="small" onClick={() => setBilling(s)}>
                {s.bol_number ? 'Change BOL' : `Attach BOL to ${s.number}`}
              </Button>
            )}
            {!s.checked_at && (
              <Button size="small" type="primary" onClick={() => void check(s)}>
                Check {s.number}
              </Button>
            )}
            {s.mode === 'freight' ? (
              <Button size="small" onClick={() => void printBillOfLading(s.id)}>
                Bill of lading
              </Button>
            ) : (
              <Button size="small" onClick={() => void printCartonParcelLabels(s.id)}>
                Carton labels
              </Button>
            )}
            <Button size="small" onClick={() => void printManifest(s.id)}>
              Manifest
            </Button>
          </Space>
        ))}
      />
      <Typography.Title level={2}>On their way</Typography.Title>
      <Table<WholesaleShipment>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={board.data?.shipped ?? []}
        locale={{ emptyText: 'No wholesale shipment has left yet.' }}
        columns={shipmentColumns('shipped', (s) => (
          <Button size="small" onClick={() => void printManifest(s.id)}>
            Manifest
          </Button>
        ))}
      />
      {creating && (
        <ActionDrawer
          title={`Shipment of ${creating.number}`}
          intro={`${creating.boxes} carton(s), ${creating.units} device(s). Freight goes under a bill of lading; parcel buys a carrier label for each carton.`}
          fields={[
            {
              name: 'mode',
              label: 'How it ships',
              kind: 'select',
              required: true,
              options: [
                { value: 'freight', label: 'Freight (BOL)' },
                { value: 'parcel', label: 'Parcel (a label per carton)' },
              ],
            },
            { name: 'carrier', label: 'Freight carrier', kind: 'text', help: 'Freight only.' },
            {
              name: 'bol_number',
              label: 'BOL number',
              kind: 'text',
              help: 'Freight only; may follow later.',
            },
            { name: 'pro_number', label: 'PRO number', kind: 'text' },
            {
              name: 'service',
              label: 'Parcel service',
              kind: 'select',
              allowClear: true,
              help: 'Parcel only.',
              options: SHIPPING_SERVICES.map((service) => ({
                value: service,
                label: SHIPPING_SERVICE_INFO[service].name,
              })),
            },
            {
              name: 'ship_date',
              label: 'Ship date (YYYY-MM-DD)',
              kind: 'text',
              help: 'Today when left empty.',
            },
          ]}
          schema={createShipmentSchema}
          initialValues={{ mode: 'freight' }}
          submitLabel="Create shipment"
          run={async (values) => {
            const text = (name: string) => {
              const value = values[name];
              return typeof value === 'string' && value.trim() ? value.trim() : undefined;
            };
            const made = await actions.create.mutateAsync({
              order_id: creating.order_id,
              mode: values.mode as 'freight' | 'parcel',
              ...(text('carrier') && { carrier: text('carrier') }),
              ...(text('bol_number') && { bol_number: text('bol_number') }),
              ...(text('pro_number') && { pro_number: text('pro_number') }),
              ...(text('ship_date') && { ship_date: text('ship_date') }),
              ...(values.service
                ? { service: values.service as (typeof SHIPPING_SERVICES)[number] }
                : {}),
            });
            return `${made.shipment.number} is made for ${creating.number}.`;
          }}
          onClose={() => setCreating(null)}
        />
      )}
      {billing && (
        <ActionDrawer
          title={`Bill of lading of ${billing.number}`}
          intro="With its BOL the order is labelled: the shipment may leave once checked."
          fields={[
            { name: 'bol_number', label: 'BOL number', kind: 'text', required: true },
            { name: 'pro_number', label: 'PRO number', kind: 'text' },
            { name: 'carrier', label: 'Freight carrier', kind: 'text' },
          ]}
          schema={shipmentBillSchema}
          initialValues={{
            bol_number: billing.bol_number ?? '',
            pro_number: billing.pro_number ?? '',
            carrier: billing.carrier,
          }}
          submitLabel="Attach BOL"
          run={async (values) => {
            await actions.bill.mutateAsync({
              id: billing.id,
              body: {
                bol_number: String(values.bol_number ?? ''),
                ...(values.pro_number ? { pro_number: String(values.pro_number) } : {}),
                ...(values.carrier ? { carrier: String(values.carrier) } : {}),
              },
            });
            return `BOL ${String(values.bol_number)} is attached to ${billing.number}.`;
          }}
          onClose={() => setBilling(null)}
        />
      )}
    </Space>
  );
}
