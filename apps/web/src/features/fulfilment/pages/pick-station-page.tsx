import {
  PICK_SCAN_TONES,
  type PickOrder,
  type PickQueue,
  type PickScanAnswer,
  type PickScanResult,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Input,
  Space,
  Table,
  Tag,
  Typography,
  type DescriptionsProps,
  type InputRef,
  type TableColumnsType,
} from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useCan } from '../../../shell/use-can';
import { useUrlParam } from '../../../shell/use-url-state';
import { dollars, when } from '../../../toolkit/format';
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
import { OrderStatusTag, PaymentTag } from '../../order';
import { openPackingSlip, useMyPicks, usePickOrder, usePickScan } from '../api/fulfilment.queries';
import { CarrierLinkDrawer } from '../components/carrier-link-drawer';
import { CarrierUpdatesPanel } from '../components/carrier-updates-panel';
import { CarrierUpdateTag } from '../components/carrier-update-tag';
import { queueOfPath } from '../pick-queues';

/** What the station's own answer adds to the server's: an order number opens the order. */
type StationResult = PickScanResult | 'order_opened';

export const PICK_FEEDBACK: ScanFeedback<StationResult> = {
  tones: { ...PICK_SCAN_TONES, order_opened: 'info' },
  words: {
    picked: 'Picked',
    swapped: 'Swapped',
    sim_paired: 'SIM paired',
    already_done: 'Already done',
    order_fulfilled: 'Fulfilled',
    wrong_variant: 'Wrong variant',
    held: 'On hold',
    blacklisted: 'Blacklisted',
    not_available: 'Not available',
    sim_not_needed: 'No SIM',
    device_first: 'Device first',
    sim_not_in_stock: 'SIM not in stock',
    sim_wrong_carrier: 'Other carrier',
    not_pickable: 'Not pickable',
    unknown: 'Unknown',
    invalid: 'Invalid',
    order_opened: 'Order',
  },
};

/** An order number as scanned (the packing slip's or pick list's barcode): SO- and digits. */
const ORDER_CODE = /^SO-?\d+$/i;

/** The address key of the order at the station. */
const ORDER_PARAM = 'order';

/** What each queue's station adds to the standard one, in a line. */
const QUEUE_HELP: Record<PickQueue, string | null> = {
  standard: null,
  prepaid:
    'Prepaid orders show their payment, the plan bought and who activates the line: an order is picked once its payment is captured, and a line we pre-activate takes its MDN here before the label.',
  existing_customer:
    "The device change (the new IMEI) goes to the carrier when the order is picked; the label waits for the carrier's OK unless the carrier does not acknowledge device changes.",
  ota: "The IMEI and ICCID pairing goes to the carrier when the order is picked; the label waits for the carrier's OK.",
  replacement: 'Replacement orders show the original order they replace, when linked.',
};

/**
 * The pick station, keyboard only, one page per queue (`/fulfill/need-to-fulfill` and the
 * queues of their own, DOMAIN.md 4.14): scan an order number to open one of your orders of the
 * queue, then each unit's IMEI (the reserved unit or another that matches), its ICCID when the
 * order ships a SIM kit, confirm the accessories and print the packing slip. Every answer shows
 * in the log with its tone and beep; the order beside it is the server's answer. Each queue shows
 * its own facts (payment and activation, the carrier's pairing or device change, the original
 * order) and the OTA and existing-customer queues their carrier updates below.
 */
