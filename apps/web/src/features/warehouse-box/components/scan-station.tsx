import {
  tacNumberResource,
  WAREHOUSE_BOX_OVERRIDE_PERMISSION,
  WAREHOUSE_BOX_SCAN_ACCESS,
  WAREHOUSE_BOX_ACCESS,
  type BoxContent,
  type ReceiveScanResult,
  type ScanLogEntry,
  type WarehouseBox,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Progress,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
  type InputRef,
  type TableColumnsType,
} from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { useCan } from '../../../shell/use-can';
import { when } from '../../../toolkit/format';
import { DeviceStatusTag, deviceLookupPath, HoldTag } from '../../inventory';
import { LearnTacModal } from '../../master-data/components/unknown-tacs';
import {
  openBoxLabel,
  useBoxActions,
  useBoxContent,
  useScanLog,
} from '../api/warehouse-boxes.queries';
import {
  beep,
  BOX_STATUS_COLORS,
  countText,
  RESULT_WORDS,
  TONE_COLORS,
  toneOf,
  type ScanTone,
} from '../scan-feedback';

/** One line of the station's scan list: a scan of the box's log, or this tab's scan on its way. */
type ScanLine = {
  readonly key: string;
  readonly code: string;
  readonly at: string;
  readonly tone: ScanTone | 'pending';
  readonly words: string;
  readonly message: string;
  readonly result?: ReceiveScanResult;
  /** The station that scanned it, and who. */
  readonly station?: string | null;
  readonly userName?: string | null;
  /** The TAC to learn, for an unknown TAC. */
  readonly tac?: string | null;
};

const lineOf = (entry: ScanLogEntry): ScanLine => ({
  key: `log-${entry.id}`,
  code: entry.code,
  at: entry.at,
  tone: toneOf(entry.result),
  words: RESULT_WORDS[entry.result],
  message: entry.message,
  result: entry.result,
  station: entry.station,
  userName: entry.user_name,
  tac: entry.tac,
});

/**
 * The box's scans: its log as the server keeps it (every station's, refused ones included), and
 * above it this tab's scans that have no answer yet or never reached the log (the request
 * failed). A scan's own line goes once its answer is in the log, which the scan refreshes.
 */
function useScanLines(boxId: number) {
  const log = useScanLog(boxId);
  const [local, setLocal] = useState<ScanLine[]>([]);
  const add = useCallback((line: ScanLine) => setLocal((current) => [line, ...current]), []);
  const settle = useCallback(
    (key: string, line: Partial<ScanLine>) =>
      setLocal((current) => current.map((old) => (old.key === key ? { ...old, ...line } : old))),
    [],
  );
  const drop = useCallback(
    (key: string) => setLocal((current) => current.filter((old) => old.key !== key)),
    [],
  );
  const lines = [...local, ...(log.data?.entries.map(lineOf) ?? [])];
  return { lines, add, settle, drop, error: log.error };
}

/** Where the browser keeps the name of its station (a bench, a dock door) across boxes. */
const STATION_KEY = 'scanStation';

/** The station's name, kept in the browser: every scan carries it onto the device's timeline. */
function useStationName() {
  const [station, setStation] = useState(() => localStorage.getItem(STATION_KEY) ?? '');
  const change = useCallback((name: string) => {
    setStation(name);
    const kept = name.trim();
    if (kept) localStorage.setItem(STATION_KEY, kept);
    else localStorage.removeItem(STATION_KEY);
  }, []);
  return [station, change] as const;
}

let lineNumber = 0;

/**
 * The scan list: each answer in its colour, newest first, with the station and person that scanned
 * it and its next step where there is one.
 */
function ScanList({
  lines,
  onLearn,
}: {
  lines: readonly ScanLine[];
  onLearn?: (line: ScanLine) => void;
}) {
  if (lines.length === 0) {
    return <Empty description="Scan the first IMEI: each answer shows here." />;
  }
  return (
    <ol aria-label="Scans" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {lines.map((line) => (
        <li key={line.key} data-testid="scan-line" data-result={line.result ?? 'pending'}>
          <Alert
            style={{ marginBottom: 6 }}
            type={line.tone === 'pending' ? 'info' : line.tone}
            title={
              <Space wrap>
                <Typography.Text strong copyable={{ text: line.code }}>
                  {line.code}
                </Typography.Text>
                <Tag color={line.tone === 'pending' ? 'default' : TONE_COLORS[line.tone]}>
                  {line.words}
                </Tag>
                <Typography.Text type="secondary">
                  {new Date(line.at).toLocaleTimeString()}
                </Typography.Text>
                {line.station && <Tag data-testid="scan-station">{line.station}</Tag>}
                {line.userName && (
                  <Typography.Text type="secondary">{line.userName}</Typography.Text>
                )}
              </Space>
            }
            description={line.message || undefined}
            action={
              line.result === 'unknown_tac' && line.tac && onLearn ? (
                <Button size="small" onClick={() => onLearn(line)}>
                  Learn TAC {line.tac}
                </Button>
              ) : undefined
            }
          />
        </li>
      ))}
    </ol>
  );
}

