import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { booleanFilter, defineResource, enumFilter, resourceEndpoints } from '../resource.js';
import { hexColor, mergeBodySchema, requiredText, stampShape } from './fields.js';

/** What a tag may be put on. */
export const TAG_SCOPES = ['product', 'bundle', 'combo'] as const;
export type TagScope = (typeof TAG_SCOPES)[number];

const scopeMessage = `Choose where the tag applies: ${TAG_SCOPES.join(', ')}.`;

export const tagSchema = z.object({
  id: z.int(),
  name: z.string(),
  color: z.nullable(z.string()),
  scope: z.array(z.enum(TAG_SCOPES)),
  /** How many products, bundles and combos carry the tag. */
  usage_count: z.int(),
  ...stampShape,
});
export type Tag = z.infer<typeof tagSchema>;

const tagFields = {
  name: requiredText('tag name', 60),
  color: hexColor,
  scope: z.pipe(
    z
      .array(z.enum(TAG_SCOPES, scopeMessage))
      .check(z.minLength(1, scopeMessage), z.maxLength(10, scopeMessage)),
    z.transform((scopes) => TAG_SCOPES.filter((scope) => scopes.includes(scope))),
  ),
  active: z.boolean(),
};

export const createTagSchema = z.object({
  ...tagFields,
  color: z._default(tagFields.color, null),
  scope: z._default(tagFields.scope, [...TAG_SCOPES]),
  active: z._default(tagFields.active, true),
});
export type CreateTagInput = z.input<typeof createTagSchema>;
export const updateTagSchema = z.partial(z.object(tagFields));

export const tagResource = defineResource({
  name: 'tags',
  singular: 'tag',
  plural: 'Tags',
  tag: 'Master data',
  view: { permission: 'tag.view-list' },
  manage: { permission: 'tag.manage' },
  item: tagSchema,
  create: createTagSchema,
  update: updateTagSchema,
  filters: {
    active: booleanFilter,
    /** Tags that may be put on this kind of sellable. */
    scope: enumFilter(TAG_SCOPES),
  },
  sorts: ['name', 'usage_count', 'updated_at'],
  defaultSort: 'name',
  importColumns: [
    { key: 'name', header: 'Name', required: true, example: 'Back to school' },
    { key: 'color', header: 'Colour', example: '#FFB300', hint: 'Six hex digits' },
    {
      key: 'scope',
      header: 'Scope',
      kind: 'list',
      example: 'product|bundle',
      hint: `${TAG_SCOPES.join(', ')}, separated by |; empty means all`,
    },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Back to school' },
    { key: 'color', header: 'Colour', example: '#FFB300' },
    { key: 'scope', header: 'Scope', example: 'product|bundle' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'usage_count', header: 'Used by', example: '12' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const tagEndpoints = resourceEndpoints(tagResource);

export const mergeTagEndpoint = defineEndpoint({
  method: 'POST',
  path: '/tags/:id/merge',
  summary: 'Merge a tag into another: what carries it carries the other instead, and it is deleted',
  tag: 'Master data',
  guard: tagResource.manage,
  params: idParamsSchema,
  body: mergeBodySchema,
  response: tagSchema,
});
