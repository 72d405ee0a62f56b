import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { booleanFilter, defineResource, resourceEndpoints } from '../resource.js';
import { hexColor, mergeBodySchema, requiredText, stampShape, wordList } from './fields.js';

export const colorSchema = z.object({
  id: z.int(),
  name: z.string(),
  hex: z.nullable(z.string()),
  aliases: z.array(z.string()),
  usage_count: z.int(),
  ...stampShape,
});
export type Color = z.infer<typeof colorSchema>;

const colorFields = {
  name: requiredText('colour name', 60),
  hex: hexColor,
  aliases: wordList('alias', 30, 60),
  active: z.boolean(),
};

export const createColorSchema = z.object({
  ...colorFields,
  aliases: z._default(colorFields.aliases, []),
  active: z._default(colorFields.active, true),
});
export type CreateColorInput = z.input<typeof createColorSchema>;
export const updateColorSchema = z.partial(z.object(colorFields));

export const colorResource = defineResource({
  name: 'colors',
  singular: 'colour',
  plural: 'Colours',
  tag: 'Master data',
  view: { permission: 'color.view-list' },
  manage: { permission: 'color.manage' },
  item: colorSchema,
  create: createColorSchema,
  update: updateColorSchema,
  filters: { active: booleanFilter },
  sorts: ['name', 'usage_count', 'updated_at'],
  defaultSort: 'name',
  importColumns: [
    { key: 'name', header: 'Name', required: true, example: 'Midnight Black' },
    { key: 'hex', header: 'Hex', example: '#1C1C1E', hint: 'Six hex digits' },
    {
      key: 'aliases',
      header: 'Aliases',
      kind: 'list',
      example: 'Black|Jet Black',
      hint: 'Vendor spellings, separated by |',
    },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Midnight Black' },
    { key: 'hex', header: 'Hex', example: '#1C1C1E' },
    { key: 'aliases', header: 'Aliases', example: 'Black|Jet Black' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'usage_count', header: 'TAC numbers', example: '3' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const colorEndpoints = resourceEndpoints(colorResource);

export const mergeColorEndpoint = defineEndpoint({
  method: 'POST',
  path: '/colors/:id/merge',
  summary: 'Merge a colour into another: its uses are repointed and its names become aliases',
  tag: 'Master data',
  guard: colorResource.manage,
  params: idParamsSchema,
  body: mergeBodySchema,
  response: colorSchema,
});
