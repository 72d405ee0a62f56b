import type {
  FieldErrors,
  ImportBatch,
  PtsListing,
  PtsListingEvent,
  PtsPreview,
  PtsUpdateBatch,
  PtsUpdateBatchDetail,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { actorOf, seedSellable, type ListingFixture } from '../../test/listing-fixtures.js';
import { releaseListing, reserveListing, sellReservedListing } from './listing-reservations.js';

/**
 * `/pts-management/list` and `/push-to-sale/update` (DOMAIN.md 4.5): the listing rules (stock,
 * backorder, floor, reserved + sold), the lifecycle with sold out following the quantities, the
 * reservation helpers, the bulk update's preview and apply, and the file of changes.
 */

let t: TestApp;
let admin: ApiClient;
/** Product Information: pts.update, without backorder or price.management. */
let pi: ApiClient;
/** Sales / Account Manager: may allow backorder. */
let sales: ApiClient;
let outsider: ApiClient;
let stock: ListingFixture;

const signIn = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn('pts-admin', ['admin']);
  pi = await signIn('pts-pi', ['Product Information']);
  sales = await signIn('pts-sales', ['Sales / Account Manager']);
  outsider = await signIn('pts-sorter', ['Warehouse Sorting']);
  stock = await seedSellable(t.db, 6);
});
afterAll(() => t.close());

const create = (client: ApiClient, body: Record<string, unknown>) =>
  client.post('/pts-listings', { sellable_type: 'variant', channel: 'web', ...body });

const listing = (id: number) => dataOf<PtsListing>(admin.get(`/pts-listings/${id}`));

describe('creating and changing a listing', () => {
  it('creates a draft with the stock it counts against', async () => {
    const created = await dataOf<PtsListing>(
      create(pi, { sku: stock.variantSku.toLowerCase(), qty_pushed: 5, price_cents: 19900 }),
      201,
    );
    expect(created).toMatchObject({
      status: 'draft',
      sku: stock.variantSku,
      sellable_type: 'variant',
      available: 6,
      over_available: false,
      qty_remaining: 5,
      model_id: stock.modelId,
    });
    const page = await dataOf<{ items: PtsListing[] }>(
      pi.get(`/pts-listings?model_id=${stock.modelId}&channel=web&sellable_type=variant`),
    );
    expect(page.items.map((item) => item.id)).toEqual([created.id]);
    const events = await dataOf<PtsListingEvent[]>(pi.get(`/pts-listings/${created.id}/events`));
    expect(events[0]!.type).toBe('created');
  });

  it('refuses more than the stock (422), backorder to all but a manager (403)', async () => {
    const over = (await pi.fieldErrors('POST', '/pts-listings', {
      sellable_type: 'variant',
      sku: stock.variantSku,
      channel: 'retailer',
      qty_pushed: 7,
      price_cents: 100,
    })) as FieldErrors;
    expect(over.qty_pushed![0]).toMatch(/Only 6 in stock/);
    expect(
      await refusalOf(
        create(pi, {
          sku: stock.variantSku,
          channel: 'retailer',
          qty_pushed: 7,
          price_cents: 100,
          allow_backorder: true,
        }),
        403,
      ),
    ).toMatch(/pts\.allow-backorder/);
    const backordered = await dataOf<PtsListing>(
      create(sales, {
        sku: stock.variantSku,
        channel: 'retailer',
        qty_pushed: 7,
        price_cents: 100,
        allow_backorder: true,
      }),
      201,
    );
    expect(backordered.over_available).toBe(true);
  });

  it('refuses a price under the floor without price.management (403)', async () => {
    const body = {
      sku: stock.emptySku,
      channel: 'campaign',
      qty_pushed: 0,
      price_cents: 900,
      floor_price_cents: 1000,
    };
    expect(await refusalOf(create(pi, body), 403)).toMatch(/under the floor.*price\.management/);
    const made = await dataOf<PtsListing>(create(admin, body), 201);
    // Changing its dates is no new price: nobody is refused for the manager's call.
    await dataOf(pi.put(`/pts-listings/${made.id}`, { starts_on: '2030-01-01' }));
    expect(await refusalOf(pi.put(`/pts-listings/${made.id}`, { price_cents: 950 }), 403)).toMatch(
      /floor/,
    );
  });

  it('keeps one open listing per sellable and channel (409), and refuses unknown SKUs (422)', async () => {
    expect(
      await refusalOf(create(pi, { sku: stock.variantSku, qty_pushed: 1, price_cents: 1 }), 409),
    ).toMatch(/listed on the web channel already/);
    const errors = (await pi.fieldErrors('POST', '/pts-listings', {
      sellable_type: 'bundle',
      sku: 'NO-SUCH-KIT',
      channel: 'web',
      qty_pushed: 1,
      price_cents: 1,
    })) as FieldErrors;
    expect(errors.sku![0]).toMatch(/No bundle has the SKU NO-SUCH-KIT/);
    const dates = (await pi.fieldErrors('POST', '/pts-listings', {
      sellable_type: 'bundle',
      sku: stock.bundleSku,
      channel: 'web',
      qty_pushed: 1,
      price_cents: 1,
      starts_on: '2030-02-01',
      ends_on: '2030-01-01',
    })) as FieldErrors;
    expect(dates.ends_on).toBeDefined();
  });

  it('counts a bundle by the kits its components build', async () => {
    const kit = await dataOf<PtsListing>(
      create(pi, { sellable_type: 'bundle', sku: stock.bundleSku, qty_pushed: 3, price_cents: 1 }),
      201,
    );
    expect(kit.available).toBe(3);
  });

  it('answers 403 to those without the permissions', async () => {
    await refusalOf(outsider.get('/pts-listings'), 403);
    await refusalOf(outsider.post('/pts-updates/preview', { operation: 'pause' }), 403);
  });
});

