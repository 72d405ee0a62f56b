import {
  CARRIER_NAMES,
  UNPACK_DISPOSITION_TEXT,
  UNPACK_DISPOSITIONS,
  UNPACK_REASON_TEXT,
  type ReturnedParcel,
  type UnpackDisposition,
  type UnpackItem,
  type UnpackRecord,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { ApiError } from '../../../shell/http-client';
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
import { findReturnedParcel, recordUnpack } from '../api/unpack.queries';
import {
  NOTHING_FOUND,
  unpackBody,
  unpackStep,
  unpackTallies,
  withScan,
  type Found,
} from '../unpack-scan';
import { UnidentifiedForm } from './unidentified-parcels';

type UnpackResult =
  | 'parcel'
  | 'unpacked_already'
  | 'unknown'
  | 'not_shipped'
  | 'expected'
  | 'unexpected'
  | 'unpacked'
  | 'refused';

const FEEDBACK: ScanFeedback<UnpackResult> = {
  tones: {
    parcel: 'info',
    unpacked_already: 'warning',
    unknown: 'error',
    not_shipped: 'error',
    expected: 'success',
    unexpected: 'warning',
    unpacked: 'success',
    refused: 'error',
  },
  words: {
    parcel: 'Parcel',
    unpacked_already: 'Unpacked already',
    unknown: 'Unknown parcel',
    not_shipped: 'Not shipped',
    expected: 'Expected',
    unexpected: 'Not expected',
    unpacked: 'Unpacked',
    refused: 'Not recorded',
  },
};

type StationAnswer = {
  code: string;
  result: UnpackResult;
  message: string;
  /** The parcel the station shows after it (undefined: unchanged). */
  parcel?: ReturnedParcel | null;
  found?: Found;
};

/** The parcel: where it went, why it came back, and what it should hold against what was found. */
function ParcelCard({
  parcel,
  found,
  onDisposition,
}: {
  parcel: ReturnedParcel;
  found: Found;
  onDisposition: (imei: string, disposition: UnpackDisposition) => void;
}) {
  type Row = { key: string; kind: string; code: string; what: string; expected: boolean };
  const expectedRows: Row[] = [
    ...parcel.devices.map((device) => ({
      key: `d${device.imei}`,
      kind: 'Device',
      code: device.imei,
      what: device.model,
      expected: true,
    })),
    ...parcel.sims.map((sim) => ({
      key: `s${sim.iccid}`,
      kind: 'SIM',
      code: sim.iccid,
      what: sim.ever_active ? 'SIM (was active)' : 'SIM',
      expected: true,
    })),
    ...parcel.accessories.map((accessory) => ({
      key: `a${accessory.sku}`,
      kind: 'Accessory',
      code: accessory.sku,
      what: `${accessory.description} × ${accessory.qty}`,
      expected: true,
    })),
  ];
  const extraRows: Row[] = [
    ...[...found.devices.keys()]
      .filter((imei) => !parcel.devices.some((device) => device.imei === imei))
      .map((imei) => ({ key: `d${imei}`, kind: 'Device', code: imei, what: '', expected: false })),
    ...found.iccids
      .filter((iccid) => !parcel.sims.some((sim) => sim.iccid === iccid))
      .map((iccid) => ({ key: `s${iccid}`, kind: 'SIM', code: iccid, what: '', expected: false })),
    ...[...found.accessories.keys()]
      .filter((sku) => !parcel.accessories.some((row) => row.sku.toUpperCase() === sku))
      .map((sku) => ({ key: `a${sku}`, kind: 'Accessory', code: sku, what: '', expected: false })),
  ];
  const foundQty = (row: Row) =>
    row.kind === 'Device'
      ? Number(found.devices.has(row.code))
      : row.kind === 'SIM'
        ? Number(found.iccids.includes(row.code))
        : (found.accessories.get(row.code.toUpperCase()) ?? 0);
  return (
    <section aria-label={`Parcel ${parcel.tracking_number}`} data-testid="returned-parcel">
      <Descriptions
        size="small"
        column={{ xs: 1, md: 2 }}
        bordered
        items={[
          {
            key: 'order',
            label: 'Order',
            children: `${parcel.order_number} (${parcel.order_status})`,
          },
          { key: 'tracking', label: 'Tracking', children: parcel.tracking_number },
          { key: 'carrier', label: 'Carrier', children: CARRIER_NAMES[parcel.carrier] },
          { key: 'reason', label: 'Came back', children: UNPACK_REASON_TEXT[parcel.reason] },
          { key: 'client', label: 'Client carrier', children: parcel.client_carrier ?? '—' },
          { key: 'place', label: 'Was going to', children: parcel.place },
        ]}
      />
      {parcel.unpack === null && (
        <div style={{ marginTop: 12 }}>
          <ExpectedFound tallies={unpackTallies(parcel, found)} />
        </div>
      )}
      {parcel.unpack === null && (
        <Table<Row>
          size="small"
          rowKey="key"
          pagination={false}
          style={{ marginTop: 8 }}
          dataSource={[...expectedRows, ...extraRows]}
          columns={[
            { key: 'kind', title: 'Kind', dataIndex: 'kind' },
            { key: 'code', title: 'IMEI / ICCID / SKU', dataIndex: 'code' },
            { key: 'what', title: 'Item', dataIndex: 'what' },
            {
              key: 'found',
              title: 'Found',
              render: (_, row) => {
                const qty = foundQty(row);
                return row.expected ? (
                  <Tag color={qty > 0 ? 'green' : 'default'}>
                    {qty > 0 ? `found ${qty}` : 'not yet'}
                  </Tag>
                ) : (
                  <Tag color="gold">not expected</Tag>
                );
              },
            },
            {
              key: 'disposition',
              title: 'Disposition',
              render: (_, row) =>
                row.kind === 'Device' && found.devices.has(row.code) ? (
                  <Select<UnpackDisposition>
                    size="small"
                    aria-label={`Disposition of ${row.code}`}
                    value={found.devices.get(row.code)}
                    style={{ minWidth: 180 }}
                    onChange={(value) => onDisposition(row.code, value)}
                    options={UNPACK_DISPOSITIONS.map((value) => ({
                      value,
                      label: UNPACK_DISPOSITION_TEXT[value],
                    }))}
                  />
                ) : null,
            },
          ]}
        />
      )}
    </section>
  );
}

/** What an unpacked parcel was recorded as: the outcome and each line. */
function UnpackedSummary({ unpack }: { unpack: UnpackRecord }) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert
        type={unpack.outcome === 'match' ? 'success' : 'warning'}
        showIcon
        data-testid="unpack-outcome"
        title={`Unpacked: ${unpack.outcome}${unpack.station ? ` at ${unpack.station}` : ''}${unpack.unpacked_by_name ? ` by ${unpack.unpacked_by_name}` : ''}.`}
      />
      <Table<UnpackItem>
        size="small"
        rowKey={(item) => `${item.kind}-${item.code}`}
        pagination={false}
        dataSource={unpack.items}
        columns={[
          { key: 'kind', title: 'Kind', dataIndex: 'kind' },
          { key: 'code', title: 'IMEI / ICCID / SKU', dataIndex: 'code' },
          { key: 'expected', title: 'Expected', dataIndex: 'expected_qty' },
          { key: 'found', title: 'Found', dataIndex: 'found_qty' },
          {
            key: 'disposition',
            title: 'Disposition',
            render: (_, item) =>
              item.disposition ? UNPACK_DISPOSITION_TEXT[item.disposition] : '',
          },
          { key: 'note', title: 'Note', render: (_, item) => item.note ?? '' },
        ]}
      />
    </Space>
  );
}

