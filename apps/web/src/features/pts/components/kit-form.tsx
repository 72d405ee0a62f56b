import type { bundleEndpoints, comboEndpoints, Schema, TagRef } from '@inventory/contract';
import { Button, Card, Drawer, Form, Input, InputNumber, Space, Typography } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import type { FormField } from '../../../toolkit/resource-page-config';
import { fieldSchema, zodRule } from '../../../toolkit/zod-rules';
import { useCatalogueWrite } from '../api/products.queries';

/*
 * What the forms of a bundle and a combo (kits) share: SKU, name and tags, saving, and the list
 * of their shape's rows (components, slots), locked while a listing sells the kit.
 */

export type RemoteField = Extract<FormField, { kind: 'remote' }>;

/** The endpoints of a kind of kit. */
export type KitEndpoints = typeof bundleEndpoints | typeof comboEndpoints;

/** What a kit's form and page read of a kit, whatever its shape. */
export type KitRow = {
  id: number;
  sku: string;
  name: string;
  status: string;
  live_listings: number;
  tags: TagRef[];
  updated_at: string;
};

type KitValues = { sku?: string; name?: string; tag_ids?: number[] };

/** A kit sold by a live listing keeps its shape: its rows cannot be changed in the form. */
export const isLocked = (kit: KitRow | null) => kit !== null && kit.live_listings > 0;

/** A row's quantity (of a component, of a slot). */
export const QuantityField = ({ row, locked }: { row: number; locked: boolean }) => (
  <Form.Item label="Quantity" name={[row, 'qty']} required>
    <InputNumber min={1} disabled={locked} style={{ width: 100 }} />
  </Form.Item>
);

/** The rows of a kit's shape as cards, numbered, each removable, with a button to add one. */
export function KitRows({
  name,
  item,
  testId,
  locked,
  newRow,
  children,
}: {
  /** The form field of the rows: `components`, `slots`. */
  name: string;
  /** One row, in words: `Component`, `Slot`. */
  item: string;
  testId: string;
  locked: boolean;
  newRow: object;
  children: (row: number) => ReactNode;
}) {
  const lower = item.toLowerCase();
  return (
    <Form.List name={name}>
      {(rows, { add, remove }) => (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {rows.map(({ key, name: row }, index) => (
            <Card
              key={key}
              size="small"
              title={`${item} ${index + 1}`}
              data-testid={testId}
              extra={
                !locked && (
                  <Button
                    size="small"
                    aria-label={`Remove ${lower} ${index + 1}`}
                    onClick={() => remove(row)}
                  >
                    Remove
                  </Button>
                )
              }
            >
              {children(row)}
            </Card>
          ))}
          {!locked && <Button onClick={() => add(newRow)}>Add {lower}</Button>}
        </Space>
      )}
    </Form.List>
  );
}

/**
 * A kit's drawer: SKU, name and tags, then its shape (`children`, given whether it is locked)
 * under `shapeTitle`. Saves by the kind's create or update endpoint.
 */
export function KitFormDrawer<Values extends KitValues>({
  singular,
  kit,
  endpoints,
  createSchema,
  skuPlaceholder,
  size,
  shapeTitle,
  initialShape,
  toBody = (values) => values,
  onClose,
  children,
}: {
  singular: 'bundle' | 'combo';
  kit: KitRow | null;
  endpoints: KitEndpoints;
  createSchema: Schema;
  skuPlaceholder: string;
  size: number;
  /** The shape's heading: `Components`, `Slots`. */
  shapeTitle: string;
  /** The form's values of the kit's shape, or of a new kit's. */
  initialShape: Partial<Values>;
  toBody?: (values: Values) => Values;
  onClose: () => void;
  children: (locked: boolean) => ReactNode;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Values>();
  const save = useCatalogueWrite(async (body: Values) =>
    kit
      ? (
          await callEndpoint(endpoints.update, {
            params: { id: kit.id },
            body: body as never,
          })
        ).data
      : (await callEndpoint(endpoints.create, { body: body as never })).data,
  );
  const locked = isLocked(kit);
  const rule = (name: string) => zodRule(fieldSchema(createSchema, name));
  const tagPicker = useMemo<RemoteField>(
    () => ({
      name: 'tag_ids',
      label: 'Tags',
      kind: 'remote',
      multiple: true,
      load: pickerLoader(endpoints.tagOptions),
      placeholder: `Tags for ${singular}s`,
    }),
    [endpoints, singular],
  );
  const submit = async (values: Values) => {
    try {
      const saved = await save.mutateAsync(toBody({ ...values, tag_ids: values.tag_ids ?? [] }));
      notify.success(`The ${singular} ${saved.sku} is saved.`);
      onClose();
    } catch (error) {
      showApiError(error, form);
    }
  };
  return (
    <Drawer
      {...dialogFocus}
      open
      size={size}
      title={kit ? `Edit ${singular} ${kit.sku}` : `New ${singular}`}
      onClose={onClose}
      extra={
        <Space>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" onClick={() => form.submit()} loading={save.isPending}>
            Save
          </Button>
        </Space>
      }
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={(values) => void submit(values)}
        initialValues={
          kit
            ? {
                sku: kit.sku,
                name: kit.name,
                tag_ids: kit.tags.map((tag) => tag.id),
                ...initialShape,
              }
            : initialShape
        }
      >
        <Space wrap align="start">
          <Form.Item label="SKU" name="sku" required rules={[rule('sku')]}>
            <Input placeholder={skuPlaceholder} />
          </Form.Item>
          <Form.Item
            label={`${singular === 'bundle' ? 'Bundle' : 'Combo'} name`}
            name="name"
            required
            rules={[rule('name')]}
            style={{ minWidth: 320 }}
          >
            <Input />
          </Form.Item>
        </Space>
        <Form.Item label="Tags" name="tag_ids">
          <RemoteSelect
            field={tagPicker}
            initial={(kit?.tags ?? []).map((tag) => ({ value: tag.id, label: tag.name }))}
          />
        </Form.Item>
        <Typography.Title level={2} style={{ fontSize: 16 }}>
          {shapeTitle}
        </Typography.Title>
        {locked && kit && (
          <Typography.Paragraph type="warning">
            {kit.live_listings} live listing(s) sell this {singular}: its {shapeTitle.toLowerCase()}{' '}
            stay as they are until the listings are paused or ended.
          </Typography.Paragraph>
        )}
        {children(locked)}
      </Form>
    </Drawer>
  );
}