describe('the lifecycle and the reservations', () => {
  let id: number;
  beforeAll(async () => {
    const fixture = await seedSellable(t.db, 3);
    id = (
      await dataOf<PtsListing>(
        create(pi, { sku: fixture.variantSku, qty_pushed: 2, price_cents: 5000 }),
        201,
      )
    ).id;
  });

  it('publishes, pauses and resumes; refuses what the state does not allow (409)', async () => {
    expect(await refusalOf(pi.post(`/pts-listings/${id}/resume`, {}), 409)).toMatch(
      /draft cannot resume/,
    );
    expect((await dataOf<PtsListing>(pi.post(`/pts-listings/${id}/publish`, {}))).status).toBe(
      'live',
    );
    expect((await dataOf<PtsListing>(pi.post(`/pts-listings/${id}/pause`, {}))).status).toBe(
      'paused',
    );
    const who = await actorOf(t.db, 'pts-pi');
    const refused = t.db.transaction((tx) => reserveListing(tx, who, id, 1));
    await expect(refused).rejects.toThrow(/paused, not on sale/);
    expect((await dataOf<PtsListing>(pi.post(`/pts-listings/${id}/resume`, {}))).status).toBe(
      'live',
    );
  });

  it('sells out when the last unit is reserved and comes back when one is released', async () => {
    const who = await actorOf(t.db, 'pts-pi');
    await t.db.transaction((tx) => reserveListing(tx, who, id, 2, { type: 'order', id: 7 }));
    expect((await listing(id)).status).toBe('sold_out');
    await expect(t.db.transaction((tx) => reserveListing(tx, who, id, 1))).rejects.toThrow(
      /sold out/,
    );
    // Never pushed below what is reserved and sold.
    const errors = (await pi.fieldErrors('PUT', `/pts-listings/${id}`, {
      qty_pushed: 1,
    })) as FieldErrors;
    expect(errors.qty_pushed![0]).toMatch(/2 units are reserved or sold/);
    await t.db.transaction((tx) => sellReservedListing(tx, who, id, 1));
    await t.db.transaction((tx) => releaseListing(tx, who, id, 1));
    const back = await listing(id);
    expect(back).toMatchObject({ status: 'live', qty_reserved: 0, qty_sold: 1, qty_remaining: 1 });
    await expect(t.db.transaction((tx) => releaseListing(tx, who, id, 1))).rejects.toThrow(
      /0 reserved, not 1/,
    );
    const events = await dataOf<PtsListingEvent[]>(pi.get(`/pts-listings/${id}/events`));
    expect(events.map((event) => event.type).slice(0, 5)).toEqual([
      'restocked',
      'released',
      'sold',
      'sold_out',
      'reserved',
    ]);
  });

  it('ends for good; an ended listing cannot change (409)', async () => {
    expect((await dataOf<PtsListing>(pi.post(`/pts-listings/${id}/end`, {}))).status).toBe('ended');
    expect(await refusalOf(pi.put(`/pts-listings/${id}`, { price_cents: 1 }), 409)).toMatch(
      /ended/,
    );
  });
});

