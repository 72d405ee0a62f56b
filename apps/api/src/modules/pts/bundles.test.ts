import type {
  Bundle,
  BundleAvailability,
  Combo,
  ComboAvailability,
  Product,
  Variant,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import { type TestApp } from '../../test/test-app.js';
import { availableStock, pickComboSlotVariant, sellableBySku } from './index.js';

/**
 * Bundles and combos through the API: components and slots, what stock builds or fills, the
 * locks while on sale, SKUs across kinds, and the pick of a combo's slot.
 */

let t: TestApp;
let admin: ApiClient;
/** Variants by SKU end: A-BLACK (3 located), B-BLACK (1 located, sealed earlier), A-BLUE (none). */
let v: Record<'aBlack' | 'bBlack' | 'aBlue', Variant>;

const liveListing = (column: 'bundle_id' | 'combo_id', id: number) =>
  t.db.query(
    `INSERT INTO pts_listings (${column}, channel, qty_pushed, price_cents, status)
     VALUES ($1, 'retailer', 1, 1000, 'live')`,
    [id],
  );

/** An order of a retailer with one line selling the kit, in `status`; its id. */
async function orderOf(column: 'bundle_id' | 'combo_id', id: number, status: string) {
  const [order] = await t.db.query<{ id: number }>(
    `WITH retailer AS (INSERT INTO retailers (name, type) VALUES ('Kit Buyer ' || gen_random_uuid(), 'store')
       RETURNING id),
     placed AS (INSERT INTO orders (source, fulfilment_type, retailer_id, status)
       SELECT 'retailer', 'wholesale', retailer.id, $2 FROM retailer RETURNING id)
     INSERT INTO order_lines (order_id, position, ${column}, sku, description, qty, unit_price_cents)
     SELECT placed.id, 1, $1, 'KIT', 'A kit', 1, 1000 FROM placed RETURNING order_id AS id`,
    [id, status],
  );
  return order!.id;
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  const { catalogue, imeis } = await receiveDevices(t, admin, 4);
  await grade(t, imeis.slice(0, 3), { grade: 'A', colorId: catalogue.colors.black });
  await grade(t, imeis.slice(3), { grade: 'B', colorId: catalogue.colors.black });
  await createBins(t, 'S', 2);
  await boxOf(t, imeis.slice(0, 3), { location: 'S-01', sealedDaysAgo: 2 });
  await boxOf(t, imeis.slice(3), { location: 'S-02', sealedDaysAgo: 9 });
  const product = await dataOf<Product>(
    admin.post('/pts-products', {
      model_id: catalogue.models.a15,
      sku_prefix: 'a15',
      color_ids: [catalogue.colors.black, catalogue.colors.blue],
      grades: ['A', 'B'],
    }),
    201,
  );
  const { items } = await dataOf<{ items: Variant[] }>(
    admin.get(`/pts-variants?product_id=${product.id}`),
  );
  const bySku = (sku: string) => items.find((item) => item.sku === sku)!;
  v = { aBlack: bySku('A15-BLACK-A'), bBlack: bySku('A15-BLACK-B'), aBlue: bySku('A15-BLUE-A') };
});
afterAll(() => t.close());

