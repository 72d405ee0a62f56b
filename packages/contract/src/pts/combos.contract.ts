import * as z from 'zod/mini';
import { PTS_COMBO_MANAGE, PTS_COMBO_VIEW } from '../guards.js';
import { entityId, requiredText, wholeNumber } from '../master-data/fields.js';
import { listEndpoints } from '../resource.js';
import { kitEndpoints, kitInputs, kitList, kitSchema } from './kits.contract.js';
import { variantRefSchema } from './products.contract.js';

/*
 * Combos (DOMAIN.md 4.5, 8.7): offers with choice slots. Each slot is filled by any of its allowed
 * variants, the one with the oldest stock first; a slot's pool is the stock of all of them.
 */

export const comboSlotSchema = z.object({
  id: z.int(),
  name: z.string(),
  qty: z.int(),
  variants: z.array(variantRefSchema),
});
export type ComboSlot = z.infer<typeof comboSlotSchema>;

export const comboSchema = kitSchema({ slots: z.array(comboSlotSchema) });
export type Combo = z.infer<typeof comboSchema>;

export const comboList = kitList({
  name: 'pts-combos',
  singular: 'combo',
  plural: 'Combos',
  view: PTS_COMBO_VIEW,
  item: comboSchema,
  example: { sku: 'COMBO-PHONE-CASE', name: 'Any A15 with a case' },
});

const slotMessage = 'Every slot needs at least one allowed variant.';

/** The slots in order; each has a name, a quantity and at least one allowed variant. */
export const comboSlotsInput = z
  .array(
    z.object({
      name: requiredText('slot name', 100),
      qty: z._default(wholeNumber('quantity', 1, 1000), 1),
      variant_ids: z
        .array(entityId('variant'))
        .check(z.minLength(1, slotMessage), z.maxLength(200, 'At most 200 variants per slot.')),
    }),
  )
  .check(z.minLength(1, 'A combo needs at least one slot.'), z.maxLength(20, 'At most 20 slots.'));
export type ComboSlotInput = z.input<typeof comboSlotsInput>[number];

const comboInputs = kitInputs('combo', { slots: comboSlotsInput });

export const createComboSchema = comboInputs.create;
export type CreateComboInput = z.input<typeof createComboSchema>;

/** Slots, when given, cannot change while a listing of the combo is live (409). */
export const updateComboSchema = comboInputs.update;
export type UpdateComboInput = z.input<typeof updateComboSchema>;

export const comboAvailabilitySchema = z.object({
  combo_id: z.int(),
  /** Combos that can be filled now: the minimum over slots of pool ÷ the slot's qty. */
  available: z.int(),
  slots: z.array(z.object({ slot_id: z.int(), pool: z.int() })),
});
export type ComboAvailability = z.infer<typeof comboAvailabilitySchema>;

/** The list's reading endpoints alone: page, count, one row, export. */
export const comboListEndpoints = listEndpoints(comboList);

export const comboEndpoints = {
  ...comboListEndpoints,
  ...kitEndpoints({
    list: comboList,
    item: comboSchema,
    manage: PTS_COMBO_MANAGE,
    shapeName: 'slots',
    create: createComboSchema,
    update: updateComboSchema,
    availability: comboAvailabilitySchema,
    summaries: {
      create:
        'Create a combo with choice slots (422 when the SKU is taken or a slot has no variant)',
      availability: 'The pool of every slot of the combos of one page, and how many can be filled',
    },
  }),
};
