import type { OrderDetail, ShopCatalogue, WebOrder, WebOrderPlaced } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createRole, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { buyerOf, seedListing, seedRetailer } from '../../test/web-order-fixtures.js';
import { expireWebOrders } from './web-orders.service.js';

/**
 * Web orders: the shop each kind of buyer sees, checkout's refusals and what it holds, approval's
 * checks (listing, stock, credit), rejection and the expiry sweep giving the units back.
 */

let t: TestApp;
let sales: ApiClient;
let viewer: ApiClient;

async function staff(userName: string, permissions: string[]) {
  await createRole(t.db, `role of ${userName}`, permissions);
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, roles: [`role of ${userName}`] });
  return apiClient(t, await login(t.app, userName, password));
}

const listing = async (id: number) =>
  (
    await t.db.query<{ qty_reserved: number; status: string }>(
      'SELECT qty_reserved, status FROM pts_listings WHERE id = $1',
      [id],
    )
  )[0]!;

const queue = async () => dataOf<{ orders: WebOrder[]; total: number }>(sales.get('/web-orders'));

beforeAll(async () => {
  t = await createTestApp();
  sales = await staff('sales', ['web-order.view-list', 'order.management']);
  viewer = await staff('viewer', ['web-order.view-list']);
});
afterAll(() => t.close());

describe('the shop', () => {
  it("shows a portal user the retailer channel's live listings for their tier, capped by stock", async () => {
    const retailerId = await seedRetailer(t.db, { priceTier: 'gold' });
    const buyer = await buyerOf(t, retailerId, 'shop.buyer');
    const plenty = await seedListing(t.db, { stock: 3, pushed: 10, priceCents: 12_500 });
    const web = await seedListing(t.db, { stock: 3, pushed: 10, priceCents: 100, channel: 'web' });
    const silver = await seedListing(t.db, { stock: 3, pushed: 10, priceCents: 100 });
    await t.db.query(`UPDATE pts_listings SET visibility = '{silver}' WHERE id = $1`, [
      silver.listingId,
    ]);
    const shop = await dataOf<ShopCatalogue>(buyer.get('/web-orders/catalogue'));
    expect(shop.customer).toMatchObject({ retailer_id: retailerId, channel: 'retailer' });
    const ids = shop.items.map((item) => item.listing_id);
    expect(ids).toContain(plenty.listingId);
    expect(ids).not.toContain(web.listingId);
    expect(ids).not.toContain(silver.listingId);
    expect(shop.items.find((item) => item.listing_id === plenty.listingId)).toMatchObject({
      type: 'product',
      variant_id: plenty.variantId,
      sku: plenty.sku,
      unit_price_cents: 12_500,
      available: 3,
    });
  });

  it('shows a linked agent the web channel, and anyone else no customer', async () => {
    const retailerId = await seedRetailer(t.db);
    const agent = await buyerOf(t, retailerId, 'field.agent', 'agent');
    const web = await seedListing(t.db, { stock: 2, pushed: 10, priceCents: 100, channel: 'web' });
    const shop = await dataOf<ShopCatalogue>(agent.get('/web-orders/catalogue'));
    expect(shop.customer?.channel).toBe('web');
    expect(shop.items.map((item) => item.listing_id)).toContain(web.listingId);
    expect(await dataOf<ShopCatalogue>(sales.get('/web-orders/catalogue'))).toEqual({
      customer: null,
      items: [],
    });
    expect(
      await refusalOf(
        sales.post('/web-orders', {
          items: [{ id: web.listingId, type: 'product', quantity: 1 }],
        }),
        403,
      ),
    ).toMatch(/portal users and agents/);
  });
});

