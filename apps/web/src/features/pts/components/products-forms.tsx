import {
  addVariantSchema,
  createProductSchema,
  DEVICE_GRADES,
  productEndpoints,
  updateProductSchema,
  type Product,
  type PropertyChoice,
  type PropertyValueRef,
  type Schema,
  type Variant,
  variantEndpoints,
} from '@inventory/contract';
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Space, Spin } from 'antd';
import { showApiError } from '../../../shell/api-errors';
import { useDialogFocus } from '../../../shell/dialog-focus';
import { callEndpoint } from '../../../shell/http-client';
import { notify } from '../../../shell/notify';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';
import { useCatalogueWrite, usePropertyChoices } from '../api/products.queries';

const CAPACITIES = [8, 16, 32, 64, 128, 256, 512, 1024].map((gb) => ({
  value: gb,
  label: `${gb} GB`,
}));

const tagField: FormField = {
  name: 'tag_ids',
  label: 'Tags',
  kind: 'remote',
  multiple: true,
  load: pickerLoader(productEndpoints.tagOptions),
  placeholder: 'Tags for products',
};

const createFields: readonly FormField[] = [
  {
    name: 'model_id',
    label: 'Model',
    kind: 'remote',
    required: true,
    load: pickerLoader(productEndpoints.modelOptions),
    placeholder: 'Type to search models',
  },
  {
    name: 'name',
    label: 'Product name',
    kind: 'text',
    help: "The model's brand and name when left empty.",
  },
  {
    name: 'color_ids',
    label: 'Colours',
    kind: 'remote',
    multiple: true,
    load: pickerLoader(productEndpoints.colorOptions),
    placeholder: 'Any colour',
  },
  {
    name: 'capacities_gb',
    label: 'Capacities',
    kind: 'select',
    multiple: true,
    options: CAPACITIES,
    placeholder: 'Any capacity',
  },
  {
    name: 'grades',
    label: 'Grades',
    kind: 'select',
    multiple: true,
    options: optionsOf(DEVICE_GRADES),
    placeholder: 'Any grade',
  },
  {
    name: 'carrier_locks',
    label: 'Carrier locks',
    kind: 'words',
    placeholder: 'Any lock; type unlocked, T-Mobile… and press Enter',
  },
  {
    name: 'sku_prefix',
    label: 'SKU prefix',
    kind: 'text',
    help: "Each variant's SKU is this prefix, then capacity, colour, grade and lock. The brand and model by default.",
  },
  { name: 'description', label: 'Description', kind: 'textarea' },
  tagField,
];

/** The values of a form with empty texts and empty choices left out, as the API reads them. */
const given = (values: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(values).filter(
      ([, value]) => value !== undefined && value !== null && value !== '',
    ),
  );

/**
 * A new product from a model: one variant per colour × capacity × grade × lock chosen; what is
 * left empty matches any value.
 */
export function CreateProductDrawer({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (product: Product) => void;
}) {
  const create = useCatalogueWrite(
    async (body: Record<string, unknown>) =>
      (await callEndpoint(productEndpoints.create, { body: body as never })).data,
  );
  return (
    <ActionDrawer
      title="New product from a model"
      intro="Choose the cuts to sell: the product gets one variant for each combination, each with its own SKU and matching stock."
      fields={createFields}
      schema={createProductSchema as Schema}
      initialValues={{}}
      submitLabel="Create product"
      run={async (values) => {
        const product = await create.mutateAsync(given(values));
        onCreated(product);
        return `${product.name} is created with ${product.variant_count} variants.`;
      }}
      onClose={onClose}
    />
  );
}

/** A product's name, description and tags. */
export function EditProductDrawer({ product, onClose }: { product: Product; onClose: () => void }) {
  const update = useCatalogueWrite(
    async (body: Record<string, unknown>) =>
      (await callEndpoint(productEndpoints.update, { params: { id: product.id }, body })).data,
  );
  return (
    <ActionDrawer
      title={`Edit ${product.name}`}
      fields={[
        { name: 'name', label: 'Product name', kind: 'text', required: true },
        { name: 'description', label: 'Description', kind: 'textarea' },
        tagField,
      ]}
      schema={updateProductSchema as Schema}
      initialValues={{
        name: product.name,
        description: product.description ?? '',
        tag_ids: product.tags.map((tag) => tag.id),
      }}
      initialOptions={{ tag_ids: product.tags.map((tag) => ({ value: tag.id, label: tag.name })) }}
      submitLabel="Save"
      run={async (values) => {
        await update.mutateAsync({ ...values, tag_ids: values.tag_ids ?? [] });
        return `${String(values.name)} is saved.`;
      }}
      onClose={onClose}
    />
  );
}

