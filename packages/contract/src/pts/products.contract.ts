import * as z from 'zod/mini';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { defineEndpoint } from '../endpoint.js';
import { PTS_PRODUCT_MANAGE, PTS_PRODUCT_VIEW } from '../guards.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import {
  entityId,
  idList,
  optionalText,
  requiredText,
  wholeNumber,
  wordList,
} from '../master-data/fields.js';
import { PROPERTY_DATA_TYPES, PROPERTY_TARGETS } from '../master-data/properties.contract.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { DEVICE_GRADES } from '../receiving/receiving-fields.js';

/*
 * The push-to-sale catalogue's products and variants (DOMAIN.md 2.2, 4.5). A product is made from
 * a device model; each variant is one sellable cut of it whose attributes are its match rule (an
 * attribute left empty matches any value). Stock is never part of a list's row: a page asks for
 * the stock of the rows it shows (`variantAvailabilityEndpoint`), one query for the page.
 */

export const PTS_TAG = 'PTS catalogue';

export const PRODUCT_STATUSES = ['active', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const PRODUCT_KINDS = ['device', 'accessory', 'sim_kit', 'service'] as const;

/** The most variants one product creation makes (colours × capacities × grades × locks). */
export const VARIANTS_PER_CREATION_MAX = 500;

const SKU_PATTERN = /^[A-Z0-9][A-Z0-9._-]{1,63}$/;
const SKU_RULE =
  'A SKU is 2 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.';

/** A SKU as typed: trimmed and upper-cased, then checked against the database's rule. */
export const skuSchema = z
  .string('Please enter the SKU.')
  .check(z.trim(), z.toUpperCase(), z.regex(SKU_PATTERN, SKU_RULE));

/** The start of the SKUs a product's variants get, when the brand and model's is not wanted. */
export const skuPrefixSchema = z
  .string()
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(
      /^[A-Z0-9][A-Z0-9._-]{0,39}$/,
      'A SKU prefix is 1 to 40 letters, digits, dots, dashes or underscores.',
    ),
  );

/** A tag on a product, bundle or combo, as its row shows it. */
export const tagRefSchema = z.object({
  id: z.int(),
  name: z.string(),
  color: z.nullable(z.string()),
});
export type TagRef = z.infer<typeof tagRefSchema>;

/** A property value as stored: text, a number or yes/no by the property's data type. */
export const propertyValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** A property value on a product or variant, with what its property says of it. */
export const propertyValueRefSchema = z.object({
  property_id: z.int(),
  name: z.string(),
  data_type: z.enum(PROPERTY_DATA_TYPES),
  unit: z.nullable(z.string()),
  value: propertyValueSchema,
});
export type PropertyValueRef = z.infer<typeof propertyValueRefSchema>;

/**
 * Property values as a form sends them: the whole new set (a property left out loses its value).
 * The server checks each against its property: active, applying to the record, of its data type.
 */
export const propertyValuesInput = z
  .array(z.object({ property_id: entityId('property'), value: propertyValueSchema }))
  .check(z.maxLength(100, 'At most 100 property values.'));
export type PropertyValueInput = z.input<typeof propertyValuesInput>[number];

/** Tags as a form sends them: the whole new set; each active and meant for the record's kind. */
export const tagIdsInput = idList('tag');

