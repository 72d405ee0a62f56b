import type { Db } from '../db/db.js';
import { apiClient, type ApiClient } from './api-client.js';
import { createUser, login, type TestApp } from './test-app.js';

/**
 * What the web order tests buy and who buys it: a variant with sellable stock (in stock, in a
 * located box) and a live listing of it, and retailers with a shipping address and their buyers.
 */

let next = 0;

const one = async (db: Db, sql: string, params: unknown[] = []) =>
  (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;

export type ShopFixture = { variantId: number; sku: string; listingId: number };

/** A variant with `stock` sellable devices and a live listing of `pushed` units at `priceCents`. */
export async function seedListing(
  db: Db,
  options: { stock: number; pushed: number; priceCents: number; channel?: string },
): Promise<ShopFixture> {
  next += 1;
  const tag = `${next}${Math.floor(Math.random() * 1e6)}`;
  const brand = await one(db, 'INSERT INTO brands (name) VALUES ($1)', [`Brand ${tag}`]);
  const model = await one(
    db,
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
     VALUES ($1, $2, '{}', 'phone', 'android', '5G')`,
    [brand, `Model ${tag}`],
  );
  const zone = await one(
    db,
    `INSERT INTO locations (code, kind, active) VALUES ($1, 'zone', true)`,
    [`W${tag}`],
  );
  const box = await one(
    db,
    `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id, sealed_at)
     VALUES ($1, 'A', 10000, $2, 'located', $3, now())`,
    [model, options.stock, zone],
  );
  await db.query(
    `INSERT INTO devices (imei, model_id, grade, status, inventory_box_id)
     SELECT lpad(($1::bigint * 100000 + g)::text, 15, '0'), $2, 'A', 'in_stock', $3
     FROM generate_series(1, $4::int) AS g`,
    [Number(tag) % 1e9, model, box, options.stock],
  );
  const product = await one(
    db,
    `INSERT INTO products (name, kind, model_id) VALUES ($1, 'device', $2)`,
    [`Phone ${tag}`, model],
  );
  const sku = `WEB${tag}-A`;
  const variantId = await one(
    db,
    `INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, $2, 'A')`,
    [product, sku],
  );
  const listingId = await one(
    db,
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     VALUES ($1, $2, $3, $4, 'live')`,
    [variantId, options.channel ?? 'retailer', options.pushed, options.priceCents],
  );
  return { variantId, sku, listingId };
}

/** A retailer on net 30 with a default shipping address in Texas. */
export async function seedRetailer(
  db: Db,
  options: { creditLimitCents?: number; terms?: string; priceTier?: string } = {},
): Promise<number> {
  next += 1;
  const terms = options.terms ?? 'net30';
  const retailerId = await one(
    db,
    `INSERT INTO retailers (name, type, credit_terms, credit_limit_cents, price_tier)
     VALUES ($1, 'store', $2, $3, $4)`,
    [
      `Corner Phones ${next}${Math.floor(Math.random() * 1e6)}`,
      terms,
      terms === 'prepaid' ? 0 : (options.creditLimitCents ?? 10_000_000),
      options.priceTier ?? 'standard',
    ],
  );
  await db.query(
    `INSERT INTO retailer_addresses (retailer_id, kind, line1, city, state, zip, is_default)
     VALUES ($1, 'shipping', '100 MAIN ST', 'HOUSTON', 'TX', '77002', true)`,
    [retailerId],
  );
  return retailerId;
}

/** A buyer of the retailer: a portal user (staff, no roles), or an agent holding the Agent role. */
export async function buyerOf(
  t: TestApp,
  retailerId: number,
  userName: string,
  type: 'staff' | 'agent' = 'staff',
): Promise<ApiClient> {
  const password = `${userName}-password-1`;
  const userId = await createUser(t.db, {
    userName,
    password,
    type,
    roles: type === 'agent' ? ['Agent'] : [],
  });
  await t.db.query('INSERT INTO retailer_portal_users (user_id, retailer_id) VALUES ($1, $2)', [
    userId,
    retailerId,
  ]);
  return apiClient(t, await login(t.app, userName, password));
}
