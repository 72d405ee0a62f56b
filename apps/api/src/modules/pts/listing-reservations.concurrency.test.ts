import type { PtsListing } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { actorOf, seedSellable } from '../../test/listing-fixtures.js';
import { ListingReservationError, reserveListing } from './listing-reservations.js';

/**
 * Checkouts racing for a listing's last units. On PostgreSQL (TEST_DATABASE_URL) the
 * reservations run on concurrent connections; on PGlite one after the other, and the rule holds
 * there too.
 */

let t: TestApp;
let pi: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { userName: 'race-pi', password: 'race-pi-password-1', roles: ['admin'] });
  pi = apiClient(t, await login(t.app, 'race-pi', 'race-pi-password-1'));
});
afterAll(() => t.close());

describe('50 reservations of one unit at once for a listing with 10 remaining', () => {
  it('reserve exactly 10; the others are told it is sold out or has too few left', async () => {
    const fixture = await seedSellable(t.db, 10);
    const listing = await dataOf<PtsListing>(
      pi.post('/pts-listings', {
        sellable_type: 'variant',
        sku: fixture.variantSku,
        channel: 'web',
        qty_pushed: 10,
        price_cents: 100,
      }),
      201,
    );
    await dataOf(pi.post(`/pts-listings/${listing.id}/publish`, {}));
    const who = await actorOf(t.db, 'race-pi');
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        t.db.transaction((tx) => reserveListing(tx, who, listing.id, 1)),
      ),
    );
    const taken = results.filter((result) => result.status === 'fulfilled');
    const refused = results.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as unknown] : [],
    );
    expect(taken).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(ListingReservationError);
      expect((reason as ListingReservationError).reason).toBe('not_enough');
    }
    const after = await dataOf<PtsListing>(pi.get(`/pts-listings/${listing.id}`));
    expect(after).toMatchObject({ qty_reserved: 10, qty_remaining: 0, status: 'sold_out' });
  }, 60_000);
});
