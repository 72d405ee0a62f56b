import {
  productAttachments,
  productList,
  VARIANTS_PER_CREATION_MAX,
  variantList,
  type AddVariantInput,
  type CreateProductInput,
  type FieldErrors,
  type Product,
  type PropertyChoice,
  type UpdateProductInput,
  type UpdateVariantInput,
  type Variant,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import {
  ConflictError,
  NotFoundError,
  ValidationError,
  uniqueViolationAs,
} from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import type { AttachmentStore } from '../../toolkit/attachments.js';
import type { PickerSql } from '../../toolkit/pickers.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { MODEL_PICKER, modelDisplayNameOf } from '../master-data/index.js';
import {
  claimSkus,
  isoText,
  LIVE_LISTING,
  propertiesOf,
  refuseWhileListed,
  taggedWith,
  tagsOf,
  writeProperties,
  writeTags,
} from './catalogue-fields.js';

export const productStore: ListStore<typeof productList> = {
  contract: productList,
  list: {
    from: 'products p',
    id: 'p.id',
    columns: `p.id, p.name, p.kind, p.model_id, ${modelDisplayNameOf('p.model_id')} AS model,
      p.description, p.status,
      (SELECT count(*)::int FROM product_variants v WHERE v.product_id = p.id) AS variant_count,
      (SELECT count(*)::int FROM product_variants v
        WHERE v.product_id = p.id AND v.status = 'active') AS active_variant_count,
      ${tagsOf('product', 'p.id')} AS tags, ${propertiesOf('product', 'p.id')} AS properties,
      (SELECT count(*)::int FROM attachments f
        WHERE f.record_kind = 'product' AND f.record_id = p.id) AS image_count,
      ${isoText('p.created_at')} AS created_at, ${isoText('p.updated_at')} AS updated_at`,
    sorts: {
      name: { sql: 'lower(p.name)', type: 'text' },
      updated_at: { sql: 'p.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      `(p.name ILIKE ? OR EXISTS (SELECT 1 FROM product_variants v
         WHERE v.product_id = p.id AND v.sku ILIKE ?))`,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.status !== undefined && ['p.status = ?', query.status],
      query.model_id !== undefined && ['p.model_id = ?', query.model_id],
      query.tag_id !== undefined && [taggedWith('product', 'p.id'), query.tag_id],
    ],
  },
};

export const variantStore: ListStore<typeof variantList> = {
  contract: variantList,
  list: {
    from: `product_variants v JOIN products p ON p.id = v.product_id
      LEFT JOIN colors c ON c.id = v.color_id`,
    id: 'v.id',
    columns: `v.id, v.product_id, p.name AS product, p.status AS product_status, p.model_id,
      ${modelDisplayNameOf('p.model_id')} AS model, v.sku, v.color_id, c.name AS color,
      v.capacity_gb, v.grade, v.carrier_lock, v.barcode, v.status,
      (SELECT count(*)::int FROM pts_listings l WHERE l.variant_id = v.id AND ${LIVE_LISTING})
        AS live_listings,
      ${propertiesOf('variant', 'v.id')} AS properties,
      ${isoText('v.created_at')} AS created_at, ${isoText('v.updated_at')} AS updated_at`,
    sorts: { sku: { sql: 'v.sku', type: 'text' } },
    search: (pattern) => ['(v.sku ILIKE ? OR p.name ILIKE ?)', pattern, pattern],
    filters: (query) => [
      query.product_id !== undefined && ['v.product_id = ?', query.product_id],
      query.status !== undefined && ['v.status = ?', query.status],
      query.grade !== undefined && ['v.grade = ?', query.grade],
    ],
  },
};

/** A product's images and sheets go with it if it is ever deleted (migration 0034's trigger). */
export const productAttachmentStore: AttachmentStore = {
  contract: productAttachments,
  table: 'products',
};

export const PRODUCT_PICKERS = {
  models: MODEL_PICKER,
  colors: {
    from: 'colors',
    id: 'id',
    label: 'name',
    where: `active AND ($1::text IS NULL OR name ILIKE $1 OR array_to_string(aliases, ' ') ILIKE $1)`,
    order: 'lower(name), id',
  },
  tags: tagPicker('product'),
} satisfies Record<string, PickerSql>;

/** Active tags that may be put on a kind of sellable. */
export function tagPicker(kind: 'product' | 'bundle' | 'combo'): PickerSql {
  return {
    from: 'tags',
    id: 'id',
    label: 'name',
    where: `active AND '${kind}' = ANY (scope) AND ($1::text IS NULL OR name ILIKE $1)`,
    order: 'lower(name), id',
  };
}

/** Active variants of active products by SKU or product name, for bundles and combos. */
export const VARIANT_PICKER: PickerSql = {
  from: `product_variants v JOIN products p ON p.id = v.product_id
    LEFT JOIN colors c ON c.id = v.color_id`,
  id: 'v.id',
  label: `v.sku || ' (' || p.name || COALESCE(' · ' || NULLIF(concat_ws(' ',
    v.capacity_gb || ' GB', c.name, v.grade, v.carrier_lock), ''), '') || ')'`,
  where: `v.status = 'active' AND p.status = 'active'
    AND ($1::text IS NULL OR v.sku ILIKE $1 OR p.name ILIKE $1)`,
  order: 'v.sku, v.id',
};

/** The active properties, for a product's or a variant's values. */
export const propertyChoices = (db: Queryable) =>
  db.query<PropertyChoice>(
    `SELECT id::int AS id, name, data_type, unit, enum_values, applies_to FROM properties
     WHERE active ORDER BY lower(name), id`,
  );

const PRODUCT_UNIQUES = {
  products_name_key: ['name', 'A product with this name exists.'],
} as const;
const VARIANT_UNIQUES = {
  product_variants_sku_key: ['sku', 'A variant with this SKU exists.'],
  product_variants_cut_key: ['cut', 'This product has a variant of this cut already.'],
} as const;

/** Text as a SKU part: capitals and digits, other runs as one dash. */
const skuPart = (text: string) =>
  text
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

const gradePart = (grade: string) => (grade === 'A+' ? 'APLUS' : skuPart(grade));

type Cut = {
  color_id: number | null;
  color: string | null;
  capacity_gb: number | null;
  grade: string | null;
  carrier_lock: string | null;
};

/** A readable SKU: the prefix, then capacity, colour, grade and lock, as far as the cut sets them. */
const skuOf = (prefix: string, cut: Cut) =>
  [
    prefix,
    cut.capacity_gb !== null ? `${cut.capacity_gb}GB` : null,
    cut.color !== null ? skuPart(cut.color) : null,
    cut.grade !== null ? gradePart(cut.grade) : null,
    cut.carrier_lock !== null ? skuPart(cut.carrier_lock) : null,
  ]
    .filter((part): part is string => Boolean(part))
    .join('-');

type ModelRow = { id: number; brand: string; name: string; active: boolean };

async function modelOf(db: Queryable, modelId: number): Promise<ModelRow> {
  const [model] = await db.query<ModelRow>(
    `SELECT m.id, b.name AS brand, m.name, m.active FROM device_models m
     JOIN brands b ON b.id = m.brand_id WHERE m.id = $1`,
    [modelId],
  );
  if (!model) throw new ValidationError({ model_id: [`There is no model with id ${modelId}.`] });
  return model;
}

/** The brand and model as the start of SKUs: "SAMSUNG-GALAXY-A15", at most 40 characters. */
const modelPrefix = (model: ModelRow) =>
  skuPart(`${model.brand} ${model.name}`).slice(0, 40).replace(/-+$/, '');

/** Active colours by id, in the order given; 422 on `field` for one unknown or deactivated. */
async function colorsOf(
  db: Queryable,
  ids: readonly number[],
  field: (index: number) => string,
): Promise<Map<number, string>> {
  const rows = await db.query<{ id: number; name: string; active: boolean }>(
    'SELECT id, name, active FROM colors WHERE id = ANY ($1::bigint[])',
    [ids],
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const errors: FieldErrors = {};
  ids.forEach((id, index) => {
    const color = byId.get(id);
    if (!color || !color.active) errors[field(index)] = ['Choose an active colour.'];
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return new Map(rows.map((row) => [Number(row.id), row.name]));
}

/** Every combination of the chosen attributes; an attribute not chosen is left open (null). */
function cutsOf(input: CreateProductInput, colors: Map<number, string>): Cut[] {
  const open = <T>(values: readonly T[] | undefined): (T | null)[] =>
    values && values.length > 0 ? [...new Set(values)] : [null];
  return open(input.color_ids).flatMap((color_id) =>
    open(input.capacities_gb).flatMap((capacity_gb) =>
      open(input.grades).flatMap((grade) =>
        open(input.carrier_locks).map((carrier_lock) => ({
          color_id,
          color: color_id === null ? null : colors.get(color_id)!,
          capacity_gb,
          grade,
          carrier_lock,
        })),
      ),
    ),
  );
}

/** SKUs too long or given twice in one set: 422 on `field`. */
function checkSkus(skus: readonly string[], field: string): void {
  const messages: string[] = [];
  const long = skus.find((sku) => sku.length > 64);
  if (long) messages.push(`The SKU ${long} is longer than 64 characters: choose a shorter prefix.`);
  const twice = skus.find((sku, index) => skus.indexOf(sku) !== index);
  if (twice) {
    messages.push(`Two variants would get the SKU ${twice}: their attributes read the same.`);
  }
  if (messages.length > 0) throw new ValidationError({ [field]: messages });
}

export const findProduct = (db: Queryable, id: number): Promise<Product> =>
  findItem(productStore, db, id);
export const findVariant = (db: Queryable, id: number): Promise<Variant> =>
  findItem(variantStore, db, id);

async function lockProduct(tx: Transaction, id: number): Promise<Product> {
  const [row] = await tx.query('SELECT id FROM products WHERE id = $1 FOR UPDATE', [id]);
  if (!row) throw new NotFoundError(`There is no product with id ${id}.`);
  return findProduct(tx, id);
}

const audit = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  action: string,
  entity: { type: 'product' | 'product_variant'; id: number },
  before: unknown,
  after: unknown,
) =>
  recordAudit(tx, {
    ...auditActor(actor, meta),
    action,
    entityType: entity.type,
    entityId: entity.id,
    before,
    after,
  });

/**
 * Creates a product from a model with one variant per combination of the chosen colours,
 * capacities, grades and locks, each with a readable SKU unique across every sellable (422 on
 * `sku_prefix` on a clash), with its tags and property values, in one transaction.
 */
export async function createProduct(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: CreateProductInput,
): Promise<Product> {
  const model = await modelOf(tx, input.model_id);
  if (!model.active) {
    throw new ValidationError({ model_id: [`${model.brand} ${model.name} is deactivated.`] });
  }
  const colors = await colorsOf(tx, input.color_ids ?? [], (index) => `color_ids.${index}`);
  const cuts = cutsOf(input, colors);
  if (cuts.length > VARIANTS_PER_CREATION_MAX) {
    throw new ValidationError({
      variants: [
        `These choices make ${cuts.length} variants; at most ${VARIANTS_PER_CREATION_MAX} at once.`,
      ],
    });
  }
  const prefix = input.sku_prefix ?? modelPrefix(model);
  const skus = cuts.map((cut) => skuOf(prefix, cut));
  checkSkus(skus, 'sku_prefix');
  await claimSkus(tx, skus, 'sku_prefix');

  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO products (name, kind, model_id, description, created_by, updated_by)
       VALUES ($1, 'device', $2, $3, $4, $4) RETURNING id`,
      [
        input.name ?? `${model.brand} ${model.name}`,
        model.id,
        input.description ?? null,
        actor.userId,
      ],
    )
    .catch(uniqueViolationAs(PRODUCT_UNIQUES));
  const id = Number(created!.id);
  await tx.query(
    `INSERT INTO product_variants (product_id, sku, color_id, capacity_gb, grade, carrier_lock)
     SELECT $1, * FROM unnest($2::text[], $3::bigint[], $4::int[], $5::text[], $6::text[])`,
    [
      id,
      skus,
      cuts.map((cut) => cut.color_id),
      cuts.map((cut) => cut.capacity_gb),
      cuts.map((cut) => cut.grade),
      cuts.map((cut) => cut.carrier_lock),
    ],
  );
  await writeTags(tx, 'product', id, input.tag_ids ?? []);
  await writeProperties(tx, 'product', id, input.properties ?? []);
  const product = await findProduct(tx, id);
  await audit(tx, actor, meta, 'product.created', { type: 'product', id }, undefined, {
    ...product,
    skus,
  });
  return product;
}

/** Changes a product's name, description, tags or property values (the whole set when given). */
export async function updateProduct(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdateProductInput,
): Promise<Product> {
  const before = await lockProduct(tx, id);
  const set = Object.entries({ name: input.name, description: input.description }).filter(
    ([, value]) => value !== undefined,
  );
  await tx
    .query(
      `UPDATE products SET ${set.map(([column], i) => `${column} = $${i + 3}, `).join('')}
         updated_at = now(), updated_by = $2
       WHERE id = $1`,
      [id, actor.userId, ...set.map(([, value]) => value)],
    )
    .catch(uniqueViolationAs(PRODUCT_UNIQUES));
  if (input.tag_ids) await writeTags(tx, 'product', id, input.tag_ids);
  if (input.properties) await writeProperties(tx, 'product', id, input.properties);
  const after = await findProduct(tx, id);
  await audit(tx, actor, meta, 'product.updated', { type: 'product', id }, before, after);
  return after;
}

/** Live listings of the product's variants. */
const liveListingsOfProduct = async (tx: Queryable, id: number) =>
  (
    await tx.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pts_listings l
       JOIN product_variants v ON v.id = l.variant_id WHERE v.product_id = $1 AND ${LIVE_LISTING}`,
      [id],
    )
  )[0]!.n;

/** Archives or activates a product; archiving waits until none of its variants is on sale. */
export async function setProductStatus(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  status: 'active' | 'archived',
): Promise<Product> {
  const before = await lockProduct(tx, id);
  if (before.status === status) return before;
  if (status === 'archived') {
    refuseWhileListed(
      await liveListingsOfProduct(tx, id),
      `"${before.name}"`,
      'it cannot be archived',
    );
  }
  await tx.query(
    'UPDATE products SET status = $2, updated_at = now(), updated_by = $3 WHERE id = $1',
    [id, status, actor.userId],
  );
  const after = await findProduct(tx, id);
  await audit(
    tx,
    actor,
    meta,
    status === 'archived' ? 'product.archived' : 'product.activated',
    { type: 'product', id },
    { status: before.status },
    { status: after.status },
  );
  return after;
}

/** Adds one cut to a product; its SKU is made like the creation's unless given. */
export async function addVariant(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  productId: number,
  input: AddVariantInput,
): Promise<Variant> {
  const product = await lockProduct(tx, productId);
  if (product.status === 'archived') {
    throw new ConflictError(`"${product.name}" is archived: activate it before adding variants.`);
  }
  if (product.model_id === null) {
    throw new ConflictError(`"${product.name}" sells no device model: it has no device variants.`);
  }
  const colorId = input.color_id ?? null;
  const colors = await colorsOf(tx, colorId === null ? [] : [colorId], () => 'color_id');
  const cut: Cut = {
    color_id: colorId,
    color: colorId === null ? null : colors.get(colorId)!,
    capacity_gb: input.capacity_gb ?? null,
    grade: input.grade ?? null,
    carrier_lock: input.carrier_lock ?? null,
  };
  const sku = input.sku ?? skuOf(modelPrefix(await modelOf(tx, product.model_id)), cut);
  checkSkus([sku], 'sku');
  await claimSkus(tx, [sku], 'sku');
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO product_variants (product_id, sku, color_id, capacity_gb, grade, carrier_lock,
         barcode)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [
        productId,
        sku,
        cut.color_id,
        cut.capacity_gb,
        cut.grade,
        cut.carrier_lock,
        input.barcode ?? null,
      ],
    )
    .catch(uniqueViolationAs(VARIANT_UNIQUES));
  await tx.query('UPDATE products SET updated_at = now(), updated_by = $2 WHERE id = $1', [
    productId,
    actor.userId,
  ]);
  const variant = await findVariant(tx, Number(created!.id));
  await audit(
    tx,
    actor,
    meta,
    'product.variant_added',
    { type: 'product', id: productId },
    undefined,
    variant,
  );
  return variant;
}

async function lockVariant(tx: Transaction, id: number): Promise<Variant> {
  const [row] = await tx.query('SELECT id FROM product_variants WHERE id = $1 FOR UPDATE', [id]);
  if (!row) throw new NotFoundError(`There is no variant with id ${id}.`);
  return findVariant(tx, id);
}

/** Changes a variant's barcode or property values (the whole set when given). */
export async function updateVariant(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  input: UpdateVariantInput,
): Promise<Variant> {
  const before = await lockVariant(tx, id);
  if (input.barcode !== undefined) {
    await tx.query('UPDATE product_variants SET barcode = $2, updated_at = now() WHERE id = $1', [
      id,
      input.barcode,
    ]);
  }
  if (input.properties) await writeProperties(tx, 'variant', id, input.properties);
  const after = await findVariant(tx, id);
  await audit(
    tx,
    actor,
    meta,
    'product_variant.updated',
    { type: 'product_variant', id },
    before,
    after,
  );
  return after;
}

/**
 * Archives or activates one variant: archiving waits until none of its listings is live; an
 * archived product's variants stay archived until the product is active again.
 */
export async function setVariantStatus(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  id: number,
  status: 'active' | 'archived',
): Promise<Variant> {
  const before = await lockVariant(tx, id);
  if (before.status === status) return before;
  if (status === 'archived') {
    refuseWhileListed(before.live_listings, `The variant ${before.sku}`, 'it cannot be archived');
  } else if (before.product_status === 'archived') {
    throw new ConflictError(`"${before.product}" is archived: activate the product first.`);
  }
  await tx.query('UPDATE product_variants SET status = $2, updated_at = now() WHERE id = $1', [
    id,
    status,
  ]);
  const after = await findVariant(tx, id);
  await audit(
    tx,
    actor,
    meta,
    status === 'archived' ? 'product_variant.archived' : 'product_variant.activated',
    { type: 'product_variant', id },
    { status: before.status },
    { status: after.status },
  );
  return after;
}