/** Closing a box whose count differs from the expected one: a manager's reason. */
function OverrideModal({
  box,
  onClose,
  onConfirm,
}: {
  box: WarehouseBox;
  onClose: () => void;
  onConfirm: (reason: string) => Promise<void>;
}) {
  const [form] = Form.useForm<{ reason: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Modal
      open
      title={`Close box ${box.code} with a manager override`}
      okText="Close the box"
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
    >
      <Typography.Paragraph>
        {box.qty_scanned} scanned of {box.qty_expected} expected. Say why the box is closed anyway;
        the reason stays on the box and in the audit log.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        onFinish={async ({ reason }) => {
          setSaving(true);
          try {
            await onConfirm(reason.trim());
          } finally {
            setSaving(false);
          }
        }}
      >
        <Form.Item
          label="Reason"
          name="reason"
          rules={[{ required: true, whitespace: true, message: 'Say why the box is closed.' }]}
        >
          <Input.TextArea rows={3} maxLength={500} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

type ListedDevice = BoxContent['quarantined'][number];

/** What both lists of a box show of a device, its code linked to its card. */
function deviceColumns<T extends ListedDevice>(): TableColumnsType<T> {
  return [
    {
      key: 'imei',
      title: 'IMEI',
      render: (_, device) => {
        const code = device.imei ?? device.meid ?? '';
        return <Link to={deviceLookupPath(code)}>{code}</Link>;
      },
    },
    { key: 'model', dataIndex: 'model', title: 'Model' },
    { key: 'color', title: 'Colour', render: (_, device) => device.color ?? '—' },
    {
      key: 'capacity',
      title: 'Capacity',
      render: (_, device) => (device.capacity_gb ? `${device.capacity_gb} GB` : '—'),
    },
  ];
}

/** The box's devices as the server holds them, newest first. */
function BoxDevices({ content }: { content: BoxContent }) {
  return (
    <Table<BoxContent['devices'][number]>
      aria-label="Devices in the box"
      size="small"
      rowKey="id"
      dataSource={content.devices}
      pagination={{ pageSize: 50, hideOnSinglePage: true }}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: 'No device in this box yet.' }}
      columns={[
        ...deviceColumns<BoxContent['devices'][number]>(),
        {
          key: 'result',
          title: 'Scan',
          render: (_, device) => (
            <Tag color={TONE_COLORS[toneOf(device.result)]}>{RESULT_WORDS[device.result]}</Tag>
          ),
        },
        {
          key: 'status',
          title: 'Status',
          render: (_, device) => <DeviceStatusTag status={device.status} />,
        },
        { key: 'received_at', title: 'Received', render: (_, device) => when(device.received_at) },
      ]}
    />
  );
}

/**
 * Devices scanned at the box that went to the quarantine tote: apart from the box's list and
 * count, which are what is physically in it, so that a short count reads right.
 */
function QuarantinedDevices({ devices }: { devices: readonly ListedDevice[] }) {
  return (
    <Table<ListedDevice>
      aria-label="Sent to quarantine"
      size="small"
      rowKey="id"
      dataSource={devices}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        ...deviceColumns<ListedDevice>(),
        {
          key: 'hold',
          title: 'Hold',
          render: (_, device) => <HoldTag reason={device.hold_reason} />,
        },
        { key: 'received_at', title: 'Scanned', render: (_, device) => when(device.received_at) },
      ]}
    />
  );
}

type Dialog = { name: 'override' } | { name: 'learn'; line: ScanLine } | null;

/**
 * The scan station of one box. The IMEI input keeps the focus and Enter sends the code, as a
 * keyboard-wedge scanner types it; each answer shows at once in its colour with its beep. The
 * box's counts, devices and scan log come from the server, so a reload in the middle of a box
 * loses nothing and another station at the box sees the same.
 */