describe('a bundle', () => {
  let bundle: Bundle;

  it('is made of variants × qty and builds the minimum over its components', async () => {
    bundle = await dataOf<Bundle>(
      admin.post('/pts-bundles', {
        sku: 'kit-two-a15',
        name: 'Two A15s and a B',
        components: [
          { variant_id: v.aBlack.id, qty: 2 },
          { variant_id: v.bBlack.id, qty: 1 },
        ],
      }),
      201,
    );
    expect(bundle).toMatchObject({ sku: 'KIT-TWO-A15', status: 'active', live_listings: 0 });
    expect(bundle.components.map((c) => [c.sku, c.qty, c.label])).toEqual([
      ['A15-BLACK-A', 2, 'Samsung Galaxy A15 · Black A'],
      ['A15-BLACK-B', 1, 'Samsung Galaxy A15 · Black B'],
    ]);
    const [availability] = await dataOf<BundleAvailability[]>(
      admin.post('/pts-bundles/availability', { ids: [bundle.id] }),
    );
    // 3 ÷ 2 = 1 kit by the A units, 1 ÷ 1 by the B unit.
    expect(availability).toEqual({
      bundle_id: bundle.id,
      buildable: 1,
      components: [
        { variant_id: v.aBlack.id, available: 3 },
        { variant_id: v.bBlack.id, available: 1 },
      ],
    });
    expect(await availableStock(t.db, [{ kind: 'bundle', id: bundle.id }])).toEqual(
      new Map([[`bundle:${bundle.id}`, 1]]),
    );
  });

  it('refuses an empty, repeated or unknown component and a SKU another sellable holds', async () => {
    expect(
      await admin.fieldErrors('POST', '/pts-bundles', { sku: 'X1', name: 'X', components: [] }),
    ).toEqual({ components: ['A bundle needs at least one component.'] });
    expect(
      await admin.fieldErrors('POST', '/pts-bundles', {
        sku: 'X1',
        name: 'X',
        components: [
          { variant_id: v.aBlack.id, qty: 1 },
          { variant_id: v.aBlack.id, qty: 1 },
          { variant_id: 999_999, qty: 1 },
        ],
      }),
    ).toEqual({
      'components.1.variant_id': ['A15-BLACK-A is named twice.'],
      'components.2.variant_id': ['There is no variant with id 999999.'],
    });
    expect(
      await admin.fieldErrors('POST', '/pts-bundles', {
        sku: 'a15-black-a',
        name: 'Clash',
        components: [{ variant_id: v.aBlack.id, qty: 1 }],
      }),
    ).toEqual({ sku: ['The SKU A15-BLACK-A is taken by the variant "Samsung Galaxy A15".'] });
  });

  it('keeps its components and stays active while a listing sells it', async () => {
    await liveListing('bundle_id', bundle.id);
    expect(
      await refusalOf(
        admin.put(`/pts-bundles/${bundle.id}`, {
          components: [{ variant_id: v.aBlue.id, qty: 1 }],
        }),
        409,
      ),
    ).toBe(
      'The bundle KIT-TWO-A15 is sold by 1 live listing: its components cannot change while it is on sale. Pause or end the listings first.',
    );
    expect(await refusalOf(admin.post(`/pts-bundles/${bundle.id}/deactivate`), 409)).toMatch(
      /it cannot be deactivated while it is on sale/,
    );
    // The same components again and a new name are no change of the kit.
    const renamed = await dataOf<Bundle>(
      admin.put(`/pts-bundles/${bundle.id}`, {
        name: 'Two A15s plus one',
        components: [
          { variant_id: v.bBlack.id, qty: 1 },
          { variant_id: v.aBlack.id, qty: 2 },
        ],
      }),
    );
    expect(renamed).toMatchObject({ name: 'Two A15s plus one', live_listings: 1 });
    await t.db.query("UPDATE pts_listings SET status = 'ended' WHERE bundle_id = $1", [bundle.id]);
    const changed = await dataOf<Bundle>(
      admin.put(`/pts-bundles/${bundle.id}`, { components: [{ variant_id: v.aBlue.id, qty: 1 }] }),
    );
    expect(changed.components.map((c) => c.sku)).toEqual(['A15-BLUE-A']);
    const off = await dataOf<Bundle>(admin.post(`/pts-bundles/${bundle.id}/deactivate`));
    expect(off.status).toBe('inactive');
    expect(await sellableBySku(t.db, 'KIT-TWO-A15')).toMatchObject({
      kind: 'bundle',
      status: 'inactive',
    });
  });

  it('keeps its components while an open order sells it', async () => {
    const orders = [
      await orderOf('bundle_id', bundle.id, 'pending'),
      await orderOf('bundle_id', bundle.id, 'shipped'),
      await orderOf('bundle_id', bundle.id, 'delivered'),
    ];
    const change = () =>
      admin.put(`/pts-bundles/${bundle.id}`, { components: [{ variant_id: v.aBlack.id, qty: 3 }] });
    expect(await refusalOf(change(), 409)).toBe(
      'The bundle KIT-TWO-A15 is in 2 open orders: its components cannot change until they are shipped or cancelled.',
    );
    await t.db.query("UPDATE orders SET status = 'cancelled' WHERE id = $1", [orders[0]]);
    expect(await refusalOf(change(), 409)).toMatch(/is in 1 open order: .* until it is shipped/);
    await t.db.query("UPDATE orders SET status = 'delivered' WHERE id = $1", [orders[1]]);
    expect((await dataOf<Bundle>(change())).components).toMatchObject([{ qty: 3 }]);
  });

  it('is read and changed only with its permissions', async () => {
    expect((await admin.get('/pts-bundles?search=kit')).statusCode).toBe(200);
    expect((await admin.post('/pts-bundles/999999/deactivate')).statusCode).toBe(404);
  });
});

