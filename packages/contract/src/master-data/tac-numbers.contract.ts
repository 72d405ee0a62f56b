import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { tacSchema } from '../identifiers.js';
import { PICKER_LIMIT, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import {
  booleanFilter,
  defineResource,
  enumFilter,
  idFilter,
  resourceEndpoints,
} from '../resource.js';
import { stampShape, wholeNumber } from './fields.js';

export const TAC_SOURCES = ['gsma', 'manual', 'learned', 'import'] as const;
export type TacSource = (typeof TAC_SOURCES)[number];

export const tacNumberSchema = z.object({
  id: z.int(),
  /** The first 8 digits of an IMEI: the type allocation code. */
  tac: z.string(),
  model_id: z.int(),
  /** The model's display name: brand and model. */
  model: z.string(),
  brand: z.string(),
  capacity_gb: z.nullable(z.int()),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  source: z.enum(TAC_SOURCES),
  ...stampShape,
});
export type TacNumber = z.infer<typeof tacNumberSchema>;

/** An id picked from a list: whatever is wrong with it, the answer is to pick one. */
const pickedId = (what: string) =>
  z.number(`Choose a ${what}.`).check(z.int(`Choose a ${what}.`), z.gte(1, `Choose a ${what}.`));

const tacFields = {
  tac: tacSchema,
  model_id: pickedId('model'),
  capacity_gb: z.nullable(wholeNumber('capacity', 1, 100_000)),
  color_id: z.nullable(pickedId('colour')),
  active: z.boolean(),
};

/** A TAC added by hand (source `manual`); one TAC maps to one model. */
export const createTacNumberSchema = z.object({
  ...tacFields,
  capacity_gb: z._default(tacFields.capacity_gb, null),
  color_id: z._default(tacFields.color_id, null),
  active: z._default(tacFields.active, true),
});
export type CreateTacNumberInput = z.input<typeof createTacNumberSchema>;
export const updateTacNumberSchema = z.partial(z.object(tacFields));
export type UpdateTacNumberInput = z.input<typeof updateTacNumberSchema>;

export const tacNumberResource = defineResource({
  name: 'tac-numbers',
  singular: 'TAC number',
  plural: 'TAC numbers',
  tag: 'Master data',
  view: { permission: 'TacNumber.view-list' },
  manage: { permission: 'TacNumber.create' },
  item: tacNumberSchema,
  create: createTacNumberSchema,
  update: updateTacNumberSchema,
  filters: {
    model_id: idFilter,
    color_id: idFilter,
    source: enumFilter(TAC_SOURCES),
    active: booleanFilter,
  },
  sorts: ['tac', 'model', 'updated_at'],
  defaultSort: 'tac',
  // The import reads the model and the colour by name; its rows get source `import`.
  importColumns: [
    { key: 'tac', header: 'TAC', required: true, example: '35283611', hint: 'Exactly 8 digits' },
    {
      key: 'model',
      header: 'Model',
      required: true,
      example: 'Motorola Moto G Play 2023',
      hint: 'Brand and model, the model alone, or one of its model numbers',
    },
    { key: 'capacity_gb', header: 'Capacity GB', kind: 'integer', example: '32' },
    { key: 'color', header: 'Colour', example: 'Navy Blue', hint: 'A colour name or alias' },
  ],
  // The import's headers first, so that an exported file imports back as it is.
  exportColumns: [
    { key: 'tac', header: 'TAC', example: '35283611' },
    { key: 'model', header: 'Model', example: 'Motorola Moto G Play 2023' },
    { key: 'capacity_gb', header: 'Capacity GB', example: '32' },
    { key: 'color', header: 'Colour', example: 'Navy Blue' },
    { key: 'brand', header: 'Brand', example: 'Motorola' },
    { key: 'source', header: 'Source', example: 'manual' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'id', header: 'ID', example: '1' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const tacNumberEndpoints = resourceEndpoints(tacNumberResource);

export const tacLookupQuerySchema = z.object({
  code: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Scan or type an IMEI, MEID or TAC.'),
      z.maxLength(64, 'This is too long for an IMEI, MEID or TAC.'),
    ),
});

export const tacLookupSchema = z.object({
  /** What the code was read as. */
  kind: z.enum(['imei', 'meid', 'tac']),
  /** The code as read: spaces and dashes dropped, hex upper-cased. */
  input: z.string(),
  /** The TAC of the code; null for a MEID, which has none. */
  tac: z.nullable(z.string()),
  /** The TAC's mapping to a model, or null when the TAC is unknown. */
  tacNumber: z.nullable(tacNumberSchema),
  /** Why the code cannot be used as it is (bad check digit, an IMEISV, unknown TAC), or null. */
  problem: z.nullable(z.string()),
});
export type TacLookup = z.infer<typeof tacLookupSchema>;

export const tacLookupEndpoint = defineEndpoint({
  method: 'GET',
  path: '/tac-numbers/lookup',
  summary: 'Read a scanned IMEI, IMEISV, MEID or TAC and show the model its TAC maps to',
  tag: 'Master data',
  guard: tacNumberResource.view,
  query: tacLookupQuerySchema,
  response: tacLookupSchema,
});

/**
 * The model picker of the TAC pages: active models matching the search by brand, name or model
 * number, by display name. Under the TAC resource so that a TAC clerk needs no model permission.
 */
export const tacModelOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/tac-numbers/model-options',
  summary: `Up to ${PICKER_LIMIT} active models for the TAC pages' model picker`,
  tag: 'Master data',
  guard: tacNumberResource.view,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});

/** A TAC met at scanning that maps to no model yet: the learn-TAC list. */
export const unknownTacSchema = z.object({
  tac: z.string(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  seen_count: z.int(),
  last_imei: z.nullable(z.string()),
  last_invoice_no: z.nullable(z.string()),
});
export type UnknownTac = z.infer<typeof unknownTacSchema>;

export const unknownTacsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/tac-numbers/unknown',
  summary: 'TACs met at scanning that map to no model yet, most recently seen first (up to 200)',
  tag: 'Master data',
  guard: tacNumberResource.view,
  response: z.array(unknownTacSchema),
});

/** Learning a TAC met at scanning: it maps to a model from now on (source `learned`). */
export const learnTacEndpoint = defineEndpoint({
  method: 'POST',
  path: '/tac-numbers/learn',
  summary: 'Map a TAC met at scanning to a model (source learned); it leaves the unknown list',
  tag: 'Master data',
  guard: tacNumberResource.manage,
  body: z.object({
    tac: tacSchema,
    model_id: pickedId('model'),
    capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
    color_id: z._default(z.nullable(pickedId('colour')), null),
  }),
  response: tacNumberSchema,
  successStatus: 201,
});
