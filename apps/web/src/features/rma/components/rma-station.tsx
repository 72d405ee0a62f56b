import {
  RMA_ACCESSORIES,
  RMA_ROUTES,
  rmaAttachments,
  type RmaAccessory,
  type RmaDetail,
  type RmaRoute,
  type RmaScanResult,
} from '@inventory/contract';
import { Alert, Button, Checkbox, Input, Space, Table, Typography, type InputRef } from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { ApiError } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
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
  findRmaToReceive,
  recordRmaChecklist,
  routeRmaDevice,
  scanIntoRma,
  useRefreshRmas,
} from '../api/rma.queries';
import { rmaScanStep } from '../rma-scan';
import { RmaFacts } from './rma-drawer';

type StationResult = RmaScanResult | 'rma' | 'unknown' | 'refused';

const FEEDBACK: ScanFeedback<StationResult> = {
  tones: {
    rma: 'info',
    unknown: 'error',
    refused: 'error',
    received: 'success',
    mismatch: 'error',
    already_received: 'info',
  },
  words: {
    rma: 'RMA',
    unknown: 'Unknown',
    refused: 'Not received',
    received: 'Received',
    mismatch: 'Mismatch',
    already_received: 'Received already',
  },
};

type StationAnswer = {
  code: string;
  result: StationResult;
  message: string;
  /** The RMA the station shows after it (undefined: unchanged). */
  detail?: RmaDetail | null;
};

const ROUTE_WORDS: Record<RmaRoute, string> = {
  reuse: 'Reuse',
  inspection: 'Inspection',
  repair: 'Repair',
};

const ACCESSORY_WORDS: Record<RmaAccessory, string> = {
  charger: 'Charger',
  cable: 'Cable',
  box: 'Box',
  sim_card: 'SIM card',
  case: 'Case',
  manual: 'Manual',
};

/** What came back with the devices: ticked, with the damage seen. */
function Checklist({ detail, onSaved }: { detail: RmaDetail; onSaved: (next: RmaDetail) => void }) {
  const [accessories, setAccessories] = useState<RmaAccessory[]>(detail.accessories);
  const [damage, setDamage] = useState(detail.damage_note ?? '');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      onSaved(
        await recordRmaChecklist(detail.rma.id, {
          accessories,
          damage_note: damage.trim() || null,
        }),
      );
      notify.success('Checklist saved.');
    } catch (error) {
      showApiError(error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Checkbox.Group<RmaAccessory>
        aria-label="Came back with"
        value={accessories}
        onChange={setAccessories}
        options={RMA_ACCESSORIES.map((value) => ({ value, label: ACCESSORY_WORDS[value] }))}
      />
      <Input.TextArea
        aria-label="Damage seen"
        placeholder="Damage seen (cracks, dents, water)"
        rows={2}
        maxLength={2000}
        value={damage}
        onChange={(event) => setDamage(event.target.value)}
      />
      <Button onClick={() => void save()} loading={saving}>
        Save checklist
      </Button>
    </Space>
  );
}

