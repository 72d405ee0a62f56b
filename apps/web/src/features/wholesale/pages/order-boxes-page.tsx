import {
  closeOrderBoxSchema,
  ORDER_BOX_REOPEN_ACCESS,
  ORDER_BOX_SCAN_TONES,
  ORDER_BOX_STATUS_WORDS,
  type CartonOrder,
  type CartonOrderDetail,
  type OrderBoxDetail,
  type OrderBoxScanResult,
  type OrderBoxStatus,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  InputNumber,
  Space,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import {
  beep,
  ExpectedFound,
  queuedLine,
  ScanInput,
  ScanLog,
  StationColumn,
  StationColumns,
  StationNameInput,
  useScanQueue,
  useStationName,
  useWedgeScanner,
  withAnswer,
  type ScanFeedback,
  type ScanLine,
} from '../../../toolkit/station';
import {
  printCartonLabel,
  printPackingList,
  useCartonActions,
  useCartonOrder,
  useCartonQueue,
} from '../api/wholesale.queries';

const FEEDBACK: ScanFeedback<OrderBoxScanResult> = {
  tones: ORDER_BOX_SCAN_TONES,
  words: {
    packed: 'Packed',
    swapped: 'Packed (swapped)',
    accessory_added: 'Accessory in',
    already_in_box: 'In this carton',
    in_other_box: 'In another carton',
    wrong_variant: 'Not on the order',
    not_on_order: 'Not on the order',
    too_many: 'Too many',
    held: 'On hold',
    blacklisted: 'Blacklisted',
    not_available: 'Not available',
    box_closed: 'Carton closed',
    not_packable: 'Not packed now',
    unknown: 'Unknown',
    invalid: 'Not an IMEI or SKU',
  },
};

const BOX_COLORS: Record<OrderBoxStatus, string> = {
  open: 'blue',
  closed: 'green',
  scanned_out: 'default',
};

const poundsText = (grams: number | null) =>
  grams === null ? '—' : `${(grams / 453.59237).toFixed(1)} lb`;

/** The wholesale orders needing cartons, the most urgent first. */
function CartonQueueTable({ onPack }: { onPack: (order: CartonOrder) => void }) {
  const queue = useCartonQueue();
  return (
    <Table<CartonOrder>
      size="small"
      rowKey="id"
      loading={queue.isLoading}
      pagination={false}
      dataSource={queue.data?.orders ?? []}
      locale={{ emptyText: 'No wholesale order waits for cartons.' }}
      columns={[
        { key: 'number', title: 'Order', dataIndex: 'number' },
        { key: 'retailer', title: 'Retailer', render: (_, order) => order.retailer ?? '—' },
        { key: 'place', title: 'Ships to', dataIndex: 'place' },
        { key: 'status', title: 'Status', render: (_, order) => order.status.replace(/_/g, ' ') },
        {
          key: 'packed',
          title: 'Units packed',
          render: (_, order) => `${order.units_packed} of ${order.units}`,
        },
        {
          key: 'boxes',
          title: 'Cartons',
          render: (_, order) =>
            `${order.boxes}${order.open_boxes > 0 ? ` (${order.open_boxes} open)` : ''}`,
        },
        {
          key: 'actions',
          title: 'Actions',
          render: (_, order) => (
            <Button size="small" onClick={() => onPack(order)}>
              Pack {order.number}
            </Button>
          ),
        },
      ]}
    />
  );
}

/** The station of an open carton: IMEIs and accessory SKUs scanned into it. */
function CartonStation({ orderId, carton }: { orderId: number; carton: OrderBoxDetail }) {
  const actions = useCartonActions(orderId);
  const [station, setStation] = useStationName();
  const [qty, setQty] = useState<number>(1);
  const [log, setLog] = useState<ScanLine<OrderBoxScanResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const queue = useScanQueue({
    send: (code: string) => actions.scan(carton.box.id, code, station.trim(), qty),
    apply: async (answer) => {
      beep(FEEDBACK.tones[answer.result]);
      setLog((lines) => withAnswer(lines, answer));
      if (answer.result === 'accessory_added') setQty(1);
      await actions.apply(answer);
    },
    failed: () => beep('error'),
  });
  const { box } = carton;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label={`Scan into ${box.code}`}
          placeholder="Scan an IMEI, or an accessory's SKU"
          onScan={queue.enqueue}
        />
        <label>
          <Typography.Text>Accessory quantity </Typography.Text>
          <InputNumber
            aria-label="Accessory quantity"
            min={1}
            max={10_000}
            value={qty}
            onChange={(value) => setQty(value ?? 1)}
            onPressEnter={() => scanner.refocus()}
          />
        </label>
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
      </Space>
      <StationColumns>
        <StationColumn title="Scans at this station">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty={`Scan the first IMEI into ${box.code}: each answer shows here.`}
          />
        </StationColumn>
        <StationColumn title={`In ${box.code}`}>
          <Table
            size="small"
            rowKey="unit_id"
            pagination={false}
            dataSource={carton.units}
            locale={{ emptyText: 'No device yet.' }}
            columns={[
              { key: 'imei', title: 'IMEI', dataIndex: 'imei' },
              { key: 'sku', title: 'SKU', dataIndex: 'sku' },
            ]}
          />
          {carton.items.length > 0 && (
            <Table
              size="small"
              rowKey="variant_id"
              pagination={false}
              style={{ marginTop: 8 }}
              dataSource={carton.items}
              columns={[
                { key: 'sku', title: 'Accessory', dataIndex: 'sku' },
                { key: 'qty', title: 'Qty', dataIndex: 'qty' },
              ]}
            />
          )}
        </StationColumn>
      </StationColumns>
    </Space>
  );
}