export default function PickStationPage({ entry }: PageProps) {
  const pickQueue = queueOfPath(entry.path);
  const [number, setNumber] = useUrlParam(ORDER_PARAM);
  const picks = useMyPicks(pickQueue);
  const order = usePickOrder(number ?? null, pickQueue);
  const scanning = usePickScan(number ?? '', pickQueue);
  // Who manages vendors sets how the queue's carriers take updates and pre-activation.
  const mayLink =
    useCan({ permission: 'vendor.manage' }) && !['standard', 'replacement'].includes(pickQueue);
  const [linking, setLinking] = useState(false);
  const [station, setStation] = useStationName();
  const [answered, setAnswered] = useState<ScanLine<StationResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const say = (code: string, result: StationResult, message: string) => {
    beep(PICK_FEEDBACK.tones[result]);
    setAnswered((lines) => withAnswer(lines, { code, result, message }));
  };
  const queue = useScanQueue({
    send: (code) => scanning.send(order.data!.id, code, station.trim()),
    apply: (answer: PickScanAnswer) => {
      say(answer.code, answer.result, answer.message);
      return scanning.apply(answer);
    },
    failed: () => beep('error'),
    applyFailed: scanning.reread,
  });

  const scan = (code: string) => {
    if (ORDER_CODE.test(code)) {
      const known = picks.data?.find((o) => o.number.toUpperCase() === code.toUpperCase());
      setNumber(known?.number ?? code.toUpperCase());
      say(code, 'order_opened', 'Opening the order: scan its units.');
      return;
    }
    if (!order.data) {
      say(code, 'invalid', 'Scan one of your order numbers first.');
      return;
    }
    queue.enqueue(code);
  };

  const current = order.data;
  const lines = [...queue.queued.map(queuedLine), ...answered];

  return (
    <div>
      <Typography.Title level={1} style={{ ...PAGE_TITLE_STYLE, marginBottom: 8 }}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Scan an order number, then each unit&apos;s IMEI and, for a SIM kit, its ICCID. Another unit
        of the same variant in stock takes the reserved one&apos;s place. Confirm the accessories
        and print the packing slip: the order is fulfilled when all is picked.
        {QUEUE_HELP[pickQueue] && ` ${QUEUE_HELP[pickQueue]}`}
      </Typography.Paragraph>
      <Space wrap align="start" style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan an order, IMEI or ICCID"
          placeholder={current ? 'Scan an IMEI or ICCID, then Enter' : 'Scan an order number'}
          onScan={scan}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        {mayLink && <Button onClick={() => setLinking(true)}>Client carrier links</Button>}
      </Space>
      {linking && (
        <CarrierLinkDrawer
          onClose={() => {
            setLinking(false);
            scanner.refocus();
          }}
        />
      )}
      {number && order.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={order.error.message || `${number} is not one of your orders to pick.`}
        />
      )}
      <StationColumns>
        <StationColumn title="Scans">
          <ScanLog
            lines={lines}
            feedback={PICK_FEEDBACK}
            empty="Scan an order number to start: each answer shows here."
          />
        </StationColumn>
        <StationColumn title={current ? `Order ${current.number}` : 'My orders'}>
          {current ? (
            <PickedOrder order={current} scanner={scanner} scanning={scanning} />
          ) : (
            <MyOrders
              queue={pickQueue}
              orders={picks.data ?? []}
              loading={picks.isPending}
              onOpen={setNumber}
            />
          )}
        </StationColumn>
      </StationColumns>
      {(pickQueue === 'ota' || pickQueue === 'existing_customer') && (
        <CarrierUpdatesPanel
          kind={pickQueue === 'ota' ? 'pairing' : 'device_change'}
          onDone={scanner.refocus}
        />
      )}
    </div>
  );
}

