import {
  SCAN_TONES,
  tacNumberResource,
  WAREHOUSE_BOX_OVERRIDE_PERMISSION,
  WAREHOUSE_BOX_SCAN_ACCESS,
  WAREHOUSE_BOX_ACCESS,
  type ReceiveScan,
  type ReceiveScanResult,
  type ScanLogEntry,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Input,
  Popconfirm,
  Space,
  Spin,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
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
  type ScanLine,
} from '../../../toolkit/station';
import { LearnTacModal } from '../../master-data';
import {
  openBoxLabel,
  useBoxActions,
  useBoxContent,
  useBoxScan,
  useScanLog,
} from '../api/warehouse-boxes.queries';
import { BOX_STATUS_COLORS, RECEIVING_FEEDBACK } from '../scan-feedback';
import { BoxDevices, QuarantinedDevices } from './box-devices';
import { OverrideModal } from './override-modal';

/** A line of the box's scan log; an unknown TAC's names the TAC to learn. */
type BoxScanLine = ScanLine<ReceiveScanResult> & { readonly tac?: string | null };

const lineOf = (entry: ScanLogEntry): BoxScanLine => ({
  key: `log-${entry.id}`,
  code: entry.code,
  at: entry.at,
  result: entry.result,
  message: entry.message,
  station: entry.station,
  userName: entry.user_name,
  tac: entry.tac,
});

type Dialog = { name: 'override' } | { name: 'learn'; tac: string; code: string } | null;

/**
 * The receiving station of one box, on the station toolkit (toolkit/station): the IMEI field keeps
 * the focus as a keyboard-wedge scanner needs, scans go one at a time in order, and each answer
 * shows at once in its colour with its beep and is put on the page: the box's counts, devices and
 * scan log move as the answer says, without reading the box again. They are the server's, so a
 * reload in the middle of a box loses nothing and another station at the box sees the same.
 */
