import type { FieldErrors, PropertyValueInput } from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, ValidationError } from '../../http/errors.js';

/*
 * What products, bundles and combos share: their tags and property values (the master data's
 * tables, keyed by entity type and id), SKUs unique across the three kinds, and the rule that a
 * sellable on sale keeps its shape.
 */

export type CatalogueEntity = 'product' | 'variant' | 'bundle' | 'combo';

/** The tags of entity `id` (SQL) of a kind, as `tagRefSchema`s in name order. */
export const tagsOf = (kind: CatalogueEntity, id: string) =>
  `COALESCE((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color)
      ORDER BY lower(t.name), t.id)
    FROM tag_assignments a JOIN tags t ON t.id = a.tag_id
    WHERE a.entity_type = '${kind}' AND a.entity_id = ${id}), '[]')`;

/** The property values of entity `id` (SQL) of a kind, as `propertyValueRefSchema`s. */
export const propertiesOf = (kind: CatalogueEntity, id: string) =>
  `COALESCE((SELECT json_agg(json_build_object('property_id', pr.id, 'name', pr.name,
      'data_type', pr.data_type, 'unit', pr.unit, 'value', pv.value) ORDER BY lower(pr.name), pr.id)
    FROM property_values pv JOIN properties pr ON pr.id = pv.property_id
    WHERE pv.entity_type = '${kind}' AND pv.entity_id = ${id}), '[]')`;

/** The rows of a list that carry tag `?`. */
export const taggedWith = (kind: CatalogueEntity, id: string) =>
  `EXISTS (SELECT 1 FROM tag_assignments a
    WHERE a.entity_type = '${kind}' AND a.entity_id = ${id} AND a.tag_id = ?)`;

/** A variant `v` of product `p` with colour `c`, in words: "Galaxy A15 · 128 GB Black A". */
export const VARIANT_LABEL = `p.name || COALESCE(' · ' || NULLIF(concat_ws(' ',
  v.capacity_gb || ' GB', c.name, v.grade, v.carrier_lock), ''), '')`;

/** A variant is sold only while it and its product are both active. */
export const VARIANT_SELLABLE_STATUS = `CASE WHEN v.status = 'active' AND p.status = 'active'
  THEN 'active' ELSE 'archived' END`;

/** A variant `v` as a bundle's component or a combo's choice names it (`variantRefSchema`). */
export const VARIANT_REF = `'variant_id', v.id, 'sku', v.sku, 'label', ${VARIANT_LABEL},
  'status', ${VARIANT_SELLABLE_STATUS}`;

export const isoText = (column: string) => `to_json(${column}) #>> '{}'`;

/** A listing that sells now: its sellable's shape and status are fixed meanwhile. */
export const LIVE_LISTING = "l.status = 'live'";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Refuses (409) a change to what a sellable is while a listing sells it: a channel sells it as it
 * was pushed. `listings` is the count of its live listings.
 */
export function refuseWhileListed(listings: number, what: string, change: string): void {
  if (listings > 0) {
    throw new ConflictError(
      `${what} is sold by ${plural(listings, 'live listing')}: ${change} while it is on sale. Pause or end the listings first.`,
    );
  }
}