export function ScanStation({ boxId, onBack }: { boxId: number; onBack: () => void }) {
  const content = useBoxContent(boxId);
  const actions = useBoxActions(boxId);
  const log = useScanLines(boxId);
  const canScan = useCan(WAREHOUSE_BOX_SCAN_ACCESS);
  const canOverride = useCan({
    ...WAREHOUSE_BOX_ACCESS,
    andPermission: WAREHOUSE_BOX_OVERRIDE_PERMISSION,
  });
  const canLearn = useCan(tacNumberResource.manage);
  const [typed, setTyped] = useState('');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [location, setLocation] = useState('');
  const [station, setStation] = useStationName();
  const input = useRef<InputRef>(null);
  const refocus = useCallback(() => setTimeout(() => input.current?.focus(), 0), []);

  const box = content.data?.box;
  const receiving = box?.status === 'receiving';
  const scanning = canScan && receiving;

  // A scanner types into the station wherever the focus was left (on a button, after a dialog
  // gave it back): a character typed outside any field goes to the scan input. Tab, Enter, Space
  // and the arrows still work the buttons, so the page stays usable from the keyboard.
  useEffect(() => {
    if (!scanning) return;
    const redirect = (event: KeyboardEvent) => {
      if (event.key.length !== 1 || event.key === ' ') return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const active = document.activeElement;
      if (
        active instanceof HTMLElement &&
        (active.isContentEditable ||
          active.closest('input, textarea, select, [role="dialog"], [role="tooltip"]'))
      ) {
        return;
      }
      input.current?.focus();
    };
    document.addEventListener('keydown', redirect, true);
    return () => document.removeEventListener('keydown', redirect, true);
  }, [scanning]);

  const scan = async (raw: string) => {
    const code = raw.trim();
    if (!code) return;
    lineNumber += 1;
    const key = `${Date.now()}-${lineNumber}`;
    log.add({
      key,
      code,
      at: new Date().toISOString(),
      tone: 'pending',
      words: 'Checking',
      message: '',
    });
    try {
      // Resolved once the box's log is read again: the answer shows there, as every station sees it.
      const answer = await actions.scan.mutateAsync({ code, station: station.trim() });
      log.drop(key);
      beep(toneOf(answer.result));
    } catch (error) {
      log.settle(key, {
        tone: 'error',
        words: 'Not scanned',
        message: error instanceof Error ? error.message : String(error),
      });
      beep('error');
    }
  };

  const submit = () => {
    const code = typed;
    setTyped('');
    void scan(code);
  };

  const run = async (work: () => Promise<unknown>, success: string) => {
    try {
      await work();
      notify.success(success);
      return true;
    } catch (error) {
      showApiError(error);
      return false;
    } finally {
      refocus();
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
      refocus();
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

  const percent = box.qty_expected ? Math.round((box.qty_scanned / box.qty_expected) * 100) : null;

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
              onOpenChange={(open) => !open && refocus()}
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
          {
            key: 'counts',
            label: 'Scanned',
            children: (
              <Typography.Text strong data-testid="box-counts">
                {countText(box.qty_scanned, box.qty_expected)}
              </Typography.Text>
            ),
          },
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
      {percent !== null && (
        <Progress
          aria-label="Scanned of expected"
          percent={Math.min(percent, 100)}
          status={box.qty_scanned > box.qty_expected! ? 'exception' : undefined}
          format={() => countText(box.qty_scanned, box.qty_expected)}
          style={{ marginBottom: 12 }}
        />
      )}
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
        <Space wrap align="start">
          <Input
            ref={input}
            aria-label="Scan an IMEI"
            placeholder="Scan or type an IMEI or MEID, then Enter"
            size="large"
            autoFocus
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            onPressEnter={submit}
            // The station keeps the focus: a click on the page's background returns it here.
            onBlur={(event) => {
              if (!event.relatedTarget && !dialog) refocus();
            }}
            style={{ width: 560, maxWidth: '100%', marginBottom: 12 }}
          />
          <Input
            aria-label="Station name"
            prefix="Station:"
            placeholder="e.g. dock-1"
            size="large"
            maxLength={60}
            value={station}
            onChange={(event) => setStation(event.target.value)}
            onPressEnter={refocus}
            style={{ width: 260, marginBottom: 12 }}
          />
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
      <div
        style={{
          display: 'grid',
          gap: 16,
          gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))',
        }}
      >
        <div>
          <Typography.Title level={5}>Scans at this box</Typography.Title>
          {log.error && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 6 }}
              title="The scan log could not be read."
              description={log.error.message}
            />
          )}
          <ScanList
            lines={log.lines}
            onLearn={
              canLearn && scanning ? (line) => setDialog({ name: 'learn', line }) : undefined
            }
          />
        </div>
        <div>
          <Typography.Title level={5}>In the box ({content.data.devices.length})</Typography.Title>
          <BoxDevices content={content.data} />
          {content.data.quarantined.length > 0 && (
            <>
              <Typography.Title level={5} style={{ marginTop: 16 }}>
                Sent to quarantine ({content.data.quarantined.length})
              </Typography.Title>
              <Typography.Paragraph type="secondary">
                Scanned at this box and put in the quarantine tote: not in the box, nor counted.
              </Typography.Paragraph>
              <QuarantinedDevices devices={content.data.quarantined} />
            </>
          )}
        </div>
      </div>
      {dialog?.name === 'override' && (
        <OverrideModal
          box={box}
          onClose={() => {
            setDialog(null);
            refocus();
          }}
          onConfirm={async (reason) => {
            if (await run(() => actions.close.mutateAsync(reason), `Box ${box.code} is closed.`)) {
              setDialog(null);
            }
          }}
        />
      )}
      {dialog?.name === 'learn' && dialog.line.tac && (
        <LearnTacModal
          tac={{ tac: dialog.line.tac }}
          onClose={() => {
            setDialog(null);
            refocus();
          }}
          // Learned: the same device is scanned again, and is received as the model.
          onLearned={() => void scan(dialog.line.code)}
        />
      )}
    </section>
  );
}
