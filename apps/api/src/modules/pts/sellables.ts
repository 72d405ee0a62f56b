import type {
  BundleAvailability,
  ComboAvailability,
  VariantAvailability,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { VARIANT_LABEL, VARIANT_SELLABLE_STATUS } from './catalogue-fields.js';

/*
 * What other areas (listings, orders, carts, offers) use of the catalogue: a sellable by its SKU,
 * and what sellables can sell from stock now. Every figure comes from the SQL function
 * `variant_sellable_stock` (migration 0033: in stock, in a located box, not held), called once
 * for all the variants asked about.
 */

export type SellableKind = 'variant' | 'bundle' | 'combo';

export type Sellable = {
  readonly kind: SellableKind;
  readonly id: number;
  readonly sku: string;
  /** A variant's product and cut ("Galaxy A15 · 128 GB Black A"); a bundle's or combo's name. */
  readonly name: string;
  /** Whether it may be sold: a variant is archived when it or its product is. */
  readonly status: 'active' | 'inactive' | 'archived';
};

export type SellableRef = { readonly kind: SellableKind; readonly id: number };

/** The sellables holding these SKUs (as given, upper-cased), keyed by SKU; unknown ones absent. */
export async function sellablesBySku(
  db: Queryable,
  skus: readonly string[],
): Promise<Map<string, Sellable>> {
  const rows = await db.query<Sellable>(
    `SELECT 'variant' AS kind, v.id::int AS id, v.sku, ${VARIANT_LABEL} AS name,
       ${VARIANT_SELLABLE_STATUS} AS status
     FROM product_variants v JOIN products p ON p.id = v.product_id
     LEFT JOIN colors c ON c.id = v.color_id
     WHERE v.sku = ANY ($1::text[])
     UNION ALL SELECT 'bundle', id::int, sku, name, status FROM bundles WHERE sku = ANY ($1::text[])
     UNION ALL SELECT 'combo', id::int, sku, name, status FROM combos WHERE sku = ANY ($1::text[])`,
    [skus.map((sku) => sku.trim().toUpperCase())],
  );
  return new Map(rows.map((row) => [row.sku, row]));
}

/** One sellable by its SKU, or null. */
export async function sellableBySku(db: Queryable, sku: string): Promise<Sellable | null> {
  return (await sellablesBySku(db, [sku])).values().next().value ?? null;
}

/** Sellable devices per variant (0 for an unknown id): one call of the SQL function. */
export async function variantAvailability(
  db: Queryable,
  variantIds: readonly number[],
): Promise<Map<number, number>> {
  const ids = [...new Set(variantIds)];
  const rows =
    ids.length === 0
      ? []
      : await db.query<{ variant_id: number; available: number }>(
          `SELECT variant_id::int AS variant_id, available::int AS available
           FROM variant_sellable_stock($1::bigint[])`,
          [ids],
        );
  const found = new Map(rows.map((row) => [Number(row.variant_id), Number(row.available)]));
  return new Map(ids.map((id) => [id, found.get(id) ?? 0]));
}

/** The variants' figures in the order asked. */
export async function variantAvailabilityOf(
  db: Queryable,
  variantIds: readonly number[],
): Promise<VariantAvailability[]> {
  const stock = await variantAvailability(db, variantIds);
  return [...stock].map(([variant_id, available]) => ({ variant_id, available }));
}

/**
 * How many of each bundle can be built now (SQL `pts_sellable_available`, migration 0035: the
 * minimum over its components of the variant's stock ÷ the component's qty; none without
 * components), with each component's stock.
 */
export async function bundleAvailability(
  db: Queryable,
  bundleIds: readonly number[],
): Promise<BundleAvailability[]> {
  const ids = [...new Set(bundleIds)];
  const [components, buildable] = await Promise.all([
    db.query<{ bundle_id: number; variant_id: number }>(
      `SELECT bundle_id::int AS bundle_id, variant_id::int AS variant_id
       FROM bundle_components WHERE bundle_id = ANY ($1::bigint[]) ORDER BY bundle_id, variant_id`,
      [ids],
    ),
    sellableAvailable(db, 'bundle', ids),
  ]);
  const stock = await variantAvailability(
    db,
    components.map((component) => component.variant_id),
  );
  return ids.map((bundle_id) => ({
    bundle_id,
    buildable: buildable.get(bundle_id) ?? 0,
    components: components
      .filter((component) => component.bundle_id === bundle_id)
      .map(({ variant_id }) => ({ variant_id, available: stock.get(variant_id) ?? 0 })),
  }));
}

/** What bundles or combos can sell now, by id: one statement of `pts_sellable_available`. */
async function sellableAvailable(
  db: Queryable,
  kind: 'bundle' | 'combo',
  ids: readonly number[],
): Promise<Map<number, number>> {
  const rows = await db.query<{ id: number; available: number }>(
    `SELECT id::int AS id, pts_sellable_available(NULL, ${kind === 'bundle' ? 'id, NULL' : 'NULL, id'})::int
       AS available
     FROM unnest($1::bigint[]) AS id`,
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.available]));
}

