import {
  iccidRangeCount,
  parseIccid,
  receiveSimRangeSchema,
  SIM_FORMS,
  simBoxPickers,
  type SimBoxRow,
} from '@inventory/contract';
import {
  Alert,
  Button,
  Drawer,
  Form,
  Input,
  InputNumber,
  Space,
  Typography,
  type InputRef,
} from 'antd';
import { useRef, useState, type ComponentRef } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { FieldInput } from '../../../toolkit/resource-form';
import type { FormField, Option } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { prefixOf, useBoxWrites } from '../api/sim-stock.queries';

type Values = {
  iccid_first?: string;
  iccid_last?: string;
  qty?: number;
  client_carrier_id?: number;
  form?: (typeof SIM_FORMS)[number];
  location_id?: number;
};

const CARRIER: FormField = {
  name: 'client_carrier_id',
  label: 'Client carrier',
  kind: 'remote',
  help: 'Filled from the prefix table when the first ICCID names the carrier.',
  load: pickerLoader(simBoxPickers.carriers),
};
const FORM: FormField = {
  name: 'form',
  label: 'Form',
  kind: 'select',
  options: SIM_FORMS.map((form) => ({ value: form, label: form === 'esim' ? 'eSIM' : form })),
};
const LOCATION: FormField = {
  name: 'location_id',
  label: 'Location (optional)',
  kind: 'remote',
  load: pickerLoader(simBoxPickers.locations),
};

const rule = (name: string) => zodRule(fieldSchema(receiveSimRangeSchema, name));

/** What the range scanned so far holds, in words; null until both ICCIDs read. */
function rangeWords(first?: string, last?: string, qty?: number) {
  const a = first ? parseIccid(first) : null;
  const b = last ? parseIccid(last) : null;
  if (!a?.ok || !b?.ok) return null;
  const range = iccidRangeCount(a.value.iccid, b.value.iccid);
  if (!range.ok) return { type: 'error' as const, text: range.message };
  const issuer = a.value.issuer?.name;
  const text = `The range holds ${range.count.toLocaleString('en-US')} SIMs${issuer ? ` of ${issuer}` : ''}.`;
  return qty !== undefined && qty !== range.count
    ? { type: 'warning' as const, text: `${text} The box says ${qty}.` }
    : { type: 'success' as const, text };
}

/**
 * Receive a carrier box by range: scan the first SIM's ICCID (the carrier comes from the prefix
 * table when it names one), then the last; the range's count must be the box's quantity.
 */
export function ReceiveSimBoxDrawer({
  onClose,
  onReceived,
}: {
  onClose: () => void;
  onReceived: (box: SimBoxRow) => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Values>();
  const writes = useBoxWrites();
  const lastRef = useRef<InputRef>(null);
  const qtyRef = useRef<ComponentRef<typeof InputNumber>>(null);
  const [carrierOptions, setCarrierOptions] = useState<Option[]>([]);
  const entered = Form.useWatch((values: Values) => values, form) ?? {};
  const words = rangeWords(entered.iccid_first, entered.iccid_last, entered.qty);

  /** The first ICCID read: its prefix may name the carrier when none is chosen yet. */
  const firstScanned = async () => {
    const parsed = parseIccid(form.getFieldValue('iccid_first') ?? '');
    if (!parsed.ok || form.getFieldValue('client_carrier_id')) return;
    try {
      const prefix = await prefixOf(parsed.value.iccid);
      if (prefix.client_carrier_id !== null && !form.getFieldValue('client_carrier_id')) {
        setCarrierOptions([
          { value: prefix.client_carrier_id, label: prefix.client_carrier ?? '' },
        ]);
        form.setFieldValue('client_carrier_id', prefix.client_carrier_id);
      }
    } catch (error) {
      showApiError(error);
    }
  };

  /** Enter (a scanner's end of code) in a field: on to the next field once this one reads. */
  const next = (field: 'iccid_first' | 'iccid_last', focus: () => void) => {
    form
      .validateFields([field])
      .then(focus)
      .catch(() => undefined);
  };

  const submit = async (values: Values) => {
    try {
      const box = await writes.receive.mutateAsync({
        iccid_first: values.iccid_first ?? '',
        iccid_last: values.iccid_last ?? '',
        qty: values.qty ?? 0,
        form: values.form,
        client_carrier_id: values.client_carrier_id ?? null,
        location_id: values.location_id ?? null,
      });
      notify.success(`${box.code} received: ${box.qty} SIMs in stock.`);
      onReceived(box);
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={560}
      title="Receive a SIM box by range"
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => form.submit()} loading={writes.receive.isPending}>
            Receive
          </Button>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">
        Scan the ICCID of the box&apos;s first SIM, then of its last. Every SIM between them goes
        into stock; their number must be the quantity on the box.
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={{ form: 'triple-cut' }}
      >
        <Form.Item label="First ICCID" name="iccid_first" required rules={[rule('iccid_first')]}>
          <Input
            autoComplete="off"
            inputMode="numeric"
            onPressEnter={(event) => {
              event.preventDefault();
              next('iccid_first', () => lastRef.current?.focus());
            }}
            onBlur={() => void firstScanned()}
          />
        </Form.Item>
        <Form.Item label="Last ICCID" name="iccid_last" required rules={[rule('iccid_last')]}>
          <Input
            ref={lastRef}
            autoComplete="off"
            inputMode="numeric"
            onPressEnter={(event) => {
              event.preventDefault();
              next('iccid_last', () => qtyRef.current?.focus());
            }}
          />
        </Form.Item>
        <Form.Item label="Quantity on the box" name="qty" required rules={[rule('qty')]}>
          <InputNumber ref={qtyRef} min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        {words && (
          <Alert
            type={words.type}
            showIcon
            title={words.text}
            data-testid="range-count"
            style={{ marginBottom: 16 }}
          />
        )}
        {[CARRIER, FORM, LOCATION].map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={field.name}
            extra={field.help}
            rules={[rule(field.name)]}
          >
            <FieldInput
              field={field}
              disabled={false}
              initial={field.name === 'client_carrier_id' ? carrierOptions : []}
            />
          </Form.Item>
        ))}
      </Form>
    </Drawer>
  );
}
