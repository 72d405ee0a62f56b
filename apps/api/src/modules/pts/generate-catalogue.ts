import type { Queryable } from '../../db/db.js';

/** The grades the generated catalogue sells, each a variant of every product. */
const GRADES = ['A', 'B', 'C'] as const;

export type GenerateCatalogueSummary = {
  readonly products: number;
  readonly variants: number;
  readonly listings: number;
};

/**
 * A catalogue for the data generator (npm run db:generate): a device product per model with one
 * variant per grade at the model's capacity (any colour), each listed live on the web channel and,
 * for grade A, on the carrier channel, pushed up to the sellable stock it matches. Set-based; it
 * writes nothing when there are products already.
 */
export async function generateCatalogue(db: Queryable): Promise<GenerateCatalogueSummary> {
  const [existing] = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM (SELECT 1 FROM products LIMIT 1) x',
  );
  if (existing!.n > 0) return { products: 0, variants: 0, listings: 0 };
  await db.query(
    `INSERT INTO products (name, kind, model_id, description)
     SELECT b.name || ' ' || m.name, 'device', m.id, 'Refurbished ' || b.name || ' ' || m.name
     FROM device_models m JOIN brands b ON b.id = m.brand_id
     WHERE NOT EXISTS (SELECT 1 FROM products p WHERE lower(p.name) = lower(b.name || ' ' || m.name))
     ORDER BY m.id`,
  );
  await db.query(
    `INSERT INTO product_variants (product_id, sku, capacity_gb, grade)
     SELECT p.id, 'P' || p.id || '-' || COALESCE(m.storage_gb::text || 'GB', 'ANY') || '-' || g.grade,
       m.storage_gb, g.grade
     FROM products p JOIN device_models m ON m.id = p.model_id
     CROSS JOIN unnest($1::text[]) AS g (grade)
     ORDER BY p.id, g.grade`,
    [GRADES],
  );
  // Web listings of every variant and carrier listings of grade A, pushed up to the stock.
  await db.query(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, floor_price_cents,
       status, starts_at)
     SELECT v.id, c.channel, s.available,
       (CASE v.grade WHEN 'A' THEN 17900 WHEN 'B' THEN 12900 ELSE 8900 END) + (v.id % 40) * 100,
       (CASE v.grade WHEN 'A' THEN 14900 WHEN 'B' THEN 10900 ELSE 6900 END) + (v.id % 40) * 100,
       'live', now() - interval '400 days'
     FROM product_variants v
     JOIN variant_sellable_stock(ARRAY(SELECT id FROM product_variants)) s ON s.variant_id = v.id
     CROSS JOIN (VALUES ('web'), ('carrier')) AS c (channel)
     WHERE c.channel = 'web' OR v.grade = 'A'`,
  );
  const [counts] = await db.query<{ products: number; variants: number; listings: number }>(
    `SELECT (SELECT count(*)::int FROM products) AS products,
       (SELECT count(*)::int FROM product_variants) AS variants,
       (SELECT count(*)::int FROM pts_listings) AS listings`,
  );
  return counts!;
}
