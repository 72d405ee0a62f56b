import type { Db } from '../../db/db.js';
import { one, type Shop } from './fulfilment.test-support.js';

/** What the substitution and support order tests share besides the fulfilment shop. */

let serial = 0;

/**
 * Another variant of the shop's phone (red, grade A unless said) listed on the carrier channel at
 * a price: the substitute the tests offer for the shop's black one.
 */
export async function substituteVariant(
  db: Db,
  shop: Shop,
  { priceCents = 0, grade = 'A' }: { priceCents?: number; grade?: string } = {},
): Promise<{ id: number; sku: string }> {
  serial += 1;
  const [product] = await db.query<{ product_id: number }>(
    'SELECT product_id::int AS product_id FROM product_variants WHERE id = $1',
    [shop.variantId],
  );
  const sku = `SUB-${shop.modelId}-${serial}`;
  const id = await one(
    db,
    `INSERT INTO product_variants (product_id, sku, grade, color_id) VALUES ($1, $2, $3, $4)`,
    [product!.product_id, sku, grade, shop.redId],
  );
  await db.query(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status, allow_backorder)
     VALUES ($1, 'carrier', 1000, $2, 'live', true)`,
    [id, priceCents],
  );
  return { id, sku };
}

/** The shop's carrier's Lifeline rule (same OS, storage and grade at least, any variant). */
export const lifelineRule = (db: Db, shop: Shop, { notifyClient = false } = {}) =>
  one(
    db,
    `INSERT INTO substitution_rules (client_carrier_id, program, notify_client)
     VALUES ($1, 'lifeline', $2)`,
    [shop.carrierId, notifyClient],
  );

/** A role with the given permissions, for the grants no default role holds. */
export async function roleWith(db: Db, name: string, permissions: string[]): Promise<void> {
  const role = await one(db, 'INSERT INTO roles (name) VALUES ($1)', [name]);
  await db.query(
    `INSERT INTO role_permissions (role_id, permission_id)
     SELECT $1, id FROM permissions WHERE name = ANY ($2::text[])`,
    [role, permissions],
  );
}
