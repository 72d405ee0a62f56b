import {
  DOCK_SCAN_TONES,
  ORDER_BOX_STATUS_WORDS,
  pickupSchema,
  SHIPPING_OVERRIDE_ACCESS,
  shipmentOverrideSchema,
  WHOLESALE_SHIPMENT_STATUS_WORDS,
  type DockScanAnswer,
  type DockScanResult,
  type OrderBox,
  type WholesaleShipmentDetail,
} from '@inventory/contract';
import { Alert, Button, Descriptions, Space, Table, Tag, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
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
  printManifest,
  useDockScan,
  useShipment,
  useShipmentActions,
} from '../api/wholesale.queries';
import { cartonsMissing } from '../wholesale-answers';

const FEEDBACK: ScanFeedback<DockScanResult> = {
  tones: DOCK_SCAN_TONES,
  words: {
    scanned: 'Scanned',
    already_scanned: 'Scanned already',
    box_open: 'Carton open',
    no_shipment: 'No shipment',
    not_checked: 'Not checked',
    no_tracking: 'No BOL or labels',
    shipped: 'Left already',
    unknown: 'Unknown carton',
  },
};

/** The shipment on the dock: its cartons expected against scanned, its pallets, its pickup. */
function ShipmentOnDock({
  detail,
  onRefocus,
}: {
  detail: WholesaleShipmentDetail;
  onRefocus: () => void;
}) {
  const { shipment, boxes, pallets } = detail;
  const actions = useShipmentActions();
  const canOverride = useCan(SHIPPING_OVERRIDE_ACCESS);
  const [drawer, setDrawer] = useState<'pickup' | 'override' | null>(null);
  const missing = cartonsMissing(detail);
  const loading = pallets.find((pallet) => pallet.closed_at === null);
  const open = shipment.status === 'open';
  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      notify.success(done);
    } catch (error) {
      showApiError(error);
    } finally {
      onRefocus();
    }
  };
  return (
    <section aria-label={`Shipment ${shipment.number}`}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 2 }}
          items={[
            { key: 'number', label: 'Shipment', children: shipment.number },
            {
              key: 'order',
              label: 'Order',
              children: `${shipment.order_number}${shipment.retailer ? ` · ${shipment.retailer}` : ''}`,
            },
            { key: 'carrier', label: 'Carrier', children: shipment.carrier },
            {
              key: 'tracking',
              label: shipment.mode === 'freight' ? 'BOL' : 'Tracking',
              children:
                shipment.mode === 'freight'
                  ? (shipment.bol_number ?? 'none yet')
                  : shipment.tracking_numbers.join(', '),
            },
            {
              key: 'checked',
              label: 'Checked',
              children: shipment.checked_at
                ? `by ${shipment.checked_by_name ?? '—'}`
                : 'not checked',
            },
            {
              key: 'status',
              label: 'Status',
              children: (
                <span data-testid="shipment-status">
                  {WHOLESALE_SHIPMENT_STATUS_WORDS[shipment.status]}
                </span>
              ),
            },
          ]}
        />
        <ExpectedFound
          tallies={[
            {
              key: 'cartons',
              label: 'Cartons scanned',
              found: shipment.boxes_scanned,
              expected: shipment.boxes,
              testId: 'cartons-scanned',
            },
          ]}
        />
        {open && (
          <Space wrap>
            {loading ? (
              <Button
                onClick={() =>
                  void run(
                    () => actions.closePallet.mutateAsync(shipment.id),
                    `Pallet ${loading.code} is closed.`,
                  )
                }
              >
                Close pallet {loading.code}
              </Button>
            ) : (
              <Button
                onClick={() =>
                  void run(
                    () => actions.openPallet.mutateAsync(shipment.id),
                    'A pallet is started: the cartons scanned next go onto it.',
                  )
                }
              >
                Start a pallet
              </Button>
            )}
            <Button
              type="primary"
              disabled={missing.length > 0 && !shipment.override_by_name}
              onClick={() => setDrawer('pickup')}
            >
              Confirm pickup
            </Button>
            {missing.length > 0 && canOverride && !shipment.override_by_name && (
              <Button danger onClick={() => setDrawer('override')}>
                Let it go without {missing.length} carton(s)
              </Button>
            )}
            <Button onClick={() => void printManifest(shipment.id)}>Manifest</Button>
          </Space>
        )}
        {!open && (
          <Space wrap>
            <Alert
              type="success"
              showIcon
              title={`${shipment.number} left with ${shipment.pickup_carrier ?? ''}, driver ${shipment.driver_name ?? ''}.`}
            />
            <Button onClick={() => void printManifest(shipment.id)}>Manifest</Button>
          </Space>
        )}
        {shipment.override_by_name && (
          <Alert
            type="warning"
            showIcon
            title={`${shipment.override_by_name} let it go without the cartons not scanned: ${shipment.override_reason ?? ''}`}
          />
        )}
        <Table<OrderBox>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={boxes}
          columns={[
            { key: 'code', title: 'Carton', dataIndex: 'code' },
            {
              key: 'dock',
              title: 'At the dock',
              render: (_, box) =>
                box.dock_scanned_at ? (
                  <Tag color="green">scanned</Tag>
                ) : (
                  <Tag color="orange">not scanned</Tag>
                ),
            },
            { key: 'pallet', title: 'Pallet', render: (_, box) => box.pallet_code ?? '—' },
            {
              key: 'status',
              title: 'Status',
              render: (_, box) => ORDER_BOX_STATUS_WORDS[box.status],
            },
            { key: 'devices', title: 'Devices', dataIndex: 'devices' },
          ]}
        />
      </Space>
      {drawer === 'pickup' && (
        <ActionDrawer
          title={`Pickup of ${shipment.number}`}
          intro="The carrier takes the cartons: they are scanned out and the order ships."
          fields={[
            { name: 'carrier', label: 'Carrier', kind: 'text', required: true },
            { name: 'driver_name', label: 'Driver', kind: 'text', required: true },
          ]}
          schema={pickupSchema}
          initialValues={{ carrier: shipment.carrier }}
          submitLabel="Confirm pickup"
          run={async (values) => {
            await actions.pickup.mutateAsync({
              id: shipment.id,
              body: { carrier: String(values.carrier), driver_name: String(values.driver_name) },
            });
            return `${shipment.number} is on its way: order ${shipment.order_number} shipped.`;
          }}
          onClose={() => {
            setDrawer(null);
            onRefocus();
          }}
        />
      )}
      {drawer === 'override' && (
        <ActionDrawer
          title={`Let ${shipment.number} go without ${missing.join(', ')}`}
          intro="A manager's decision: your name and the reason are kept on the shipment."
          fields={[{ name: 'reason', label: 'Reason', kind: 'textarea', required: true }]}
          schema={shipmentOverrideSchema}
          initialValues={{}}
          submitLabel="Let it go"
          run={async (values) => {
            await actions.override.mutateAsync({ id: shipment.id, reason: String(values.reason) });
            return `${shipment.number} may leave without ${missing.length} carton(s).`;
          }}
          onClose={() => {
            setDrawer(null);
            onRefocus();
          }}
        />
      )}
    </section>
  );
}

