import {
  PICK_SCAN_TONES,
  type PickOrder,
  type PickScanAnswer,
  type PickScanResult,
} from '@inventory/contract';
import { Alert, Button, Space, Table, Tag, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { useUrlParam } from '../../../shell/use-url-state';
import { when } from '../../../toolkit/format';
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
import { OrderStatusTag } from '../../order';
import { openPackingSlip, useMyPicks, usePickOrder, usePickScan } from '../api/fulfilment.queries';

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

/**
 * The pick station (`/fulfill/need-to-fulfill`), keyboard only: scan an order number to open one
 * of your orders, then each unit's IMEI (the reserved unit or another that matches), its ICCID
 * when the order ships a SIM kit, confirm the accessories and print the packing slip. Every answer
 * shows in the log with its tone and beep; the order beside it is the server's answer.
 */
export default function PickStationPage({ entry }: PageProps) {
  const [number, setNumber] = useUrlParam(ORDER_PARAM);
  const picks = useMyPicks();
  const order = usePickOrder(number ?? null);
  const scanning = usePickScan(number ?? '');
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
      </Space>
      {number && order.isError && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={`${number} is not one of your orders to pick.`}
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
            <MyOrders orders={picks.data ?? []} loading={picks.isPending} onOpen={setNumber} />
          )}
        </StationColumn>
      </StationColumns>
    </div>
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
          { key: 'imei', title: 'IMEI', render: (_: unknown, unit) => unit.imei ?? 'Any match' },
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

function MyOrders({
  orders,
  loading,
  onOpen,
}: {
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