/**
 * The unpack station (DOMAIN.md 4.16 `/shipment-management/unpack`), keyboard first: scan a
 * returned parcel's tracking barcode (or its order number) and the station shows what it should
 * hold; scan the IMEIs, ICCIDs and accessory SKUs found, choose each device's disposition, and
 * scan the parcel again (or press "Record") to record it. A parcel nobody knows goes to the
 * unidentified bin with the form that opens for it.
 */
export function UnpackStation() {
  const [station, setStation] = useStationName();
  const [parcel, setParcel] = useState<ReturnedParcel | null>(null);
  const [found, setFound] = useState<Found>(NOTHING_FOUND);
  const [notes, setNotes] = useState('');
  const [unknownCode, setUnknownCode] = useState<string | null>(null);
  // What the next scan is read against, set by each answer at once (a scanner is faster than a
  // render).
  const held = useRef<{ parcel: ReturnedParcel | null; found: Found }>({
    parcel: null,
    found: NOTHING_FOUND,
  });
  const [log, setLog] = useState<ScanLine<UnpackResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const record = async (current: ReturnedParcel, now: Found): Promise<StationAnswer> => {
    const code = current.tracking_number;
    try {
      const answer = await recordUnpack(current.package_id, unpackBody(now, station, notes));
      return {
        code,
        result: 'unpacked',
        message: `${answer.order_number} unpacked: ${answer.unpack!.outcome}.`,
        parcel: answer,
        found: NOTHING_FOUND,
      };
    } catch (error) {
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) {
        return { code, result: 'refused', message: error.message };
      }
      throw error;
    }
  };

  const send = async (raw: string): Promise<StationAnswer> => {
    const { parcel: current, found: now } = held.current;
    const step = unpackStep(raw, current?.unpack === null ? current : null);
    switch (step.kind) {
      case 'record':
        return record(current!, now);
      case 'device':
      case 'sim':
      case 'accessory': {
        const code =
          step.kind === 'device' ? step.imei : step.kind === 'sim' ? step.iccid : step.sku;
        return {
          code,
          result: step.expected ? 'expected' : 'unexpected',
          message: step.expected
            ? `In ${current!.order_number}.`
            : `Not expected in ${current!.order_number}: recorded as found.`,
          found: withScan(now, step),
        };
      }
      case 'lookup':
        try {
          const next = await findReturnedParcel(step.code);
          return {
            code: step.code,
            result: next.unpack ? 'unpacked_already' : 'parcel',
            message: next.unpack
              ? `${next.order_number} was unpacked already.`
              : `${next.order_number}: scan what is inside, then the parcel again.`,
            parcel: next,
            found: NOTHING_FOUND,
          };
        } catch (error) {
          if (error instanceof ApiError && error.status === 404) {
            return { code: step.code, result: 'unknown', message: error.message, parcel: null };
          }
          if (error instanceof ApiError && error.status === 409) {
            return { code: step.code, result: 'not_shipped', message: error.message, parcel: null };
          }
          throw error;
        }
    }
  };

  const apply = (answer: StationAnswer) => {
    beep(FEEDBACK.tones[answer.result]);
    setLog((lines) => withAnswer(lines, answer));
    const next = {
      parcel: answer.parcel === undefined ? held.current.parcel : answer.parcel,
      found: answer.found ?? held.current.found,
    };
    held.current = next;
    setParcel(next.parcel);
    setFound(next.found);
    if (answer.parcel !== undefined) setNotes('');
    setUnknownCode(answer.result === 'unknown' ? answer.code : null);
  };

  const queue = useScanQueue({ send, apply, failed: () => beep('error') });
  const open = parcel !== null && parcel.unpack === null;

  const choose = (imei: string, disposition: UnpackDisposition) => {
    const next = { ...held.current.found, devices: new Map(held.current.found.devices) };
    next.devices.set(imei, disposition);
    held.current = { ...held.current, found: next };
    setFound(next);
    scanner.refocus();
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a parcel or what is inside"
          placeholder="Tracking barcode, then IMEIs, ICCIDs and SKUs, then the parcel again"
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
      </Space>
      {open && (
        <Space wrap align="start">
          <Input.TextArea
            aria-label="Notes on the parcel"
            placeholder="Notes (damage, paperwork, what the customer wrote)"
            rows={2}
            maxLength={1000}
            style={{ minWidth: 360 }}
            value={notes}
            onChange={(event) => setNotes(event.target.value)}
          />
          <Button
            type="primary"
            onClick={() => {
              queue.enqueue(parcel.tracking_number);
              scanner.refocus();
            }}
          >
            {found.devices.size + found.iccids.length + found.accessories.size === 0
              ? `Record ${parcel.tracking_number} as empty`
              : `Record ${parcel.tracking_number}`}
          </Button>
        </Space>
      )}
      {unknownCode !== null && (
        <UnidentifiedForm
          code={unknownCode}
          station={station}
          onDone={() => {
            setUnknownCode(null);
            scanner.refocus();
          }}
        />
      )}
      <StationColumns>
        <StationColumn title="Scans at this station">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty="Scan a returned parcel: each answer shows here."
          />
        </StationColumn>
        <StationColumn title="Parcel">
          {parcel ? (
            <Space orientation="vertical" style={{ width: '100%' }}>
              <ParcelCard parcel={parcel} found={found} onDisposition={choose} />
              {parcel.unpack && <UnpackedSummary unpack={parcel.unpack} />}
            </Space>
          ) : (
            <Typography.Text type="secondary">No parcel scanned yet.</Typography.Text>
          )}
        </StationColumn>
      </StationColumns>
    </Space>
  );
}
