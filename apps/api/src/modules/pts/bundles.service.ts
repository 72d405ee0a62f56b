import {
  bundleList,
  type Bundle,
  type BundleComponentInput,
  type CreateBundleInput,
  type UpdateBundleInput,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ValidationError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';
import { VARIANT_REF } from './catalogue-fields.js';
import { kitListSql, kitWrites, variantProblems } from './kits.js';

export const bundleStore: ListStore<typeof bundleList> = {
  contract: bundleList,
  list: kitListSql('bundle', {
    shapeColumn: `COALESCE((SELECT json_agg(json_build_object(${VARIANT_REF}, 'qty', bc.qty) ORDER BY v.sku)
        FROM bundle_components bc JOIN product_variants v ON v.id = bc.variant_id
        JOIN products p ON p.id = v.product_id LEFT JOIN colors c ON c.id = v.color_id
        WHERE bc.bundle_id = kit.id), '[]') AS components`,
    holdsVariant:
      'EXISTS (SELECT 1 FROM bundle_components bc WHERE bc.bundle_id = kit.id AND bc.variant_id = ?)',
  }),
};

export const findBundle = (db: Queryable, id: number): Promise<Bundle> =>
  findItem(bundleStore, db, id);

async function checkComponents(db: Queryable, components: readonly BundleComponentInput[]) {
  const errors = await variantProblems(
    db,
    components.map((component) => component.variant_id),
    (index) => `components.${index}.variant_id`,
  );
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

async function writeComponents(
  tx: Transaction,
  bundleId: number,
  components: readonly BundleComponentInput[],
) {
  await tx.query('DELETE FROM bundle_components WHERE bundle_id = $1', [bundleId]);
  await tx.query(
    `INSERT INTO bundle_components (bundle_id, variant_id, qty)
     SELECT $1, * FROM unnest($2::bigint[], $3::int[])`,
    [bundleId, components.map((c) => c.variant_id), components.map((c) => c.qty)],
  );
}

const sameComponents = (bundle: Bundle, components: readonly BundleComponentInput[]) => {
  const key = (list: readonly { variant_id: number; qty: number }[]) =>
    list
      .map((c) => `${c.variant_id}x${c.qty}`)
      .sort()
      .join(',');
  return key(bundle.components) === key(components);
};

const bundleWrites = kitWrites({
  kind: 'bundle',
  find: findBundle,
  shapeName: 'components',
  check: checkComponents,
  write: writeComponents,
  same: sameComponents,
});

/** Creates a bundle with its components and tags; its SKU is unique across every sellable. */
export const createBundle = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: CreateBundleInput,
): Promise<Bundle> => bundleWrites.create(tx, actor, meta, input, input.components);

/**
 * Changes a bundle. Its components stay as they are while a listing sells it (409): a channel
 * sells the kit it was pushed as.
 */
export const updateBundle = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdateBundleInput,
): Promise<Bundle> => bundleWrites.update(tx, actor, meta, id, input, input.components);

/** Deactivates (refused while a listing sells it) or activates a bundle again. */
export const setBundleStatus = bundleWrites.setStatus;