export const productSchema = z.object({
  id: z.int(),
  name: z.string(),
  kind: z.enum(PRODUCT_KINDS),
  model_id: z.nullable(z.int()),
  model: z.nullable(z.string()),
  description: z.nullable(z.string()),
  status: z.enum(PRODUCT_STATUSES),
  variant_count: z.int(),
  active_variant_count: z.int(),
  tags: z.array(tagRefSchema),
  properties: z.array(propertyValueRefSchema),
  image_count: z.int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

export const productList = defineList({
  name: 'pts-products',
  singular: 'product',
  plural: 'Products',
  tag: PTS_TAG,
  view: PTS_PRODUCT_VIEW,
  item: productSchema,
  filters: {
    status: enumFilter(PRODUCT_STATUSES),
    model_id: idFilter,
    tag_id: idFilter,
  },
  sorts: ['name', 'updated_at'],
  defaultSort: 'name',
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Galaxy A15' },
    { key: 'model', header: 'Model', example: 'Samsung Galaxy A15' },
    { key: 'status', header: 'Status', example: 'active' },
    { key: 'variant_count', header: 'Variants', example: '6' },
    { key: 'description', header: 'Description', example: '' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const variantSchema = z.object({
  id: z.int(),
  product_id: z.int(),
  product: z.string(),
  product_status: z.enum(PRODUCT_STATUSES),
  model_id: z.nullable(z.int()),
  model: z.nullable(z.string()),
  sku: z.string(),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  carrier_lock: z.nullable(z.string()),
  barcode: z.nullable(z.string()),
  status: z.enum(PRODUCT_STATUSES),
  /** Listings of the variant that are live now. */
  live_listings: z.int(),
  properties: z.array(propertyValueRefSchema),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Variant = z.infer<typeof variantSchema>;

export const variantList = defineList({
  name: 'pts-variants',
  singular: 'variant',
  plural: 'Variants',
  tag: PTS_TAG,
  view: PTS_PRODUCT_VIEW,
  item: variantSchema,
  filters: {
    product_id: idFilter,
    status: enumFilter(PRODUCT_STATUSES),
    grade: enumFilter(DEVICE_GRADES),
  },
  sorts: ['sku'],
  defaultSort: 'sku',
  exportColumns: [
    { key: 'sku', header: 'SKU', example: 'SAMSUNG-GALAXY-A15-128GB-BLACK-A' },
    { key: 'product', header: 'Product', example: 'Galaxy A15' },
    { key: 'model', header: 'Model', example: 'Samsung Galaxy A15' },
    { key: 'color', header: 'Colour', example: 'Black' },
    { key: 'capacity_gb', header: 'Capacity (GB)', example: '128' },
    { key: 'grade', header: 'Grade', example: 'A' },
    { key: 'carrier_lock', header: 'Lock', example: 'unlocked' },
    { key: 'barcode', header: 'Barcode', example: '' },
    { key: 'status', header: 'Status', example: 'active' },
    { key: 'live_listings', header: 'Live listings', example: '1' },
  ],
});

const capacities = z
  .array(wholeNumber('capacity', 1, 100_000))
  .check(z.maxLength(20, 'At most 20 capacities.'));
const grades = z
  .array(z.enum(DEVICE_GRADES, `Choose grades among ${DEVICE_GRADES.join(', ')}.`))
  .check(z.maxLength(DEVICE_GRADES.length, 'Each grade once.'));

/**
 * A product made from a model: one variant per combination of the colours, capacities, grades
 * and carrier locks chosen (an empty choice leaves that attribute open: any value matches). Each
 * variant gets a SKU from the prefix (the brand and model's by default) and its attributes.
 */
export const createProductSchema = z.object({
  model_id: entityId('model'),
  /** The model's brand and name when left out. */
  name: z.optional(requiredText('product name', 200)),
  description: optionalText('description', 2000),
  sku_prefix: z.optional(skuPrefixSchema),
  color_ids: z._default(idList('colour'), []),
  capacities_gb: z._default(capacities, []),
  grades: z._default(grades, []),
  carrier_locks: z._default(wordList('carrier lock', 10, 40), []),
  tag_ids: z._default(tagIdsInput, []),
  properties: z._default(propertyValuesInput, []),
});
export type CreateProductInput = z.input<typeof createProductSchema>;

/** A field left out is kept; tags and properties, when given, are the whole new set. */
export const updateProductSchema = z.object({
  name: z.optional(requiredText('product name', 200)),
  description: optionalText('description', 2000),
  tag_ids: z.optional(tagIdsInput),
  properties: z.optional(propertyValuesInput),
});
export type UpdateProductInput = z.input<typeof updateProductSchema>;

/** One more cut of a product; its SKU is made from its attributes when left out. */
export const addVariantSchema = z.object({
  color_id: z._default(z.nullable(entityId('colour')), null),
  capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
  grade: z._default(z.nullable(z.enum(DEVICE_GRADES, 'Choose a grade.')), null),
  carrier_lock: optionalText('carrier lock', 40),
  sku: z.optional(skuSchema),
  barcode: optionalText('barcode', 64),
});
export type AddVariantInput = z.input<typeof addVariantSchema>;

/** What of a variant changes after it is made: its match rule and SKU stay. */
export const updateVariantSchema = z.object({
  barcode: optionalText('barcode', 64),
  properties: z.optional(propertyValuesInput),
});
export type UpdateVariantInput = z.input<typeof updateVariantSchema>;

/** The rows of one page, for their stock: at most a page's worth. */
export const availabilityBodySchema = z.object({
  ids: z
    .array(entityId('row'))
    .check(z.minLength(1, 'Name at least one row.'), z.maxLength(200, 'At most 200 rows.')),
});

export const variantAvailabilitySchema = z.object({
  variant_id: z.int(),
  /** Devices that match now: in stock, in a located box, not held. */
  available: z.int(),
});
export type VariantAvailability = z.infer<typeof variantAvailabilitySchema>;

/** A property a value may be given for, with what a form needs to ask for it. */
export const propertyChoiceSchema = z.object({
  id: z.int(),
  name: z.string(),
  data_type: z.enum(PROPERTY_DATA_TYPES),
  unit: z.nullable(z.string()),
  enum_values: z.array(z.string()),
  applies_to: z.array(z.enum(PROPERTY_TARGETS)),
});
export type PropertyChoice = z.infer<typeof propertyChoiceSchema>;

const productAction = (path: string, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    params: idParamsSchema,
    response: productSchema,
  });

const variantAction = (path: string, summary: string) =>
  defineEndpoint({
    method: 'POST',
    path,
    summary,
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    params: idParamsSchema,
    response: variantSchema,
  });

const picker = (path: string, what: string) =>
  defineEndpoint({
    method: 'GET',
    path,
    summary: `Up to 20 ${what}, for a picker`,
    tag: PTS_TAG,
    guard: PTS_PRODUCT_VIEW,
    query: pickerQuerySchema,
    response: z.array(pickerOptionSchema),
  });

/** The list's reading endpoints alone: page, count, one row, export. */
export const productListEndpoints = listEndpoints(productList);

export const productEndpoints = {
  ...productListEndpoints,
  create: defineEndpoint({
    method: 'POST',
    path: '/pts-products',
    summary:
      'Create a product from a model with one variant per colour × capacity × grade × lock chosen (422 on a SKU clash)',
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    body: createProductSchema,
    response: productSchema,
    successStatus: 201,
  }),
  update: defineEndpoint({
    method: 'PUT',
    path: '/pts-products/:id',
    summary: "Change a product's name, description, tags or property values",
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    params: idParamsSchema,
    body: updateProductSchema,
    response: productSchema,
  }),
  archive: productAction(
    '/pts-products/:id/archive',
    'Archive a product (409 while a listing of one of its variants is live)',
  ),
  activate: productAction('/pts-products/:id/activate', 'Make an archived product active again'),
  addVariant: defineEndpoint({
    method: 'POST',
    path: '/pts-products/:id/variants',
    summary: 'Add one variant to a product (422 when the cut or the SKU exists)',
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    params: idParamsSchema,
    body: addVariantSchema,
    response: variantSchema,
    successStatus: 201,
  }),
  modelOptions: picker('/pts-products/model-options', 'active models'),
  colorOptions: picker('/pts-products/color-options', 'active colours'),
  tagOptions: picker('/pts-products/tag-options', 'active tags for products'),
  propertyChoices: defineEndpoint({
    method: 'GET',
    path: '/pts-products/property-choices',
    summary: 'The active properties a product or variant may have a value of',
    tag: PTS_TAG,
    guard: PTS_PRODUCT_VIEW,
    response: z.array(propertyChoiceSchema),
  }),
};

export const variantEndpoints = {
  ...listEndpoints(variantList),
  update: defineEndpoint({
    method: 'PUT',
    path: '/pts-variants/:id',
    summary: "Change a variant's barcode or property values",
    tag: PTS_TAG,
    guard: PTS_PRODUCT_MANAGE,
    params: idParamsSchema,
    body: updateVariantSchema,
    response: variantSchema,
  }),
  archive: variantAction(
    '/pts-variants/:id/archive',
    'Archive a variant (409 while one of its listings is live)',
  ),
  activate: variantAction(
    '/pts-variants/:id/activate',
    'Make an archived variant of an active product active again',
  ),
  availability: defineEndpoint({
    method: 'POST',
    path: '/pts-variants/availability',
    summary: 'The sellable stock of the variants of one page, counted in one query',
    tag: PTS_TAG,
    guard: PTS_PRODUCT_VIEW,
    body: availabilityBodySchema,
    response: z.array(variantAvailabilitySchema),
  }),
};

/** A product's images and sheets. */
export const productAttachments = defineAttachments({
  kind: 'product',
  path: '/pts-products',
  singular: 'product',
  tag: PTS_TAG,
  view: PTS_PRODUCT_VIEW,
  manage: PTS_PRODUCT_MANAGE,
});
export const productAttachmentEndpoints = attachmentEndpoints(productAttachments);

/** A variant as a bundle's component or a combo's choice names it. */
export const variantRefSchema = z.object({
  variant_id: z.int(),
  sku: z.string(),
  /** The product and the variant's cut: "Galaxy A15 · 128 GB Black A". */
  label: z.string(),
  status: z.enum(PRODUCT_STATUSES),
});
export type VariantRef = z.infer<typeof variantRefSchema>;