/**
 * Each combo's slots with their pool (the stock of the slot's allowed variants that may be sold:
 * active, of an active product, as the pick chooses among them) and how many combos can be
 * filled: the minimum over slots of pool ÷ the slot's qty; a combo without slots fills none.
 */
export async function comboAvailability(
  db: Queryable,
  comboIds: readonly number[],
): Promise<ComboAvailability[]> {
  const slots = await db.query<{ combo_id: number; slot_id: number; variant_ids: number[] }>(
    `SELECT s.combo_id::int AS combo_id, s.id::int AS slot_id,
       ARRAY(SELECT sv.variant_id::int FROM combo_slot_variants sv
         JOIN product_variants v ON v.id = sv.variant_id AND v.status = 'active'
         JOIN products p ON p.id = v.product_id AND p.status = 'active'
         WHERE sv.slot_id = s.id) AS variant_ids
     FROM combo_slots s WHERE s.combo_id = ANY ($1::bigint[]) ORDER BY s.combo_id, s.position, s.id`,
    [comboIds],
  );
  const ids = [...new Set(comboIds)];
  const [stock, available] = await Promise.all([
    variantAvailability(
      db,
      slots.flatMap((slot) => slot.variant_ids.map(Number)),
    ),
    sellableAvailable(db, 'combo', ids),
  ]);
  return ids.map((combo_id) => ({
    combo_id,
    available: available.get(combo_id) ?? 0,
    slots: slots
      .filter((slot) => slot.combo_id === combo_id)
      .map((slot) => ({
        slot_id: slot.slot_id,
        pool: slot.variant_ids.reduce((sum, id) => sum + (stock.get(Number(id)) ?? 0), 0),
      })),
  }));
}

/**
 * What each sellable can sell from stock now, keyed `kind:id`: a variant's devices, a bundle's
 * buildable kits, a combo's fillable offers. One call of the SQL function per kind asked about.
 */
export async function availableStock(
  db: Queryable,
  sellables: readonly SellableRef[],
): Promise<Map<string, number>> {
  const idsOf = (kind: SellableKind) =>
    sellables.filter((sellable) => sellable.kind === kind).map((sellable) => sellable.id);
  const [variants, bundles, combos] = await Promise.all([
    variantAvailability(db, idsOf('variant')),
    idsOf('bundle').length > 0 ? bundleAvailability(db, idsOf('bundle')) : [],
    idsOf('combo').length > 0 ? comboAvailability(db, idsOf('combo')) : [],
  ]);
  return new Map([
    ...[...variants].map(([id, available]) => [`variant:${id}`, available] as const),
    ...bundles.map((bundle) => [`bundle:${bundle.bundle_id}`, bundle.buildable] as const),
    ...combos.map((combo) => [`combo:${combo.combo_id}`, combo.available] as const),
  ]);
}

export type SlotPick = {
  readonly variant_id: number;
  readonly sku: string;
  /** The located box holding the variant's oldest stock, and when it was sealed. */
  readonly inventory_box_id: number;
  readonly sealed_at: string;
};

/**
 * The variant that fills a combo's slot (DOMAIN.md 4.5, oldest stock first): of the slot's active
 * variants with sellable stock, the one whose oldest located box was sealed first (SQL function
 * `combo_slot_pick`, migration 0034). Null when no allowed variant has stock.
 */
export async function pickComboSlotVariant(
  db: Queryable,
  slotId: number,
): Promise<SlotPick | null> {
  const [pick] = await db.query<SlotPick>(
    `SELECT k.variant_id::int AS variant_id, v.sku, k.inventory_box_id::int AS inventory_box_id,
       to_json(k.sealed_at) #>> '{}' AS sealed_at
     FROM combo_slot_pick($1) k JOIN product_variants v ON v.id = k.variant_id`,
    [slotId],
  );
  return pick ?? null;
}
