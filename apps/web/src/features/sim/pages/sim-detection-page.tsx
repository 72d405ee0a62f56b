import {
  proposeDetectionMapping,
  simDetectionEndpoints,
  SIM_DETECTION_FIELDS,
  SIM_DETECTION_OUTCOMES,
  type SimAnomaly,
  type SimDetectionField,
  type SimDetectionOutcome,
  type SimDetectionRow,
  type SimDetectionRun,
} from '@inventory/contract';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  Modal,
  Progress,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { counted, when } from '../../../toolkit/format';
import { startDownload } from '../../../toolkit/resource-queries';
import {
  differencesLink,
  useAnomalies,
  useCarrierMapping,
  useCarrierOptions,
  useDetectionRows,
  useDetectionRun,
  useDetectionRuns,
  usePull,
  useRerun,
  useResolveAnomaly,
  useUploadExport,
} from '../api/sim-detection.queries';

/** The run whose rows are open, in the address; its outcome filter too. */
const RUN_PARAM = 'run';
const OUTCOME_PARAM = 'outcome';

const FIELD_LABELS: Record<SimDetectionField, string> = {
  iccid: 'ICCID column',
  state: 'State column',
  mdn: 'MDN column',
  activation_date: 'Activation date column',
  imei: 'IMEI column',
};

const OUTCOME_COLORS: Record<SimDetectionOutcome, string> = {
  newly_active: 'green',
  changed: 'blue',
  unchanged: 'default',
  unknown: 'orange',
  anomaly: 'red',
  invalid: 'volcano',
};

const words = (value: string) => value.replace(/_/g, ' ');
const unfinished = (run: SimDetectionRun) => run.status === 'loading' || run.status === 'applying';

/** The run's progress as the bar shows it: rows read of the file, then the apply. */
function RunProgress({ run }: { run: SimDetectionRun }) {
  const label = `Run ${run.id} progress`;
  if (run.status === 'done') {
    return <Progress percent={100} size="small" status="success" aria-label={label} />;
  }
  if (run.status === 'failed') {
    return <Progress percent={100} size="small" status="exception" aria-label={label} />;
  }
  const read = run.rows_total > 0 ? Math.floor((run.rows_loaded / run.rows_total) * 90) : 0;
  return (
    <Progress
      percent={run.status === 'applying' ? 95 : Math.min(read, 90)}
      size="small"
      status="active"
      aria-label={label}
      format={() => (run.status === 'applying' ? 'Applying' : `${run.rows_loaded} read`)}
    />
  );
}

/** A carrier picker over the page's own carrier options. */
function CarrierSelect(props: {
  value: number | null;
  onChange: (id: number | null) => void;
  label: string;
}) {
  const [search, setSearch] = useState('');
  const options = useCarrierOptions(search);
  return (
    <Select
      aria-label={props.label}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      style={{ width: 260 }}
      placeholder="Choose a client carrier"
      loading={options.isLoading}
      value={props.value}
      onChange={(id) => props.onChange(id ?? null)}
      options={(options.data ?? []).map((option) => ({ value: option.id, label: option.label }))}
    />
  );
}

/** The header row of a CSV file, read from its first bytes in the browser. */
async function headerOf(file: File): Promise<string[]> {
  const text = await file.slice(0, 64 * 1024).text();
  const line = text.replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? '';
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (const character of line) {
    if (character === '"') quoted = !quoted;
    else if (character === ',' && !quoted) {
      cells.push(cell.trim());
      cell = '';
    } else cell += character;
  }
  cells.push(cell.trim());
  return cells.filter((name) => name !== '');
}