/** The facts of the queue the order is picked in, beside its units. */
function QueueFacts({
  order,
  scanner,
  scanning,
}: {
  order: PickOrder;
  scanner: ReturnType<typeof useWedgeScanner>;
  scanning: ReturnType<typeof usePickScan>;
}) {
  const [mdn, setMdn] = useState('');
  const record = async () => {
    try {
      await scanning.recordMdn.mutateAsync({ id: order.id, mdn });
      setMdn('');
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };
  const facts: Record<PickQueue, NonNullable<DescriptionsProps['items']>> = {
    standard: [],
    prepaid: [
      {
        key: 'payment',
        label: 'Payment',
        children: (
          <Space>
            <PaymentTag status={order.payment_status} />
            {dollars(order.total_cents)}
          </Space>
        ),
      },
      { key: 'plan', label: 'Plan bought', children: order.plan_name ?? 'Not known' },
      {
        key: 'activation',
        label: 'Activation',
        children: order.pre_activation ? 'Pre-activated by us' : 'The customer activates',
      },
      ...(order.pre_activation
        ? [
            {
              key: 'mdn',
              label: 'MDN',
              children: order.mdn ?? (
                <Space.Compact>
                  <Input
                    aria-label="MDN of the pre-activated line"
                    placeholder="10 digits"
                    value={mdn}
                    onChange={(event) => setMdn(event.target.value)}
                    onPressEnter={() => void record()}
                  />
                  <Button loading={scanning.recordMdn.isPending} onClick={() => void record()}>
                    Record MDN
                  </Button>
                </Space.Compact>
              ),
            },
          ]
        : []),
    ],
    existing_customer: [
      { key: 'current', label: 'Current IMEI', children: order.current_imei ?? 'Not known' },
      {
        key: 'swap',
        label: 'Ships',
        children: order.sim_swap ? 'Device and a new SIM (SIM swap)' : 'Device only',
      },
      {
        key: 'change',
        label: 'Device change',
        children: <CarrierUpdateTag update={order.carrier_update} />,
      },
    ],
    ota: [
      {
        key: 'pairing',
        label: 'Carrier pairing',
        children: (
          <Space>
            <CarrierUpdateTag update={order.carrier_update} />
            {order.carrier_update?.message}
          </Space>
        ),
      },
    ],
    replacement: [
      { key: 'original', label: 'Original order', children: order.parent_number ?? 'Not linked' },
    ],
  };
  const items = facts[order.queue];
  return (
    <>
      {items.length > 0 && (
        <Descriptions size="small" column={1} items={items} style={{ marginBottom: 8 }} />
      )}
      {order.queue === 'prepaid' &&
        order.payment_status !== 'captured' &&
        (order.status === 'assigned' || order.status === 'in_progress') && (
          <Alert
            type="error"
            showIcon
            style={{ marginBottom: 8 }}
            title={`The payment is ${order.payment_status ?? 'not reported'}, not captured: the order is picked once the carrier captures it.`}
          />
        )}
      {order.status === 'fulfilled' && order.label_blocker && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 8 }}
          title={`The label waits: ${order.label_blocker}`}
        />
      )}
    </>
  );
}