/** The RMA on the station: its devices with their routes, checklist and damage photos. */
function RmaCard({
  detail,
  onChanged,
}: {
  detail: RmaDetail;
  onChanged: (next: RmaDetail) => void;
}) {
  const [routing, setRouting] = useState<string | null>(null);
  const route = async (deviceId: number, to: RmaRoute) => {
    setRouting(`${deviceId}-${to}`);
    try {
      onChanged(await routeRmaDevice(detail.rma.id, { device_id: deviceId, route: to }));
      notify.success(`Sent to ${ROUTE_WORDS[to].toLowerCase()}.`);
    } catch (error) {
      showApiError(error);
    } finally {
      setRouting(null);
    }
  };
  const received = detail.lines.filter((line) => line.received_at !== null).length;
  return (
    <Space
      orientation="vertical"
      size="middle"
      style={{ width: '100%' }}
      data-testid="rma-on-station"
    >
      <RmaFacts detail={detail} />
      {detail.rma.mismatch_flagged && (
        <Alert
          type="warning"
          showIcon
          title="A device this RMA does not expect was scanned: a supervisor is told."
        />
      )}
      <ExpectedFound
        tallies={[
          {
            key: 'devices',
            label: 'Devices',
            found: received,
            expected: detail.lines.length,
            testId: 'rma-received-count',
          },
        ]}
      />
      <Table
        size="small"
        rowKey="device_id"
        pagination={false}
        dataSource={detail.lines}
        columns={[
          { key: 'imei', title: 'IMEI', dataIndex: 'imei' },
          { key: 'model', title: 'Model', dataIndex: 'model' },
          {
            key: 'received',
            title: 'Received',
            render: (_, line) => (line.received_at ? 'yes' : 'not yet'),
          },
          {
            key: 'route',
            title: 'Route',
            render: (_, line) =>
              line.route ? (
                ROUTE_WORDS[line.route]
              ) : line.received_at ? (
                <Space wrap>
                  {RMA_ROUTES.map((to) => (
                    <Button
                      key={to}
                      size="small"
                      aria-label={`Send ${line.imei} to ${ROUTE_WORDS[to].toLowerCase()}`}
                      loading={routing === `${line.device_id}-${to}`}
                      onClick={() => void route(line.device_id, to)}
                    >
                      {ROUTE_WORDS[to]}
                    </Button>
                  ))}
                </Space>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <section aria-labelledby="rma-checklist">
        <Typography.Title level={3} style={{ fontSize: 15 }} id="rma-checklist">
          Checklist
        </Typography.Title>
        <Checklist key={detail.rma.id} detail={detail} onSaved={onChanged} />
      </section>
      <section aria-labelledby="rma-station-photos">
        <Typography.Title level={3} style={{ fontSize: 15 }} id="rma-station-photos">
          Damage photos
        </Typography.Title>
        <AttachmentsPanel definition={rmaAttachments} recordId={detail.rma.id} />
      </section>
    </Space>
  );
}

/**
 * RMA receiving (DOMAIN.md 4.10 `/RMA/scan`), keyboard first: scan the return label (or type the
 * RMA number) and the station shows the devices the RMA expects; scan each IMEI found (a device
 * not on the RMA is a mismatch the supervisor sees), tick what came with them, attach damage
 * photos, and send each device to reuse, inspection or repair.
 */
export function RmaStation() {
  const [station, setStation] = useStationName();
  const [detail, setDetail] = useState<RmaDetail | null>(null);
  // What the next scan is read against, set by each answer at once (a scanner is faster than a
  // render).
  const held = useRef<RmaDetail | null>(null);
  const [log, setLog] = useState<ScanLine<StationResult>[]>([]);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);
  const refresh = useRefreshRmas();

  const show = (next: RmaDetail | null) => {
    held.current = next;
    setDetail(next);
  };

  const send = async (raw: string): Promise<StationAnswer> => {
    const current = held.current;
    const step = rmaScanStep(raw, current !== null);
    try {
      if (step.kind === 'device') {
        const answer = await scanIntoRma(current!.rma.id, {
          code: step.code,
          station: station || undefined,
        });
        return {
          code: step.code,
          result: answer.result,
          message: answer.words,
          detail: answer.detail,
        };
      }
      const next = await findRmaToReceive(step.code);
      return {
        code: step.code,
        result: 'rma',
        message: `${next.rma.number} (${next.rma.status.replace(/_/g, ' ')}): scan the IMEIs in it.`,
        detail: next,
      };
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) {
        return { code: step.code, result: 'unknown', message: error.message };
      }
      if (error instanceof ApiError && (error.status === 409 || error.status === 422)) {
        return { code: step.code, result: 'refused', message: error.message };
      }
      throw error;
    }
  };

  const apply = (answer: StationAnswer) => {
    beep(FEEDBACK.tones[answer.result]);
    setLog((lines) => withAnswer(lines, answer));
    if (answer.detail !== undefined) show(answer.detail);
    if (answer.result === 'received') void refresh();
  };

  const queue = useScanQueue({ send, apply, failed: () => beep('error') });

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap align="start" size="large">
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan a return label, an RMA number or an IMEI"
          placeholder="Return label or RMA number, then the IMEIs"
          onScan={queue.enqueue}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
      </Space>
      <StationColumns>
        <StationColumn title="Scans at this station">
          <ScanLog
            lines={[...queue.queued.map(queuedLine), ...log]}
            feedback={FEEDBACK}
            empty="Scan a return label or an RMA number: each answer shows here."
          />
        </StationColumn>
        <StationColumn title="RMA">
          {detail ? (
            <RmaCard
              detail={detail}
              onChanged={(next) => {
                show(next);
                void refresh();
                scanner.refocus();
              }}
            />
          ) : (
            <Typography.Text type="secondary">No RMA scanned yet.</Typography.Text>
          )}
        </StationColumn>
      </StationColumns>
    </Space>
  );
}
