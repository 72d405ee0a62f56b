import {
  CARRIER_NAMES,
  SHIP_SCAN_TONES,
  SHIPPING_SERVICE_INFO,
  type Parcel,
  type PackageUnit,
  type ShipScanResult,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Checkbox,
  Descriptions,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { ApiError } from '../../../shell/http-client';
import {
  beep,
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
import { useDock, useShippedToday } from '../api/dock.queries';
import { PackageStatusTag } from './label-actions';
import { allVerified, dockStep, expectedImeis } from '../dock-scan';

/** What a line of the dock's log says: the server's answers and the station's own checks. */
type DockResult = ShipScanResult | 'parcel' | 'device_ok' | 'device_wrong';

const FEEDBACK: ScanFeedback<DockResult> = {
  tones: { ...SHIP_SCAN_TONES, parcel: 'info', device_ok: 'info', device_wrong: 'error' },
  words: {
    shipped: 'Shipped',
    already_shipped: 'Already shipped',
    voided: 'Label voided',
    cancel_requested: 'Cancellation requested',
    day_closed: 'Day closed',
    not_ready: 'Not ready',
    device_mismatch: 'Wrong devices',
    other_campaign: 'Other campaign',
    unknown: 'Unknown parcel',
    parcel: 'Parcel',
    device_ok: 'Device checked',
    device_wrong: 'Not in this parcel',
  },
};

/** The station's answer to one code: a line of its log, and the parcel it now shows. */
type DockAnswer = {
  code: string;
  result: DockResult;
  message: string;
  parcel?: Parcel | null;
};

/** The parcel on the station: its order, carrier and the devices it must hold. */
function ParcelCard({ parcel, verified }: { parcel: Parcel; verified: ReadonlySet<string> }) {
  const { package: row } = parcel;
  return (
    <section aria-label={`Parcel ${row.tracking_number}`} data-testid="parcel">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        bordered
        items={[
          { key: 'order', label: 'Order', children: `${row.order_number} (${row.order_status})` },
          {
            key: 'service',
            label: 'Carrier',
            children: `${CARRIER_NAMES[row.carrier]} · ${SHIPPING_SERVICE_INFO[row.service].name}`,
          },
          { key: 'tracking', label: 'Tracking', children: row.tracking_number },
          { key: 'status', label: 'Package', children: <PackageStatusTag status={row.status} /> },
          { key: 'place', label: 'Ships to', children: row.place },
          { key: 'weight', label: 'Weight', children: `${row.weight_g} g` },
        ]}
      />
      <Table<PackageUnit>
        size="small"
        rowKey="unit_id"
        pagination={false}
        style={{ marginTop: 8 }}
        dataSource={parcel.units}
        columns={[
          { key: 'sku', title: 'Item', render: (_, unit) => `${unit.sku} ${unit.model ?? ''}` },
          {
            key: 'imei',
            title: 'Expected IMEI',
            render: (_, unit) =>
              unit.imei && (
                <Space size={4}>
                  {unit.imei}
                  {verified.has(unit.imei) && <Tag color="green">checked</Tag>}
                </Space>
              ),
          },
          { key: 'iccid', title: 'ICCID', render: (_, unit) => unit.iccid ?? '—' },
        ]}
      />
    </section>
  );
}

/**
 * The dock (DOMAIN.md 4.14 `/fulfill/scan-to-ship`, and 4.15's campaign scan-out scoped to a
 * campaign), keyboard only: scan a parcel's tracking barcode and the station shows its order and
 * the IMEIs it must hold; scan the devices to check them (the parcel ships once all are checked),
 * or scan the parcel again (or press "Ship") to ship it unchecked, unless the station requires the
 * check. The server refuses a voided label, an order whose cancellation was requested or, scoped,
 * a parcel of another campaign, and answers a parcel shipped already as such. Today's count comes
 * with every answer; `onShipped` hears of each parcel shipped.
 */
export function Dock({ campaignId, onShipped }: { campaignId?: number; onShipped?: () => void }) {
  const dock = useDock(campaignId);
  const today = useShippedToday();
  const [station, setStation] = useStationName();
  const [mustVerify, setMustVerify] = useState(
    () => localStorage.getItem('dockVerifyDevices') === 'yes',
  );
  const [current, setCurrent] = useState<Parcel | null>(null);
  const [verified, setVerified] = useState<ReadonlySet<string>>(new Set());
  // What the next scan is read against, set by each answer at once: a scanner reads the next
  // code before the page has drawn the last answer.
  const held = useRef<{ parcel: Parcel | null; verified: ReadonlySet<string> }>({
    parcel: null,
    verified: new Set(),
  });
  const [log, setLog] = useState<ScanLine<DockResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const ship = async (code: string, imeis?: string[]): Promise<DockAnswer> => {
    const answer = await dock.ship(code, station.trim(), imeis);
    dock.apply(answer);
    if (answer.result === 'shipped') onShipped?.();
    return answer;
  };

  const send = async (raw: string): Promise<DockAnswer> => {
    const { parcel: current, verified } = held.current;
    const step = dockStep(raw, current);
    if (step.kind === 'verify') {
      if (!step.known) {
        return {
          code: step.imei,
          result: 'device_wrong',
          message: `${step.imei} is not in parcel ${current!.package.tracking_number}.`,
        };
      }
      const checked = new Set(verified).add(step.imei);
      if (allVerified(current!, checked)) {
        return ship(current!.package.tracking_number, [...checked]);
      }
      return {
        code: step.imei,
        result: 'device_ok',
        message: `${checked.size} of ${expectedImeis(current!).length} devices checked.`,
        parcel: current,
      };
    }
    if (step.kind === 'confirm') {
      if (mustVerify && !allVerified(current!, verified)) {
        return {
          code: step.code,
          result: 'device_mismatch',
          message: 'This station ships a parcel once its devices are scanned: scan them first.',
          parcel: current,
        };
      }
      return ship(step.code, verified.size > 0 ? [...verified] : undefined);
    }
    try {
      const parcel = await dock.lookup(step.code);
      return {
        code: step.code,
        result: 'parcel',
        message: `Order ${parcel.package.order_number}: scan its ${expectedImeis(parcel).length} device(s) or the parcel again to ship it.`,
        parcel,
      };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return { code: step.code, result: 'unknown', message: error.message, parcel: null };
      }
      // Scoped to a campaign: a parcel of another order is set aside, not shown.
      if (error instanceof ApiError && error.status === 409) {
        return { code: step.code, result: 'other_campaign', message: error.message, parcel: null };
      }
      throw error;
    }
  };

  const apply = (answer: DockAnswer) => {
    beep(FEEDBACK.tones[answer.result]);
    setLog((lines) => withAnswer(lines, answer));
    let { parcel, verified: checked } = held.current;
    if (answer.parcel !== undefined) {
      if (answer.parcel?.package.id !== parcel?.package.id) checked = new Set();
      parcel = answer.parcel;
    }
    if (answer.result === 'device_ok') checked = new Set(checked).add(answer.code);
    held.current = { parcel, verified: checked };
    setCurrent(parcel);
    setVerified(checked);
  };

  const queue = useScanQueue({ send, apply, failed: () => beep('error') });
  const shippable =
    current !== null &&
    (current.package.status === 'label_created' || current.package.status === 'in_gaylord');

  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a parcel or a device"
          placeholder="Scan the tracking barcode, then the devices, then Enter"
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        <Statistic
          title="Shipped today"
          value={today.data?.today ?? '—'}
          valueRender={(node) => <span data-testid="shipped-today">{node}</span>}
        />
      </Space>
      <Space wrap>
        <Checkbox
          checked={mustVerify}
          onChange={(event) => {
            setMustVerify(event.target.checked);
            localStorage.setItem('dockVerifyDevices', event.target.checked ? 'yes' : 'no');
            scanner.refocus();
          }}
        >
          Ship only once every device is scanned
        </Checkbox>
        {shippable && (
          <Button
            type="primary"
            disabled={mustVerify && !allVerified(current, verified)}
            onClick={() => {
              queue.enqueue(current.package.tracking_number);
              scanner.refocus();
            }}
          >
            Ship {current.package.tracking_number}
          </Button>
        )}
      </Space>
      {current === null && (
        <Alert
          type="info"
          showIcon
          title="Scan a parcel's tracking barcode: its order and devices show here."
        />
      )}
      <StationColumns>
        <StationColumn title="Scans at this station">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty="Scan the first parcel: each answer shows here."
          />
        </StationColumn>
        <StationColumn title="Parcel">
          {current ? (
            <ParcelCard parcel={current} verified={verified} />
          ) : (
            <Typography.Text type="secondary">No parcel scanned yet.</Typography.Text>
          )}
        </StationColumn>
      </StationColumns>
    </Space>
  );
}
