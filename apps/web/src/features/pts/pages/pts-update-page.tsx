import {
  PTS_CHANNELS,
  PTS_LISTING_STATUSES,
  PTS_UPDATE_OPERATION_WORDS,
  PTS_UPDATE_OPERATIONS,
  ptsListingImport,
  ptsListingImportEndpoints,
  ptsListingWriteEndpoints,
  ptsUpdateRequestSchema,
  SELLABLE_TYPES,
  type PtsPreview,
  type PtsPreviewRow,
  type PtsUpdateBatch,
  type PtsUpdateRequest,
} from '@inventory/contract';
import { Alert, Button, Checkbox, Drawer, Form, Space, Table, Tag, Typography } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { PAGE_TITLE_STYLE } from '../../../shell/page-styles';
import type { PageProps } from '../../../shell/page-types';
import { counted, dollars, when } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { FieldInput } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useBulkUpdate, useUpdateBatch, useUpdateBatches } from '../api/listings.queries';

const ImportDrawer = lazy(() => import('../../../toolkit/import-drawer'));

const options = (values: readonly string[]) =>
  values.map((value) => ({ value, label: value.replace('_', ' ') }));

const FILTER_FIELDS: FormField[] = [
  {
    name: 'model_id',
    label: 'Model',
    kind: 'remote',
    load: pickerLoader(ptsListingWriteEndpoints.modelOptions),
  },
  {
    name: 'channel',
    label: 'Channel',
    kind: 'select',
    options: options(PTS_CHANNELS),
    allowClear: true,
  },
  {
    name: 'status',
    label: 'Status',
    kind: 'select',
    options: options(PTS_LISTING_STATUSES),
    allowClear: true,
  },
  {
    name: 'sellable_type',
    label: 'Type',
    kind: 'select',
    options: options(SELLABLE_TYPES),
    allowClear: true,
  },
];

const OPERATION_FIELD: FormField = {
  name: 'operation',
  label: 'Change',
  kind: 'select',
  required: true,
  options: PTS_UPDATE_OPERATIONS.map((value) => ({
    value,
    label: PTS_UPDATE_OPERATION_WORDS[value],
  })),
};
const VALUE_FIELD: FormField = { name: 'value', label: 'Value', kind: 'number', step: 1 };

type Values = Record<string, unknown>;

/** The form as the request: the filters set, the operation and its value. */
function requestOf(values: Values): PtsUpdateRequest {
  const filter = Object.fromEntries(
    FILTER_FIELDS.map((field) => [field.name, values[field.name]]).filter(
      ([, value]) => value !== undefined && value !== null && value !== '',
    ),
  );
  return {
    filter,
    operation: values.operation as PtsUpdateRequest['operation'],
    ...(values.value !== undefined && values.value !== null && { value: Number(values.value) }),
  };
}

const terms = (side: PtsPreviewRow['before']) =>
  `${side.qty_pushed} · ${dollars(side.price_cents)} · ${side.status.replace('_', ' ')}`;

const PREVIEW_COLUMNS = [
  { title: 'Listing', render: (_: unknown, row: PtsPreviewRow) => `${row.sku} on ${row.channel}` },
  { title: 'Available', render: (_: unknown, row: PtsPreviewRow) => row.available ?? '—' },
  { title: 'Reserved + sold', dataIndex: 'committed' },
  {
    title: 'Before (qty · price · status)',
    render: (_: unknown, row: PtsPreviewRow) => terms(row.before),
  },
  { title: 'After', render: (_: unknown, row: PtsPreviewRow) => terms(row.after) },
  {
    title: 'Check',
    render: (_: unknown, row: PtsPreviewRow) =>
      row.error ? (
        <Typography.Text type="danger" data-testid="preview-error">
          {row.error}
        </Typography.Text>
      ) : (
        <Tag color="green">OK</Tag>
      ),
  },
];