describe('a combo', () => {
  let combo: Combo;

  it('needs at least one allowed variant in every slot', async () => {
    expect(
      await admin.fieldErrors('POST', '/pts-combos', {
        sku: 'COMBO-1',
        name: 'Any phone',
        slots: [{ name: 'Phone', variant_ids: [] }],
      }),
    ).toEqual({ 'slots.0.variant_ids': ['Every slot needs at least one allowed variant.'] });
    expect(
      await admin.fieldErrors('POST', '/pts-combos', { sku: 'COMBO-1', name: 'Any', slots: [] }),
    ).toEqual({ slots: ['A combo needs at least one slot.'] });
    expect(
      await admin.fieldErrors('POST', '/pts-combos', {
        sku: 'COMBO-1',
        name: 'Twice',
        slots: [
          { name: 'Phone', variant_ids: [v.aBlack.id] },
          { name: 'phone', variant_ids: [v.bBlack.id] },
        ],
      }),
    ).toEqual({ 'slots.1.name': ['Two slots are named "phone".'] });
  });

  it('pools the stock of each slot and fills the minimum over slots of pool ÷ qty', async () => {
    combo = await dataOf<Combo>(
      admin.post('/pts-combos', {
        sku: 'combo-1',
        name: 'Any black A15 and a spare',
        slots: [
          { name: 'Phone', qty: 1, variant_ids: [v.aBlack.id, v.bBlack.id] },
          { name: 'Spare', qty: 2, variant_ids: [v.aBlack.id, v.aBlue.id] },
        ],
      }),
      201,
    );
    expect(combo.slots.map((slot) => [slot.name, slot.qty, slot.variants.length])).toEqual([
      ['Phone', 1, 2],
      ['Spare', 2, 2],
    ]);
    const [availability] = await dataOf<ComboAvailability[]>(
      admin.post('/pts-combos/availability', { ids: [combo.id] }),
    );
    expect(availability).toEqual({
      combo_id: combo.id,
      available: 1,
      slots: [
        { slot_id: combo.slots[0]!.id, pool: 4 },
        { slot_id: combo.slots[1]!.id, pool: 3 },
      ],
    });
  });

  it('fills a slot with the allowed variant whose stock is oldest', async () => {
    // The B unit's box was sealed 9 days ago, the A units' 2 days ago.
    expect(await pickComboSlotVariant(t.db, combo.slots[0]!.id)).toMatchObject({
      variant_id: v.bBlack.id,
      sku: 'A15-BLACK-B',
    });
    expect(await pickComboSlotVariant(t.db, combo.slots[1]!.id)).toMatchObject({
      variant_id: v.aBlack.id,
    });
    await admin.post(`/pts-variants/${v.bBlack.id}/archive`);
    expect(await pickComboSlotVariant(t.db, combo.slots[0]!.id)).toMatchObject({
      variant_id: v.aBlack.id,
    });
    await admin.post(`/pts-variants/${v.bBlack.id}/activate`);
  });

  it('keeps its slots while a listing sells it', async () => {
    await liveListing('combo_id', combo.id);
    expect(
      await refusalOf(
        admin.put(`/pts-combos/${combo.id}`, {
          slots: [{ name: 'Phone', variant_ids: [v.aBlue.id] }],
        }),
        409,
      ),
    ).toMatch(/its slots cannot change while it is on sale/);
    expect(await refusalOf(admin.post(`/pts-combos/${combo.id}/deactivate`), 409)).toMatch(
      /cannot be deactivated/,
    );
    const renamed = await dataOf<Combo>(admin.put(`/pts-combos/${combo.id}`, { name: 'Renamed' }));
    expect(renamed.name).toBe('Renamed');
  });

  it('keeps its slots while an open order sells it', async () => {
    await t.db.query("UPDATE pts_listings SET status = 'ended' WHERE combo_id = $1", [combo.id]);
    const order = await orderOf('combo_id', combo.id, 'cancel_requested');
    const change = () =>
      admin.put(`/pts-combos/${combo.id}`, {
        slots: [{ name: 'Phone', variant_ids: [v.aBlue.id] }],
      });
    expect(await refusalOf(change(), 409)).toMatch(
      /is in 1 open order: its slots cannot change until it is shipped or cancelled/,
    );
    await t.db.query("UPDATE orders SET status = 'closed' WHERE id = $1", [order]);
    expect((await dataOf<Combo>(change())).slots).toHaveLength(1);
  });

  it('refuses a SKU a bundle holds', async () => {
    expect(
      await admin.fieldErrors('PUT', `/pts-combos/${combo.id}`, { sku: 'kit-two-a15' }),
    ).toEqual({ sku: ['The SKU KIT-TWO-A15 is taken by the bundle "Two A15s plus one".'] });
  });
});
