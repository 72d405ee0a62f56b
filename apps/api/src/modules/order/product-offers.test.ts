import type {
  OrderDetail,
  PickerOption,
  ProductOffer,
  ProductOfferConverted,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createRole, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { seedListing, seedRetailer } from '../../test/web-order-fixtures.js';
import { enqueue, jobsOf } from '../../toolkit/jobs.js';
import { productOfferExpiryJob } from './product-offers.routes.js';

/**
 * Product offers: entering one, the lifecycle's refusals, the floor price rule, the listing units
 * held on acceptance and given back on rejection and expiry, and conversion into one ready order
 * that holds the units without reserving them twice.
 */

let t: TestApp;
let sales: ApiClient;
let pricing: ApiClient;
let viewer: ApiClient;

async function staff(userName: string, permissions: string[]) {
  await createRole(t.db, `role of ${userName}`, permissions);
  const password = `${userName}-password-1`;
  await createUser(t.db, { userName, password, roles: [`role of ${userName}`] });
  return apiClient(t, await login(t.app, userName, password));
}

const reserved = async (listingId: number) =>
  (
    await t.db.query<{ qty_reserved: number }>(
      'SELECT qty_reserved FROM pts_listings WHERE id = $1',
      [listingId],
    )
  )[0]!.qty_reserved;

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** A retailer, a live retailer listing at $100 with a $80 floor, and a submitted offer on it. */
async function offer(terms: { qty?: number; priceCents?: number; pushed?: number } = {}) {
  const retailerId = await seedRetailer(t.db);
  const fixture = await seedListing(t.db, {
    stock: 10,
    pushed: terms.pushed ?? 10,
    priceCents: 10_000,
  });
  await t.db.query('UPDATE pts_listings SET floor_price_cents = 8000 WHERE id = $1', [
    fixture.listingId,
  ]);
  const created = await dataOf<ProductOffer>(
    sales.post('/product-offers', {
      retailer_id: retailerId,
      listing_id: fixture.listingId,
      qty: terms.qty ?? 4,
      offered_price_cents: terms.priceCents ?? 9_000,
      expires_on: tomorrow(),
    }),
    201,
  );
  return { retailerId, ...fixture, offer: created };
}

beforeAll(async () => {
  t = await createTestApp();
  sales = await staff('offers.sales', ['product-offer.view-list', 'product-offer.respond']);
  pricing = await staff('offers.pricing', [
    'product-offer.view-list',
    'product-offer.respond',
    'price.management',
  ]);
  viewer = await staff('offers.viewer', ['product-offer.view-list']);
});
afterAll(() => t.close());

describe('entering an offer', () => {
  it('keeps the offer submitted with the listing price, floor and who entered it', async () => {
    const { offer: created, sku, retailerId } = await offer();
    expect(created).toMatchObject({
      status: 'submitted',
      retailer_id: retailerId,
      sellable_type: 'variant',
      sku,
      qty: 4,
      offered_price_cents: 9_000,
      unit_price_cents: 9_000,
      list_price_cents: 10_000,
      floor_price_cents: 8_000,
      total_cents: 36_000,
      qty_reserved: 0,
      order_id: null,
      created_by: 'Name of offers.sales',
    });
    const page = await dataOf<{ offers: ProductOffer[]; total: number }>(
      viewer.get('/product-offers'),
    );
    expect(page.offers.map((row) => row.id)).toContain(created.id);
  });

  it('refuses a listing of another channel, a deactivated retailer and a past day (422)', async () => {
    const retailerId = await seedRetailer(t.db);
    await t.db.query(`UPDATE retailers SET status = 'inactive' WHERE id = $1`, [retailerId]);
    const web = await seedListing(t.db, { stock: 1, pushed: 1, priceCents: 100, channel: 'web' });
    expect(
      await sales.fieldErrors('POST', '/product-offers', {
        retailer_id: retailerId,
        listing_id: web.listingId,
        qty: 1,
        offered_price_cents: 100,
        expires_on: '2020-01-01',
      }),
    ).toEqual({
      retailer_id: ['The retailer is deactivated: it cannot make offers.'],
      listing_id: ['Choose a listing of the retailer channel that is on sale.'],
      expires_on: ['The last day cannot be in the past.'],
    });
  });

  it('offers only the retailer channel on sale in the listing picker', async () => {
    const retail = await seedListing(t.db, { stock: 1, pushed: 1, priceCents: 12_345 });
    const web = await seedListing(t.db, { stock: 1, pushed: 1, priceCents: 100, channel: 'web' });
    const found = async (sku: string) =>
      dataOf<PickerOption[]>(
        sales.get(`/product-offers/listing-options?search=${encodeURIComponent(sku)}`),
      );
    expect(await found(retail.sku)).toEqual([
      { id: retail.listingId, label: expect.stringContaining('list $123.45, floor $0.00') },
    ]);
    expect(await found(web.sku)).toEqual([]);
  });

  it('needs product-offer.respond to enter or answer; the list needs the page right', async () => {
    const { offer: created } = await offer();
    await refusalOf(viewer.post(`/product-offers/${created.id}/acceptance`, {}), 403);
    await refusalOf(
      viewer.post(`/product-offers/${created.id}/counter`, { unit_price_cents: 1, qty: 1 }),
      403,
    );
    const nobody = await staff('offers.nobody', ['pts.view-list']);
    await refusalOf(nobody.get('/product-offers'), 403);
  });
});

describe('the lifecycle', () => {
  it('counters a submitted offer, then accepts it holding its units on the listing', async () => {
    const { offer: created, listingId } = await offer();
    const countered = await dataOf<ProductOffer>(
      sales.post(`/product-offers/${created.id}/counter`, { unit_price_cents: 9_500, qty: 3 }),
    );
    expect(countered).toMatchObject({
      status: 'countered',
      offered_price_cents: 9_000,
      unit_price_cents: 9_500,
      qty: 3,
    });
    expect(
      await refusalOf(
        sales.post(`/product-offers/${created.id}/counter`, { unit_price_cents: 9_400, qty: 3 }),
        409,
      ),
    ).toMatch(/countered cannot be countered/);
    const accepted = await dataOf<ProductOffer>(
      sales.post(`/product-offers/${created.id}/acceptance`, {}),
    );
    expect(accepted).toMatchObject({ status: 'accepted', qty_reserved: 3 });
    expect(await reserved(listingId)).toBe(3);
    expect(
      await refusalOf(sales.post(`/product-offers/${created.id}/acceptance`, {}), 409),
    ).toMatch(/accepted cannot be accepted/);
  });

  it('rejects an accepted offer with its reason and gives the units back', async () => {
    const { offer: created, listingId } = await offer();
    await dataOf(sales.post(`/product-offers/${created.id}/acceptance`, {}));
    expect(await reserved(listingId)).toBe(4);
    expect(
      await sales.fieldErrors('POST', `/product-offers/${created.id}/rejection`, { reason: ' ' }),
    ).toEqual({ reason: ['Say why the offer is rejected.'] });
    const rejected = await dataOf<ProductOffer>(
      sales.post(`/product-offers/${created.id}/rejection`, { reason: 'Customer went elsewhere' }),
    );
    expect(rejected).toMatchObject({
      status: 'rejected',
      reject_reason: 'Customer went elsewhere',
      qty_reserved: 0,
    });
    expect(await reserved(listingId)).toBe(0);
    expect(
      await refusalOf(sales.post(`/product-offers/${created.id}/conversion`, {}), 409),
    ).toMatch(/rejected cannot be converted to an order/);
  });

  it('expires offers past their last day when offers are read, giving units back', async () => {
    const accepted = await offer();
    const submitted = await offer();
    await dataOf(sales.post(`/product-offers/${accepted.offer.id}/acceptance`, {}));
    await t.db.query(
      `UPDATE product_offers SET expires_at = now() - interval '1 minute' WHERE id = ANY ($1)`,
      [[accepted.offer.id, submitted.offer.id]],
    );
    const closed = await dataOf<{ offers: ProductOffer[] }>(
      viewer.get('/product-offers?view=closed'),
    );
    const statuses = Object.fromEntries(closed.offers.map((row) => [row.id, row.status]));
    expect(statuses[accepted.offer.id]).toBe('expired');
    expect(statuses[submitted.offer.id]).toBe('expired');
    expect(await reserved(accepted.listingId)).toBe(0);
    const open = await dataOf<{ offers: ProductOffer[] }>(viewer.get('/product-offers'));
    expect(open.offers.map((row) => row.id)).not.toContain(accepted.offer.id);
  });

  it('expires them in the background, every minute, without anyone reading the offers', async () => {
    const accepted = await offer();
    await dataOf(sales.post(`/product-offers/${accepted.offer.id}/acceptance`, {}));
    await t.db.query(
      `UPDATE product_offers SET expires_at = now() - interval '1 minute' WHERE id = $1`,
      [accepted.offer.id],
    );
    const jobs = jobsOf(t.app)!;
    expect(jobs.names).toContain(productOfferExpiryJob.name);
    // The minute's run, sent now rather than at the turn of the minute.
    await enqueue(t.db, productOfferExpiryJob, {});
    await jobs.start({ pollingIntervalSeconds: 0.5 });
    try {
      let status = 'accepted';
      for (let tries = 0; tries < 60 && status !== 'expired'; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const [row] = await t.db.query<{ status: string }>(
          'SELECT status FROM product_offers WHERE id = $1',
          [accepted.offer.id],
        );
        status = row!.status;
      }
      expect(status).toBe('expired');
      expect(await reserved(accepted.listingId)).toBe(0);
    } finally {
      await jobs.stop();
    }
  });

  it('refuses to accept more than the listing has left (409), holding nothing', async () => {
    const { offer: created, listingId } = await offer({ qty: 6, pushed: 5 });
    expect(
      await refusalOf(sales.post(`/product-offers/${created.id}/acceptance`, {}), 409),
    ).toMatch(/listing/i);
    expect(await reserved(listingId)).toBe(0);
    const [row] = await t.db.query<{ status: string }>(
      'SELECT status FROM product_offers WHERE id = $1',
      [created.id],
    );
    expect(row!.status).toBe('submitted');
  });
});

describe('the floor price', () => {
  it('needs price.management to accept under the floor (403); at the floor it does not', async () => {
    const under = await offer({ priceCents: 7_999 });
    expect(
      await refusalOf(sales.post(`/product-offers/${under.offer.id}/acceptance`, {}), 403),
    ).toMatch(/under the listing's floor price/);
    expect(await reserved(under.listingId)).toBe(0);
    await dataOf(pricing.post(`/product-offers/${under.offer.id}/acceptance`, {}));
    expect(await reserved(under.listingId)).toBe(4);
    const at = await offer({ priceCents: 8_000 });
    await dataOf(sales.post(`/product-offers/${at.offer.id}/acceptance`, {}));
  });
});

describe('conversion', () => {
  it('creates one ready wholesale order at the accepted price that holds the units once', async () => {
    const { offer: created, listingId, retailerId } = await offer();
    await dataOf(
      sales.post(`/product-offers/${created.id}/counter`, { unit_price_cents: 9_200, qty: 5 }),
    );
    await dataOf(sales.post(`/product-offers/${created.id}/acceptance`, {}));
    expect(await reserved(listingId)).toBe(5);
    const converted = await dataOf<ProductOfferConverted>(
      sales.post(`/product-offers/${created.id}/conversion`, {}),
      201,
    );
    expect(converted.order.status).toBe('ready');
    expect(converted.offer).toMatchObject({
      status: 'converted',
      qty_reserved: 0,
      order_id: converted.order.id,
      order_number: converted.order.number,
      order_status: 'ready',
    });
    expect(await reserved(listingId)).toBe(5);
    const orders = await t.db.query<{ id: number }>(
      'SELECT id::int AS id FROM orders WHERE retailer_id = $1',
      [retailerId],
    );
    expect(orders).toEqual([{ id: converted.order.id }]);
    const orderStaff = await staff('offers.orders', ['order.management']);
    const detail = await dataOf<OrderDetail>(
      orderStaff.get(`/orders/${converted.order.id}/detail`),
    );
    expect(detail).toMatchObject({
      source: 'offer',
      fulfilment_type: 'wholesale',
      retailer_id: retailerId,
      status: 'ready',
      total_cents: 46_000,
    });
    expect(detail.lines[0]).toMatchObject({ qty: 5, qty_reserved: 5, unit_price_cents: 9_200 });
    expect(
      await refusalOf(sales.post(`/product-offers/${created.id}/conversion`, {}), 409),
    ).toMatch(/converted cannot be converted/);
    expect(await reserved(listingId)).toBe(5);
  });

  it('refuses to convert a submitted offer or one whose retailer has no shipping address', async () => {
    const submitted = await offer();
    expect(
      await refusalOf(sales.post(`/product-offers/${submitted.offer.id}/conversion`, {}), 409),
    ).toMatch(/submitted cannot be converted/);
    const homeless = await offer();
    await dataOf(sales.post(`/product-offers/${homeless.offer.id}/acceptance`, {}));
    await t.db.query('DELETE FROM retailer_addresses WHERE retailer_id = $1', [
      homeless.retailerId,
    ]);
    expect(
      await refusalOf(sales.post(`/product-offers/${homeless.offer.id}/conversion`, {}), 409),
    ).toMatch(/has no shipping address/);
    const [row] = await t.db.query<{ status: string; qty_reserved: number }>(
      'SELECT status, qty_reserved FROM product_offers WHERE id = $1',
      [homeless.offer.id],
    );
    expect(row).toEqual({ status: 'accepted', qty_reserved: 4 });
  });
});