/** Checks tags for a kind: each exists, is active and may be put on it. */
async function checkedTags(
  db: Queryable,
  kind: 'product' | 'bundle' | 'combo',
  tagIds: readonly number[],
): Promise<number[]> {
  const rows = await db.query<{ id: number; name: string; active: boolean; scope: string[] }>(
    'SELECT id, name, active, scope FROM tags WHERE id = ANY ($1::bigint[])',
    [tagIds],
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const errors: FieldErrors = {};
  tagIds.forEach((id, index) => {
    const tag = byId.get(id);
    if (!tag) errors[`tag_ids.${index}`] = [`There is no tag with id ${id}.`];
    else if (!tag.active) errors[`tag_ids.${index}`] = [`The tag "${tag.name}" is deactivated.`];
    else if (!tag.scope.includes(kind)) {
      errors[`tag_ids.${index}`] = [`The tag "${tag.name}" is not for ${kind}s.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return [...new Set(tagIds)];
}

/** Puts exactly these tags on an entity (checked first). */
export async function writeTags(
  tx: Transaction,
  kind: 'product' | 'bundle' | 'combo',
  id: number,
  tagIds: readonly number[],
): Promise<void> {
  const ids = await checkedTags(tx, kind, tagIds);
  await tx.query('DELETE FROM tag_assignments WHERE entity_type = $1 AND entity_id = $2', [
    kind,
    id,
  ]);
  await tx.query(
    `INSERT INTO tag_assignments (tag_id, entity_type, entity_id)
     SELECT t, $1, $2 FROM unnest($3::bigint[]) t`,
    [kind, id, ids],
  );
}

type PropertyRow = {
  id: number;
  name: string;
  data_type: 'text' | 'int' | 'decimal' | 'bool' | 'enum';
  enum_values: string[];
  applies_to: string[];
  active: boolean;
};

/** Why a value does not fit its property's data type, or null when it does. */
function valueProblem(property: PropertyRow, value: unknown): string | null {
  const name = `"${property.name}"`;
  switch (property.data_type) {
    case 'text':
      return typeof value === 'string' && value.trim() !== '' && value.length <= 500
        ? null
        : `${name} takes a text of 1 to 500 characters.`;
    case 'int':
      return Number.isSafeInteger(value) ? null : `${name} takes a whole number.`;
    case 'decimal':
      return typeof value === 'number' && Number.isFinite(value) ? null : `${name} takes a number.`;
    case 'bool':
      return typeof value === 'boolean' ? null : `${name} takes yes or no.`;
    case 'enum':
      return typeof value === 'string' && property.enum_values.includes(value)
        ? null
        : `${name} takes one of: ${property.enum_values.join(', ')}.`;
  }
}

/**
 * Gives an entity exactly these property values. Each property must exist, be active, apply to
 * the entity (a product or a variant) and take the value by its data type; 422 on the value.
 */
export async function writeProperties(
  tx: Transaction,
  target: 'product' | 'variant',
  id: number,
  values: readonly PropertyValueInput[],
): Promise<void> {
  const rows = await tx.query<PropertyRow>(
    `SELECT id, name, data_type, enum_values, applies_to, active FROM properties
     WHERE id = ANY ($1::bigint[])`,
    [values.map((value) => value.property_id)],
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  values.forEach(({ property_id, value }, index) => {
    const property = byId.get(property_id);
    const field = `properties.${index}`;
    if (!property)
      errors[`${field}.property_id`] = [`There is no property with id ${property_id}.`];
    else if (seen.has(property_id)) {
      errors[`${field}.property_id`] = [`"${property.name}" has a value already.`];
    } else if (!property.active) {
      errors[`${field}.property_id`] = [`The property "${property.name}" is deactivated.`];
    } else if (!property.applies_to.includes(target)) {
      errors[`${field}.property_id`] = [`The property "${property.name}" is not for ${target}s.`];
    } else {
      const problem = valueProblem(property, typeof value === 'string' ? value.trim() : value);
      if (problem) errors[`${field}.value`] = [problem];
    }
    seen.add(property_id);
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  await tx.query('DELETE FROM property_values WHERE entity_type = $1 AND entity_id = $2', [
    target,
    id,
  ]);
  await tx.query(
    `INSERT INTO property_values (property_id, entity_type, entity_id, value)
     SELECT (e->>'property_id')::bigint, $1, $2, e->'value' FROM jsonb_array_elements($3::jsonb) e`,
    [
      target,
      id,
      JSON.stringify(
        values.map(({ property_id, value }) => ({
          property_id,
          value: typeof value === 'string' ? value.trim() : value,
        })),
      ),
    ],
  );
}

/** A sellable that holds a SKU: what a clash names. */
type SkuHolder = { sku: string; kind: string; id: number; name: string };

/**
 * Claims SKUs for a sellable, so that a SKU names one thing across variants, bundles and combos:
 * takes a transaction lock per SKU (in SKU order, so two claims never deadlock) and refuses (422
 * on `field`) any SKU another sellable holds. `own` is the sellable that may keep its own SKU.
 */
export async function claimSkus(
  tx: Transaction,
  skus: readonly string[],
  field: string,
  own?: { kind: 'variant' | 'bundle' | 'combo'; id: number },
): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(hashtext('pts-sku:' || s))
     FROM (SELECT DISTINCT s FROM unnest($1::text[]) s ORDER BY s) wanted`,
    [skus],
  );
  const held = await tx.query<SkuHolder>(
    `SELECT v.sku, 'variant' AS kind, v.id, p.name FROM product_variants v
       JOIN products p ON p.id = v.product_id WHERE v.sku = ANY ($1::text[])
     UNION ALL SELECT sku, 'bundle', id, name FROM bundles WHERE sku = ANY ($1::text[])
     UNION ALL SELECT sku, 'combo', id, name FROM combos WHERE sku = ANY ($1::text[])`,
    [skus],
  );
  const clashes = held.filter(
    (holder) => !(own && holder.kind === own.kind && Number(holder.id) === own.id),
  );
  if (clashes.length > 0) {
    throw new ValidationError({
      [field]: clashes
        .slice(0, 10)
        .map((holder) => `The SKU ${holder.sku} is taken by the ${holder.kind} "${holder.name}".`),
    });
  }
}