describe('checkout', () => {
  it('makes one pending web order at the listing price, holding its units', async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await buyerOf(t, retailerId, 'checkout.buyer');
    const fixture = await seedListing(t.db, { stock: 5, pushed: 5, priceCents: 9_900 });
    const placed = await dataOf<WebOrderPlaced>(
      buyer.post('/web-orders', {
        items: [
          {
            id: fixture.listingId,
            type: 'product',
            quantity: 2,
            variant_id: fixture.variantId,
            unit_price_cents: 9_900,
          },
        ],
      }),
      201,
    );
    expect(placed).toMatchObject({ status: 'pending', total_cents: 19_800 });
    expect(placed.lines).toEqual([
      expect.objectContaining({ sku: fixture.sku, qty: 2, unit_price_cents: 9_900 }),
    ]);
    const hours = (Date.parse(placed.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    expect((await listing(fixture.listingId)).qty_reserved).toBe(2);
    const detail = await dataOf<OrderDetail>(sales.get(`/orders/${placed.id}/detail`));
    expect(detail).toMatchObject({
      source: 'web',
      fulfilment_type: 'wholesale',
      retailer_id: retailerId,
      status: 'pending',
    });
    expect(detail.lines[0]).toMatchObject({ qty: 2, qty_reserved: 2, unit_price_cents: 9_900 });
    const [row] = (await queue()).orders.filter((order) => order.id === placed.id);
    expect(row).toMatchObject({
      number: placed.number,
      credit_decision: 'within_limit',
      available: true,
      placed_by: 'Name of checkout.buyer',
      channel: 'retailer',
    });
    expect(row!.lines[0]).toMatchObject({ qty: 2, listing_left: 3, in_stock: 5 });
  });

  it('refuses a changed price, a sold-out listing, too little stock and what is not in the shop', async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await buyerOf(t, retailerId, 'refused.buyer');
    const fixture = await seedListing(t.db, { stock: 2, pushed: 5, priceCents: 1_000 });
    const item = { id: fixture.listingId, type: 'product', quantity: 1 };
    expect(
      await refusalOf(
        buyer.post('/web-orders', { items: [{ ...item, unit_price_cents: 900 }] }),
        409,
      ),
    ).toMatch(/price of .* changed from \$9\.00 to \$10\.00/);
    expect(
      await refusalOf(buyer.post('/web-orders', { items: [{ ...item, quantity: 3 }] }), 409),
    ).toMatch(/only 2 can be bought now, not 3/);
    expect(
      await buyer.fieldErrors('POST', '/web-orders', { items: [{ ...item, type: 'bundle' }] }),
    ).toEqual({ 'items.0': [`Item ${fixture.sku} is a product.`] });
    const web = await seedListing(t.db, { stock: 2, pushed: 5, priceCents: 1, channel: 'web' });
    expect(
      await buyer.fieldErrors('POST', '/web-orders', {
        items: [{ id: web.listingId, type: 'product', quantity: 1 }],
      }),
    ).toEqual({ 'items.0': ['This item is not sold in your shop.'] });
    expect(await buyer.fieldErrors('POST', '/web-orders', { items: [item, item] })).toEqual({
      'items.1': ['This item is in the cart twice.'],
    });
    await t.db.query(`UPDATE pts_listings SET qty_reserved = 5 WHERE id = $1`, [fixture.listingId]);
    expect(await refusalOf(buyer.post('/web-orders', { items: [item] }), 409)).toMatch(
      /is sold out/,
    );
    expect(
      Number(
        (
          await t.db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM orders WHERE retailer_id = $1',
            [retailerId],
          )
        )[0]!.n,
      ),
    ).toBe(0);
  });

  it('refuses an order past the credit limit', async () => {
    const retailerId = await seedRetailer(t.db, { creditLimitCents: 5_000 });
    const buyer = await buyerOf(t, retailerId, 'credit.buyer');
    const fixture = await seedListing(t.db, { stock: 5, pushed: 5, priceCents: 3_000 });
    const item = { id: fixture.listingId, type: 'product', quantity: 1 };
    await dataOf(buyer.post('/web-orders', { items: [item] }), 201);
    expect(await refusalOf(buyer.post('/web-orders', { items: [item] }), 409)).toMatch(
      /would owe \$60\.00 against a credit limit of \$50\.00/,
    );
  });
});

