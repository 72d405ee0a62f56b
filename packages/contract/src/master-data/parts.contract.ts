import * as z from 'zod/mini';
import {
  booleanFilter,
  defineResource,
  enumFilter,
  idFilter,
  resourceEndpoints,
} from '../resource.js';
import {
  barcodeField,
  compatibleModelIds,
  compatibleModelNames,
  compatibleModelsShape,
} from './accessories.contract.js';
import { requiredText, stampShape, wholeNumber } from './fields.js';

export const PART_CATEGORIES = [
  'screen',
  'battery',
  'port',
  'back',
  'camera',
  'board',
  'other',
] as const;
export type PartCategory = (typeof PART_CATEGORIES)[number];

/** The highest cost of one part: 1,000,000.00 in currency units. */
export const PART_COST_MAX_CENTS = 100_000_000;

export const partSchema = z.object({
  id: z.int(),
  part_number: z.string(),
  name: z.string(),
  category: z.enum(PART_CATEGORIES),
  ...compatibleModelsShape,
  /** Money in cents, as everywhere in the API. */
  cost_cents: z.int(),
  /** The same cost in currency units with two decimals ("12.50"), as the files show it. */
  cost: z.string(),
  reorder_point: z.int(),
  barcode: z.nullable(z.string()),
  ...stampShape,
});
export type Part = z.infer<typeof partSchema>;

const partFields = {
  part_number: requiredText('part number', 64),
  name: requiredText('part name', 200),
  category: z.enum(PART_CATEGORIES, `Choose a category: ${PART_CATEGORIES.join(', ')}.`),
  compatible_model_ids: compatibleModelIds,
  cost_cents: wholeNumber('cost in cents', 0, PART_COST_MAX_CENTS),
  reorder_point: wholeNumber('reorder point', 0, 1_000_000),
  barcode: barcodeField,
  active: z.boolean(),
};

export const createPartSchema = z.object({
  ...partFields,
  compatible_model_ids: z._default(partFields.compatible_model_ids, []),
  cost_cents: z._default(partFields.cost_cents, 0),
  reorder_point: z._default(partFields.reorder_point, 0),
  barcode: z._default(partFields.barcode, null),
  active: z._default(partFields.active, true),
});
export type CreatePartInput = z.input<typeof createPartSchema>;
export const updatePartSchema = z.partial(z.object(partFields));

const COST_MESSAGE = 'Write the cost in currency units with at most two decimals, like 12.50.';

/**
 * A cost as the files write it, in currency units ("12.5", "$1,234.50"), to whole cents. Read as
 * text and converted digit by digit, so that no binary fraction rounds a cent away.
 */
export const currencyToCents = z.pipe(
  z
    .string()
    .check(
      z.trim(),
      z.regex(/^\$?(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/, COST_MESSAGE),
      z.maxLength(20, COST_MESSAGE),
    ),
  z.pipe(
    z.transform((text: string) => {
      const [whole = '0', fraction = ''] = text.replace(/[$,]/g, '').split('.');
      return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
    }),
    z.number().check(z.lte(PART_COST_MAX_CENTS, 'The cost must be at most 1000000.00.')),
  ),
);

/**
 * One row of a part import: compatible models by name or model number, and the Cost column in
 * currency units (the API's cost_cents is in cents).
 */
export const partImportRowSchema = z.object({
  ...z.omit(createPartSchema, { compatible_model_ids: true, cost_cents: true }).shape,
  cost_cents: z._default(currencyToCents, 0),
  compatible_models: z._default(compatibleModelNames, []),
});

export const partResource = defineResource({
  name: 'parts',
  singular: 'part',
  plural: 'Parts',
  tag: 'Master data',
  view: { permission: 'part.view-list' },
  manage: { permission: 'part.manage' },
  item: partSchema,
  create: createPartSchema,
  update: updatePartSchema,
  filters: {
    active: booleanFilter,
    category: enumFilter(PART_CATEGORIES),
    /** Parts that fit this device model. */
    model_id: idFilter,
  },
  sorts: ['part_number', 'name', 'category', 'cost_cents', 'reorder_point', 'updated_at'],
  defaultSort: 'part_number',
  importColumns: [
    { key: 'part_number', header: 'Part number', required: true, example: 'LCD-MG23-BLK' },
    { key: 'name', header: 'Name', required: true, example: 'Moto G Play 2023 LCD assembly' },
    {
      key: 'category',
      header: 'Category',
      required: true,
      example: 'screen',
      hint: PART_CATEGORIES.join(', '),
    },
    {
      key: 'compatible_models',
      header: 'Compatible models',
      kind: 'list',
      example: 'Motorola Moto G Play 2023|XT2271DL',
      hint: 'Brand and model names or model numbers, separated by |',
    },
    {
      key: 'cost_cents',
      header: 'Cost',
      example: '12.50',
      hint: 'In currency units, at most two decimals',
    },
    { key: 'reorder_point', header: 'Reorder point', kind: 'integer', example: '10' },
    { key: 'barcode', header: 'Barcode', example: 'P000123' },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'part_number', header: 'Part number', example: 'LCD-MG23-BLK' },
    { key: 'name', header: 'Name', example: 'Moto G Play 2023 LCD assembly' },
    { key: 'category', header: 'Category', example: 'screen' },
    {
      key: 'compatible_models',
      header: 'Compatible models',
      example: 'Motorola Moto G Play 2023',
    },
    { key: 'cost', header: 'Cost', example: '12.50' },
    { key: 'reorder_point', header: 'Reorder point', example: '10' },
    { key: 'barcode', header: 'Barcode', example: 'P000123' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const partEndpoints = resourceEndpoints(partResource);