/** Upload a carrier's export: the carrier, the file, the mapping proposed from its header. */
function UploadExport({ onStarted }: { onStarted: () => void }) {
  const [carrierId, setCarrierId] = useState<number | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [headers, setHeaders] = useState<string[]>([]);
  /** The columns the user chose over the proposal, for this file. */
  const [chosen, setChosen] = useState<Partial<Record<SimDetectionField, string | null>>>({});
  const mapping = useCarrierMapping(carrierId);
  const upload = useUploadExport();
  const input = useRef<HTMLInputElement>(null);
  const columns = useMemo(
    () => ({ ...proposeDetectionMapping(headers, mapping.data?.columns ?? null), ...chosen }),
    [headers, mapping.data, chosen],
  );

  const choose = async (picked: File | null) => {
    setFile(picked);
    setChosen({});
    setHeaders(picked ? await headerOf(picked) : []);
  };

  const send = async () => {
    if (!carrierId || !file) return;
    if (!columns.iccid || !columns.state) {
      notify.error('Choose the columns that hold the ICCID and the state.');
      return;
    }
    try {
      const run = await upload.mutateAsync({
        carrierId,
        file,
        columns: { ...columns, iccid: columns.iccid, state: columns.state },
      });
      notify.success(`Run ${run.id} started: ${counted(run.rows_total, 'row')} to read.`);
      onStarted();
      await choose(null);
      if (input.current) input.current.value = '';
    } catch (error) {
      showApiError(error);
    }
  };

  return (
    <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>Upload a carrier export</h2>}>
      <Space wrap align="start">
        <CarrierSelect value={carrierId} onChange={setCarrierId} label="Carrier of the export" />
        <input
          ref={input}
          type="file"
          accept=".csv,text/csv"
          aria-label="Carrier export file (CSV)"
          onChange={(event) => void choose(event.target.files?.[0] ?? null)}
        />
      </Space>
      {file && headers.length > 0 && (
        <section aria-label="Column mapping" style={{ marginTop: 12 }}>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            The columns of {file.name}
            {mapping.data?.columns ? ', as kept for this carrier' : ', proposed from its header'}.
            The mapping is kept for the carrier&apos;s next export.
          </Typography.Paragraph>
          <Space wrap>
            {SIM_DETECTION_FIELDS.map((field) => (
              <label key={field} style={{ display: 'inline-flex', flexDirection: 'column' }}>
                <span>{FIELD_LABELS[field]}</span>
                <Select
                  aria-label={FIELD_LABELS[field]}
                  style={{ width: 200 }}
                  allowClear={field !== 'iccid' && field !== 'state'}
                  value={columns[field]}
                  placeholder="Not in the file"
                  onChange={(value) => setChosen((now) => ({ ...now, [field]: value ?? null }))}
                  options={headers.map((header) => ({ value: header, label: header }))}
                />
              </label>
            ))}
          </Space>
        </section>
      )}
      <div style={{ marginTop: 12 }}>
        <Button
          type="primary"
          disabled={!carrierId || !file}
          loading={upload.isPending}
          onClick={() => void send()}
        >
          Upload and apply
        </Button>
      </div>
    </Card>
  );
}

/** Ask the carrier's adapter about a list or a range of ICCIDs. */
function PullFromCarrier({ onStarted }: { onStarted: () => void }) {
  const [carrierId, setCarrierId] = useState<number | null>(null);
  const [list, setList] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const pull = usePull();
  const send = async () => {
    if (!carrierId) return;
    const iccids = list
      .split(/[\s,;]+/)
      .map((iccid) => iccid.trim())
      .filter(Boolean);
    try {
      const run = await pull.mutateAsync({
        client_carrier_id: carrierId,
        ...(iccids.length > 0 && { iccids }),
        ...(first && { first }),
        ...(last && { last }),
      });
      notify.success(`Run ${run.id} asked the carrier about ${counted(run.rows_total, 'ICCID')}.`);
      onStarted();
    } catch (error) {
      showApiError(error);
    }
  };
  return (
    <Card size="small" title={<h2 style={{ fontSize: 16, margin: 0 }}>Ask the carrier</h2>}>
      <Space wrap align="start">
        <CarrierSelect value={carrierId} onChange={setCarrierId} label="Carrier to ask" />
        <Input.TextArea
          aria-label="ICCIDs to ask about, one per line"
          placeholder="ICCIDs, one per line"
          rows={2}
          style={{ width: 260 }}
          value={list}
          onChange={(event) => setList(event.target.value)}
        />
        <Input
          aria-label="First ICCID of a range"
          placeholder="or first ICCID"
          style={{ width: 200 }}
          value={first}
          onChange={(event) => setFirst(event.target.value.trim())}
        />
        <Input
          aria-label="Last ICCID of a range"
          placeholder="last ICCID"
          style={{ width: 200 }}
          value={last}
          onChange={(event) => setLast(event.target.value.trim())}
        />
        <Button disabled={!carrierId} loading={pull.isPending} onClick={() => void send()}>
          Pull
        </Button>
      </Space>
    </Card>
  );
}

