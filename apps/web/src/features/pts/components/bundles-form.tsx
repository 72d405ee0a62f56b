import { bundleEndpoints, createBundleSchema, type Bundle } from '@inventory/contract';
import { Form, Space } from 'antd';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { KitFormDrawer, KitRows, QuantityField, type RemoteField } from './kit-form';

const variantPicker: RemoteField = {
  name: 'variant_id',
  label: 'Variant',
  kind: 'remote',
  load: pickerLoader(bundleEndpoints.variantOptions),
  placeholder: 'Type a SKU or product',
};

type Values = {
  sku?: string;
  name?: string;
  tag_ids?: number[];
  components?: { variant_id?: number; qty?: number }[];
};

/**
 * A bundle's SKU, name, tags and components (variant × qty). Its components are locked while a
 * listing sells it: the server says so (409) and the form says why.
 */
export function BundleFormDrawer({
  bundle,
  onClose,
}: {
  bundle: Bundle | null;
  onClose: () => void;
}) {
  return (
    <KitFormDrawer<Values>
      singular="bundle"
      kit={bundle}
      endpoints={bundleEndpoints}
      createSchema={createBundleSchema}
      skuPlaceholder="KIT-A15-CHARGER"
      size={720}
      shapeTitle="Components"
      initialShape={{
        components: bundle
          ? bundle.components.map((c) => ({ variant_id: c.variant_id, qty: c.qty }))
          : [{ qty: 1 }],
      }}
      onClose={onClose}
    >
      {(locked) => (
        <KitRows
          name="components"
          item="Component"
          testId="bundle-component"
          locked={locked}
          newRow={{ qty: 1 }}
        >
          {(row) => (
            <Space wrap align="start">
              <Form.Item
                label="Variant"
                name={[row, 'variant_id']}
                required
                style={{ minWidth: 380 }}
              >
                <RemoteSelect
                  field={variantPicker}
                  disabled={locked}
                  initial={(bundle?.components ?? []).map((c) => ({
                    value: c.variant_id,
                    label: `${c.sku} (${c.label})`,
                  }))}
                />
              </Form.Item>
              <QuantityField row={row} locked={locked} />
            </Space>
          )}
        </KitRows>
      )}
    </KitFormDrawer>
  );
}