/** One applied change with its listings before and after. */
function BatchDrawer({ id, onClose }: { id: number; onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const batch = useUpdateBatch(id);
  return (
    <Drawer {...dialogFocus} open size={820} title={`Applied change ${id}`} onClose={onClose}>
      {batch.data && (
        <>
          <Typography.Paragraph>
            {batch.data.batch.summary}: {counted(batch.data.batch.listing_count, 'listing')} by{' '}
            {batch.data.batch.created_by_name ?? 'someone'}, {when(batch.data.batch.created_at)}.
          </Typography.Paragraph>
          <Table
            size="small"
            rowKey="listing_id"
            pagination={false}
            dataSource={batch.data.rows}
            columns={[
              { title: 'Listing', render: (_, row) => `${row.sku} on ${row.channel}` },
              { title: 'Before', render: (_, row) => terms(row.before) },
              { title: 'After', render: (_, row) => terms(row.after) },
            ]}
          />
        </>
      )}
    </Drawer>
  );
}

/**
 * The bulk push-to-sale update (DOMAIN.md 4.5 `/push-to-sale/update`): choose listings, choose a
 * change, see every listing before and after with the rows that cannot take it, then apply it in
 * one transaction; or import a file of changes with its dry run. Applied changes are listed.
 */
export default function PtsUpdatePage({ entry }: PageProps) {
  const [form] = Form.useForm<Values>();
  const bulk = useBulkUpdate();
  const batches = useUpdateBatches();
  const [preview, setPreview] = useState<{ request: PtsUpdateRequest; result: PtsPreview } | null>(
    null,
  );
  const [skipErrors, setSkipErrors] = useState(false);
  const [importing, setImporting] = useState(false);
  const [opened, setOpened] = useState<number | null>(null);

  const runPreview = async (values: Values) => {
    const request = requestOf(values);
    try {
      setPreview({ request, result: await bulk.preview.mutateAsync(request) });
      setSkipErrors(false);
    } catch (error) {
      showApiError(error, form);
    }
  };

  const apply = async () => {
    if (!preview) return;
    try {
      const batch = await bulk.apply.mutateAsync({ ...preview.request, skip_errors: skipErrors });
      notify.success(`${batch.summary}: ${counted(batch.listing_count, 'listing')} changed.`);
      setPreview(null);
    } catch (error) {
      showApiError(error);
    }
  };

  const field = (declared: FormField) => (
    <Form.Item
      key={declared.name}
      name={declared.name}
      label={declared.label}
      required={declared.required}
      rules={declared.required ? [zodRule(fieldSchema(ptsUpdateRequestSchema, declared.name))] : []}
    >
      <FieldInput field={declared} disabled={false} initial={[]} />
    </Form.Item>
  );

  const result = preview?.result;
  return (
    <div>
      <Typography.Title level={1} style={PAGE_TITLE_STYLE}>
        {entry.label}
      </Typography.Title>
      <Space style={{ marginBottom: 16 }}>
        <Button onClick={() => setImporting(true)}>Import a file</Button>
      </Space>
      <Form
        form={form}
        layout="vertical"
        aria-label="Bulk change"
        onFinish={(values) => void runPreview(values)}
        onValuesChange={() => setPreview(null)}
        initialValues={{ operation: 'price_percent' }}
        style={{ maxWidth: 720 }}
      >
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Listings to change
        </Typography.Title>
        <Space wrap align="start">
          {FILTER_FIELDS.map((declared) => (
            <div key={declared.name} style={{ minWidth: 200 }}>
              {field(declared)}
            </div>
          ))}
        </Space>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          The change
        </Typography.Title>
        <Space wrap align="start">
          <div style={{ minWidth: 360 }}>{field(OPERATION_FIELD)}</div>
          <div style={{ minWidth: 160 }}>{field(VALUE_FIELD)}</div>
        </Space>
        <Button type="primary" htmlType="submit" loading={bulk.preview.isPending}>
          Preview
        </Button>
      </Form>

      {result && (
        <section aria-label="Preview" style={{ marginTop: 24 }}>
          <Typography.Title level={2} style={{ fontSize: 16 }}>
            Preview
          </Typography.Title>
          <Alert
            type={result.errors > 0 ? 'warning' : 'info'}
            style={{ marginBottom: 12 }}
            title={`${counted(result.matched, 'listing')} chosen: ${result.changed} would change, ${result.unchanged} stay as they are, ${result.errors} cannot take the change.`}
            description={
              result.matched > result.rows.length
                ? `The first ${result.rows.length} rows in error or changing are shown.`
                : undefined
            }
          />
          <Table
            size="small"
            rowKey="listing_id"
            pagination={false}
            dataSource={result.rows}
            columns={PREVIEW_COLUMNS}
            data-testid="preview-table"
          />
          <Space style={{ marginTop: 12 }}>
            {result.errors > 0 && (
              <Checkbox
                checked={skipErrors}
                onChange={(event) => setSkipErrors(event.target.checked)}
              >
                Leave the {counted(result.errors, 'listing')} in error as they are
              </Checkbox>
            )}
            <Button
              type="primary"
              disabled={result.changed === 0 || (result.errors > 0 && !skipErrors)}
              loading={bulk.apply.isPending}
              onClick={() => void apply()}
            >
              Apply to {counted(result.changed, 'listing')}
            </Button>
          </Space>
        </section>
      )}

      <section aria-label="Applied changes" style={{ marginTop: 32 }}>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          Applied changes
        </Typography.Title>
        <Table<PtsUpdateBatch>
          size="small"
          rowKey="id"
          loading={batches.isLoading}
          pagination={false}
          dataSource={batches.data ?? []}
          columns={[
            { title: 'When', render: (_, batch) => when(batch.created_at) },
            { title: 'Who', render: (_, batch) => batch.created_by_name ?? '—' },
            { title: 'Change', dataIndex: 'summary' },
            { title: 'Listings', dataIndex: 'listing_count' },
            {
              title: 'Details',
              render: (_, batch) => (
                <Button size="small" onClick={() => setOpened(batch.id)}>
                  Before and after of change {batch.id}
                </Button>
              ),
            },
          ]}
        />
      </section>
      {opened !== null && <BatchDrawer id={opened} onClose={() => setOpened(null)} />}
      {importing && (
        <Suspense fallback={null}>
          <ImportDrawer
            resource={ptsListingImport}
            endpoints={ptsListingImportEndpoints}
            refreshes={['/pts-listings', '/pts-updates']}
            onClose={() => setImporting(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