export function ScanStation({ boxId, onBack }: { boxId: number; onBack: () => void }) {
  const content = useBoxContent(boxId);
  const log = useScanLog(boxId);
  const actions = useBoxActions(boxId);
  const boxScan = useBoxScan(boxId);
  const canScan = useCan(WAREHOUSE_BOX_SCAN_ACCESS);
  const canOverride = useCan({
    ...WAREHOUSE_BOX_ACCESS,
    andPermission: WAREHOUSE_BOX_OVERRIDE_PERMISSION,
  });
  const canLearn = useCan(tacNumberResource.manage);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [location, setLocation] = useState('');
  const [station, setStation] = useStationName();

  const box = content.data?.box;
  const receiving = box?.status === 'receiving';
  const scanning = canScan && receiving;
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, scanning);
  const queue = useScanQueue({
    send: (code) => boxScan.send(code, station.trim()),
    apply: (answer: ReceiveScan) => {
      beep(SCAN_TONES[answer.result]);
      return boxScan.apply(answer);
    },
    failed: () => beep('error'),
    // The server recorded the scan: the station shows what it holds instead.
    applyFailed: boxScan.reread,
  });
  const lines: BoxScanLine[] = [
    ...queue.queued.map(queuedLine),
    ...(log.data?.entries.map(lineOf) ?? []),
  ];

  const run = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify.success(success);
      return true;
    } catch (error) {
      showApiError(error);
      return false;
    } finally {
      scanner.refocus();
    }
  };

  const lastUndoable = content.data?.devices[0]?.undoable ? content.data.devices[0] : null;
  const undoLast = async () => {
    if (!lastUndoable) return;
    const code = lastUndoable.imei ?? lastUndoable.meid ?? '';
    await run(
      () => actions.undo.mutateAsync(lastUndoable.id),
      `${code} is out of the box: it is expected again.`,
    );
  };

  const close = async () => {
    if (!box) return;
    setRefusal(null);
    const differs = box.qty_expected !== null && box.qty_expected !== box.qty_scanned;
    if (differs && canOverride) {
      setDialog({ name: 'override' });
      return;
    }
    try {
      await actions.close.mutateAsync(null);
      notify.success(`Box ${box.code} is closed.`);
    } catch (error) {
      // The server says who may close it and why: shown on the station, where the sorter looks.
      setRefusal(error instanceof Error ? error.message : String(error));
    } finally {
      scanner.refocus();
    }
  };

  if (content.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="The box could not be loaded."
        description={content.error.message}
        action={
          <Space>
            <Button onClick={() => void content.refetch()}>Try again</Button>
            <Button onClick={onBack}>All boxes</Button>
          </Space>
        }
      />
    );
  }
  if (!box || !content.data) return <Spin />;
  const closeDialog = () => {
    setDialog(null);
    scanner.refocus();
  };

  return (
    <section aria-label={`Box ${box.code}`}>
      {/* The actions sit on the left, clear of the notifications at the top right. */}
      <Space orientation="vertical" size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Button onClick={onBack}>All boxes</Button>
          <Typography.Title level={4} style={{ margin: 0 }}>
            Box {box.code}
          </Typography.Title>
          <Tag color={BOX_STATUS_COLORS[box.status]} data-testid="box-status">
            {box.status.replace('_', ' ')}
          </Tag>
        </Space>
        <Space wrap>
          <Button onClick={() => void openBoxLabel(box.id).catch(showApiError)}>Print label</Button>
          {scanning && (
            <Popconfirm
              title={`Take ${lastUndoable?.imei ?? lastUndoable?.meid} out of the box?`}
              okText="Undo"
              onConfirm={undoLast}
              onOpenChange={(open) => !open && scanner.refocus()}
              disabled={!lastUndoable}
            >
              <Button disabled={!lastUndoable} loading={actions.undo.isPending}>
                Undo last scan
              </Button>
            </Popconfirm>
          )}
          {scanning && (
            <Button type="primary" onClick={() => void close()} loading={actions.close.isPending}>
              Close box
            </Button>
          )}
          {canOverride && (box.status === 'received' || box.status === 'staged') && (
            <Popconfirm
              title={`Reopen box ${box.code} to scan more into it?`}
              okText="Reopen"
              onConfirm={() =>
                run(() => actions.reopen.mutateAsync(), `Box ${box.code} is open again.`)
              }
            >
              <Button>Reopen</Button>
            </Popconfirm>
          )}
        </Space>
      </Space>

      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'invoice', label: 'Invoice', children: box.invoice_no },
          { key: 'vendor', label: 'Vendor', children: box.vendor },
          { key: 'label', label: 'Vendor label', children: box.vendor_label ?? '—' },
          { key: 'shipment', label: 'Shipment', children: box.inbound_shipment ?? '—' },
          { key: 'model', label: 'Expected model', children: box.expected_model ?? 'Any' },
          { key: 'discrepancies', label: 'Discrepancies', children: box.discrepancies },
          ...(box.closed_at
            ? [
                {
                  key: 'closed',
                  label: 'Closed',
                  children: `${when(box.closed_at)}${box.closed_by_name ? ` by ${box.closed_by_name}` : ''}`,
                },
              ]
            : []),
          ...(box.close_override_reason
            ? [{ key: 'override', label: 'Override', children: box.close_override_reason }]
            : []),
          ...(box.staging_location
            ? [{ key: 'staging', label: 'Staging', children: box.staging_location }]
            : []),
        ]}
      />
      <ExpectedFound
        tallies={[
          {
            key: 'scanned',
            label: 'Scanned',
            found: box.qty_scanned,
            expected: box.qty_expected,
            testId: 'box-counts',
          },
        ]}
      />
      {refusal && (
        <Alert
          type="warning"
          showIcon
          closable={{ onClose: () => setRefusal(null) }}
          title="The box stays open."
          description={refusal}
          style={{ marginBottom: 12 }}
          data-testid="close-refusal"
        />
      )}
      {scanning ? (
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <ScanInput
            ref={scanField}
            scanner={scanner}
            label="Scan an IMEI"
            placeholder="Scan or type an IMEI or MEID, then Enter"
            onScan={queue.enqueue}
          />
          <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        </Space>
      ) : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={
            receiving
              ? 'Scanning into boxes needs the permission warehouse-box.scan.'
              : `Box ${box.code} is ${box.status.replace('_', ' ')}: reopen it to scan more.`
          }
        />
      )}
      {canScan && (box.status === 'received' || box.status === 'staged') && (
        <Input.Search
          aria-label="Staging location"
          placeholder="Scan or type the staging location"
          enterButton={box.status === 'staged' ? 'Move' : 'Stage'}
          value={location}
          onChange={(event) => setLocation(event.target.value)}
          onSearch={(value) => {
            const code = value.trim();
            if (!code) return;
            void run(
              () => actions.stage.mutateAsync(code),
              `Box ${box.code} is staged at ${code.toUpperCase()}.`,
            ).then((done) => done && setLocation(''));
          }}
          loading={actions.stage.isPending}
          style={{ maxWidth: 420, marginBottom: 12 }}
        />
      )}
      <StationColumns>
        <StationColumn title="Scans at this box">
          {log.error && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 6 }}
              title="The scan log could not be read."
              description={log.error.message}
            />
          )}
          <ScanLog
            lines={lines}
            feedback={RECEIVING_FEEDBACK}
            empty="Scan the first IMEI: each answer shows here."
            action={(line) =>
              line.result === 'unknown_tac' && line.tac && canLearn && scanning ? (
                <Button
                  size="small"
                  onClick={() => setDialog({ name: 'learn', tac: line.tac!, code: line.code })}
                >
                  Learn TAC {line.tac}
                </Button>
              ) : undefined
            }
          />
        </StationColumn>
        <StationColumn title={`In the box (${content.data.devices.length})`}>
          <BoxDevices devices={content.data.devices} />
          {content.data.quarantined.length > 0 && (
            <>
              <Typography.Title level={3} style={{ fontSize: 14, marginTop: 16 }}>
                Sent to quarantine ({content.data.quarantined.length})
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                Scanned at this box and put in the quarantine tote: not in the box, nor counted.
              </Typography.Paragraph>
              <QuarantinedDevices devices={content.data.quarantined} />
            </>
          )}
        </StationColumn>
      </StationColumns>
      {dialog?.name === 'override' && (
        <OverrideModal
          box={box}
          onClose={closeDialog}
          onConfirm={async (reason) => {
            if (await run(() => actions.close.mutateAsync(reason), `Box ${box.code} is closed.`)) {
              setDialog(null);
            }
          }}
        />
      )}
      {dialog?.name === 'learn' && (
        <LearnTacModal
          tac={{ tac: dialog.tac }}
          onClose={closeDialog}
          // Learned: the same device is scanned again, and is received as the model.
          onLearned={() => queue.enqueue(dialog.code)}
        />
      )}
    </section>
  );
}
