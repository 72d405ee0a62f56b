import * as z from 'zod/mini';
import {
  booleanFilter,
  defineResource,
  enumFilter,
  idFilter,
  resourceEndpoints,
} from '../resource.js';
import { idList, requiredText, stampShape, wholeNumber, wordList } from './fields.js';

export const ACCESSORY_KINDS = [
  'charger',
  'cable',
  'case',
  'protector',
  'earbuds',
  'other',
] as const;
export type AccessoryKind = (typeof ACCESSORY_KINDS)[number];

/**
 * A code printed as a barcode (Code128): letters, digits and symbols, no spaces. Optional; empty
 * text is stored as no value. Shared by accessories and parts.
 */
export const barcodeField = z.optional(
  z.nullable(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(64, 'The barcode is too long (at most 64 characters).'),
          z.regex(/^[!-~]*$/, 'A barcode holds letters, digits and symbols, without spaces.'),
        ),
      z.transform((text) => (text === '' ? null : text)),
    ),
  ),
);

/** Ids of device models, repeats dropped. Shared by accessories and parts. */
export const compatibleModelIds = z.pipe(
  idList('model'),
  z.transform((ids) => [...new Set(ids)]),
);

/**
 * The compatible models of an import row: display names ("Brand Name") or model numbers,
 * resolved to ids by the server (an unknown or ambiguous one is a row error).
 */
export const compatibleModelNames = wordList('model', 500, 200);

/** What an item with compatible models carries: the ids and their display names, in order. */
export const compatibleModelsShape = {
  compatible_model_ids: z.array(z.int()),
  /** "Brand Name" of each model of compatible_model_ids, in the same order. */
  compatible_models: z.array(z.string()),
};

export const accessorySchema = z.object({
  id: z.int(),
  sku: z.string(),
  name: z.string(),
  kind: z.enum(ACCESSORY_KINDS),
  barcode: z.nullable(z.string()),
  ...compatibleModelsShape,
  reorder_point: z.int(),
  ...stampShape,
});
export type Accessory = z.infer<typeof accessorySchema>;

const accessoryFields = {
  sku: requiredText('SKU', 64),
  name: requiredText('accessory name', 200),
  kind: z.enum(ACCESSORY_KINDS, `Choose a kind: ${ACCESSORY_KINDS.join(', ')}.`),
  barcode: barcodeField,
  compatible_model_ids: compatibleModelIds,
  reorder_point: wholeNumber('reorder point', 0, 1_000_000),
  active: z.boolean(),
};

export const createAccessorySchema = z.object({
  ...accessoryFields,
  barcode: z._default(accessoryFields.barcode, null),
  compatible_model_ids: z._default(accessoryFields.compatible_model_ids, []),
  reorder_point: z._default(accessoryFields.reorder_point, 0),
  active: z._default(accessoryFields.active, true),
});
export type CreateAccessoryInput = z.input<typeof createAccessorySchema>;
export const updateAccessorySchema = z.partial(z.object(accessoryFields));

/** One row of an accessory import: compatible models by name or model number instead of ids. */
export const accessoryImportRowSchema = z.object({
  ...z.omit(createAccessorySchema, { compatible_model_ids: true }).shape,
  compatible_models: z._default(compatibleModelNames, []),
});

export const accessoryResource = defineResource({
  name: 'accessories',
  singular: 'accessory',
  plural: 'Accessories',
  tag: 'Master data',
  view: { permission: 'accessory.view-list' },
  manage: { permission: 'accessory.manage' },
  item: accessorySchema,
  create: createAccessorySchema,
  update: updateAccessorySchema,
  filters: {
    active: booleanFilter,
    kind: enumFilter(ACCESSORY_KINDS),
    /** Accessories that fit this device model. */
    model_id: idFilter,
  },
  sorts: ['sku', 'name', 'kind', 'reorder_point', 'updated_at'],
  defaultSort: 'sku',
  importColumns: [
    { key: 'sku', header: 'SKU', required: true, example: 'CHG-USBC-20W' },
    { key: 'name', header: 'Name', required: true, example: 'USB-C charger 20 W' },
    {
      key: 'kind',
      header: 'Kind',
      required: true,
      example: 'charger',
      hint: ACCESSORY_KINDS.join(', '),
    },
    { key: 'barcode', header: 'Barcode', example: '0840163901234' },
    {
      key: 'compatible_models',
      header: 'Compatible models',
      kind: 'list',
      example: 'Motorola Moto G Play 2023|XT2271DL',
      hint: 'Brand and model names or model numbers, separated by |',
    },
    { key: 'reorder_point', header: 'Reorder point', kind: 'integer', example: '20' },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'sku', header: 'SKU', example: 'CHG-USBC-20W' },
    { key: 'name', header: 'Name', example: 'USB-C charger 20 W' },
    { key: 'kind', header: 'Kind', example: 'charger' },
    { key: 'barcode', header: 'Barcode', example: '0840163901234' },
    {
      key: 'compatible_models',
      header: 'Compatible models',
      example: 'Motorola Moto G Play 2023',
    },
    { key: 'reorder_point', header: 'Reorder point', example: '20' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const accessoryEndpoints = resourceEndpoints(accessoryResource);
