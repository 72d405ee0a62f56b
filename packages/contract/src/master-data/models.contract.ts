import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import {
  booleanFilter,
  defineResource,
  enumFilter,
  idFilter,
  resourceEndpoints,
} from '../resource.js';
import { mergeBodySchema, requiredText, stampShape, wholeNumber, wordList } from './fields.js';

export const DEVICE_TYPES = ['phone', 'tablet', 'hotspot', 'watch', 'other'] as const;
export type DeviceType = (typeof DEVICE_TYPES)[number];
export const DEVICE_OSES = ['android', 'ios', 'other'] as const;

export const DEVICE_OS_TEXT: Record<(typeof DEVICE_OSES)[number], string> = {
  android: 'Android',
  ios: 'iOS',
  other: 'Other',
};
export type DeviceOs = (typeof DEVICE_OSES)[number];
export const NETWORKS = ['3G', '4G', '5G'] as const;
export type Network = (typeof NETWORKS)[number];

export const deviceModelSchema = z.object({
  id: z.int(),
  brand_id: z.int(),
  brand: z.string(),
  name: z.string(),
  /** Brand and name: "Motorola Moto G Play 2023". */
  display_name: z.string(),
  model_numbers: z.array(z.string()),
  device_type: z.enum(DEVICE_TYPES),
  /** Mandatory: the dashboard's statistics by OS read it. */
  os: z.enum(DEVICE_OSES),
  storage_gb: z.nullable(z.int()),
  ram_gb: z.nullable(z.int()),
  network: z.enum(NETWORKS),
  esim: z.boolean(),
  dual_sim: z.boolean(),
  hotspot: z.boolean(),
  /** Shipping weight in grams. */
  weight_g: z.nullable(z.int()),
  tac_count: z.int(),
  ...stampShape,
});
export type DeviceModel = z.infer<typeof deviceModelSchema>;

const nullableWholeNumber = (what: string, min: number, max: number) =>
  z.nullable(wholeNumber(what, min, max));

const modelFields = {
  /** The brand's name; a brand that does not exist yet is created with the model. */
  brand: requiredText('brand', 60),
  name: requiredText('model name', 100),
  model_numbers: wordList('model number', 50, 60),
  device_type: z.enum(DEVICE_TYPES, 'Choose the type: phone, tablet, hotspot, watch or other.'),
  os: z.enum(DEVICE_OSES, 'Choose the operating system: android, ios or other.'),
  storage_gb: nullableWholeNumber('storage', 0, 100_000),
  ram_gb: nullableWholeNumber('memory', 0, 10_000),
  network: z.enum(NETWORKS, 'Choose the network: 3G, 4G or 5G.'),
  esim: z.boolean(),
  dual_sim: z.boolean(),
  hotspot: z.boolean(),
  weight_g: nullableWholeNumber('weight', 1, 100_000),
  active: z.boolean(),
};

/** A new model: every field it may leave out has its default, so each create names every column. */
export const createDeviceModelSchema = z.object({
  ...modelFields,
  model_numbers: z._default(modelFields.model_numbers, []),
  storage_gb: z._default(modelFields.storage_gb, null),
  ram_gb: z._default(modelFields.ram_gb, null),
  esim: z._default(modelFields.esim, false),
  dual_sim: z._default(modelFields.dual_sim, false),
  hotspot: z._default(modelFields.hotspot, false),
  weight_g: z._default(modelFields.weight_g, null),
  active: z._default(modelFields.active, true),
});
export type CreateDeviceModelInput = z.input<typeof createDeviceModelSchema>;
export const updateDeviceModelSchema = z.partial(z.object(modelFields));
export type UpdateDeviceModelInput = z.input<typeof updateDeviceModelSchema>;

export const deviceModelResource = defineResource({
  name: 'models',
  singular: 'model',
  plural: 'Models',
  tag: 'Master data',
  view: { permission: 'model.view-list' },
  manage: { permission: 'model.manage' },
  item: deviceModelSchema,
  create: createDeviceModelSchema,
  update: updateDeviceModelSchema,
  filters: {
    active: booleanFilter,
    brand_id: idFilter,
    device_type: enumFilter(DEVICE_TYPES),
    os: enumFilter(DEVICE_OSES),
    network: enumFilter(NETWORKS),
  },
  sorts: ['name', 'brand', 'tac_count', 'updated_at'],
  defaultSort: 'brand',
  importColumns: [
    {
      key: 'brand',
      header: 'Brand',
      required: true,
      example: 'Motorola',
      hint: 'A new brand is created',
    },
    { key: 'name', header: 'Model', required: true, example: 'Moto G Play 2023' },
    {
      key: 'model_numbers',
      header: 'Model numbers',
      kind: 'list',
      example: 'XT2271DL|XT2271-5',
      hint: 'Separated by |',
    },
    {
      key: 'device_type',
      header: 'Type',
      required: true,
      example: 'phone',
      hint: 'phone, tablet, hotspot, watch or other',
    },
    { key: 'os', header: 'OS', required: true, example: 'android', hint: 'android, ios or other' },
    { key: 'storage_gb', header: 'Storage GB', kind: 'integer', example: '32' },
    { key: 'ram_gb', header: 'RAM GB', kind: 'integer', example: '3' },
    { key: 'network', header: 'Network', required: true, example: '4G', hint: '3G, 4G or 5G' },
    { key: 'esim', header: 'eSIM', kind: 'boolean', example: 'no' },
    { key: 'dual_sim', header: 'Dual SIM', kind: 'boolean', example: 'no' },
    { key: 'hotspot', header: 'Hotspot', kind: 'boolean', example: 'yes' },
    {
      key: 'weight_g',
      header: 'Weight g',
      kind: 'integer',
      example: '204',
      hint: 'Shipping weight in grams',
    },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  // The import's headers first, so that an exported file imports back as it is.
  exportColumns: [
    { key: 'brand', header: 'Brand', example: 'Motorola' },
    { key: 'name', header: 'Model', example: 'Moto G Play 2023' },
    { key: 'model_numbers', header: 'Model numbers', example: 'XT2271DL' },
    { key: 'device_type', header: 'Type', example: 'phone' },
    { key: 'os', header: 'OS', example: 'android' },
    { key: 'storage_gb', header: 'Storage GB', example: '32' },
    { key: 'ram_gb', header: 'RAM GB', example: '3' },
    { key: 'network', header: 'Network', example: '4G' },
    { key: 'esim', header: 'eSIM', example: 'no' },
    { key: 'dual_sim', header: 'Dual SIM', example: 'no' },
    { key: 'hotspot', header: 'Hotspot', example: 'yes' },
    { key: 'weight_g', header: 'Weight g', example: '204' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'id', header: 'ID', example: '1' },
    { key: 'tac_count', header: 'TAC numbers', example: '3' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const deviceModelEndpoints = resourceEndpoints(deviceModelResource);

export const mergeDeviceModelEndpoint = defineEndpoint({
  method: 'POST',
  path: '/models/:id/merge',
  summary:
    'Merge a duplicate model into another: its TACs, accessories and parts are repointed and its model numbers kept',
  tag: 'Master data',
  guard: deviceModelResource.manage,
  params: idParamsSchema,
  body: mergeBodySchema,
  response: deviceModelSchema,
});
