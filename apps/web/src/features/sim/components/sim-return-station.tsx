import {
  EVER_ACTIVE_DISPOSITIONS,
  parseIccid,
  SIM_DISPOSITION_TEXT,
  SIM_DISPOSITIONS,
  SIM_RETURN_FLAG_TEXT,
  SIM_RETURN_SCAN_TONES,
  type SimDisposition,
  type SimReturn,
  type SimReturnLine,
  type SimReturnScanAnswer,
  type SimReturnScanResult,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Input,
  Modal,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
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
import {
  openSimReturnLabel,
  useSimReturn,
  useSimReturnActions,
  useSimReturnScan,
} from '../api/sim-returns.queries';

export const SIM_RETURN_STATUS_COLORS: Record<SimReturn['status'], string> = {
  open: 'blue',
  receiving: 'gold',
  closed: 'green',
  cancelled: 'default',
};

const FEEDBACK: ScanFeedback<SimReturnScanResult> = {
  tones: SIM_RETURN_SCAN_TONES,
  words: {
    returned: 'Returned',
    already_received: 'Already received',
    not_agents: SIM_RETURN_FLAG_TEXT.not_agents,
    unknown: SIM_RETURN_FLAG_TEXT.unknown,
    not_returnable: SIM_RETURN_FLAG_TEXT.not_returnable,
  },
};

/** A received line of the return as a line of the station's log. */
const logLineOf = (line: SimReturnLine): ScanLine<SimReturnScanResult> => ({
  key: `line-${line.id}`,
  code: line.iccid,
  at: line.received_at!,
  result: line.flag ?? 'returned',
  message: line.flag ? 'Set aside: it moved nothing.' : '',
  station: line.station,
  userName: line.received_by_name,
});

const DISPOSITION_OPTIONS = SIM_DISPOSITIONS.map((value) => ({
  value,
  label: SIM_DISPOSITION_TEXT[value],
}));

/** What a line's SIM is now, in words: its disposition, its flag, or its state. */
function LineState({ line }: { line: SimReturnLine }) {
  if (line.flag) return <Tag color="red">{SIM_RETURN_FLAG_TEXT[line.flag]}</Tag>;
  if (line.disposition) return <Tag color="green">{SIM_DISPOSITION_TEXT[line.disposition]}</Tag>;
  if (line.received_at) return <Tag color="gold">Waiting for a disposition</Tag>;
  return <Tag>Expected</Tag>;
}

/** Asks why a SIM goes back to the carrier as defective. */
function DefectiveDialog({
  iccid,
  onClose,
  onConfirm,
}: {
  iccid: string;
  onClose: () => void;
  onConfirm: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal
      open
      title={`Send ${iccid} to the carrier as defective`}
      okText="Defective to carrier"
      okButtonProps={{ disabled: reason.trim() === '' }}
      onCancel={onClose}
      onOk={() => onConfirm(reason.trim())}
    >
      <label htmlFor="defective-reason">What is wrong with it?</label>
      <Input.TextArea
        id="defective-reason"
        value={reason}
        maxLength={500}
        rows={2}
        onChange={(event) => setReason(event.target.value)}
      />
    </Modal>
  );
}

/**
 * The receiving station of one SIM return, on the station toolkit: the ICCID field keeps the
 * focus, each ICCID is checked (Luhn) before it is sent, scans go one at a time and each answer
 * is put on the page; the SIMs received get their disposition one by one or all at once, and the
 * return closes once none waits. The server's refusals (a SIM ever active is never restocked) show
 * on the station.
 */
export function SimReturnStation({ id, onBack }: { id: number; onBack: () => void }) {
  const detail = useSimReturn(id);
  const scan = useSimReturnScan(id);
  const actions = useSimReturnActions(id);
  const [station, setStation] = useStationName();
  const [repeats, setRepeats] = useState<ScanLine<SimReturnScanResult>[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [defective, setDefective] = useState<SimReturnLine | null>(null);
  const [bulk, setBulk] = useState<{
    never_active: SimDisposition | null;
    ever_active: (typeof EVER_ACTIVE_DISPOSITIONS)[number] | null;
    reason: string;
  }>({ never_active: 'restock', ever_active: 'destroy', reason: '' });

  const found = detail.data?.return;
  const scanning = found?.status === 'open' || found?.status === 'receiving';
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, scanning);
  const queue = useScanQueue({
    send: async (code: string) => {
      const parsed = parseIccid(code);
      if (!parsed.ok) throw new Error(parsed.message);
      return scan.send(parsed.value.iccid, station.trim());
    },
    apply: (answer: SimReturnScanAnswer) => {
      beep(SIM_RETURN_SCAN_TONES[answer.result]);
      if (answer.result === 'already_received') setRepeats((lines) => withAnswer(lines, answer));
      return scan.apply(answer);
    },
    failed: () => beep('error'),
    applyFailed: scan.reread,
  });

  const run = async (work: () => Promise<unknown>, success: string) => {
    setRefusal(null);
    try {
      await work();
      notify.success(success);
      return true;
    } catch (error) {
      // A refusal is shown on the station, where the person at the bench looks.
      const fields = fieldErrorsOf(error);
      setRefusal(
        fields
          ? Object.values(fields).flat().join(' ')
          : error instanceof Error
            ? error.message
            : String(error),
      );
      return false;
    } finally {
      scanner.refocus();
    }
  };

  if (detail.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title="The return could not be loaded."
        description={detail.error.message}
        action={
          <Space>
            <Button onClick={() => void detail.refetch()}>Try again</Button>
            <Button onClick={onBack}>All returns</Button>
          </Space>
        }
      />
    );
  }
  if (!found || !detail.data) return <Spin />;
  const { lines } = detail.data;
  const log = [
    ...queue.queued.map(queuedLine),
    ...[...repeats, ...lines.filter((line) => line.received_at !== null).map(logLineOf)].sort(
      (a, b) => b.at.localeCompare(a.at),
    ),
  ];
  const waiting = lines.filter((line) => line.received_at && !line.flag && !line.disposition);
  const receiving = found.status === 'receiving';

  const dispose = (line: SimReturnLine, disposition: SimDisposition, reason?: string) =>
    run(
      () => actions.dispose.mutateAsync({ lineId: line.id, disposition, reason: reason ?? null }),
      `${line.iccid}: ${SIM_DISPOSITION_TEXT[disposition].toLowerCase()}.`,
    );

  const columns = [
    { title: 'ICCID', key: 'iccid', render: (_: unknown, line: SimReturnLine) => line.iccid },
    {
      title: 'SIM',
      key: 'sim',
      render: (_: unknown, line: SimReturnLine) => (
        <Space wrap size={4}>
          {line.sim_status && <Tag>{line.sim_status.replace(/_/g, ' ')}</Tag>}
          {line.ever_active && (
            <Tag color="volcano">
              Was active{line.activated_at && ` ${line.activated_at.slice(0, 10)}`}
            </Tag>
          )}
          {line.carrier}
        </Space>
      ),
    },
    {
      title: 'State',
      key: 'state',
      render: (_: unknown, line: SimReturnLine) => <LineState line={line} />,
    },
    {
      title: 'Disposition',
      key: 'actions',
      render: (_: unknown, line: SimReturnLine) =>
        receiving && line.received_at && !line.flag && !line.disposition ? (
          <Space wrap size={4}>
            <Button
              size="small"
              aria-label={`Restock ${line.iccid}`}
              onClick={() => void dispose(line, 'restock')}
            >
              Restock
            </Button>
            <Button
              size="small"
              danger
              aria-label={`Destroy ${line.iccid}`}
              onClick={() => void dispose(line, 'destroy')}
            >
              Destroy
            </Button>
            <Button
              size="small"
              aria-label={`Defective to carrier ${line.iccid}`}
              onClick={() => setDefective(line)}
            >
              Defective
            </Button>
          </Space>
        ) : null,
    },
  ];

  return (
    <section aria-label={`SIM return ${found.number}`}>
      <Space orientation="vertical" size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <Button onClick={onBack}>All returns</Button>
          <Typography.Title level={2} style={{ margin: 0, fontSize: 20 }}>
            Return {found.number}
          </Typography.Title>
          <Tag color={SIM_RETURN_STATUS_COLORS[found.status]} data-testid="return-status">
            {found.status}
          </Tag>
        </Space>
        <Space wrap>
          <Button onClick={() => void openSimReturnLabel(found.id).catch(showApiError)}>
            Print label
          </Button>
          {receiving && (
            <Button
              type="primary"
              loading={actions.close.isPending}
              onClick={() =>
                void run(() => actions.close.mutateAsync(), `Return ${found.number} is closed.`)
              }
            >
              Close return
            </Button>
          )}
          {found.status === 'open' && (
            <Popconfirm
              title={`Cancel return ${found.number}? Nothing was scanned into it.`}
              okText="Cancel return"
              cancelText="Keep it"
              onConfirm={() =>
                run(() => actions.cancel.mutateAsync(null), `Return ${found.number} is cancelled.`)
              }
              onOpenChange={(open) => !open && scanner.refocus()}
            >
              <Button danger>Cancel return</Button>
            </Popconfirm>
          )}
        </Space>
      </Space>
      <Descriptions
        size="small"
        column={{ xs: 1, md: 3 }}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'source', label: 'From', children: found.source },
          { key: 'agent', label: 'Agent', children: found.agent ?? '—' },
          { key: 'reason', label: 'Reason', children: found.reason },
          { key: 'created', label: 'Created', children: when(found.created_at) },
          { key: 'by', label: 'Created by', children: found.created_by_name ?? '—' },
          ...(found.note ? [{ key: 'note', label: 'Note', children: found.note }] : []),
        ]}
      />
      <ExpectedFound
        tallies={[
          {
            key: 'received',
            label: 'Received',
            found: found.qty_received,
            expected: found.qty_expected > 0 ? found.qty_expected : null,
            testId: 'return-received',
          },
          {
            key: 'disposed',
            label: 'Disposed of',
            found: found.qty_disposed,
            expected: found.qty_received,
            testId: 'return-disposed',
          },
          { key: 'flagged', label: 'Set aside', found: found.qty_flagged, expected: null },
        ]}
      />
      {refusal && (
        <Alert
          type="warning"
          showIcon
          closable={{ onClose: () => setRefusal(null) }}
          title="Refused"
          description={refusal}
          style={{ marginBottom: 12 }}
          data-testid="station-refusal"
        />
      )}
      {scanning ? (
        <Space wrap align="start" style={{ marginBottom: 12 }}>
          <ScanInput
            ref={scanField}
            scanner={scanner}
            label="Scan an ICCID"
            placeholder="Scan or type an ICCID, then Enter"
            onScan={queue.enqueue}
          />
          <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        </Space>
      ) : (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={`Return ${found.number} is ${found.status}: nothing more is scanned into it.`}
        />
      )}
      {receiving && waiting.length > 0 && (
        <Space wrap align="end" style={{ marginBottom: 12 }} aria-label="Dispose of all waiting">
          <label>
            Never active
            <Select
              aria-label="Disposition of the SIMs never active"
              value={bulk.never_active}
              allowClear
              placeholder="Leave waiting"
              options={DISPOSITION_OPTIONS}
              onChange={(value) => setBulk({ ...bulk, never_active: value ?? null })}
              style={{ width: 190, display: 'block' }}
            />
          </label>
          <label>
            Ever active
            <Select
              aria-label="Disposition of the SIMs ever active"
              value={bulk.ever_active}
              allowClear
              placeholder="Leave waiting"
              options={EVER_ACTIVE_DISPOSITIONS.map((value) => ({
                value,
                label: SIM_DISPOSITION_TEXT[value],
              }))}
              onChange={(value) => setBulk({ ...bulk, ever_active: value ?? null })}
              style={{ width: 190, display: 'block' }}
            />
          </label>
          <Input
            aria-label="Reason for the dispositions"
            placeholder="Reason (needed for defective)"
            value={bulk.reason}
            maxLength={500}
            onChange={(event) => setBulk({ ...bulk, reason: event.target.value })}
            style={{ width: 240 }}
          />
          <Button
            loading={actions.disposeAll.isPending}
            onClick={() =>
              void run(
                () =>
                  actions.disposeAll.mutateAsync({
                    never_active: bulk.never_active,
                    ever_active: bulk.ever_active,
                    reason: bulk.reason.trim() || null,
                  }),
                'The SIMs waiting have their disposition.',
              )
            }
          >
            Apply to the {waiting.length} waiting
          </Button>
        </Space>
      )}
      <StationColumns>
        <StationColumn title="Scans into this return">
          <ScanLog
            lines={log}
            feedback={FEEDBACK}
            empty="Scan the first ICCID: each answer shows here."
          />
        </StationColumn>
        <StationColumn title={`SIMs of the return (${lines.length})`}>
          <Table<SimReturnLine>
            rowKey="id"
            size="small"
            columns={columns}
            dataSource={lines}
            pagination={false}
            locale={{ emptyText: 'No ICCID was listed or scanned yet.' }}
          />
        </StationColumn>
      </StationColumns>
      {defective && (
        <DefectiveDialog
          iccid={defective.iccid}
          onClose={() => {
            setDefective(null);
            scanner.refocus();
          }}
          onConfirm={async (reason) => {
            if (await dispose(defective, 'defective_to_carrier', reason)) setDefective(null);
          }}
        />
      )}
    </section>
  );
}