describe('the bulk update', () => {
  let fixture: ListingFixture;
  let ids: number[];
  beforeAll(async () => {
    fixture = await seedSellable(t.db, 10);
    ids = [];
    for (const [sku, channel] of [
      [fixture.variantSku, 'web'],
      [fixture.variantSku, 'retailer'],
      [fixture.emptySku, 'web'],
    ] as const) {
      const made = await dataOf<PtsListing>(
        create(admin, { sku, channel, qty_pushed: 0, price_cents: 10000, floor_price_cents: 9500 }),
        201,
      );
      await dataOf(admin.post(`/pts-listings/${made.id}/publish`, {}));
      ids.push(made.id);
    }
  });

  const filter = () => ({ model_id: fixture.modelId });

  it('previews a price change with the rows under the floor in error, and writes nothing', async () => {
    const preview = await dataOf<PtsPreview>(
      pi.post('/pts-updates/preview', { filter: filter(), operation: 'price_percent', value: -10 }),
    );
    expect(preview).toMatchObject({ matched: 3, changed: 0, errors: 3 });
    expect(preview.rows[0]!.error).toMatch(/\$90\.00 is under the floor \$95\.00/);
    const ok = await dataOf<PtsPreview>(
      pi.post('/pts-updates/preview', { filter: filter(), operation: 'price_percent', value: -5 }),
    );
    expect(ok).toMatchObject({ matched: 3, changed: 3, errors: 0 });
    expect(ok.rows[0]!.after.price_cents).toBe(9500);
    expect((await listing(ids[0]!)).price_cents).toBe(10000);
  });

  it('refuses to apply with rows in error (422) unless they are skipped', async () => {
    const body = {
      filter: filter(),
      operation: 'qty_percent',
      value: 50,
    };
    // The variant has 10 in stock: 5 each; the empty variant's 0 is no change.
    const preview = await dataOf<PtsPreview>(pi.post('/pts-updates/preview', body));
    expect(preview).toMatchObject({ matched: 3, changed: 2, unchanged: 1, errors: 0 });
    const batch = await dataOf<PtsUpdateBatch>(pi.post('/pts-updates', body), 201);
    expect(batch).toMatchObject({ source: 'bulk', listing_count: 2 });
    expect((await listing(ids[0]!)).qty_pushed).toBe(5);

    const over = { filter: filter(), operation: 'qty_percent', value: 150 };
    const errors = (await pi.fieldErrors('POST', '/pts-updates', over)) as FieldErrors;
    expect(errors.listings![0]).toMatch(/2 listings cannot take this change.*Only 10 in stock/);
    expect((await listing(ids[0]!)).qty_pushed).toBe(5);
  });

  it('pauses every listing of a model in one change, logged before and after', async () => {
    const batch = await dataOf<PtsUpdateBatch>(
      pi.post('/pts-updates', { filter: filter(), operation: 'pause' }),
      201,
    );
    const detail = await dataOf<PtsUpdateBatchDetail>(pi.get(`/pts-updates/${batch.id}`));
    // The listing with nothing pushed was sold out; pausing takes it too.
    expect(detail.rows.map((row) => [row.before.status, row.after.status])).toEqual([
      ['live', 'paused'],
      ['live', 'paused'],
      ['sold_out', 'paused'],
    ]);
    expect((await listing(ids[1]!)).status).toBe('paused');
    const batches = await dataOf<PtsUpdateBatch[]>(pi.get('/pts-updates'));
    expect(batches[0]!.summary).toMatch(/^Pause \(model/);
    const events = await dataOf<PtsListingEvent[]>(pi.get(`/pts-listings/${ids[1]}/events`));
    expect(events[0]).toMatchObject({ type: 'paused', from_status: 'live', to_status: 'paused' });
    expect(
      await pi.fieldErrors('POST', '/pts-updates', { filter: filter(), operation: 'pause' }),
    ).toMatchObject({ listings: [expect.stringMatching(/None of the chosen listings/)] });
  });

  it('takes a file: dry run by row, commit in one transaction', async () => {
    const csv = [
      'Listing ID,SKU,Channel,Quantity,Price,Status',
      `${ids[0]},,,8,99.50,live`,
      `,${fixture.variantSku},retailer,,97.00,`,
      `,${fixture.emptySku},web,3,,`,
      `999999,,,1,,`,
      `,NOPE,web,1,,`,
    ].join('\n');
    const { check } = await admin.uploadAndCheck('pts-listing-updates', 'changes.csv', csv);
    expect(check.errors.map((error) => [error.row, error.column])).toEqual([
      [4, 'Quantity'],
      [5, 'Listing ID'],
      [6, 'SKU'],
    ]);
    expect(check.errors[0]!.message).toMatch(/Only 0 in stock/);

    const good = csv.split('\n').slice(0, 3).join('\n');
    const { id } = await admin.uploadAndCheck('pts-listing-updates', 'good.csv', good);
    const committed = await dataOf<ImportBatch>(admin.commitImport('pts-listing-updates', id));
    expect(committed).toMatchObject({ status: 'committed', updated_count: 2 });
    expect(await listing(ids[0]!)).toMatchObject({
      qty_pushed: 8,
      price_cents: 9950,
      status: 'live',
    });
    expect(await listing(ids[1]!)).toMatchObject({ price_cents: 9700, status: 'paused' });
    const batches = await dataOf<PtsUpdateBatch[]>(admin.get('/pts-updates'));
    expect(batches[0]).toMatchObject({ source: 'file', listing_count: 2 });
  });

  it('checks the floor at the commit with the committer’s rights', async () => {
    const csv = `Listing ID,Price\n${ids[0]},10.00\n`;
    const { id, check } = await pi.uploadAndCheck('pts-listing-updates', 'cheap.csv', csv);
    expect(check.errors).toEqual([]);
    const errors = (await pi.fieldErrors(
      'POST',
      `/pts-listing-updates/imports/${id}/commit`,
      {},
    )) as FieldErrors;
    expect(Object.values(errors).flat()[0]).toMatch(/under the floor/);
  });
});

describe('applying a change to thousands of listings', () => {
  /** Counts the statements a change sends: the same for 10 listings as for 3,000. */
  it('is set-based: as many statements for 3,000 listings as for 10', async () => {
    const { applyBulkChange } = await import('./pts-update.service.js');
    const who = await actorOf(t.db, 'pts-admin');
    const statementsFor = async (count: number) => {
      const fixture = await seedSellable(t.db, 1);
      // Listings of one model on many sellables: variants of the fixture's product.
      await t.db.query(
        `WITH v AS (
           INSERT INTO product_variants (product_id, sku, capacity_gb, grade)
           SELECT p.product_id, $1 || '-' || g, 1000 + g, 'A'
           FROM (SELECT product_id FROM product_variants WHERE sku = $1) p,
             generate_series(1, $2::int) AS g RETURNING id)
         INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
         SELECT id, 'web', 0, 10000, 'live' FROM v`,
        [fixture.variantSku, count],
      );
      let statements = 0;
      const started = performance.now();
      const batch = await t.db.transaction((tx) =>
        applyBulkChange(
          {
            ...tx,
            query: (...args: Parameters<typeof tx.query>) => {
              statements += 1;
              return tx.query(...args);
            },
          } as typeof tx,
          who,
          {
            filter: { model_id: fixture.modelId, status: 'live' },
            operation: 'price_percent',
            value: 5,
            skip_errors: false,
          },
        ),
      );
      expect(batch.listing_count).toBe(count);
      return { statements, ms: performance.now() - started };
    };
    const small = await statementsFor(10);
    const large = await statementsFor(3000);
    expect(large.statements).toBe(small.statements);
    const prices = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pts_listings WHERE price_cents = 10500`,
    );
    expect(prices[0]!.n).toBe(3010);
  }, 120_000);
});
