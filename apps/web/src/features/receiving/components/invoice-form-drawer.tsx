import {
  createPurchaseInvoiceSchema,
  DEVICE_CONDITIONS,
  DEVICE_GRADES,
  invoiceColorOptionsEndpoint,
  invoiceLineInputSchema,
  invoiceModelOptionsEndpoint,
  invoicePageVendorOptionsEndpoint,
  purchaseInvoiceEndpoints,
  updatePurchaseInvoiceSchema,
  type InvoiceLine,
  type PurchaseInvoiceDetail,
  type Schema,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Card,
  Drawer,
  Form,
  Input,
  InputNumber,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField, Option } from '../../../toolkit/resource-page-config';
import { useResourceWrites } from '../../../toolkit/resource-queries';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { optionsOf } from '../../master-data';
import { useInvoiceDetail } from '../api/invoices.queries';
import { bodyOf, NEW_LINE, valuesOf, type InvoiceValues } from '../invoice-form-values';
import { useDialogFocus } from '../../../shell/dialog-focus';

type RemoteField = Extract<FormField, { kind: 'remote' }>;

const vendorPicker: RemoteField = {
  name: 'vendor_id',
  label: 'Vendor',
  kind: 'remote',
  load: pickerLoader(invoicePageVendorOptionsEndpoint),
  placeholder: 'Type to search vendors',
};
const modelPicker: RemoteField = {
  name: 'model_id',
  label: 'Model',
  kind: 'remote',
  load: pickerLoader(invoiceModelOptionsEndpoint),
  placeholder: 'Type to search models',
};
const colorPicker: RemoteField = {
  name: 'color_id',
  label: 'Colour',
  kind: 'remote',
  load: pickerLoader(invoiceColorOptionsEndpoint),
  placeholder: 'Any colour',
};

/** The options a line's pickers show before any search: what the invoice's lines hold. */
const knownOptions = (lines: readonly InvoiceLine[], of: 'model' | 'color'): Option[] => {
  const found = new Map<number, string>();
  for (const line of lines) {
    const id = of === 'model' ? line.model_id : line.color_id;
    const label = of === 'model' ? line.model : line.color;
    if (id !== null && label !== null) found.set(id, label);
  }
  return [...found].map(([value, label]) => ({ value, label }));
};

const lineRule = (name: string) => zodRule(fieldSchema(invoiceLineInputSchema as Schema, name));