/** One wholesale order: its lines against what is boxed, its cartons and the open carton's station. */
function CartonOrderView({ detail, onBack }: { detail: CartonOrderDetail; onBack: () => void }) {
  const { order, boxes } = detail;
  const actions = useCartonActions(order.id);
  const canReopen = useCan(ORDER_BOX_REOPEN_ACCESS);
  const [current, setCurrent] = useState<number | null>(null);
  const [closing, setClosing] = useState<OrderBoxDetail | null>(null);
  const open = boxes.filter(({ box }) => box.status === 'open');
  const active = boxes.find(({ box }) => box.id === current && box.status === 'open') ?? open[0];

  const newCarton = async () => {
    try {
      const box = await actions.open.mutateAsync();
      setCurrent(box.id);
      notify.success(`${box.code} is open: its label is printing.`);
      await printCartonLabel(box.id);
    } catch (error) {
      showApiError(error);
    }
  };
  const reopen = async (carton: OrderBoxDetail) => {
    try {
      const box = await actions.reopen.mutateAsync(carton.box.id);
      setCurrent(box.id);
      notify.success(`${box.code} is open again: its devices are picked, not packed.`);
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Button onClick={onBack}>Back to the orders</Button>
        <Button type="primary" onClick={() => void newCarton()} loading={actions.open.isPending}>
          New carton
        </Button>
        <Button onClick={() => void printPackingList(order.id)} disabled={boxes.length === 0}>
          Packing list
        </Button>
      </Space>
      <Descriptions
        size="small"
        bordered
        column={{ xs: 1, md: 3 }}
        items={[
          { key: 'order', label: 'Order', children: order.number },
          { key: 'retailer', label: 'Retailer', children: order.retailer ?? '—' },
          { key: 'place', label: 'Ships to', children: order.place },
          {
            key: 'status',
            label: 'Status',
            children: <span data-testid="order-status">{order.status.replace(/_/g, ' ')}</span>,
          },
          { key: 'shipment', label: 'Shipment', children: order.shipment_number ?? 'none yet' },
        ]}
      />
      <ExpectedFound
        tallies={[
          ...order.lines.map((line, n) => ({
            key: `${line.sku}-${n}`,
            label: `${line.sku} in cartons`,
            found: line.in_boxes,
            expected: line.qty,
          })),
          {
            key: 'packed',
            label: 'Units in closed cartons',
            found: order.units_packed,
            expected: order.units,
            testId: 'units-packed',
          },
        ]}
      />
      <Table<OrderBoxDetail>
        size="small"
        rowKey={({ box }) => box.id}
        pagination={false}
        dataSource={boxes}
        locale={{ emptyText: 'No carton yet: open the first one.' }}
        columns={[
          { key: 'code', title: 'Carton', render: (_, { box }) => box.code },
          {
            key: 'status',
            title: 'Status',
            render: (_, { box }) => (
              <Tag color={BOX_COLORS[box.status]}>{ORDER_BOX_STATUS_WORDS[box.status]}</Tag>
            ),
          },
          { key: 'devices', title: 'Devices', render: (_, { box }) => box.devices },
          { key: 'accessories', title: 'Accessories', render: (_, { box }) => box.accessories },
          { key: 'weight', title: 'Weight', render: (_, { box }) => poundsText(box.weight_g) },
          {
            key: 'actions',
            title: 'Actions',
            render: (_, carton) => (
              <Space wrap size={4}>
                {carton.box.status === 'open' && carton.box.id !== active?.box.id && (
                  <Button size="small" onClick={() => setCurrent(carton.box.id)}>
                    Scan into {carton.box.code}
                  </Button>
                )}
                {carton.box.status === 'open' && (
                  <Button size="small" type="primary" onClick={() => setClosing(carton)}>
                    Close {carton.box.code}
                  </Button>
                )}
                {carton.box.status === 'closed' && !carton.box.shipment_id && canReopen && (
                  <Button size="small" onClick={() => void reopen(carton)}>
                    Reopen {carton.box.code}
                  </Button>
                )}
                <Button size="small" onClick={() => void printCartonLabel(carton.box.id)}>
                  Label
                </Button>
              </Space>
            ),
          },
        ]}
      />
      {active ? (
        <CartonStation key={active.box.id} orderId={order.id} carton={active} />
      ) : (
        <Alert
          type="info"
          showIcon
          title={
            order.status === 'fulfilled'
              ? `${order.number} is packed: every unit is in a closed carton. Its shipment is made on the Order shipments page.`
              : 'Open a carton to scan units into it.'
          }
        />
      )}
      {closing && (
        <ActionDrawer
          title={`Close ${closing.box.code}`}
          intro="Weigh the carton: it closes with its weight, and its devices are packed."
          fields={[
            {
              name: 'weight_lb',
              label: 'Weight (lb)',
              kind: 'number',
              min: 0.1,
              step: 0.1,
              precision: 1,
              required: true,
            },
          ]}
          schema={closeOrderBoxSchema}
          initialValues={{}}
          submitLabel="Close carton"
          run={async (values) => {
            const box = await actions.close.mutateAsync({
              id: closing.box.id,
              body: { weight_lb: Number(values.weight_lb) },
            });
            return `${box.code} is closed at ${poundsText(box.weight_g)}.`;
          }}
          onClose={() => setClosing(null)}
        />
      )}
    </Space>
  );
}

/**
 * Order boxes (`/order/box`, DOMAIN.md 4.7): the wholesale orders needing cartons; an order's
 * lines against what its cartons hold, its cartons (new with its OB label, close by weight,
 * reopen for a leader, the packing list with every IMEI) and the open carton's scan station.
 */
export default function OrderBoxesPage({ entry }: PageProps) {
  const [search, setSearch] = useSearchParams();
  const orderParam = Number(search.get('order'));
  const orderId = Number.isInteger(orderParam) && orderParam > 0 ? orderParam : null;
  const detail = useCartonOrder(orderId);
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      {orderId === null ? (
        <CartonQueueTable onPack={(order) => setSearch({ order: String(order.id) })} />
      ) : detail.data ? (
        <CartonOrderView detail={detail.data} onBack={() => setSearch({})} />
      ) : detail.isError ? (
        <Alert type="error" showIcon title="This order could not be read." />
      ) : (
        <Typography.Text type="secondary">Reading the order…</Typography.Text>
      )}
    </Space>
  );
}
