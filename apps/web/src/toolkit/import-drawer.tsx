import type {
  ImportBatch,
  ImportCheck,
  ImportDefinition,
  ImportEndpoints,
  ImportError,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Drawer,
  Form,
  Result,
  Select,
  Space,
  Steps,
  Table,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { showApiError } from '../shell/api-errors';
import { callEndpoint } from '../shell/http-client';
import { inText, type ImportWords } from './resource-page-config';
import { startDownload, useImports, useImportSteps } from './resource-queries';
import { useDialogFocus } from '../shell/dialog-focus';
import { counted } from './format';

type Step =
  | { name: 'upload' }
  | { name: 'map'; batch: ImportBatch }
  | { name: 'checked'; check: ImportCheck }
  | { name: 'done'; batch: ImportBatch };

const STEP_INDEX = { upload: 0, map: 1, checked: 2, done: 3 } as const;

async function downloadFrom(work: () => Promise<{ data: { url: string; expiresAt: string } }>) {
  try {
    startDownload((await work()).data);
  } catch (error) {
    showApiError(error);
  }
}

const errorColumns = [
  { key: 'row', dataIndex: 'row', title: 'Row', width: 70 },
  { key: 'column', dataIndex: 'column', title: 'Column', width: 140 },
  { key: 'value', dataIndex: 'value', title: 'Value', ellipsis: true },
  { key: 'message', dataIndex: 'message', title: 'Error' },
];

/**
 * Import a file of rows: template, upload, column mapping, a dry run that lists every row's
 * errors, then one all-or-nothing commit; and the history of earlier imports.
 */
export default function ImportDrawer({
  resource,
  endpoints,
  words,
  refreshes,
  onClose,
}: {
  resource: ImportDefinition;
  endpoints: ImportEndpoints;
  /** How the steps speak of the rows, when not as created and updated by their key. */
  words?: ImportWords | undefined;
  /** Paths of other lists that a commit changes: the page's own list, for a foreign import. */
  refreshes?: readonly string[];
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [tab, setTab] = useState('import');
  const [step, setStep] = useState<Step>({ name: 'upload' });
  const [mapping, setMapping] = useState<Record<string, string | null>>({});
  const steps = useImportSteps(endpoints, refreshes);
  const history = useImports(endpoints, tab === 'history');
  const plural = inText(resource.plural);

  const upload = async (file: File) => {
    try {
      const batch = await steps.upload.mutateAsync(file);
      setMapping(batch.mapping);
      setStep({ name: 'map', batch });
    } catch (error) {
      showApiError(error);
    }
  };

  const check = async (batch: ImportBatch) => {
    try {
      setStep({ name: 'checked', check: await steps.check.mutateAsync({ id: batch.id, mapping }) });
    } catch (error) {
      showApiError(error);
    }
  };

  const commit = async (batch: ImportBatch) => {
    try {
      setStep({ name: 'done', batch: await steps.commit.mutateAsync(batch.id) });
    } catch (error) {
      showApiError(error);
    }
  };

  const errorFile = (batchId: number) =>
    downloadFrom(() => callEndpoint(endpoints.errorFile, { params: { id: batchId } }));

  const uploadStep = (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Paragraph>
        The file's first row names the columns:{' '}
        {resource.importColumns.map((column) => (
          <Tag key={column.key} color={column.required ? 'blue' : undefined}>
            {column.header}
            {column.required ? ' *' : ''}
          </Tag>
        ))}
        .{' '}
        {words?.rows ??
          'Rows are matched on their key: a known one is updated, a new one created. Nothing is written until every row is right.'}
      </Typography.Paragraph>
      <Space>
        Template:
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            onClick={() =>
              void downloadFrom(() => callEndpoint(endpoints.template, { body: { format } }))
            }
          >
            {format.toUpperCase()}
          </Button>
        ))}
      </Space>
      <Upload.Dragger
        accept=".csv,.xlsx,.txt,.tsv"
        showUploadList={false}
        disabled={steps.upload.isPending}
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <p style={{ margin: 16 }}>
          {steps.upload.isPending
            ? 'Reading the file…'
            : 'Drop a CSV or XLSX file here, or click to choose one (at most 50 MB).'}
        </p>
      </Upload.Dragger>
    </Space>
  );

  const mapStep = (batch: ImportBatch) => (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text>
        {batch.file_name}: {counted(batch.row_count, 'row')}. Choose the file column that holds each
        field.
      </Typography.Text>
      <Form layout="horizontal" labelCol={{ span: 8 }}>
        {resource.importColumns.map((column) => (
          <Form.Item
            key={column.key}
            label={column.header}
            required={column.required}
            extra={column.hint}
          >
            <Select
              aria-label={`Column for ${column.header}`}
              allowClear
              placeholder="Not in this file"
              value={mapping[column.key] ?? undefined}
              options={batch.headers.map((header) => ({ value: header, label: header }))}
              onChange={(header?: string) =>
                setMapping({ ...mapping, [column.key]: header ?? null })
              }
            />
          </Form.Item>
        ))}
      </Form>
      <Space>
        <Button onClick={() => setStep({ name: 'upload' })}>Another file</Button>
        <Button type="primary" loading={steps.check.isPending} onClick={() => void check(batch)}>
          Check every row
        </Button>
      </Space>
    </Space>
  );

  const checkedStep = ({ batch, errors, willCreate, willUpdate }: ImportCheck) =>
    batch.error_count > 0 ? (
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert
          type="error"
          showIcon
          title={`${counted(batch.error_count, 'error')} in ${batch.file_name}: nothing has been written.`}
          description="Fix these rows in the file and upload it again."
        />
        <Table<ImportError>
          size="small"
          rowKey={(error) => `${error.row}-${error.column}-${error.message}`}
          dataSource={errors}
          columns={errorColumns}
          pagination={{ pageSize: 20, showSizeChanger: false }}
        />
        <Space>
          <Button onClick={() => void errorFile(batch.id)}>Download the error file</Button>
          <Button type="primary" onClick={() => setStep({ name: 'upload' })}>
            Upload a corrected file
          </Button>
          <Button onClick={() => setStep({ name: 'map', batch })}>Change the mapping</Button>
        </Space>
      </Space>
    ) : (
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Alert
          type="success"
          showIcon
          title={`Every row is right: ${words ? words.planned(willCreate, willUpdate) : `${willCreate.toLocaleString()} to create, ${willUpdate.toLocaleString()} to update`}.`}
        />
        <Space>
          <Button onClick={() => setStep({ name: 'map', batch })}>Back</Button>
          <Button
            type="primary"
            loading={steps.commit.isPending}
            onClick={() => void commit(batch)}
          >
            Import {counted(batch.row_count, 'row')}
          </Button>
        </Space>
      </Space>
    );

  const historyTab = (
    <Table<ImportBatch>
      size="small"
      rowKey="id"
      loading={history.isPending}
      dataSource={history.data ?? []}
      pagination={false}
      columns={[
        { key: 'file_name', dataIndex: 'file_name', title: 'File', ellipsis: true },
        {
          key: 'status',
          dataIndex: 'status',
          title: 'Status',
          render: (status: string) => (
            <Tag color={status === 'committed' ? 'green' : undefined}>{status}</Tag>
          ),
        },
        { key: 'row_count', dataIndex: 'row_count', title: 'Rows' },
        { key: 'created_count', dataIndex: 'created_count', title: 'Created' },
        { key: 'updated_count', dataIndex: 'updated_count', title: 'Updated' },
        {
          key: 'error_count',
          dataIndex: 'error_count',
          title: 'Errors',
          render: (count: number, batch) =>
            count > 0 ? (
              <Button size="small" type="link" onClick={() => void errorFile(batch.id)}>
                {count} (download)
              </Button>
            ) : (
              count
            ),
        },
        { key: 'created_by_name', dataIndex: 'created_by_name', title: 'By' },
        {
          key: 'created_at',
          dataIndex: 'created_at',
          title: 'When',
          render: (at: string) => new Date(at).toLocaleString(),
        },
      ]}
    />
  );

  return (
    <Drawer {...dialogFocus} open size={760} title={`Import ${plural}`} onClose={onClose}>
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'import',
            label: 'Import a file',
            children: (
              <Space orientation="vertical" size="large" style={{ width: '100%' }}>
                <Steps
                  size="small"
                  current={STEP_INDEX[step.name]}
                  items={[
                    { title: 'Upload' },
                    { title: 'Map columns' },
                    { title: 'Check' },
                    { title: 'Import' },
                  ]}
                />
                {step.name === 'upload' && uploadStep}
                {step.name === 'map' && mapStep(step.batch)}
                {step.name === 'checked' && checkedStep(step.check)}
                {step.name === 'done' && (
                  <Result
                    status="success"
                    title={`Imported ${step.batch.file_name}`}
                    subTitle={
                      words
                        ? words.done(step.batch)
                        : `${step.batch.created_count.toLocaleString()} created, ${step.batch.updated_count.toLocaleString()} updated.`
                    }
                    extra={<Button onClick={onClose}>Done</Button>}
                  />
                )}
              </Space>
            ),
          },
          { key: 'history', label: 'History', children: historyTab },
        ]}
      />
    </Drawer>
  );
}
