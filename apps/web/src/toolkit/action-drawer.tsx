import type { Schema } from '@inventory/contract';
import { Button, Drawer, Form, Space, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { showApiError } from '../shell/api-errors';
import { useDialogFocus } from '../shell/dialog-focus';
import { notify } from '../shell/notify';
import { FieldInput } from './resource-form';
import type { FormField, Option } from './resource-page-config';

type Values = Record<string, unknown>;
import { fieldSchema, zodRule } from './zod-rules';

/**
 * A named action's form in a drawer (receive, adjust, move): its fields are declared as a
 * resource form's are and checked by the action's body schema before sending; the server's 422
 * messages land on the same fields. `run` sends the values and answers what to tell the user.
 */
export function ActionDrawer({
  title,
  intro,
  fields,
  schema,
  initialValues,
  initialOptions = {},
  submitLabel,
  run,
  onClose,
  notice,
}: {
  title: string;
  intro?: ReactNode;
  fields: readonly FormField[];
  /** The action's body schema, each field's rule taken from it. */
  schema: Schema;
  initialValues: Values;
  /** The options of the remote fields' initial values, shown before any search. */
  initialOptions?: Partial<Record<string, Option[]>>;
  submitLabel: string;
  run: (values: Values) => Promise<string>;
  onClose: () => void;
  /** What the values entered call for, shown under the fields as they change (a warning). */
  notice?: (values: Values) => ReactNode;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Values>();
  const [sending, setSending] = useState(false);
  const entered = Form.useWatch((values: Values) => values, form) ?? initialValues;

  const submit = async (values: Values) => {
    setSending(true);
    try {
      notify.success(await run(values));
      onClose();
    } catch (error) {
      showApiError(error, form);
    } finally {
      setSending(false);
    }
  };

  return (
    <Drawer
      {...dialogFocus}
      open
      size={520}
      title={title}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => form.submit()} loading={sending}>
            {submitLabel}
          </Button>
        </Space>
      }
    >
      {intro && <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>}
      <Form form={form} layout="vertical" onFinish={submit} initialValues={initialValues}>
        {fields.map((field) => (
          <Form.Item
            key={field.name}
            label={field.label}
            name={field.name}
            extra={field.help}
            required={field.required}
            valuePropName={field.kind === 'switch' ? 'checked' : 'value'}
            rules={[zodRule(fieldSchema(schema, field.name))]}
          >
            <FieldInput field={field} disabled={false} initial={initialOptions[field.name] ?? []} />
          </Form.Item>
        ))}
        {notice?.(entered)}
      </Form>
    </Drawer>
  );
}
