import {
  campaignEndpoints,
  campaignImport,
  campaignImportOptionsSchema,
  CAMPAIGN_MAX_ROWS,
  ORDER_PROGRAMS,
  PTS_CHANNELS,
  SUBSCRIBER_FULFILMENT_TYPES,
  type CampaignDemand,
  type CampaignImportOptions,
  type FileColumn,
  type ImportBatch,
  type ImportError,
  type ImportMode,
} from '@inventory/contract';
import { Alert, Button, Form, Radio, Result, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { showApiError } from '../../../shell/api-errors';
import { callEndpoint } from '../../../shell/http-client';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { counted, dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { FieldInput } from '../../../toolkit/resource-form';
import { startDownload } from '../../../toolkit/resource-queries';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useCampaignImports, useCampaignImportSteps } from '../api/campaigns.queries';

const words = (values: readonly string[]) =>
  values.map((value) => ({ value, label: value.replace(/[_-]/g, ' ') }));

/** The campaign the file creates: what every row of it shares. */
const CAMPAIGN_FIELDS: FormField[] = [
  { name: 'name', label: 'Campaign name', kind: 'text', required: true },
  {
    name: 'client_carrier_id',
    label: 'Client carrier',
    kind: 'remote',
    required: true,
    load: pickerLoader(campaignEndpoints.carrierOptions),
  },
  {
    name: 'program',
    label: 'Programme',
    kind: 'select',
    required: true,
    options: words(ORDER_PROGRAMS),
  },
  {
    name: 'fulfilment_type',
    label: 'Fulfilment type',
    kind: 'select',
    required: true,
    options: words(SUBSCRIBER_FULFILMENT_TYPES),
  },
  {
    name: 'channel',
    label: 'Sold from the listings of',
    kind: 'select',
    required: true,
    options: words(PTS_CHANNELS),
  },
];

/** The template's columns, as the toolkit declares every file column. */
const FILE_COLUMNS: readonly FileColumn[] = campaignImport.importColumns;

const ERROR_COLUMNS = [
  { key: 'row', dataIndex: 'row', title: 'Line', width: 70 },
  { key: 'column', dataIndex: 'column', title: 'Column', width: 120 },
  { key: 'value', dataIndex: 'value', title: 'Value', ellipsis: true },
  { key: 'message', dataIndex: 'message', title: 'Error' },
];

const DEMAND_COLUMNS = [
  { key: 'sku', dataIndex: 'sku', title: 'SKU' },
  { key: 'name', dataIndex: 'name', title: 'Item' },
  {
    key: 'price',
    title: 'Price',
    render: (_: unknown, row: CampaignDemand) => dollars(row.price_cents),
  },
  { key: 'rows', dataIndex: 'rows', title: 'Orders' },
  { key: 'units', dataIndex: 'units', title: 'Units' },
  {
    key: 'listing_remaining',
    title: 'Listing remaining',
    render: (_: unknown, row: CampaignDemand) => row.listing_remaining ?? 'Backorder',
  },
  { key: 'stock', dataIndex: 'stock', title: 'In stock' },
  {
    key: 'short',
    title: 'Short',
    render: (_: unknown, row: CampaignDemand) =>
      row.short > 0 ? <Tag color="orange">{row.short} will wait on hold</Tag> : 'None',
  },
];

async function download(work: () => Promise<{ data: { url: string; expiresAt: string } }>) {
  try {
    startDownload((await work()).data);
  } catch (error) {
    showApiError(error);
  }
}

type Checked = Awaited<
  ReturnType<ReturnType<typeof useCampaignImportSteps>['check']['mutateAsync']>
>;

/**
 * Import a campaign file (`/order/express-orders/import-file-campaign`): the campaign (name,
 * client carrier, programme, channel), the file (template columns), a dry run that lists each
 * bad row by its line and the demand per SKU against the listings and stock, then the commit in
 * the mode chosen; and the files imported before.
 */
export default function ImportCampaignPage({ entry }: PageProps) {
  const [form] = Form.useForm<CampaignImportOptions>();
  const steps = useCampaignImportSteps();
  const history = useCampaignImports();
  const [batch, setBatch] = useState<ImportBatch | null>(null);
  const [checked, setChecked] = useState<Checked | null>(null);
  const [mode, setMode] = useState<ImportMode>('valid_rows');
  const [done, setDone] = useState<{ batch: ImportBatch; campaignId: number | null } | null>(null);

  const check = async (uploaded: ImportBatch) => {
    let options: CampaignImportOptions;
    try {
      options = await form.validateFields();
    } catch {
      return;
    }
    try {
      setChecked(
        await steps.check.mutateAsync({ id: uploaded.id, mapping: uploaded.mapping, options }),
      );
    } catch (error) {
      showApiError(error, form);
    }
  };

  const upload = async (file: File) => {
    setChecked(null);
    setDone(null);
    try {
      const uploaded = await steps.upload.mutateAsync(file);
      setBatch(uploaded);
      await check(uploaded);
    } catch (error) {
      showApiError(error);
    }
  };

  const commit = async () => {
    if (!checked) return;
    try {
      const committed = await steps.commit.mutateAsync({ id: checked.batch.id, mode });
      const campaigns = (await callEndpoint(campaignEndpoints.list, { query: {} })).data;
      const campaign = campaigns.find((found) => found.import_batch_id === committed.id);
      setDone({ batch: committed, campaignId: campaign?.id ?? null });
      setChecked(null);
      setBatch(null);
    } catch (error) {
      showApiError(error);
    }
  };

  const preview = checked && (
    <section aria-label="Preview" style={{ marginTop: 24 }}>
      <Typography.Title level={2} style={{ fontSize: 16 }}>
        Preview of {checked.batch.file_name}
      </Typography.Title>
      <Alert
        type={checked.batch.error_count > 0 ? 'warning' : 'success'}
        showIcon
        title={`${counted(checked.willCreate, 'row')} of ${checked.batch.row_count} right: ${counted(checked.willCreate, 'order')} to create. ${counted(checked.batch.error_count, 'error')}.`}
        description="Nothing is written until you create the campaign."
        style={{ marginBottom: 12 }}
      />
      {checked.errors.length > 0 && (
        <>
          <Typography.Title level={3} style={{ fontSize: 15 }}>
            Rows with errors
          </Typography.Title>
          <Table<ImportError>
            size="small"
            data-testid="campaign-errors"
            rowKey={(error) => `${error.row}-${error.column}-${error.message}`}
            dataSource={checked.errors}
            columns={ERROR_COLUMNS}
            pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
          />
        </>
      )}
      <Typography.Title level={3} style={{ fontSize: 15 }}>
        Demand against listings and stock
      </Typography.Title>
      <Table<CampaignDemand>
        size="small"
        data-testid="campaign-demand"
        rowKey="sku"
        dataSource={checked.summary?.demand ?? []}
        columns={DEMAND_COLUMNS}
        pagination={false}
        footer={() =>
          `${counted(checked.summary?.units ?? 0, 'unit')}, ${dollars(checked.summary?.total_cents ?? 0)} in all.`
        }
      />
      <Radio.Group
        aria-label="What to create"
        value={mode}
        onChange={(event) => setMode(event.target.value as ImportMode)}
        style={{ display: 'flex', flexDirection: 'column', gap: 8, margin: '16px 0' }}
        options={[
          {
            value: 'valid_rows',
            label: 'Valid rows only: create the right rows’ orders and leave out the rows in error',
          },
          {
            value: 'all_or_nothing',
            label: 'All or nothing: create no order while any row has an error',
          },
        ]}
      />
      <Space wrap>
        {checked.batch.error_count > 0 && (
          <Button onClick={() => void download(() => steps.errorFile(checked.batch.id))}>
            Download the error file
          </Button>
        )}
        <Button onClick={() => batch && void check(batch)} loading={steps.check.isPending}>
          Check again
        </Button>
        <Button
          type="primary"
          loading={steps.commit.isPending}
          disabled={
            checked.willCreate === 0 || (mode === 'all_or_nothing' && checked.batch.error_count > 0)
          }
          onClick={() => void commit()}
        >
          Create the campaign with {counted(checked.willCreate, 'order')}
        </Button>
      </Space>
    </section>
  );

  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        One file is one campaign of a client carrier: each row an order of one SKU for one
        subscriber, sold at the price of its live listing. Every row is checked before anything is
        written: the address (the ZIP must lie in the state), the SKU on a live listing, and
        duplicates in the file and among the carrier’s orders. At most{' '}
        {CAMPAIGN_MAX_ROWS.toLocaleString()} rows per file.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        aria-label="Campaign"
        initialValues={{ fulfilment_type: 'existing_customer', channel: 'campaign' }}
        onValuesChange={() => setChecked(null)}
        style={{ maxWidth: 760 }}
      >
        <Space wrap align="start">
          {CAMPAIGN_FIELDS.map((declared) => (
            <Form.Item
              key={declared.name}
              name={declared.name}
              label={declared.label}
              required={declared.required}
              rules={[zodRule(fieldSchema(campaignImportOptionsSchema, declared.name))]}
              style={{ minWidth: 220 }}
            >
              <FieldInput field={declared} disabled={false} initial={[]} />
            </Form.Item>
          ))}
        </Space>
      </Form>
      <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 760 }}>
        <Space wrap>
          The file’s columns:
          {FILE_COLUMNS.map((column) => (
            <Tag key={column.key} color={column.required ? 'blue' : undefined}>
              {column.header}
            </Tag>
          ))}
        </Space>
        <Space>
          Template:
          {(['csv', 'xlsx'] as const).map((format) => (
            <Button
              key={format}
              size="small"
              onClick={() => void download(() => steps.template(format))}
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
            {steps.upload.isPending || steps.check.isPending
              ? 'Reading and checking the file…'
              : 'Drop the campaign file (CSV or XLSX) here, or click to choose it.'}
          </p>
        </Upload.Dragger>
        {batch && !checked && !steps.check.isPending && (
          <Button type="primary" onClick={() => void check(batch)}>
            Check {batch.file_name}
          </Button>
        )}
      </Space>
      {preview}
      {done && (
        <Result
          status="success"
          title={`Campaign created from ${done.batch.file_name}`}
          subTitle={`${counted(done.batch.created_count, 'order')} created${done.batch.error_count > 0 ? `; ${counted(done.batch.error_count, 'error')} left out (in the error file)` : ''}.`}
          extra={
            done.campaignId !== null && (
              <Link to={`/order/express-orders/order?campaign=${done.campaignId}`}>
                See the campaign’s orders
              </Link>
            )
          }
        />
      )}
      <section aria-label="Import history" style={{ marginTop: 32 }}>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Import history
        </Typography.Title>
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
              title: 'Status',
              render: (_, row) => (
                <Tag color={row.status === 'committed' ? 'green' : undefined}>{row.status}</Tag>
              ),
            },
            { key: 'row_count', dataIndex: 'row_count', title: 'Rows' },
            { key: 'created_count', dataIndex: 'created_count', title: 'Orders' },
            {
              key: 'error_count',
              title: 'Errors',
              render: (_, row) =>
                row.error_count > 0 ? (
                  <Button
                    size="small"
                    type="link"
                    onClick={() => void download(() => steps.errorFile(row.id))}
                  >
                    {row.error_count} (download)
                  </Button>
                ) : (
                  0
                ),
            },
            { key: 'by', title: 'By', render: (_, row) => row.created_by_name ?? '—' },
            { key: 'when', title: 'When', render: (_, row) => when(row.created_at) },
          ]}
        />
      </section>
    </div>
  );
}