/** One more cut of a product. */
export function AddVariantDrawer({ product, onClose }: { product: Product; onClose: () => void }) {
  const add = useCatalogueWrite(
    async (body: Record<string, unknown>) =>
      (
        await callEndpoint(productEndpoints.addVariant, {
          params: { id: product.id },
          body: body as never,
        })
      ).data,
  );
  return (
    <ActionDrawer
      title={`Add a variant to ${product.name}`}
      intro="An attribute left empty matches any value. The SKU is made from the model and the attributes unless you write one."
      fields={[
        {
          name: 'color_id',
          label: 'Colour',
          kind: 'remote',
          load: pickerLoader(productEndpoints.colorOptions),
          placeholder: 'Any colour',
        },
        { name: 'capacity_gb', label: 'Capacity', kind: 'number', min: 1, suffix: 'GB' },
        {
          name: 'grade',
          label: 'Grade',
          kind: 'select',
          options: optionsOf(DEVICE_GRADES),
          allowClear: true,
        },
        { name: 'carrier_lock', label: 'Carrier lock', kind: 'text' },
        { name: 'sku', label: 'SKU', kind: 'text' },
        { name: 'barcode', label: 'Barcode', kind: 'text' },
      ]}
      schema={addVariantSchema as Schema}
      initialValues={{}}
      submitLabel="Add variant"
      run={async (values) => {
        const variant = await add.mutateAsync(given(values));
        return `${variant.sku} is added.`;
      }}
      onClose={onClose}
    />
  );
}

const fieldName = (property: PropertyChoice) => `property_${property.id}`;

/** The control of one property's value, by its data type. */
function ValueInput({ property, ...control }: { property: PropertyChoice }) {
  switch (property.data_type) {
    case 'enum':
      return <Select allowClear options={optionsOf(property.enum_values)} {...control} />;
    case 'bool':
      return (
        <Select
          allowClear
          options={[
            { value: true, label: 'Yes' },
            { value: false, label: 'No' },
          ]}
          {...control}
        />
      );
    case 'int':
    case 'decimal':
      return (
        <InputNumber
          style={{ width: '100%' }}
          precision={property.data_type === 'int' ? 0 : undefined}
          suffix={property.unit ?? undefined}
          {...control}
        />
      );
    default:
      return <Input suffix={property.unit ?? undefined} {...control} />;
  }
}

/**
 * The property values of a product or a variant: every active property that applies to it, each
 * asked for by its data type; a value left empty is none.
 */
export function PropertyValuesDrawer({
  title,
  target,
  values,
  save,
  onClose,
}: {
  title: string;
  target: 'product' | 'variant';
  values: readonly PropertyValueRef[];
  save: (properties: { property_id: number; value: unknown }[]) => Promise<unknown>;
  onClose: () => void;
}) {
  const dialogFocus = useDialogFocus();
  const [form] = Form.useForm<Record<string, unknown>>();
  const choices = usePropertyChoices();
  const applying = (choices.data ?? []).filter((property) => property.applies_to.includes(target));
  const write = useCatalogueWrite(save);
  const submit = async (entered: Record<string, unknown>) => {
    const properties = applying.flatMap((property) => {
      const value = entered[fieldName(property)];
      return value === undefined || value === null || value === ''
        ? []
        : [{ property_id: property.id, value }];
    });
    try {
      await write.mutateAsync(properties);
      notify.success('The property values are saved.');
      onClose();
    } catch (error) {
      showApiError(error);
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
          <Button type="primary" onClick={() => form.submit()} loading={write.isPending}>
            Save
          </Button>
        </Space>
      }
    >
      {choices.isError ? (
        <Alert type="error" showIcon title="The properties could not be read." />
      ) : !choices.data ? (
        <Spin />
      ) : applying.length === 0 ? (
        <Alert
          type="info"
          showIcon
          title={`No active property applies to ${target}s: add them on the properties page.`}
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          onFinish={(entered) => void submit(entered)}
          initialValues={Object.fromEntries(
            values.map((value) => [`property_${value.property_id}`, value.value]),
          )}
        >
          {applying.map((property) => (
            <Form.Item key={property.id} label={property.name} name={fieldName(property)}>
              <ValueInput property={property} />
            </Form.Item>
          ))}
        </Form>
      )}
    </Drawer>
  );
}

/** Saves a variant's property values. */
export const saveVariantValues =
  (variant: Variant) => (properties: { property_id: number; value: unknown }[]) =>
    callEndpoint(variantEndpoints.update, {
      params: { id: variant.id },
      body: { properties: properties as never },
    });

/** Saves a product's property values. */
export const saveProductValues =
  (product: Product) => (properties: { property_id: number; value: unknown }[]) =>
    callEndpoint(productEndpoints.update, {
      params: { id: product.id },
      body: { properties: properties as never },
    });
