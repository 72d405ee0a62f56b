import * as z from 'zod/mini';
import type { $ZodLooseShape } from 'zod/v4/core';
import { defineEndpoint, type Guard, type Schema } from '../endpoint.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import { requiredText } from '../master-data/fields.js';
import { defineList, enumFilter, idFilter, type ListDefinition } from '../resource.js';
import {
  availabilityBodySchema,
  PTS_TAG,
  skuSchema,
  tagIdsInput,
  tagRefSchema,
} from './products.contract.js';

/*
 * Kits (DOMAIN.md 4.5): the sellables made of variants under one SKU of their own, bundles (fixed
 * components) and combos (choice slots). They share their SKU, name, status and tags, the live
 * listings that lock what they are, and their endpoints; each keeps its own shape and the
 * availability that follows from it.
 */

export const SELLABLE_STATUSES = ['active', 'inactive'] as const;
export type SellableStatus = (typeof SELLABLE_STATUSES)[number];

/** A kit as lists and answers show it, with its own shape (`components`, `slots`) inside. */
export const kitSchema = <Shape extends $ZodLooseShape>(shape: Shape) =>
  z.object({
    id: z.int(),
    sku: z.string(),
    name: z.string(),
    status: z.enum(SELLABLE_STATUSES),
    ...shape,
    /** Listings of the kit that are live now. */
    live_listings: z.int(),
    tags: z.array(tagRefSchema),
    created_at: z.string(),
    updated_at: z.string(),
  });

/** A kit list: by SKU or name, filtered by status, a variant it holds or a tag. */
export const kitList = <Item extends Schema>(kit: {
  name: string;
  singular: string;
  plural: string;
  view: ListDefinition['view'];
  item: Item;
  example: { sku: string; name: string };
}) =>
  defineList({
    name: kit.name,
    singular: kit.singular,
    plural: kit.plural,
    tag: PTS_TAG,
    view: kit.view,
    item: kit.item,
    filters: {
      status: enumFilter(SELLABLE_STATUSES),
      /** Kits that hold this variant: as a component or as a slot's choice. */
      variant_id: idFilter,
      tag_id: idFilter,
    },
    sorts: ['sku', 'name'],
    defaultSort: 'sku',
    exportColumns: [
      { key: 'id', header: 'ID', example: '1' },
      { key: 'sku', header: 'SKU', example: kit.example.sku },
      { key: 'name', header: 'Name', example: kit.example.name },
      { key: 'status', header: 'Status', example: 'active' },
      { key: 'live_listings', header: 'Live listings', example: '1' },
      { key: 'updated_at', header: 'Updated', example: '' },
    ],
  });

/**
 * A kit's create and update inputs around its own shape. On update a field left out is kept; the
 * shape, when given, is the whole new one.
 */
export const kitInputs = <Shape extends $ZodLooseShape>(singular: string, shape: Shape) => ({
  create: z.object({
    sku: skuSchema,
    name: requiredText(`${singular} name`, 200),
    ...shape,
    tag_ids: z._default(tagIdsInput, []),
  }),
  update: z.object({
    sku: z.optional(skuSchema),
    name: z.optional(requiredText(`${singular} name`, 200)),
    ...z.partial(z.object(shape)).shape,
    tag_ids: z.optional(tagIdsInput),
  }),
});

/**
 * A kit's endpoints beyond its list: create, change (its shape locked while a listing of it is
 * live), deactivate and activate, the availability of a page's rows, and the pickers of its form.
 */
export function kitEndpoints<
  Item extends Schema,
  Create extends Schema,
  Update extends Schema,
  Availability extends Schema,
>(kit: {
  list: { name: string; singular: string; view: Guard };
  item: Item;
  manage: Guard;
  /** What a live listing locks, in words: `components`, `slots`. */
  shapeName: string;
  create: Create;
  update: Update;
  availability: Availability;
  summaries: { create: string; availability: string };
}) {
  const base = `/${kit.list.name}`;
  const { singular, view } = kit.list;
  const action = (path: string, summary: string) =>
    defineEndpoint({
      method: 'POST',
      path: `${base}/:id/${path}`,
      summary,
      tag: PTS_TAG,
      guard: kit.manage,
      params: idParamsSchema,
      response: kit.item,
    });
  const picker = (path: string, summary: string) =>
    defineEndpoint({
      method: 'GET',
      path: `${base}/${path}`,
      summary,
      tag: PTS_TAG,
      guard: view,
      query: pickerQuerySchema,
      response: z.array(pickerOptionSchema),
    });
  return {
    create: defineEndpoint({
      method: 'POST',
      path: base,
      summary: kit.summaries.create,
      tag: PTS_TAG,
      guard: kit.manage,
      body: kit.create,
      response: kit.item,
      successStatus: 201,
    }),
    update: defineEndpoint({
      method: 'PUT',
      path: `${base}/:id`,
      summary: `Change a ${singular}; its ${kit.shapeName} are locked while a listing of it is live (409)`,
      tag: PTS_TAG,
      guard: kit.manage,
      params: idParamsSchema,
      body: kit.update,
      response: kit.item,
    }),
    deactivate: action(
      'deactivate',
      `Deactivate a ${singular} (409 while a listing of it is live)`,
    ),
    activate: action('activate', `Make an inactive ${singular} active again`),
    availability: defineEndpoint({
      method: 'POST',
      path: `${base}/availability`,
      summary: kit.summaries.availability,
      tag: PTS_TAG,
      guard: view,
      body: availabilityBodySchema,
      response: z.array(kit.availability),
    }),
    variantOptions: picker(
      'variant-options',
      'Up to 20 active variants, by SKU or product, for a picker',
    ),
    tagOptions: picker('tag-options', `Up to 20 active tags for ${singular}s, for a picker`),
  };
}