function PickedOrder({
  order,
  scanner,
  scanning,
}: {
  order: PickOrder;
  scanner: ReturnType<typeof useWedgeScanner>;
  scanning: ReturnType<typeof usePickScan>;
}) {
  const picked = order.units.filter((unit) => unit.status !== 'allocated').length;
  const simUnits = order.units.filter((unit) => unit.sim_required);
  const paired = simUnits.filter((unit) => unit.iccid).length;
  const confirm = async () => {
    try {
      await scanning.confirmAccessories.mutateAsync(order.id);
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };
  const print = async () => {
    try {
      await openPackingSlip(order.id);
    } catch (error) {
      showApiError(error);
    } finally {
      scanner.refocus();
    }
  };
  return (
    <section aria-label={`Pick ${order.number}`}>
      <Space wrap style={{ marginBottom: 8 }}>
        <span data-testid="pick-order-status">
          <OrderStatusTag status={order.status} />
        </span>
        <Typography.Text type="secondary">
          {order.client_carrier ?? ''} · {order.place} · SLA {when(order.sla_due_at)}
        </Typography.Text>
      </Space>
      <QueueFacts order={order} scanner={scanner} scanning={scanning} />
      <ExpectedFound
        tallies={[
          {
            key: 'units',
            label: 'Units picked',
            found: picked,
            expected: order.units.length,
            testId: 'picked-count',
          },
          ...(simUnits.length > 0
            ? [
                {
                  key: 'sims',
                  label: 'SIMs paired',
                  found: paired,
                  expected: simUnits.length,
                  testId: 'paired-count',
                },
              ]
            : []),
        ]}
      />
      <Table
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={order.units}
        columns={[
          { key: 'sku', title: 'Variant', render: (_: unknown, unit) => unit.description },
          {
            key: 'where',
            title: 'Pick from',
            render: (_: unknown, unit) =>
              unit.box_code ? `${unit.location_code ?? '—'} · ${unit.box_code}` : '—',
          },
          {
            key: 'imei',
            title: 'IMEI',
            render: (_: unknown, unit) => unit.imei ?? (unit.sim_only ? 'SIM only' : 'Any match'),
          },
          {
            key: 'sim',
            title: 'SIM',
            render: (_: unknown, unit) =>
              unit.sim_required ? (unit.iccid ?? <Tag color="gold">Scan ICCID</Tag>) : '—',
          },
          {
            key: 'status',
            title: 'Status',
            render: (_: unknown, unit) => (
              <Tag color={unit.status === 'allocated' ? 'blue' : 'green'}>
                {unit.status === 'allocated' ? 'To pick' : 'Picked'}
              </Tag>
            ),
          },
        ]}
      />
      {order.accessories.length > 0 && (
        <Alert
          style={{ marginTop: 12 }}
          type={order.accessories_confirmed ? 'success' : 'info'}
          showIcon
          title={`Accessories: ${order.accessories.map((a) => `${a.qty} × ${a.description}`).join(', ')}`}
          action={
            !order.accessories_confirmed && (
              <Button
                loading={scanning.confirmAccessories.isPending}
                onClick={() => void confirm()}
              >
                Confirm accessories
              </Button>
            )
          }
        />
      )}
      <Space style={{ marginTop: 12 }}>
        <Button onClick={() => void print()}>Print packing slip</Button>
      </Space>
    </section>
  );
}

/** The column each queue adds to the list of my orders. */
const QUEUE_COLUMN: Record<PickQueue, TableColumnsType<PickOrder>> = {
  standard: [],
  prepaid: [
    {
      key: 'payment',
      title: 'Payment',
      render: (_: unknown, o) => (
        <Space size={4}>
          <PaymentTag status={o.payment_status} />
          {dollars(o.total_cents)}
        </Space>
      ),
    },
    {
      key: 'activation',
      title: 'Plan · activation',
      render: (_: unknown, o) =>
        `${o.plan_name ?? 'Plan not known'} · ${o.pre_activation ? 'Pre-activated by us' : 'Customer activates'}`,
    },
  ],
  existing_customer: [
    {
      key: 'current',
      title: 'Current IMEI',
      render: (_: unknown, o) =>
        `${o.current_imei ?? 'Not known'} · ${o.sim_swap ? 'SIM swap' : 'Device only'}`,
    },
  ],
  ota: [
    {
      key: 'pairing',
      title: 'Pairing',
      render: (_: unknown, o) => <CarrierUpdateTag update={o.carrier_update} />,
    },
  ],
  replacement: [
    {
      key: 'original',
      title: 'Original order',
      render: (_: unknown, o) => o.parent_number ?? 'Not linked',
    },
  ],
};

function MyOrders({
  queue,
  orders,
  loading,
  onOpen,
}: {
  queue: PickQueue;
  orders: readonly PickOrder[];
  loading: boolean;
  onOpen: (number: string) => void;
}) {
  return (
    <Table
      size="small"
      rowKey="id"
      loading={loading}
      pagination={false}
      dataSource={orders}
      locale={{ emptyText: 'No orders are assigned to you.' }}
      columns={[
        {
          key: 'number',
          title: 'Order',
          render: (_: unknown, o) => (
            <Button type="link" onClick={() => onOpen(o.number)}>
              {o.number}
            </Button>
          ),
        },
        { key: 'place', title: 'Ship to', render: (_: unknown, o) => o.place },
        {
          key: 'units',
          title: 'Units',
          render: (_: unknown, o) =>
            o.units.map((unit) => unit.description).join(', ') || 'Accessories only',
        },
        {
          key: 'sim',
          title: 'SIM',
          render: (_: unknown, o) => (o.units.some((unit) => unit.sim_required) ? 'Yes' : 'No'),
        },
        {
          key: 'from',
          title: 'Pick from',
          render: (_: unknown, o) =>
            [
              ...new Set(
                o.units.map((unit) => unit.location_code ?? unit.box_code).filter(Boolean),
              ),
            ].join(', ') || '—',
        },
        ...QUEUE_COLUMN[queue],
        { key: 'sla', title: 'SLA', render: (_: unknown, o) => when(o.sla_due_at) },
        {
          key: 'status',
          title: 'Stage',
          render: (_: unknown, o) => <OrderStatusTag status={o.status} />,
        },
      ]}
    />
  );
}
