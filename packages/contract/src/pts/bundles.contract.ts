import * as z from 'zod/mini';
import { PTS_BUNDLE_MANAGE, PTS_BUNDLE_VIEW } from '../guards.js';
import { entityId, wholeNumber } from '../master-data/fields.js';
import { listEndpoints } from '../resource.js';
import { kitEndpoints, kitInputs, kitList, kitSchema } from './kits.contract.js';
import { variantRefSchema } from './products.contract.js';

/*
 * Bundles (DOMAIN.md 4.5): fixed kits sold under one SKU; every component is picked. What can be
 * built now is the minimum over the components of the variant's stock ÷ the component's qty.
 */

export const bundleComponentSchema = z.object({
  ...variantRefSchema.shape,
  qty: z.int(),
});
export type BundleComponent = z.infer<typeof bundleComponentSchema>;

export const bundleSchema = kitSchema({ components: z.array(bundleComponentSchema) });
export type Bundle = z.infer<typeof bundleSchema>;

export const bundleList = kitList({
  name: 'pts-bundles',
  singular: 'bundle',
  plural: 'Bundles',
  view: PTS_BUNDLE_VIEW,
  item: bundleSchema,
  example: { sku: 'KIT-A15-CHARGER', name: 'Galaxy A15 with charger' },
});

/** The components, each variant once; at least one. */
export const bundleComponentsInput = z
  .array(
    z.object({
      variant_id: entityId('variant'),
      qty: wholeNumber('quantity', 1, 1000),
    }),
  )
  .check(
    z.minLength(1, 'A bundle needs at least one component.'),
    z.maxLength(50, 'At most 50 components.'),
  );
export type BundleComponentInput = z.input<typeof bundleComponentsInput>[number];

const bundleInputs = kitInputs('bundle', { components: bundleComponentsInput });

export const createBundleSchema = bundleInputs.create;
export type CreateBundleInput = z.input<typeof createBundleSchema>;

/** Components, when given, cannot change while a listing of the bundle is live (409). */
export const updateBundleSchema = bundleInputs.update;
export type UpdateBundleInput = z.input<typeof updateBundleSchema>;

export const bundleAvailabilitySchema = z.object({
  bundle_id: z.int(),
  /** Kits that can be built now: the minimum over components of available ÷ qty. */
  buildable: z.int(),
  components: z.array(z.object({ variant_id: z.int(), available: z.int() })),
});
export type BundleAvailability = z.infer<typeof bundleAvailabilitySchema>;

/** The list's reading endpoints alone: page, count, one row, export. */
export const bundleListEndpoints = listEndpoints(bundleList);

export const bundleEndpoints = {
  ...bundleListEndpoints,
  ...kitEndpoints({
    list: bundleList,
    item: bundleSchema,
    manage: PTS_BUNDLE_MANAGE,
    shapeName: 'components',
    create: createBundleSchema,
    update: updateBundleSchema,
    availability: bundleAvailabilitySchema,
    summaries: {
      create: 'Create a bundle of variants (422 when the SKU is taken by any sellable)',
      availability: 'How many of each bundle of one page can be built from stock now',
    },
  }),
};