/** A run's totals, its rows filtered by outcome, and its differences' export. */
function RunDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const [params, setParams] = useSearchParams();
  const outcome = (params.get(OUTCOME_PARAM) ?? undefined) as
    SimDetectionOutcome | 'differences' | undefined;
  // Pages of this run and filter: another run or outcome starts at the first page.
  const key = `${id}:${outcome}`;
  const [paging, setPaging] = useState<{ key: string; pages: number[] }>({ key, pages: [] });
  const pages = paging.key === key ? paging.pages : [];
  const setPages = (next: number[]) => setPaging({ key, pages: next });
  const after = pages.at(-1) ?? null;
  const run = useDetectionRun(id);
  const rows = useDetectionRows(id, outcome, after, run.data?.status === 'done');

  const setOutcome = (value: string) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (value === 'all') next.delete(OUTCOME_PARAM);
      else next.set(OUTCOME_PARAM, value);
      return next;
    });

  const exportDifferences = async () => {
    try {
      startDownload(await differencesLink(id!, 'csv'));
    } catch (error) {
      showApiError(error);
    }
  };

  const data = run.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size="large"
      title={data ? `Run ${data.id}: ${data.file_name ?? data.source}` : `Run ${id ?? ''}`}
      extra={
        <Button
          onClick={() => void exportDifferences()}
          disabled={data?.status !== 'done'}
          aria-label="Export differences"
        >
          Export differences
        </Button>
      }
    >
      {data && (
        <>
          <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }}>
            <Descriptions.Item label="Carrier">{data.client_carrier}</Descriptions.Item>
            <Descriptions.Item label="Started">{when(data.started_at)}</Descriptions.Item>
            <Descriptions.Item label="Rows">{data.rows_total}</Descriptions.Item>
            <Descriptions.Item label="Matched">{data.matched}</Descriptions.Item>
            <Descriptions.Item label="Newly active">{data.newly_active}</Descriptions.Item>
            <Descriptions.Item label="Unknown ICCIDs">{data.unknown}</Descriptions.Item>
            <Descriptions.Item label="Anomalies">{data.anomalies}</Descriptions.Item>
            <Descriptions.Item label="Progress">
              <RunProgress run={data} />
            </Descriptions.Item>
          </Descriptions>
          {data.error && (
            <Alert type="error" showIcon title={data.error} style={{ marginBottom: 12 }} />
          )}
        </>
      )}
      <Space style={{ marginBottom: 8 }} wrap>
        <span id="run-outcome-label">Outcome</span>
        <Select
          aria-labelledby="run-outcome-label"
          style={{ width: 200 }}
          value={outcome ?? 'all'}
          onChange={setOutcome}
          options={[
            { value: 'all', label: 'All rows' },
            { value: 'differences', label: 'Differences' },
            ...SIM_DETECTION_OUTCOMES.map((value) => ({ value, label: words(value) })),
          ]}
        />
      </Space>
      <Table<SimDetectionRow>
        size="small"
        data-testid="detection-rows"
        rowKey="line"
        loading={rows.isLoading}
        dataSource={rows.data?.rows ?? []}
        pagination={false}
        locale={{
          emptyText:
            data && unfinished(data) ? 'The rows appear once the run is applied.' : 'No rows.',
        }}
        columns={[
          { key: 'line', dataIndex: 'line', title: 'Line', width: 70 },
          { key: 'iccid', dataIndex: 'iccid', title: 'ICCID' },
          { key: 'state', dataIndex: 'state', title: 'State' },
          { key: 'mdn', title: 'MDN', render: (_, row) => row.mdn ?? '—' },
          {
            key: 'activation_date',
            title: 'Activation date',
            render: (_, row) => row.activation_date ?? '—',
          },
          { key: 'imei_seen', title: 'IMEI seen', render: (_, row) => row.imei_seen ?? '—' },
          {
            key: 'outcome',
            title: 'Outcome',
            render: (_, row) =>
              row.outcome ? (
                <span data-outcome={row.outcome}>
                  <Tag color={OUTCOME_COLORS[row.outcome]}>{words(row.outcome)}</Tag>
                  {row.problem && <Typography.Text type="secondary">{row.problem}</Typography.Text>}
                </span>
              ) : (
                '—'
              ),
          },
        ]}
      />
      <Space style={{ marginTop: 8 }}>
        <Button disabled={pages.length === 0} onClick={() => setPages([])}>
          First page
        </Button>
        <Button disabled={!rows.data?.next} onClick={() => setPages([...pages, rows.data!.next!])}>
          Next page
        </Button>
      </Space>
    </Drawer>
  );
}

