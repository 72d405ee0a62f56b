import type { Db } from '../db/db.js';
import type { Principal, RequestMeta } from '../http/principal.js';

/**
 * What the listing tests sell: a device model with sellable stock (in stock, in a located
 * inventory box), a product with a variant of it, a second variant without stock, and a bundle of
 * two of the first, straight into the database.
 */
export type ListingFixture = {
  modelId: number;
  variantSku: string;
  emptySku: string;
  bundleSku: string;
  /** Ids of the in-stock devices, first to last. */
  devices: number[];
};

let next = 0;

export async function seedSellable(db: Db, stock: number): Promise<ListingFixture> {
  next += 1;
  const tag = `${next}${Math.floor(Math.random() * 1e6)}`;
  const one = async (sql: string, params: unknown[] = []) =>
    Number((await db.query<{ id: number }>(sql, params))[0]!.id);
  const brand = await one(`INSERT INTO brands (name) VALUES ($1) RETURNING id`, [`Brand ${tag}`]);
  const modelId = await one(
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
     VALUES ($1, $2, '{}', 'phone', 'android', '5G') RETURNING id`,
    [brand, `Model ${tag}`],
  );
  const zone = await one(
    `INSERT INTO locations (code, kind, active) VALUES ($1, 'zone', true) RETURNING id`,
    [`Z${tag}`],
  );
  const box = await one(
    `INSERT INTO inventory_boxes (model_id, capacity_gb, grade, max_qty, qty, status, location_id,
       sealed_at, located_at)
     VALUES ($1, 128, 'A', 10000, $2, 'located', $3, now(), now()) RETURNING id`,
    [modelId, stock, zone],
  );
  const devices = await db.query<{ id: number }>(
    `INSERT INTO devices (imei, model_id, capacity_gb, grade, status, inventory_box_id)
     SELECT lpad(($1::bigint * 100000 + g)::text, 15, '0'), $2, 128, 'A', 'in_stock', $3
     FROM generate_series(1, $4::int) AS g RETURNING id`,
    [Number(tag) % 1e9, modelId, box, stock],
  );
  const product = await one(
    `INSERT INTO products (name, kind, model_id) VALUES ($1, 'device', $2) RETURNING id`,
    [`Phone ${tag}`, modelId],
  );
  const variantSku = `PH${tag}-128-A`;
  const variant = await one(
    `INSERT INTO product_variants (product_id, sku, capacity_gb, grade) VALUES ($1, $2, 128, 'A')
     RETURNING id`,
    [product, variantSku],
  );
  const emptySku = `PH${tag}-128-B`;
  await db.query(
    `INSERT INTO product_variants (product_id, sku, capacity_gb, grade) VALUES ($1, $2, 128, 'B')`,
    [product, emptySku],
  );
  const bundleSku = `KIT${tag}`;
  const bundle = await one(`INSERT INTO bundles (sku, name) VALUES ($1, $2) RETURNING id`, [
    bundleSku,
    `Pair ${tag}`,
  ]);
  await db.query('INSERT INTO bundle_components (bundle_id, variant_id, qty) VALUES ($1, $2, 2)', [
    bundle,
    variant,
  ]);
  return { modelId, variantSku, emptySku, bundleSku, devices: devices.map((d) => Number(d.id)) };
}

/** An actor for calling the services directly, as the user given. */
export async function actorOf(db: Db, userName: string) {
  const [user] = await db.query<{ id: number }>('SELECT id FROM users WHERE user_name = $1', [
    userName,
  ]);
  const actor: Principal = {
    sessionId: 0,
    userId: Number(user!.id),
    userName,
    name: userName,
    type: 'staff',
    firstLogin: 0,
    roles: [],
    roleIds: [],
    roleKeys: [],
    permissions: [],
    accessVersion: 0,
    dataVersions: null,
  };
  const meta: RequestMeta = { ip: '127.0.0.1', userAgent: null, requestId: 'test' };
  return { actor, meta };
}
