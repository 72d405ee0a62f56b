import type { Product, Variant, VariantAvailability } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiClient,
  createAdminTestApp,
  dataOf,
  refusalOf,
  type ApiClient,
} from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { createRole, createUser, login, type TestApp } from '../../test/test-app.js';
import { availableStock, sellableBySku, sellablesBySku, variantAvailability } from './index.js';

/** Products and variants through the API: made from a model, SKUs, values, stock, archive. */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let imeis: string[];

const create = (body: unknown) => dataOf<Product>(admin.post('/pts-products', body), 201);

const variantsOf = async (productId: number) =>
  (await dataOf<{ items: Variant[] }>(admin.get(`/pts-variants?product_id=${productId}&limit=200`)))
    .items;

/** A live listing of a variant, as the listings area makes one. */
const listLive = (variantId: number) =>
  t.db.query(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     VALUES ($1, 'web', 1, 1000, 'live') RETURNING id`,
    [variantId],
  );

async function clientWith(name: string, permissions: string[]) {
  await createRole(t.db, name, permissions);
  const userName = name.toLowerCase().replace(/\W+/g, '-');
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles: [name] });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 5));
  // Three A-grade black 128 GB units in a located box, one in a box not put away yet, one held.
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'S', 2);
  await boxOf(t, imeis.slice(0, 3), { location: 'S-01' });
  await boxOf(t, imeis.slice(3, 4), { status: 'sealed' });
  await boxOf(t, imeis.slice(4), { location: 'S-02' });
  await t.db.query(
    "UPDATE devices SET status = 'hold', hold_reason = 'blacklist' WHERE imei = $1",
    [imeis[4]],
  );
});
afterAll(() => t.close());

describe('a product made from a model', () => {
  let product: Product;

  it('gets one variant per colour × capacity × grade, with readable SKUs', async () => {
    await t.db.exec(
      `INSERT INTO tags (name, scope) VALUES ('Summer', '{product}'), ('Kits', '{bundle}');
       INSERT INTO properties (name, data_type, enum_values, applies_to)
       VALUES ('Screen', 'decimal', '{}', '{product}'), ('Box', 'enum', '{sealed,open}', '{variant}')`,
    );
    const [summer] = await t.db.query<{ id: number }>("SELECT id FROM tags WHERE name = 'Summer'");
    const [screen] = await t.db.query<{ id: number }>(
      "SELECT id FROM properties WHERE name = 'Screen'",
    );
    product = await create({
      model_id: catalogue.models.a15,
      color_ids: [catalogue.colors.black, catalogue.colors.blue],
      capacities_gb: [128],
      grades: ['A', 'A+'],
      tag_ids: [summer!.id],
      properties: [{ property_id: screen!.id, value: 6.5 }],
    });
    expect(product).toMatchObject({
      name: 'Samsung Galaxy A15',
      model: 'Samsung Galaxy A15',
      status: 'active',
      variant_count: 4,
      tags: [{ name: 'Summer' }],
      properties: [{ name: 'Screen', data_type: 'decimal', value: 6.5 }],
    });
    const variants = await variantsOf(product.id);
    expect(variants.map((variant) => variant.sku)).toEqual([
      'SAMSUNG-GALAXY-A15-128GB-BLACK-A',
      'SAMSUNG-GALAXY-A15-128GB-BLACK-APLUS',
      'SAMSUNG-GALAXY-A15-128GB-BLUE-A',
      'SAMSUNG-GALAXY-A15-128GB-BLUE-APLUS',
    ]);
  });

  it('counts the matching sellable stock of a page of variants in one call', async () => {
    const variants = await variantsOf(product.id);
    const stock = await dataOf<VariantAvailability[]>(
      admin.post('/pts-variants/availability', { ids: variants.map((variant) => variant.id) }),
    );
    // Located, in stock and not held: the sealed box and the held unit do not count.
    expect(stock.map((row) => row.available)).toEqual([3, 0, 0, 0]);
    const black = variants[0]!;
    expect(await variantAvailability(t.db, [black.id, 999_999])).toEqual(
      new Map([
        [black.id, 3],
        [999_999, 0],
      ]),
    );
    expect(await sellableBySku(t.db, ' samsung-galaxy-a15-128gb-black-a ')).toMatchObject({
      kind: 'variant',
      id: black.id,
      name: 'Samsung Galaxy A15 · 128 GB Black A',
      status: 'active',
    });
    expect((await sellablesBySku(t.db, ['NOPE'])).size).toBe(0);
    expect(await availableStock(t.db, [{ kind: 'variant', id: black.id }])).toEqual(
      new Map([[`variant:${black.id}`, 3]]),
    );
  });

  it('refuses a SKU that another sellable holds, and choices past the limit', async () => {
    expect(
      await admin.fieldErrors('POST', '/pts-products', {
        model_id: catalogue.models.a15,
        name: 'A15 again',
        capacities_gb: [128],
        color_ids: [catalogue.colors.black],
        grades: ['A'],
      }),
    ).toEqual({
      sku_prefix: [
        'The SKU SAMSUNG-GALAXY-A15-128GB-BLACK-A is taken by the variant "Samsung Galaxy A15".',
      ],
    });
    expect(
      await admin.fieldErrors('POST', '/pts-products', {
        model_id: catalogue.models.a15,
        name: 'Too many',
        capacities_gb: Array.from({ length: 20 }, (_, n) => n + 1),
        color_ids: [catalogue.colors.black, catalogue.colors.blue],
        grades: ['New', 'A+', 'A', 'B', 'C', 'D', 'F'],
        carrier_locks: ['unlocked', 'T-Mobile'],
      }),
    ).toEqual({ variants: ['These choices make 560 variants; at most 500 at once.'] });
    expect(
      await admin.fieldErrors('POST', '/pts-products', {
        model_id: catalogue.models.a15,
        sku_prefix: 'bad prefix!',
      }),
    ).toEqual({
      sku_prefix: ['A SKU prefix is 1 to 40 letters, digits, dots, dashes or underscores.'],
    });
    // Nothing of a refused creation is kept.
    const [count] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM products');
    expect(count!.n).toBe(1);
  });

  it('checks tags and property values against their definitions', async () => {
    const [kits] = await t.db.query<{ id: number }>("SELECT id FROM tags WHERE name = 'Kits'");
    const properties = await t.db.query<{ id: number; name: string }>(
      'SELECT id, name FROM properties ORDER BY name',
    );
    const [box, screen] = properties;
    expect(
      await admin.fieldErrors('PUT', `/pts-products/${product.id}`, {
        tag_ids: [kits!.id],
        properties: [
          { property_id: screen!.id, value: 'large' },
          { property_id: box!.id, value: 'sealed' },
        ],
      }),
    ).toEqual({ 'tag_ids.0': ['The tag "Kits" is not for products.'] });
    expect(
      await admin.fieldErrors('PUT', `/pts-products/${product.id}`, {
        properties: [
          { property_id: screen!.id, value: 'large' },
          { property_id: box!.id, value: 'sealed' },
        ],
      }),
    ).toEqual({
      'properties.0.value': ['"Screen" takes a number.'],
      'properties.1.property_id': ['The property "Box" is not for products.'],
    });
    const [variant] = await variantsOf(product.id);
    expect(
      await admin.fieldErrors('PUT', `/pts-variants/${variant!.id}`, {
        properties: [{ property_id: box!.id, value: 'torn' }],
      }),
    ).toEqual({ 'properties.0.value': ['"Box" takes one of: sealed, open.'] });
    const edited = await dataOf<Variant>(
      admin.put(`/pts-variants/${variant!.id}`, {
        barcode: '0123456789',
        properties: [{ property_id: box!.id, value: 'sealed' }],
      }),
    );
    expect(edited).toMatchObject({ barcode: '0123456789', properties: [{ value: 'sealed' }] });
  });

  it('adds a variant, refusing a cut it has and a SKU taken', async () => {
    const added = await dataOf<Variant>(
      admin.post(`/pts-products/${product.id}/variants`, {
        grade: 'B',
        capacity_gb: 128,
        carrier_lock: 'T-Mobile',
      }),
      201,
    );
    expect(added).toMatchObject({ sku: 'SAMSUNG-GALAXY-A15-128GB-B-T-MOBILE', color: null });
    expect(
      await admin.fieldErrors('POST', `/pts-products/${product.id}/variants`, {
        grade: 'B',
        capacity_gb: 128,
        carrier_lock: 'T-Mobile',
        sku: 'OTHER-SKU',
      }),
    ).toEqual({ cut: ['This product has a variant of this cut already.'] });
    expect(
      await admin.fieldErrors('POST', `/pts-products/${product.id}/variants`, {
        grade: 'C',
        sku: added.sku.toLowerCase(),
      }),
    ).toEqual({
      sku: [`The SKU ${added.sku} is taken by the variant "Samsung Galaxy A15".`],
    });
  });

  it('archives a variant or the product only while nothing of it is on sale', async () => {
    const variants = await variantsOf(product.id);
    const black = variants.find((variant) => variant.sku === 'SAMSUNG-GALAXY-A15-128GB-BLACK-A');
    const second = variants.find((variant) => variant.sku === 'SAMSUNG-GALAXY-A15-128GB-BLUE-A');
    const [listing] = await listLive(black!.id);
    expect(await refusalOf(admin.post(`/pts-variants/${black!.id}/archive`), 409)).toBe(
      'The variant SAMSUNG-GALAXY-A15-128GB-BLACK-A is sold by 1 live listing: it cannot be archived while it is on sale. Pause or end the listings first.',
    );
    expect(await refusalOf(admin.post(`/pts-products/${product.id}/archive`), 409)).toMatch(
      /"Samsung Galaxy A15" is sold by 1 live listing/,
    );
    const archivedVariant = await dataOf<Variant>(
      admin.post(`/pts-variants/${second!.id}/archive`),
    );
    expect(archivedVariant.status).toBe('archived');
    await t.db.query("UPDATE pts_listings SET status = 'ended' WHERE id = $1", [listing!.id]);
    const archived = await dataOf<Product>(admin.post(`/pts-products/${product.id}/archive`));
    expect(archived.status).toBe('archived');
    expect(await refusalOf(admin.post(`/pts-variants/${second!.id}/activate`), 409)).toBe(
      '"Samsung Galaxy A15" is archived: activate the product first.',
    );
    expect(await sellableBySku(t.db, black!.sku)).toMatchObject({ status: 'archived' });
    expect((await dataOf<Product>(admin.post(`/pts-products/${product.id}/activate`))).status).toBe(
      'active',
    );
    const actions = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'product' AND entity_id = $1 ORDER BY id",
      [String(product.id)],
    );
    expect(actions.map((row) => row.action)).toEqual([
      'product.created',
      'product.variant_added',
      'product.archived',
      'product.activated',
    ]);
  });

  it('lists, filters, searches and counts products', async () => {
    const page = await dataOf<{ items: Product[] }>(admin.get('/pts-products?search=BLUE-APLUS'));
    expect(page.items.map((item) => item.id)).toEqual([product.id]);
    const none = await dataOf<{ items: Product[] }>(admin.get('/pts-products?status=archived'));
    expect(none.items).toEqual([]);
    expect(await dataOf(admin.get('/pts-products/count'))).toEqual({ total: 1, capped: false });
  });
});

describe('access', () => {
  it('lets a reader list and count stock but not change the catalogue; others neither', async () => {
    const reader = await clientWith('Catalogue reader', ['pts-product.view-list']);
    expect((await reader.get('/pts-products')).statusCode).toBe(200);
    expect((await reader.post('/pts-variants/availability', { ids: [1] })).statusCode).toBe(200);
    expect(
      (await reader.post('/pts-products', { model_id: catalogue.models.moto })).statusCode,
    ).toBe(403);
    expect((await reader.post('/pts-products/1/archive')).statusCode).toBe(403);
    const stranger = await clientWith('Bundle reader', ['pts-bundle.view-list']);
    expect((await stranger.get('/pts-products')).statusCode).toBe(403);
    expect((await stranger.post('/pts-variants/availability', { ids: [1] })).statusCode).toBe(403);
  });

  it('answers 404 for a product or variant that does not exist, 422 for a bad body', async () => {
    expect((await admin.post('/pts-products/999999/archive')).statusCode).toBe(404);
    expect((await admin.post('/pts-variants/999999/archive')).statusCode).toBe(404);
    expect(await admin.fieldErrors('POST', '/pts-variants/availability', { ids: [] })).toEqual({
      ids: ['Name at least one row.'],
    });
    expect(await admin.fieldErrors('POST', '/pts-products', { model_id: 999_999 })).toEqual({
      model_id: ['There is no model with id 999999.'],
    });
  });
});
