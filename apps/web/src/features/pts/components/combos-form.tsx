import { comboEndpoints, createComboSchema, type Combo } from '@inventory/contract';
import { Form, Input, Space } from 'antd';
import { pickerLoader } from '../../../toolkit/picker-options';
import { RemoteSelect } from '../../../toolkit/resource-form';
import { KitFormDrawer, KitRows, QuantityField, type RemoteField } from './kit-form';

const variantsPicker: RemoteField = {
  name: 'variant_ids',
  label: 'Allowed variants',
  kind: 'remote',
  multiple: true,
  load: pickerLoader(comboEndpoints.variantOptions),
  placeholder: 'Type a SKU or product',
};

type Values = {
  sku?: string;
  name?: string;
  tag_ids?: number[];
  slots?: { name?: string; qty?: number; variant_ids?: number[] }[];
};

const newSlot = () => ({ name: '', qty: 1, variant_ids: [] });

/**
 * A combo's SKU, name, tags and slots (name, quantity, the variants that may fill it). Its slots
 * are locked while a listing sells it.
 */
export function ComboFormDrawer({ combo, onClose }: { combo: Combo | null; onClose: () => void }) {
  return (
    <KitFormDrawer<Values>
      singular="combo"
      kit={combo}
      endpoints={comboEndpoints}
      createSchema={createComboSchema}
      skuPlaceholder="COMBO-PHONE-CASE"
      size={760}
      shapeTitle="Slots"
      initialShape={{
        slots: combo
          ? combo.slots.map((slot) => ({
              name: slot.name,
              qty: slot.qty,
              variant_ids: slot.variants.map((v) => v.variant_id),
            }))
          : [newSlot()],
      }}
      toBody={(values) => ({
        ...values,
        slots: values.slots?.map((slot) => ({ ...slot, variant_ids: slot.variant_ids ?? [] })),
      })}
      onClose={onClose}
    >
      {(locked) => (
        <KitRows name="slots" item="Slot" testId="combo-slot" locked={locked} newRow={newSlot()}>
          {(row) => (
            <>
              <Space wrap align="start">
                <Form.Item label="Slot name" name={[row, 'name']} required>
                  <Input disabled={locked} placeholder="Phone" />
                </Form.Item>
                <QuantityField row={row} locked={locked} />
              </Space>
              <Form.Item
                label="Allowed variants"
                name={[row, 'variant_ids']}
                required
                extra="The one with the oldest stock fills the slot."
              >
                <RemoteSelect
                  field={variantsPicker}
                  disabled={locked}
                  initial={(combo?.slots ?? []).flatMap((slot) =>
                    slot.variants.map((v) => ({
                      value: v.variant_id,
                      label: `${v.sku} (${v.label})`,
                    })),
                  )}
                />
              </Form.Item>
            </>
          )}
        </KitRows>
      )}
    </KitFormDrawer>
  );
}
