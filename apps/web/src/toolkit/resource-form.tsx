import type { ListEndpoints, Schema, WriteEndpoints } from '@inventory/contract';
import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { showApiError } from '../shell/api-errors';
import { useLatestSearch } from './latest-search';
import { notify } from '../shell/notify';
import { useResourceWrites } from './resource-queries';
import type { FormField, Option, ResourceForm } from './resource-page-config';
import { fieldSchema, zodRule } from './zod-rules';
import { useDialogFocus } from '../shell/dialog-focus';

/** A select whose options come from the server as the user types (a form field, a line of one). */
export function RemoteSelect({
  field,
  value,
  onChange,
  initial,
  id,
  disabled,
  'aria-label': ariaLabel,
}: {
  id?: string;
  disabled?: boolean;
  /** Its name where no form label points at it (`id`): a filter above a table. */
  'aria-label'?: string;
  field: Extract<FormField, { kind: 'remote' }>;
  value?: number | number[] | null;
  onChange?: (value: number | number[] | null) => void;
  initial: Option[];
}) {
  const { options, loading, search } = useLatestSearch(field.load, {
    initial,
    keep: (shown) =>
      shown.filter((option) =>
        Array.isArray(value) ? value.includes(option.value as number) : option.value === value,
      ),
  });
  return (
    <Select
      id={id}
      aria-label={ariaLabel}
      disabled={disabled}
      showSearch={{ filterOption: false, onSearch: (term) => void search(term) }}
      allowClear
      mode={field.multiple ? 'multiple' : undefined}
      value={value ?? undefined}
      onChange={(next) => onChange?.(next ?? null)}
      onFocus={() => void search('')}
      options={options}
      loading={loading}
      placeholder={field.placeholder ?? 'Type to search'}
      notFoundContent={loading ? 'Searching…' : 'Nothing found'}
    />
  );
}

/** The props Form.Item gives its control: value, change handler and the id its label points at. */
type Control = Record<string, never>;

/** The control of one declared form field, for a toolkit form (the resource drawer, an action's). */
export function FieldInput({
  field,
  initial,
  disabled,
  ...rest
}: {
  field: FormField;
  initial: Option[];
  disabled: boolean;
}) {
  // Each control takes the props its kind understands; Form.Item checks the value by the schema.
  const control = { ...(rest as Control), disabled };
  switch (field.kind) {
    case 'textarea':
      return <Input.TextArea rows={3} placeholder={field.placeholder} {...control} />;
    case 'number':
      return (
        <InputNumber
          style={{ width: '100%' }}
          min={field.min}
          step={field.step}
          precision={field.precision}
          suffix={field.suffix}
          placeholder={field.placeholder}
          {...control}
        />
      );
    case 'switch':
      return <Switch {...control} />;
    case 'select':
      return (
        <Select
          options={[...field.options]}
          mode={field.multiple ? 'multiple' : undefined}
          allowClear={field.allowClear}
          placeholder={field.placeholder}
          {...control}
        />
      );
    case 'words':
      return (
        <Select
          mode="tags"
          tokenSeparators={[',', '|']}
          open={false}
          suffixIcon={null}
          placeholder={field.placeholder ?? 'Type and press Enter'}
          {...control}
        />
      );
    case 'remote':
      return <RemoteSelect field={field} initial={initial} {...control} />;
    default:
      return <Input placeholder={field.placeholder} {...control} />;
  }
}

/**
 * Create or edit one row of a resource in a drawer. Each field is checked by the contract's own
 * schema before sending; the server's 422 messages land on the same fields.
 */
export function ResourceFormDrawer<T extends { id: number }>({
  form: declared,
  endpoints,
  singular,
  titleOf,
  item,
  onClose,
}: {
  form: ResourceForm<T>;
  endpoints: ListEndpoints & WriteEndpoints;
  singular: string;
  titleOf: (item: T) => string;
  item: T | null;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Record<string, unknown>>();
  const writes = useResourceWrites(endpoints);
  const schema = (item ? endpoints.update.body : endpoints.create.body) as Schema;

  const submit = async (values: Record<string, unknown>) => {
    const body = declared.toBody ? declared.toBody(values) : values;
    try {
      let created: unknown = null;
      if (item) await writes.update.mutateAsync({ id: item.id, body });
      else created = (await writes.create.mutateAsync(body)).data;
      notify.success(`The ${singular} is saved.`);
      onClose();
      if (created) declared.onCreated?.(created as T);
    } catch (error) {
      showApiError(error, form);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={520}
      title={item ? `Edit ${singular} ${titleOf(item)}` : `New ${singular}`}
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
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={item ? declared.toValues(item) : declared.defaults}
      >
        {declared.fields.map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={field.name}
            extra={field.help}
            required={field.required}
            valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
            rules={[zodRule(fieldSchema(schema, field.name))]}
          >
            <FieldInput
              field={field}
              disabled={Boolean(item && field.createOnly)}
              initial={
                item && field.kind === 'remote'
                  ? ((field.initial as ((row: T) => Option[]) | undefined)?.(item) ?? [])
                  : []
              }
            />
          </Form.Item>
        ))}
      </Form>
    </Drawer>
  );
}
