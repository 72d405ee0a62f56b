import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { buyerOf, seedListing, seedRetailer } from '../../test/web-order-fixtures.js';

/**
 * Checkouts racing for a listing's last units. On PostgreSQL (TEST_DATABASE_URL) they run on
 * concurrent connections; on PGlite one after the other, and the rule holds there too.
 */

let t: TestApp;
let buyers: ApiClient[];

beforeAll(async () => {
  t = await createTestApp();
  // Ten retailers with a buyer each: checkouts of one retailer take turns on its credit check,
  // those of different retailers meet only at the listing.
  buyers = [];
  for (let n = 0; n < 10; n += 1) {
    buyers.push(await buyerOf(t, await seedRetailer(t.db), `race.buyer.${n}`));
  }
});
afterAll(() => t.close());

describe('50 checkouts at once for the last 10 units of a listing', () => {
  it('place exactly 10 orders; the others are refused with a 409 and leave nothing behind', async () => {
    const fixture = await seedListing(t.db, { stock: 100, pushed: 10, priceCents: 2_500 });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        buyers[n % buyers.length]!.post('/web-orders', {
          items: [{ id: fixture.listingId, type: 'product', quantity: 1, unit_price_cents: 2_500 }],
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 409)).toHaveLength(40);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect((answer.json() as { message: string }).message).toMatch(/sold out/);
    }
    const [counts] = await t.db.query<{
      qty_reserved: number;
      status: string;
      orders: number;
      held: number;
    }>(
      `SELECT l.qty_reserved, l.status,
         (SELECT count(*)::int FROM order_lines o WHERE o.listing_id = l.id) AS orders,
         (SELECT sum(o.qty_reserved)::int FROM order_lines o WHERE o.listing_id = l.id) AS held
       FROM pts_listings l WHERE l.id = $1`,
      [fixture.listingId],
    );
    expect(counts).toEqual({ qty_reserved: 10, orders: 10, held: 10, status: 'sold_out' });
  }, 120_000);
});
