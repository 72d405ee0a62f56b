import {
  SIM_FORMS,
  simBoxPickers,
  simListImportOptionsSchema,
  type ImportBatch,
  type ImportError,
  type SimListImportOptions,
} from '@inventory/contract';
import { Alert, Button, Drawer, Form, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { counted } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import { FieldInput } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useSimListImport, type SimListCheck } from '../api/sim-stock.queries';

/** The box the file becomes: what every line shares. */
const FIELDS: FormField[] = [
  {
    name: 'client_carrier_id',
    label: 'Client carrier',
    kind: 'remote',
    required: true,
    load: pickerLoader(simBoxPickers.carriers),
  },
  {
    name: 'form',
    label: 'Form',
    kind: 'select',
    options: SIM_FORMS.map((form) => ({ value: form, label: form === 'esim' ? 'eSIM' : form })),
  },
  {
    name: 'without_check_digits',
    label: 'The file has no check digits (compute and append them)',
    kind: 'switch',
  },
  {
    name: 'location_id',
    label: 'Location (optional)',
    kind: 'remote',
    load: pickerLoader(simBoxPickers.locations),
  },
];

const ERROR_COLUMNS = [
  { key: 'row', dataIndex: 'row', title: 'Line', width: 70 },
  { key: 'value', dataIndex: 'value', title: 'ICCID', ellipsis: true },
  { key: 'message', dataIndex: 'message', title: 'Error' },
];

/**
 * Receive a box from an ICCID list (CSV or XLSX, one `iccid` column): the toolkit's upload and
 * dry run, every bad line reported by its number (a wrong check digit, a repeat, a SIM received
 * already), then the box written with the right lines or none.
 */
export function ImportSimListDrawer({ onClose }: { onClose: () => void }) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<SimListImportOptions>();
  const steps = useSimListImport();
  const [batch, setBatch] = useState<ImportBatch | null>(null);
  const [checked, setChecked] = useState<SimListCheck | null>(null);

  const check = async (uploaded: ImportBatch) => {
    let options: SimListImportOptions;
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
      const committed = await steps.commit.mutateAsync({
        id: checked.batch.id,
        mode: 'all_or_nothing',
      });
      notify.success(
        `A box of ${counted(committed.created_count, 'SIM')} received from ${committed.file_name}.`,
      );
      onClose();
    } catch (error) {
      showApiError(error);
    }
  };

  const summary = checked?.summary;
  return (
    <Drawer
      {...dialogFocus}
      open
      size={640}
      title="Receive a SIM box from an ICCID list"
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">
        A CSV or XLSX file with an <code>iccid</code> column, one SIM a line. Every line is checked
        before anything is written; the box is received only when every line is right.
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ form: 'triple-cut', without_check_digits: false }}
      >
        {FIELDS.map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={field.name}
            required={field.required}
            valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
            rules={[zodRule(fieldSchema(simListImportOptionsSchema, field.name))]}
          >
            <FieldInput field={field} disabled={false} initial={[]} />
          </Form.Item>
        ))}
      </Form>
      <Space wrap style={{ marginBottom: 16 }}>
        <Upload
          accept=".csv,.xlsx"
          showUploadList={false}
          beforeUpload={(file) => {
            void upload(file);
            return false;
          }}
        >
          <Button loading={steps.upload.isPending || steps.check.isPending}>Choose the file</Button>
        </Upload>
        {batch && (
          <Button onClick={() => void check(batch)} loading={steps.check.isPending}>
            Check again
          </Button>
        )}
      </Space>
      {checked && (
        <section aria-label="Preview">
          <Alert
            type={checked.batch.error_count > 0 ? 'warning' : 'success'}
            showIcon
            title={`${counted(checked.willCreate, 'SIM')} of ${checked.batch.row_count} lines right; ${counted(checked.batch.error_count, 'error')}.`}
            description={
              summary && summary.qty > 0
                ? `The box: ${summary.iccid_first} to ${summary.iccid_last}, ${summary.issuers
                    .map((issuer) => `${issuer.qty} ${issuer.issuer ?? 'of no known issuer'}`)
                    .join(', ')}.`
                : undefined
            }
            style={{ marginBottom: 12 }}
          />
          {checked.errors.length > 0 && (
            <Table<ImportError>
              size="small"
              data-testid="sim-list-errors"
              rowKey={(error) => `${error.row}-${error.message}`}
              dataSource={checked.errors}
              columns={ERROR_COLUMNS}
              pagination={{ pageSize: 20, showSizeChanger: false, hideOnSinglePage: true }}
            />
          )}
          <Space wrap style={{ marginTop: 12 }}>
            {checked.batch.error_count > 0 && (
              <Button onClick={() => void steps.errorFile(checked.batch.id).catch(showApiError)}>
                Download the error file
              </Button>
            )}
            <Button
              type="primary"
              disabled={checked.willCreate === 0 || checked.batch.error_count > 0}
              loading={steps.commit.isPending}
              onClick={() => void commit()}
            >
              Receive the box of {counted(checked.willCreate, 'SIM')}
            </Button>
          </Space>
        </section>
      )}
    </Drawer>
  );
}
