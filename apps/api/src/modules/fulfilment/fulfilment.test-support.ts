import { luhnCheckDigit, type OrderCreated, type SupportOrderInput } from '@inventory/contract';
import type { Db } from '../../db/db.js';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';

/** What the fulfilment tests share: a catalogue with stock in located boxes, SIMs, people. */

let serial = 0;
/** A fresh valid IMEI of the test TAC. */
export function nextImei(): string {
  serial += 1;
  const payload = `3591000${String(serial).padStart(7, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

let simSerial = 0;
/** A fresh valid ICCID. */
export function nextIccid(): string {
  simSerial += 1;
  const payload = `890141${String(simSerial).padStart(12, '0')}`;
  return `${payload}${luhnCheckDigit(payload)}`;
}

export const one = async (db: Db, sql: string, params: unknown[] = []) =>
  (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;

export type Shop = {
  modelId: number;
  /** Grade A black, the variant orders are for. */
  variantId: number;
  listingId: number;
  /** A charger sold in a bundle with the phone. */
  bundleListingId: number;
  blackId: number;
  redId: number;
  binId: number;
  carrierId: number;
  otherCarrierId: number;
};

let shopNumber = 0;
/** A model sold as a grade A variant (and in a bundle with a charger), two carriers, a bin. */
export async function seedShop(db: Db): Promise<Shop> {
  shopNumber += 1;
  const n = shopNumber;
  const brand = await one(db, 'INSERT INTO brands (name) VALUES ($1)', [`Brand ${n}`]);
  const modelId = await one(
    db,
    `INSERT INTO device_models (brand_id, name, device_type, os, network)
     VALUES ($1, $2, 'phone', 'android', '4G')`,
    [brand, `Phone ${n}`],
  );
  const blackId = await one(db, 'INSERT INTO colors (name) VALUES ($1)', [`Black ${n}`]);
  const redId = await one(db, 'INSERT INTO colors (name) VALUES ($1)', [`Red ${n}`]);
  const product = await one(
    db,
    "INSERT INTO products (name, kind, model_id) VALUES ($1, 'device', $2)",
    [`Phone ${n}`, modelId],
  );
  const variantId = await one(
    db,
    "INSERT INTO product_variants (product_id, sku, grade, color_id) VALUES ($1, $2, 'A', $3)",
    [product, `PHONE-${n}-BLK-A`, blackId],
  );
  const charger = await one(db, "INSERT INTO products (name, kind) VALUES ($1, 'accessory')", [
    `Charger ${n}`,
  ]);
  const chargerVariant = await one(
    db,
    'INSERT INTO product_variants (product_id, sku) VALUES ($1, $2)',
    [charger, `CHARGER-${n}`],
  );
  const bundle = await one(db, 'INSERT INTO bundles (sku, name) VALUES ($1, $2)', [
    `KIT-${n}`,
    `Phone ${n} kit`,
  ]);
  await db.query(
    `INSERT INTO bundle_components (bundle_id, variant_id, qty) VALUES ($1, $2, 1), ($1, $3, 1)`,
    [bundle, variantId, chargerVariant],
  );
  const zone = await one(
    db,
    "INSERT INTO locations (code, kind, active) VALUES ($1, 'zone', true)",
    [`Z${n}`],
  );
  const binId = await one(
    db,
    "INSERT INTO locations (code, kind, parent_id, active) VALUES ($1, 'bin', $2, true)",
    [`Z${n}-1`, zone],
  );
  const carrierId = await one(
    db,
    "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client')",
    [`Carrier ${n}`],
  );
  const otherCarrierId = await one(
    db,
    "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client')",
    [`Other carrier ${n}`],
  );
  const listingId = await one(
    db,
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status, allow_backorder)
     VALUES ($1, 'carrier', 10000, 0, 'live', true)`,
    [variantId],
  );
  const bundleListingId = await one(
    db,
    `INSERT INTO pts_listings (bundle_id, channel, qty_pushed, price_cents, status, allow_backorder)
     VALUES ($1, 'carrier', 10000, 0, 'live', true)`,
    [bundle],
  );
  return {
    modelId,
    variantId,
    listingId,
    bundleListingId,
    blackId,
    redId,
    binId,
    carrierId,
    otherCarrierId,
  };
}