/**
 * Dock scan-out (`/shipment/scan-out-to-ship`, DOMAIN.md 4.7), keyboard first: scan a carton's
 * label (its OB code or parcel label) and the station shows its shipment, the cartons expected
 * against those scanned, and the pallet being loaded; an unknown carton is refused aloud. The
 * pickup is confirmed with the carrier and driver once every carton is scanned, or a manager lets
 * the shipment go without the rest; the manifest prints the cartons and their scans.
 */
export default function DockScanOutPage({ entry }: PageProps) {
  const dock = useDockScan();
  const [station, setStation] = useStationName();
  const [shipmentId, setShipmentId] = useState<number | null>(null);
  const shipment = useShipment(shipmentId);
  const [log, setLog] = useState<ScanLine<DockScanResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const queue = useScanQueue({
    send: (code: string) => dock.scan(code, station.trim()),
    apply: (answer: DockScanAnswer) => {
      beep(FEEDBACK.tones[answer.result]);
      setLog((lines) => withAnswer(lines, answer));
      dock.apply(answer);
      if (answer.shipment) setShipmentId(answer.shipment.shipment.id);
    },
    failed: () => beep('error'),
  });
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a carton label"
          placeholder="Scan the OB label or the carton's parcel label"
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
      </Space>
      <StationColumns>
        <StationColumn title="Scans at this door">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty="Scan the first carton: each answer shows here."
          />
        </StationColumn>
        <StationColumn title="Shipment">
          {shipment.data ? (
            <ShipmentOnDock detail={shipment.data} onRefocus={scanner.refocus} />
          ) : (
            <Typography.Text type="secondary">
              Scan a carton: its shipment shows here.
            </Typography.Text>
          )}
        </StationColumn>
      </StationColumns>
    </Space>
  );
}