function InvoiceForm({
  detail,
  onClose,
}: {
  detail: PurchaseInvoiceDetail | null;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<InvoiceValues>();
  const writes = useResourceWrites(purchaseInvoiceEndpoints);
  const schema = (detail ? updatePurchaseInvoiceSchema : createPurchaseInvoiceSchema) as Schema;
  const rule = (name: string) => zodRule(fieldSchema(schema, name));
  const models = detail ? knownOptions(detail.lines, 'model') : [];
  const colors = detail ? knownOptions(detail.lines, 'color') : [];
  const manifest = detail?.invoice.has_manifest ?? false;

  const submit = async (values: InvoiceValues) => {
    try {
      const body = bodyOf(values);
      if (detail) await writes.update.mutateAsync({ id: detail.invoice.id, body });
      else await writes.create.mutateAsync(body);
      notify.success(`Invoice ${values.invoice_no?.trim()} is saved.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={880}
      title={detail ? `Edit invoice ${detail.invoice.invoice_no}` : 'New purchase invoice'}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="primary"
            onClick={() => form.submit()}
            loading={writes.create.isPending || writes.update.isPending}
          >
            Save
          </Button>
        </Space>
      }
    >
      {manifest && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title="This invoice came with an IMEI manifest: its lines follow the manifest's devices."
        />
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={detail ? valuesOf(detail) : { currency: 'USD', lines: [{ ...NEW_LINE }] }}
      >
        <Space wrap align="start" size="middle">
          <Form.Item
            label="Vendor"
            name="vendor_id"
            required
            rules={[rule('vendor_id')]}
            style={{ minWidth: 280 }}
          >
            <RemoteSelect
              field={vendorPicker}
              initial={
                detail ? [{ value: detail.invoice.vendor_id, label: detail.invoice.vendor }] : []
              }
            />
          </Form.Item>
          <Form.Item label="Invoice number" name="invoice_no" required rules={[rule('invoice_no')]}>
            <Input placeholder="INV-1001" />
          </Form.Item>
          <Form.Item label="Invoice date" name="invoice_date" rules={[rule('invoice_date')]}>
            <Input type="date" />
          </Form.Item>
          <Form.Item label="Currency" name="currency" rules={[rule('currency')]}>
            <Input style={{ width: 90 }} maxLength={3} />
          </Form.Item>
          <Form.Item
            label="Invoice total"
            name="total"
            extra="As printed on the invoice; the lines' total is computed."
          >
            <InputNumber min={0} precision={2} prefix="$" style={{ width: 160 }} />
          </Form.Item>
        </Space>
        <Form.Item label="Notes" name="notes" rules={[rule('notes')]}>
          <Input.TextArea rows={2} />
        </Form.Item>
        <Typography.Title level={5}>Lines</Typography.Title>
        <Form.List name="lines">
          {(lines, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {lines.map(({ key, name }, index) => (
                <Card
                  key={key}
                  size="small"
                  title={`Line ${index + 1}`}
                  data-testid="invoice-line"
                  extra={
                    <Button
                      size="small"
                      aria-label={`Remove line ${index + 1}`}
                      onClick={() => remove(name)}
                    >
                      Remove
                    </Button>
                  }
                >
                  <Form.Item name={[name, 'id']} hidden>
                    <Input />
                  </Form.Item>
                  <Space wrap align="start">
                    <Form.Item
                      label="Model"
                      name={[name, 'model_id']}
                      required
                      rules={[lineRule('model_id')]}
                      style={{ minWidth: 260 }}
                    >
                      <RemoteSelect field={modelPicker} initial={models} />
                    </Form.Item>
                    <Form.Item label="Colour" name={[name, 'color_id']} style={{ minWidth: 160 }}>
                      <RemoteSelect field={colorPicker} initial={colors} />
                    </Form.Item>
                    <Form.Item
                      label="Capacity"
                      name={[name, 'capacity_gb']}
                      rules={[lineRule('capacity_gb')]}
                    >
                      <InputNumber min={1} suffix="GB" style={{ width: 110 }} />
                    </Form.Item>
                    <Form.Item label="Condition" name={[name, 'condition']}>
                      <Select options={optionsOf(DEVICE_CONDITIONS)} style={{ width: 130 }} />
                    </Form.Item>
                    <Form.Item label="Grade" name={[name, 'grade']}>
                      <Select options={optionsOf(DEVICE_GRADES)} allowClear style={{ width: 90 }} />
                    </Form.Item>
                    <Form.Item
                      label="Quantity"
                      name={[name, 'qty']}
                      required
                      rules={[lineRule('qty')]}
                    >
                      <InputNumber min={1} style={{ width: 100 }} />
                    </Form.Item>
                    <Form.Item label="Unit cost" name={[name, 'unit_cost']}>
                      <InputNumber min={0} precision={2} prefix="$" style={{ width: 130 }} />
                    </Form.Item>
                  </Space>
                </Card>
              ))}
              <Button onClick={() => add({ ...NEW_LINE })}>Add line</Button>
            </Space>
          )}
        </Form.List>
      </Form>
    </Drawer>
  );
}

/** Create an invoice by hand, or edit one (`invoiceId`): header and lines in one save. */
export function InvoiceFormDrawer({
  invoiceId,
  onClose,
}: {
  invoiceId: number | null;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const detail = useInvoiceDetail(invoiceId);
  if (invoiceId === null) return <InvoiceForm detail={null} onClose={onClose} />;
  if (detail.data) return <InvoiceForm detail={detail.data} onClose={onClose} />;
  return (
    <Drawer {...dialogFocus} open size={880} title="Edit invoice" onClose={onClose}>
      {detail.isError ? (
        <Alert
          type="error"
          showIcon
          title="The invoice could not be loaded."
          description={detail.error.message}
        />
      ) : (
        <Spin />
      )}
    </Drawer>
  );
}
