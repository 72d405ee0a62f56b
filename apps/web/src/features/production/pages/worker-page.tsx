import {
  devicePhotoAttachments,
  GRADE_DEFINITIONS,
  PHOTO_GRADES,
  QC_ISSUE_CODES,
  TEST_ITEMS,
  TARGET_GRADES,
  WIPE_METHODS,
  type DiagnosticResult,
  type TestItem,
  type TestOutcome,
  type WorkerDevice,
  type WorkerScan,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Descriptions,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Space,
  Switch,
  Table,
  Typography,
  Upload,
  type InputRef,
} from 'antd';
import { useRef, useState } from 'react';
import { fieldErrorsOf, showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { AttachmentsPanel } from '../../../toolkit/attachments-panel';
import { counted } from '../../../toolkit/format';
import {
  beep,
  ScanInput,
  StationNameInput,
  useStationName,
  useWedgeScanner,
} from '../../../toolkit/station';
import {
  printDeviceLabel,
  scanWorkerDevice,
  useRecordTest,
  useUploadDiagnostics,
  useWorkerQueue,
} from '../api/worker.queries';

type TestForm = {
  items: Record<TestItem, 'pass' | 'fail'>;
  wipe_method?: (typeof WIPE_METHODS)[number];
  wipe_certificate?: string;
  frp_lock: boolean;
  battery_health: number;
  capacity_gb?: number | null;
  grade?: (typeof TARGET_GRADES)[number];
  issue_codes?: (typeof QC_ISSUE_CODES)[number][];
};

// Every item passes until the worker says otherwise (fromEntries loses the keys' type).
const ALL_PASS = Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass'])) as TestForm['items'];
const TONES = {
  ready: 'success',
  already_graded: 'info',
  already_failed: 'info',
  on_hold: 'warning',
} as const;
const OUTCOME_TONES = {
  graded: 'success',
  failed_qc: 'warning',
  held: 'error',
  already_graded: 'info',
} as const;

/** The answer shown under the scan field: what the last scan or test said. */
type Said = { type: 'success' | 'info' | 'warning' | 'error'; message: string };

/** What a diagnostic file filled in, in words: "bench.csv: 8 of 10 items, battery 87%". */
function filledFrom(results: DiagnosticResult): string {
  const items = Object.keys(results.items).length;
  const battery = results.battery_health === null ? '' : `, battery ${results.battery_health}%`;
  return `Checklist filled from ${results.file_name}: ${items} of ${TEST_ITEMS.length} items${battery}. Check the rest by hand.`;
}

/**
 * The production worker's station (DOMAIN.md 4.17), keyboard only: scan a device of my queue,
 * compare what its TAC says with what the vendor claimed, record the checklist, the wipe, the
 * locks, the battery and the grade; a pass grades it, a fail fails QC with issue codes, a lock
 * holds it. A diagnostic tool's file fills the checklist: of the device on the bench at once, of
 * the others when they are scanned. Grades C and D need a photo of the device, attached here.
 * The scan field keeps the focus between devices (the station toolkit).
 */
export default function WorkerPage({ entry }: PageProps) {
  const queue = useWorkerQueue();
  const record = useRecordTest();
  const [station, setStation] = useStationName();
  const [device, setDevice] = useState<WorkerDevice | null>(null);
  const [printable, setPrintable] = useState<WorkerDevice | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const [fromFile, setFromFile] = useState<DiagnosticResult | null>(null);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const diagnostics = useUploadDiagnostics();
  const [form] = Form.useForm<TestForm>();
  const grade = Form.useWatch('grade', form);
  const scanField = useRef<InputRef>(null);
  const scanner = useWedgeScanner(scanField, true);

  const scan = async (code: string) => {
    try {
      const answer: WorkerScan = await scanWorkerDevice(code);
      beep(TONES[answer.result]);
      setSaid({ type: TONES[answer.result], message: answer.message });
      setPrintable(answer.device);
      setDevice(answer.result === 'ready' ? answer.device : null);
      setPhotoProblem(null);
      form.resetFields();
      form.setFieldsValue({
        capacity_gb: answer.device.capacity_gb ?? answer.device.tac_capacity_gb,
      });
      fill(answer.result === 'ready' ? answer.diagnostics : null);
    } catch (error) {
      beep('error');
      setDevice(null);
      setSaid({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };

  /** Puts a diagnostic file's results on the checklist (the items it did not test stay as they are). */
  const fill = (results: DiagnosticResult | null) => {
    setFromFile(results);
    if (!results) return;
    form.setFieldsValue({
      items: { ...form.getFieldValue('items'), ...results.items },
      ...(results.battery_health !== null && { battery_health: results.battery_health }),
    });
  };

  const uploadDiagnostics = async (file: File) => {
    try {
      const answer = await diagnostics.mutateAsync(file);
      notify.success(
        `${file.name}: results of ${counted(answer.stored, 'device')} kept; each fills its checklist when scanned.`,
      );
      const mine = device && answer.devices.find((result) => result.device_id === device.id);
      if (mine) fill(mine);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields?.file) setSaid({ type: 'error', message: fields.file.join(' ') });
      else showApiError(error);
    }
    scanner.refocus();
  };

  const submit = async (outcome: 'pass' | 'fail') => {
    if (!device) return;
    try {
      const values = await form.validateFields();
      const answer: TestOutcome = await record.mutateAsync({
        device_id: device.id,
        outcome,
        items: values.items,
        wipe_method: values.wipe_method ?? null,
        wipe_certificate: values.wipe_certificate ?? null,
        frp_lock: values.frp_lock,
        battery_health: values.battery_health,
        capacity_gb: values.capacity_gb ?? null,
        grade: outcome === 'pass' ? (values.grade ?? null) : 'F',
        issue_codes: outcome === 'fail' ? (values.issue_codes ?? []) : [],
        station: station.trim() || undefined,
        tool: fromFile ? 'diagnostic_file' : 'manual',
      });
      beep(OUTCOME_TONES[answer.result]);
      setSaid({ type: OUTCOME_TONES[answer.result], message: answer.message });
      setPrintable(answer.device);
      setDevice(null);
      setFromFile(null);
      scanner.refocus();
    } catch (error) {
      const photos = fieldErrorsOf(error)?.photos?.[0];
      setPhotoProblem(photos ?? null);
      if (error instanceof Error) showApiError(error, form);
    }
  };

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 12 }}>
        <ScanInput
          ref={scanField}
          scanner={scanner}
          label="Scan an IMEI"
          placeholder="Scan an IMEI of your queue"
          onScan={(code) => void scan(code)}
        />
        <StationNameInput station={station} onChange={setStation} onDone={scanner.refocus} />
        <Upload
          accept=".csv,.xlsx"
          showUploadList={false}
          disabled={diagnostics.isPending}
          beforeUpload={(file) => {
            void uploadDiagnostics(file);
            return false;
          }}
        >
          <Button loading={diagnostics.isPending}>Diagnostic file</Button>
        </Upload>
        {printable && (
          <Button onClick={() => void printDeviceLabel(printable.id).catch(showApiError)}>
            Print label {printable.identifier}
          </Button>
        )}
      </Space>
      {said && (
        <Alert
          type={said.type}
          showIcon
          title={said.message}
          data-testid="worker-answer"
          style={{ marginBottom: 12 }}
        />
      )}
      {device && (
        <section aria-label={`Test of ${device.identifier}`}>
          <Descriptions size="small" bordered column={2} style={{ marginBottom: 12 }}>
            <Descriptions.Item label="IMEI">{device.identifier}</Descriptions.Item>
            <Descriptions.Item label="Box">{device.box ?? '—'}</Descriptions.Item>
            <Descriptions.Item label="TAC says">
              {device.tac_model ?? 'unknown TAC'}
              {device.tac_capacity_gb ? `, ${device.tac_capacity_gb} GB` : ''}
            </Descriptions.Item>
            <Descriptions.Item label="Vendor claimed">
              {device.claimed
                ? [
                    device.claimed.model,
                    device.claimed.color,
                    device.claimed.capacity_gb && `${device.claimed.capacity_gb} GB`,
                    device.claimed.grade && `grade ${device.claimed.grade}`,
                  ]
                    .filter(Boolean)
                    .join(', ')
                : 'no manifest'}
            </Descriptions.Item>
            <Descriptions.Item label="Blacklist">{device.blacklist_state}</Descriptions.Item>
          </Descriptions>
          {fromFile && (
            <Alert
              type="info"
              showIcon
              title={filledFrom(fromFile)}
              data-testid="diagnostics-filled"
              style={{ marginBottom: 12 }}
            />
          )}
          <Form
            form={form}
            layout="vertical"
            aria-label="Test record"
            initialValues={{ items: ALL_PASS, frp_lock: false }}
          >
            <Space wrap size="large" align="start">
              <fieldset style={{ border: 0, padding: 0 }}>
                <legend>Checklist</legend>
                {TEST_ITEMS.map((item) => (
                  <Form.Item
                    key={item}
                    name={['items', item]}
                    label={item}
                    style={{ marginBottom: 4 }}
                  >
                    <Radio.Group
                      aria-label={`${item} result`}
                      options={[
                        { value: 'pass', label: 'Pass' },
                        { value: 'fail', label: 'Fail' },
                      ]}
                    />
                  </Form.Item>
                ))}
              </fieldset>
              <div style={{ minWidth: 260 }}>
                <Form.Item name="wipe_method" label="Wipe method">
                  <Select
                    allowClear
                    options={WIPE_METHODS.map((value) => ({
                      value,
                      label: value.replace(/_/g, ' '),
                    }))}
                  />
                </Form.Item>
                <Form.Item name="wipe_certificate" label="Wipe certificate id">
                  <Input />
                </Form.Item>
                <Form.Item name="frp_lock" label="FRP / activation lock on" valuePropName="checked">
                  <Switch />
                </Form.Item>
                <Form.Item
                  name="battery_health"
                  label="Battery health %"
                  rules={[{ required: true, message: 'Enter the battery health.' }]}
                >
                  <InputNumber min={0} max={100} precision={0} />
                </Form.Item>
                <Form.Item name="capacity_gb" label="Capacity GB">
                  <InputNumber min={1} precision={0} />
                </Form.Item>
                <Form.Item name="issue_codes" label="Issue codes (to fail)">
                  <Select
                    mode="multiple"
                    options={QC_ISSUE_CODES.map((value) => ({ value, label: value }))}
                  />
                </Form.Item>
              </div>
              <Form.Item name="grade" label="Grade">
                <Radio.Group
                  aria-label="Grade"
                  style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
                  options={TARGET_GRADES.map((grade) => ({
                    value: grade,
                    label: `${grade}: ${GRADE_DEFINITIONS[grade]}`,
                  }))}
                />
              </Form.Item>
            </Space>
            <section aria-label={`Photos of ${device.identifier}`} style={{ marginBottom: 12 }}>
              <Typography.Paragraph
                type={
                  grade && (PHOTO_GRADES as readonly string[]).includes(grade)
                    ? 'warning'
                    : 'secondary'
                }
                style={{ marginBottom: 4 }}
              >
                Grades {PHOTO_GRADES.join(' and ')} need a photo of the device before they are
                saved.
              </Typography.Paragraph>
              {photoProblem && (
                <Alert
                  type="error"
                  showIcon
                  title={photoProblem}
                  data-testid="photo-problem"
                  style={{ marginBottom: 8 }}
                />
              )}
              <AttachmentsPanel definition={devicePhotoAttachments} recordId={device.id} />
            </section>
            <Space>
              <Button type="primary" loading={record.isPending} onClick={() => void submit('pass')}>
                Pass and grade
              </Button>
              <Button danger loading={record.isPending} onClick={() => void submit('fail')}>
                Fail QC
              </Button>
            </Space>
          </Form>
        </section>
      )}
      <Typography.Title level={2} style={{ fontSize: 18, marginTop: 16 }}>
        My queue
      </Typography.Title>
      <Table<WorkerDevice>
        rowKey="id"
        size="small"
        loading={queue.isLoading}
        dataSource={queue.data ?? []}
        pagination={false}
        locale={{ emptyText: 'Nothing in your queue.' }}
        columns={[
          { title: 'IMEI', dataIndex: 'identifier' },
          { title: 'Model', dataIndex: 'model' },
          { title: 'Box', render: (_, row) => row.box ?? '—' },
        ]}
      />
    </div>
  );
}
