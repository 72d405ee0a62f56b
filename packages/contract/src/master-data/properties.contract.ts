import * as z from 'zod/mini';
import { booleanFilter, defineResource, enumFilter, resourceEndpoints } from '../resource.js';
import { optionalText, requiredText, stampShape, wordList } from './fields.js';

export const PROPERTY_DATA_TYPES = ['text', 'int', 'decimal', 'bool', 'enum'] as const;
export type PropertyDataType = (typeof PROPERTY_DATA_TYPES)[number];

/** What a property's values are put on. */
export const PROPERTY_TARGETS = ['product', 'variant'] as const;
export type PropertyTarget = (typeof PROPERTY_TARGETS)[number];

const targetMessage = `Choose what the property applies to: ${PROPERTY_TARGETS.join(', ')}.`;

export const propertySchema = z.object({
  id: z.int(),
  name: z.string(),
  data_type: z.enum(PROPERTY_DATA_TYPES),
  unit: z.nullable(z.string()),
  /** The values to choose from; empty unless the data type is enum. */
  enum_values: z.array(z.string()),
  applies_to: z.array(z.enum(PROPERTY_TARGETS)),
  /** How many products and variants have a value of the property. */
  usage_count: z.int(),
  ...stampShape,
});
export type Property = z.infer<typeof propertySchema>;

/**
 * The fields of a property. The server checks what needs the stored row: enum_values holds at
 * least one value exactly when the data type is enum (they are cleared when the type changes
 * away from enum), and the data type cannot change once values exist (422 on data_type).
 */
const propertyFields = {
  name: requiredText('property name', 100),
  data_type: z.enum(PROPERTY_DATA_TYPES, `Choose a data type: ${PROPERTY_DATA_TYPES.join(', ')}.`),
  /** Unit of a number: "g", "mAh", "in". */
  unit: optionalText('unit', 20),
  enum_values: wordList('value', 200, 100),
  applies_to: z.pipe(
    z
      .array(z.enum(PROPERTY_TARGETS, targetMessage))
      .check(z.minLength(1, targetMessage), z.maxLength(10, targetMessage)),
    z.transform((targets) => PROPERTY_TARGETS.filter((target) => targets.includes(target))),
  ),
  active: z.boolean(),
};

export const createPropertySchema = z.object({
  ...propertyFields,
  unit: z._default(propertyFields.unit, null),
  enum_values: z._default(propertyFields.enum_values, []),
  applies_to: z._default(propertyFields.applies_to, [...PROPERTY_TARGETS]),
  active: z._default(propertyFields.active, true),
});
export type CreatePropertyInput = z.input<typeof createPropertySchema>;
export const updatePropertySchema = z.partial(z.object(propertyFields));

export const propertyResource = defineResource({
  name: 'properties',
  singular: 'property',
  plural: 'Properties',
  tag: 'Master data',
  view: { permission: 'property.view-list' },
  manage: { permission: 'property.manage' },
  item: propertySchema,
  create: createPropertySchema,
  update: updatePropertySchema,
  filters: {
    active: booleanFilter,
    data_type: enumFilter(PROPERTY_DATA_TYPES),
    /** Properties that apply to products, or to variants. */
    applies_to: enumFilter(PROPERTY_TARGETS),
  },
  sorts: ['name', 'data_type', 'usage_count', 'updated_at'],
  defaultSort: 'name',
  importColumns: [
    { key: 'name', header: 'Name', required: true, example: 'Screen size' },
    {
      key: 'data_type',
      header: 'Data type',
      required: true,
      example: 'decimal',
      hint: PROPERTY_DATA_TYPES.join(', '),
    },
    { key: 'unit', header: 'Unit', example: 'in' },
    {
      key: 'enum_values',
      header: 'Enum values',
      kind: 'list',
      example: '',
      hint: 'For an enum: the values to choose from, separated by |',
    },
    {
      key: 'applies_to',
      header: 'Applies to',
      kind: 'list',
      example: 'product|variant',
      hint: `${PROPERTY_TARGETS.join(', ')}, separated by |; empty means both`,
    },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Screen size' },
    { key: 'data_type', header: 'Data type', example: 'decimal' },
    { key: 'unit', header: 'Unit', example: 'in' },
    { key: 'enum_values', header: 'Enum values', example: '' },
    { key: 'applies_to', header: 'Applies to', example: 'product|variant' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'usage_count', header: 'Used by', example: '40' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const propertyEndpoints = resourceEndpoints(propertyResource);