/** Resolve an anomaly: a note of what was done is required. */
function ResolveDialog({ anomaly, onClose }: { anomaly: SimAnomaly | null; onClose: () => void }) {
  const [form] = Form.useForm<{ resolution: string }>();
  const resolve = useResolveAnomaly();
  const submit = async () => {
    const { resolution } = await form.validateFields();
    try {
      await resolve.mutateAsync({ id: anomaly!.id, resolution });
      notify.success(`The anomaly of ${anomaly!.iccid} is resolved.`);
      form.resetFields();
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Modal
      open={anomaly !== null}
      title={anomaly ? `Resolve: ${anomaly.iccid}` : 'Resolve'}
      okText="Resolve"
      onOk={() => void submit()}
      confirmLoading={resolve.isPending}
      onCancel={onClose}
      destroyOnHidden
    >
      {anomaly?.detail && <Typography.Paragraph>{anomaly.detail}</Typography.Paragraph>}
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="resolution"
          label="Resolution"
          rules={[{ required: true, whitespace: true, message: 'Say what was done about it.' }]}
        >
          <Input.TextArea autoFocus rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Anomalies() {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const [pages, setPages] = useState<number[]>([]);
  const anomalies = useAnomalies(status, pages.at(-1) ?? null);
  const [resolving, setResolving] = useState<SimAnomaly | null>(null);
  return (
    <section aria-labelledby="anomalies-title" style={{ marginTop: 24 }}>
      <Space style={{ marginBottom: 8 }} align="center" wrap>
        <h2 id="anomalies-title" style={{ fontSize: 18, margin: 0 }}>
          Anomalies
        </h2>
        <Segmented
          aria-label="Anomalies to show"
          value={status}
          onChange={(value) => {
            setStatus(value as 'open' | 'resolved');
            setPages([]);
          }}
          options={[
            { value: 'open', label: 'Open' },
            { value: 'resolved', label: 'Resolved' },
          ]}
        />
      </Space>
      <Table<SimAnomaly>
        size="small"
        data-testid="detection-anomalies"
        rowKey="id"
        loading={anomalies.isLoading}
        dataSource={anomalies.data?.rows ?? []}
        pagination={false}
        locale={{
          emptyText:
            status === 'open'
              ? 'No open anomalies: a run lists here any SIM seen active while in stock or with another IMEI.'
              : 'No anomaly has been resolved yet.',
        }}
        columns={[
          { key: 'iccid', dataIndex: 'iccid', title: 'ICCID' },
          {
            key: 'kind',
            title: 'Kind',
            render: (_, row) => (
              <Tag color={row.kind === 'active_in_stock' ? 'orange' : 'red'}>{words(row.kind)}</Tag>
            ),
          },
          { key: 'detail', title: 'Detail', render: (_, row) => row.detail ?? '—' },
          { key: 'sim_status', title: 'SIM status', render: (_, row) => words(row.sim_status) },
          {
            key: 'ota_order',
            title: 'OTA order',
            render: (_, row) => (row.ota_order ? <Tag color="purple">OTA order</Tag> : 'No'),
          },
          { key: 'run_id', title: 'Run', render: (_, row) => `Run ${row.run_id}` },
          { key: 'created_at', title: 'Found', render: (_, row) => when(row.created_at) },
          status === 'open'
            ? {
                key: 'action',
                title: 'Action',
                render: (_, row) => (
                  <Button
                    size="small"
                    onClick={() => setResolving(row)}
                    aria-label={`Resolve ${row.iccid}`}
                  >
                    Resolve
                  </Button>
                ),
              }
            : {
                key: 'resolution',
                title: 'Resolution',
                render: (_, row) => `${row.resolution ?? ''} (${row.resolved_by ?? '—'})`,
              },
        ]}
      />
      <Space style={{ marginTop: 8 }}>
        <Button disabled={pages.length === 0} onClick={() => setPages([])}>
          First page
        </Button>
        <Button
          disabled={!anomalies.data?.next}
          onClick={() => setPages((now) => [...now, anomalies.data!.next!])}
        >
          Next page
        </Button>
      </Space>
      <ResolveDialog anomaly={resolving} onClose={() => setResolving(null)} />
    </section>
  );
}

/**
 * SIM detection (`/sim/detection`, DOMAIN.md 4.6): upload a carrier's activation export with the
 * carrier's column mapping or ask the carrier's adapter about ICCIDs; each run's progress, totals
 * and rows (`?run=<id>`), re-run and the differences' export; the anomalies with their resolve.
 */
export default function SimDetectionPage({ entry }: PageProps) {
  const [params, setParams] = useSearchParams();
  const openRun = Number(params.get(RUN_PARAM)) || null;
  const [pages, setPages] = useState<number[]>([]);
  const runs = useDetectionRuns(pages.at(-1) ?? null);
  const rerun = useRerun();
  const client = useQueryClient();

  // When a run started here is seen finished (at once or after polling), what it found joins
  // the anomalies.
  const running = useMemo(() => runs.data?.rows.some(unfinished) ?? false, [runs.data]);
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current && !running) {
      void client.invalidateQueries({ queryKey: [simDetectionEndpoints.anomalies.path] });
    }
    wasRunning.current = running;
  }, [runs.data, running, client]);

  const open = (id: number | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (id === null) {
        next.delete(RUN_PARAM);
        next.delete(OUTCOME_PARAM);
      } else next.set(RUN_PARAM, String(id));
      return next;
    });

  const started = () => {
    setPages([]);
    wasRunning.current = true;
  };

  return (
    <div>
      <h1 style={PAGE_TITLE_STYLE}>{entry.label}</h1>
      <Typography.Paragraph type="secondary">
        Learn from the carrier which SIMs went live: upload its activation export or ask it about
        ICCIDs. Newly active SIMs are credited to their agent; a SIM active while still in stock, or
        seen with another IMEI than its pairing, is listed below as an anomaly.
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }} size="middle">
        <UploadExport onStarted={started} />
        <PullFromCarrier onStarted={started} />
      </Space>

      <section aria-labelledby="runs-title" style={{ marginTop: 24 }}>
        <h2 id="runs-title" style={{ fontSize: 18 }}>
          Runs
        </h2>
        <Table<SimDetectionRun>
          size="small"
          data-testid="detection-runs"
          rowKey="id"
          loading={runs.isLoading}
          dataSource={runs.data?.rows ?? []}
          pagination={false}
          locale={{ emptyText: 'No runs yet: upload a carrier export or ask the carrier above.' }}
          columns={[
            {
              key: 'id',
              title: 'Run',
              render: (_, row) => (
                <Button type="link" style={{ padding: 0 }} onClick={() => open(row.id)}>
                  Run {row.id}
                </Button>
              ),
            },
            { key: 'started_at', title: 'Date', render: (_, row) => when(row.started_at) },
            {
              key: 'source',
              title: 'Source',
              render: (_, row) =>
                `${row.source === 'file' ? 'File' : 'Carrier pull'}${row.file_name ? `: ${row.file_name}` : ''}${row.rerun_of ? ` (re-run of ${row.rerun_of})` : ''}`,
            },
            { key: 'client_carrier', dataIndex: 'client_carrier', title: 'Carrier' },
            { key: 'rows_total', dataIndex: 'rows_total', title: 'Rows' },
            { key: 'matched', dataIndex: 'matched', title: 'Matched' },
            { key: 'newly_active', dataIndex: 'newly_active', title: 'Newly active' },
            { key: 'unknown', dataIndex: 'unknown', title: 'Unknown' },
            { key: 'anomalies', dataIndex: 'anomalies', title: 'Anomalies' },
            {
              key: 'status',
              title: 'Status',
              render: (_, row) => (
                <span data-status={row.status}>
                  <Tag>{row.status}</Tag>
                </span>
              ),
            },
            {
              key: 'progress',
              title: 'Progress',
              width: 180,
              render: (_, row) => <RunProgress run={row} />,
            },
            {
              key: 'action',
              title: 'Action',
              render: (_, row) => (
                <Button
                  size="small"
                  disabled={row.status !== 'done'}
                  aria-label={`Re-run run ${row.id}`}
                  onClick={() =>
                    rerun.mutate(row.id, {
                      onSuccess: (created) => {
                        notify.success(`Run ${created.id} re-applies run ${row.id}.`);
                        started();
                      },
                      onError: (error) => showApiError(error),
                    })
                  }
                >
                  Re-run
                </Button>
              ),
            },
          ]}
        />
        <Space style={{ marginTop: 8 }}>
          <Button disabled={pages.length === 0} onClick={() => setPages([])}>
            First page
          </Button>
          <Button
            disabled={!runs.data?.next}
            onClick={() => setPages((now) => [...now, runs.data!.next!])}
          >
            Next page
          </Button>
        </Space>
      </section>

      <Anomalies />
      <RunDrawer id={openRun} onClose={() => open(null)} />
    </div>
  );
}
