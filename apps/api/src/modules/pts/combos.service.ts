import {
  comboList,
  type Combo,
  type ComboSlotInput,
  type CreateComboInput,
  type FieldErrors,
  type UpdateComboInput,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';
import { VARIANT_REF } from './catalogue-fields.js';
import { kitListSql, kitWrites, variantProblems } from './kits.js';

export const comboStore: ListStore<typeof comboList> = {
  contract: comboList,
  list: kitListSql('combo', {
    shapeColumn: `COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'qty', s.qty,
          'variants', COALESCE((SELECT json_agg(json_build_object(${VARIANT_REF}) ORDER BY v.sku)
            FROM combo_slot_variants sv JOIN product_variants v ON v.id = sv.variant_id
            JOIN products p ON p.id = v.product_id LEFT JOIN colors c ON c.id = v.color_id
            WHERE sv.slot_id = s.id), '[]')) ORDER BY s.position, s.id)
        FROM combo_slots s WHERE s.combo_id = kit.id), '[]') AS slots`,
    holdsVariant: `EXISTS (SELECT 1 FROM combo_slots s JOIN combo_slot_variants sv ON sv.slot_id = s.id
        WHERE s.combo_id = kit.id AND sv.variant_id = ?)`,
  }),
};

export const findCombo = (db: Queryable, id: number): Promise<Combo> =>
  findItem(comboStore, db, id);

/** Each slot named once, each with allowed variants that may be sold (422 on the slot's field). */
async function checkSlots(db: Queryable, slots: readonly ComboSlotInput[]) {
  const errors: FieldErrors = {};
  const names = slots.map((slot) => slot.name.toLowerCase());
  for (const [index, slot] of slots.entries()) {
    if (names.indexOf(slot.name.toLowerCase()) !== index) {
      errors[`slots.${index}.name`] = [`Two slots are named "${slot.name}".`];
    }
    Object.assign(
      errors,
      await variantProblems(db, slot.variant_ids, (at) => `slots.${index}.variant_ids.${at}`),
    );
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

async function writeSlots(tx: Transaction, comboId: number, slots: readonly ComboSlotInput[]) {
  await tx.query('DELETE FROM combo_slots WHERE combo_id = $1', [comboId]);
  await tx.query(
    `WITH input AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb)
         AS t (position int, name text, qty int, variant_ids bigint[])),
     slots AS (
       INSERT INTO combo_slots (combo_id, name, qty, position)
       SELECT $1, name, qty, position FROM input ORDER BY position
       RETURNING id, position)
     INSERT INTO combo_slot_variants (slot_id, variant_id)
     SELECT s.id, unnest(i.variant_ids) FROM slots s JOIN input i ON i.position = s.position`,
    [
      comboId,
      JSON.stringify(
        slots.map((slot, position) => ({
          position,
          name: slot.name,
          qty: slot.qty ?? 1,
          variant_ids: slot.variant_ids,
        })),
      ),
    ],
  );
}

const sameSlots = (combo: Combo, slots: readonly ComboSlotInput[]) => {
  const key = (list: readonly { name: string; qty: number; ids: number[] }[]) =>
    JSON.stringify(list.map((slot) => [slot.name, slot.qty, [...slot.ids].sort((a, b) => a - b)]));
  return (
    key(combo.slots.map((s) => ({ ...s, ids: s.variants.map((v) => v.variant_id) }))) ===
    key(slots.map((s) => ({ name: s.name, qty: s.qty ?? 1, ids: s.variant_ids })))
  );
};

const comboWrites = kitWrites({
  kind: 'combo',
  find: findCombo,
  shapeName: 'slots',
  check: checkSlots,
  write: writeSlots,
  same: sameSlots,
});

/** Creates a combo with its slots and tags; its SKU is unique across every sellable. */
export const createCombo = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: CreateComboInput,
): Promise<Combo> => comboWrites.create(tx, actor, meta, input, input.slots);

/** Changes a combo. Its slots stay as they are while a listing sells it (409). */
export const updateCombo = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdateComboInput,
): Promise<Combo> => comboWrites.update(tx, actor, meta, id, input, input.slots);

/** Deactivates (refused while a listing sells it) or activates a combo again. */
export const setComboStatus = comboWrites.setStatus;