/**
 * A located box of the shop's model with `count` devices in stock (grade A, black unless said),
 * sealed `sealedDaysAgo` days ago. Answers the box id and the devices' IMEIs.
 */
export async function seedBox(
  db: Db,
  shop: Shop,
  count: number,
  { sealedDaysAgo = 1, colorId = shop.blackId }: { sealedDaysAgo?: number; colorId?: number } = {},
): Promise<{ boxId: number; imeis: string[] }> {
  const boxId = await one(
    db,
    `INSERT INTO inventory_boxes (model_id, color_id, grade, max_qty, qty, status, location_id,
       sealed_at, located_at)
     VALUES ($1, $2, 'A', 50, $3, 'located', $4, now() - make_interval(days => $5), now())`,
    [shop.modelId, colorId, count, shop.binId, sealedDaysAgo],
  );
  const imeis = Array.from({ length: count }, nextImei);
  await db.query(
    `INSERT INTO devices (imei, tac, model_id, grade, color_id, status, inventory_box_id)
     SELECT imei, left(imei, 8), $1, 'A', $2, 'in_stock', $3 FROM unnest($4::text[]) AS imei`,
    [shop.modelId, colorId, boxId, imeis],
  );
  return { boxId, imeis };
}

/** In-stock SIMs of a carrier in a box of their own. */
export async function seedSims(db: Db, carrierId: number, count: number): Promise<string[]> {
  const iccids = Array.from({ length: count }, nextIccid);
  const box = await one(
    db,
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
       qty, qty_available)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, false, $2, $3, $4, $4)`,
    [carrierId, iccids[0], iccids.at(-1), count],
  );
  await db.query(
    `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id, status)
     SELECT iccid, $2, $3, 'in_stock' FROM unnest($1::text[]) AS s (iccid)`,
    [iccids, carrierId, box],
  );
  return iccids;
}

export async function signedIn(
  t: TestApp,
  userName: string,
  roles: string[],
): Promise<{ id: number; name: string; client: ApiClient }> {
  const password = `${userName}-password-1`;
  const id = await createUser(t.db, { userName, password, roles });
  const [user] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [id]);
  return { id, name: user!.name, client: apiClient(t, await login(t.app, userName, password)) };
}

/**
 * The people of an assignment race, named `<prefix>.…`: customer support placing the orders, and
 * four fulfilment managers each assigning a batch to their own worker.
 */
export async function assignmentTeam(t: TestApp, prefix: string) {
  const support = (await signedIn(t, `${prefix}.cs`, ['Customer Support', 'Fulfilment Manager']))
    .client;
  const leaders: ApiClient[] = [];
  const workers: number[] = [];
  for (let n = 0; n < 4; n += 1) {
    leaders.push((await signedIn(t, `${prefix}.fm.${n}`, ['Fulfilment Manager'])).client);
    workers.push((await signedIn(t, `${prefix}.fw.${n}`, ['Fulfilment Worker'])).id);
  }
  return { support, leaders, workers };
}

let enrolment = 0;
/** A support order of the shop (a Lifeline subscriber: its units ship with a SIM kit). */
export async function placeOrder(
  client: ApiClient,
  shop: Shop,
  overrides: Partial<SupportOrderInput> = {},
): Promise<OrderCreated> {
  enrolment += 1;
  return dataOf<OrderCreated>(
    client.post('/orders', {
      client_carrier_id: shop.carrierId,
      program: 'lifeline',
      fulfilment_type: 'new_lifeline',
      external_id: `FUL-${enrolment}`,
      first_name: 'Pat',
      last_name: 'Subscriber',
      service_address: {
        line1: `${enrolment} Main St`,
        city: 'Houston',
        state: 'TX',
        zip: '77002',
      },
      lines: [{ listing_id: shop.listingId, qty: 1 }],
      ...overrides,
    } satisfies SupportOrderInput),
    201,
  );
}