describe('approval', () => {
  it('approves to ready after the checks; a viewer may not', async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await buyerOf(t, retailerId, 'approve.buyer');
    const fixture = await seedListing(t.db, { stock: 3, pushed: 3, priceCents: 500 });
    const placed = await dataOf<WebOrderPlaced>(
      buyer.post('/web-orders', {
        items: [{ id: fixture.listingId, type: 'product', quantity: 3 }],
      }),
      201,
    );
    await refusalOf(viewer.post(`/web-orders/${placed.id}/approval`, {}), 403);
    const shipped = await dataOf<OrderDetail>(
      sales.put(`/web-orders/${placed.id}/ship-method`, { ship_method: 'freight' }),
    );
    expect(shipped.ship_method).toBe('freight');
    const approved = await dataOf<OrderDetail>(sales.post(`/web-orders/${placed.id}/approval`, {}));
    expect(approved.status).toBe('ready');
    expect(approved.approved_at).not.toBeNull();
    expect(approved.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['received', 'awaiting_approval', 'ship_method_changed', 'validated']),
    );
    expect((await queue()).orders.map((order) => order.id)).not.toContain(placed.id);
    expect(await refusalOf(sales.post(`/web-orders/${placed.id}/approval`, {}), 409)).toMatch(
      /is ready, no longer awaiting approval/,
    );
    expect((await listing(fixture.listingId)).qty_reserved).toBe(3);
  });

  it('refuses while the stock is short or the credit limit is passed, and the order stays pending', async () => {
    const retailerId = await seedRetailer(t.db, { creditLimitCents: 100_000 });
    const buyer = await buyerOf(t, retailerId, 'short.buyer');
    const fixture = await seedListing(t.db, { stock: 2, pushed: 5, priceCents: 10_000 });
    const placed = await dataOf<WebOrderPlaced>(
      buyer.post('/web-orders', {
        items: [{ id: fixture.listingId, type: 'product', quantity: 2 }],
      }),
      201,
    );
    await t.db.query(
      `UPDATE devices SET status = 'scrapped' WHERE id = (
         SELECT d.id FROM devices d JOIN product_variants v ON v.id = $1
         JOIN products p ON p.id = v.product_id WHERE d.model_id = p.model_id LIMIT 1)`,
      [fixture.variantId],
    );
    await t.db.query('UPDATE retailers SET credit_limit_cents = 10000 WHERE id = $1', [retailerId]);
    const [row] = (await queue()).orders.filter((order) => order.id === placed.id);
    expect(row).toMatchObject({ available: false, credit_decision: 'over_limit' });
    const refusal = await refusalOf(sales.post(`/web-orders/${placed.id}/approval`, {}), 409);
    expect(refusal).toMatch(/cannot be approved/);
    expect(refusal).toMatch(/1 in stock, 2 needed/);
    expect(refusal).toMatch(/credit limit of \$100\.00/);
    const detail = await dataOf<OrderDetail>(sales.get(`/orders/${placed.id}/detail`));
    expect(detail.status).toBe('pending');
  });

  it('rejects with a reason, giving the units back', async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await buyerOf(t, retailerId, 'reject.buyer');
    const fixture = await seedListing(t.db, { stock: 4, pushed: 4, priceCents: 500 });
    const placed = await dataOf<WebOrderPlaced>(
      buyer.post('/web-orders', {
        items: [{ id: fixture.listingId, type: 'product', quantity: 4 }],
      }),
      201,
    );
    expect((await listing(fixture.listingId)).qty_reserved).toBe(4);
    expect(
      await sales.fieldErrors('POST', `/web-orders/${placed.id}/rejection`, { reason: ' ' }),
    ).toEqual({ reason: ['Say why the order is rejected.'] });
    const rejected = await dataOf<OrderDetail>(
      sales.post(`/web-orders/${placed.id}/rejection`, { reason: 'Duplicate of a phone order' }),
    );
    expect(rejected.status).toBe('cancelled');
    expect(rejected.lines[0]).toMatchObject({ qty_reserved: 0, status: 'cancelled' });
    expect((await listing(fixture.listingId)).qty_reserved).toBe(0);
    await refusalOf(sales.post(`/web-orders/999999/rejection`, { reason: 'x' }), 404);
  });
});

describe('the hold expires', () => {
  it('cancels pending web orders past their hold once, giving their units back', async () => {
    const retailerId = await seedRetailer(t.db);
    const buyer = await buyerOf(t, retailerId, 'late.buyer');
    const fixture = await seedListing(t.db, { stock: 5, pushed: 5, priceCents: 500 });
    const item = { id: fixture.listingId, type: 'product', quantity: 2 };
    const late = await dataOf<WebOrderPlaced>(buyer.post('/web-orders', { items: [item] }), 201);
    const fresh = await dataOf<WebOrderPlaced>(buyer.post('/web-orders', { items: [item] }), 201);
    await t.db.query(
      `UPDATE web_orders SET expires_at = now() - interval '1 minute' WHERE order_id = $1`,
      [late.id],
    );
    expect(await refusalOf(sales.post(`/web-orders/${late.id}/approval`, {}), 409)).toMatch(
      /hold has expired/,
    );
    const sweeps = await Promise.all([expireWebOrders(t.db), expireWebOrders(t.db)]);
    expect(sweeps.reduce((sum, n) => sum + n, 0)).toBe(1);
    expect(await expireWebOrders(t.db)).toBe(0);
    const detail = await dataOf<OrderDetail>(sales.get(`/orders/${late.id}/detail`));
    expect(detail.status).toBe('cancelled');
    expect(detail.events.at(-1)).toMatchObject({
      type: 'expired',
      actor_name: 'system: web order hold expired',
    });
    expect((await listing(fixture.listingId)).qty_reserved).toBe(2);
    const ids = (await queue()).orders.map((order) => order.id);
    expect(ids).toContain(fresh.id);
    expect(ids).not.toContain(late.id);
  });
});
