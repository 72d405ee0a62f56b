import type {
  Campaign,
  CampaignDetail,
  CampaignImportOptions,
  CampaignImportSummary,
  ImportBatch,
  ImportCheck,
  OrderRow,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The campaign file: the dry run's errors by line (address, SKU, duplicates in the file and in
 * the system), the demand summary, both commit modes, the campaigns with their progress, closing,
 * the order list's campaign filter, and who may do what.
 */

let t: TestApp;
let manager: ApiClient;
let worker: ApiClient;
let carrierId: number;
let otherCarrierId: number;
const SKU = 'CAMP-MOTO-A';
const UNLISTED_SKU = 'CAMP-MOTO-B';

/** A carrier, a variant with 3 sellable units on a live campaign listing at $19.99, one unlisted. */
async function seed(db: Db) {
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;
  const brand = await one("INSERT INTO brands (name) VALUES ('Motorola')");
  const model = await one(
    `INSERT INTO device_models (brand_id, name, device_type, os, network)
     VALUES ($1, 'Moto G 2024', 'phone', 'android', '5G')`,
    [brand],
  );
  const product = await one(
    "INSERT INTO products (name, kind, model_id) VALUES ('Moto G', 'device', $1)",
    [model],
  );
  const variant = await one(
    "INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, $2, 'A')",
    [product, SKU],
  );
  await one("INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, $2, 'B')", [
    product,
    UNLISTED_SKU,
  ]);
  const zone = await one("INSERT INTO locations (code, kind, active) VALUES ('C', 'zone', true)");
  const box = await one(
    `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id, sealed_at)
     VALUES ($1, 'A', 20, 3, 'located', $2, now())`,
    [model, zone],
  );
  await db.query(
    `INSERT INTO devices (imei, tac, model_id, grade, status, inventory_box_id)
     SELECT imei, left(imei, 8), $1, 'A', 'in_stock', $2 FROM unnest($3::text[]) AS imei`,
    [model, box, ['356000000000011', '356000000000029', '356000000000037']],
  );
  carrierId = await one("INSERT INTO vendors (name, type) VALUES ('SurgePhone', 'carrier-client')");
  otherCarrierId = await one(
    "INSERT INTO vendors (name, type) VALUES ('Other Wireless', 'carrier-client')",
  );
  await one(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     VALUES ($1, 'campaign', 100, 1999, 'live')`,
    [variant],
  );
}

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

beforeAll(async () => {
  t = await createTestApp();
  await seed(t.db);
  manager = await signedIn('fm', ['Fulfilment Manager']);
  worker = await signedIn('fw', ['Fulfilment Worker']);
});
afterAll(() => t.close());

const HEADER = 'external_ref,name,address,city,state,zip,phone,sku,qty,notes';
const options = (overrides: Partial<CampaignImportOptions> = {}): CampaignImportOptions => ({
  name: 'Spring upgrade',
  client_carrier_id: carrierId,
  program: 'lifeline',
  ...overrides,
});

type CampaignCheck = ImportCheck & { summary: CampaignImportSummary };

async function upload(csv: string, name = 'campaign.csv') {
  const uploaded = await manager.uploadImport('campaign-orders', name, csv);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  return bodyOf<ImportBatch>(uploaded).data.id;
}

const check = (id: number, opts: CampaignImportOptions = options()) =>
  dataOf<CampaignCheck>(manager.checkImport('campaign-orders', id, { options: opts }));

const commit = (id: number, mode?: 'all_or_nothing' | 'valid_rows') =>
  manager.post(`/campaign-orders/imports/${id}/commit`, mode ? { mode } : {});

const countOf = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(sql, params))[0]!.n;

/** Errors of a check as [line, column] pairs. */
const lines = (checked: ImportCheck) => checked.errors.map((error) => [error.row, error.column]);

const MIXED = [
  HEADER,
  `SP-1,Maria Lopez,1200 Main St,Houston,TX,77002,713-555-0100,${SKU},1,`,
  `SP-2,John Smith,5 Elm St,Houston,TX,10001,,${SKU},1,`,
  `SP-3,Ann Lee,7 Oak St,Houston,TX,77002,,${UNLISTED_SKU},1,`,
  `SP-1,Carl Diaz,9 Pine St,Houston,TX,77002,,${SKU},1,`,
  `SP-5,maria  lopez,1200 Main St.,Houston,TX,77002,,${SKU},1,`,
  `SP-6,Bo Chen,11 Bay St,Houston,TX,77002,,${SKU},0,`,
  `SP-7,Eve Park,PO Box 12,Houston,TX,77002,,${SKU},1,`,
  `SP-8,Madonna,13 Bay St,Houston,TX,77002,,${SKU},1,`,
  `SP-9,Raj Patel,15 Bay St,Dallas,TX,75201,,${SKU},1,rush`,
].join('\n');

describe('the dry run', () => {
  it('reports every bad row by its line and writes nothing', async () => {
    const id = await upload(MIXED);
    const checked = await check(id);
    expect(lines(checked)).toEqual([
      [3, 'zip'],
      [4, 'sku'],
      [5, 'external_ref'],
      [6, 'name'],
      [7, 'qty'],
      [8, 'address'],
      [9, 'name'],
    ]);
    const message = (row: number) => checked.errors.find((error) => error.row === row)!.message;
    expect(message(3)).toMatch(/ZIP 10001 is in NY/);
    expect(message(4)).toMatch(/no live listing on the campaign channel/);
    expect(message(5)).toBe('Repeats row 2.');
    expect(message(6)).toMatch(/Same subscriber and address as the row with reference SP-1/);
    expect(message(8)).toMatch(/PO box/);
    expect(message(9)).toMatch(/first and last name/);
    expect(checked).toMatchObject({ willCreate: 2, willUpdate: 0 });
    expect(checked.batch.error_count).toBe(7);
    expect(checked.summary).toEqual({
      demand: [
        {
          sku: SKU,
          name: expect.any(String),
          listing_id: expect.any(Number),
          price_cents: 1999,
          rows: 2,
          units: 2,
          listing_remaining: 100,
          stock: 3,
          short: 0,
        },
      ],
      units: 2,
      total_cents: 3998,
    });
    expect(await countOf('SELECT count(*)::int AS n FROM campaigns')).toBe(0);
    expect(await countOf('SELECT count(*)::int AS n FROM orders')).toBe(0);
  });

  it('needs the campaign: its name, an active client carrier and the programme', async () => {
    const id = await upload(MIXED);
    const errors = (await manager.fieldErrors('POST', `/campaign-orders/imports/${id}/check`, {
      options: { client_carrier_id: carrierId },
    })) as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual(
      expect.arrayContaining(['options.name', 'options.program']),
    );
    const vendor = await manager.fieldErrors('POST', `/campaign-orders/imports/${id}/check`, {
      options: options({ client_carrier_id: 999_999 }),
    });
    expect(vendor).toEqual({ 'options.client_carrier_id': ['Choose an active client carrier.'] });
  });

  it('refuses a file past the row limit at the upload', async () => {
    const rows = Array.from(
      { length: 2001 },
      (_, n) => `R-${n},A B,1 Main St,Houston,TX,77002,,X,1,`,
    );
    const answer = await manager.uploadImport(
      'campaign-orders',
      'big.csv',
      [HEADER, ...rows].join('\n'),
    );
    expect(answer.statusCode).toBe(422);
    expect(bodyOf<unknown>(answer).message).toEqual({
      file: ['The file has 2,001 rows: one file holds at most 2,000. Split it.'],
    });
  });
});

describe('committing', () => {
  let campaignId: number;

  it('all or nothing: a file with bad rows writes nothing', async () => {
    const id = await upload(MIXED);
    await check(id);
    const refused = await commit(id, 'all_or_nothing');
    expect(refused.statusCode, refused.body).toBe(422);
    expect(await countOf('SELECT count(*)::int AS n FROM orders')).toBe(0);
  });

  it('valid rows only: the campaign and its orders, the bad rows kept in the error file', async () => {
    const id = await upload(MIXED, 'spring.csv');
    await check(id);
    const batch = await dataOf<ImportBatch>(commit(id, 'valid_rows'));
    expect(batch).toMatchObject({ status: 'committed', created_count: 2, error_count: 7 });

    const [campaign] = await dataOf<Campaign[]>(manager.get('/campaigns'));
    campaignId = campaign!.id;
    expect(campaign).toMatchObject({
      name: 'Spring upgrade',
      client_carrier: 'SurgePhone',
      program: 'lifeline',
      channel: 'campaign',
      status: 'open',
      file_name: 'spring.csv',
      order_count: 2,
      rows_left_out: 7,
      progress: { orders: 2, units: 2, total_cents: 3998, waiting: 2, picked: 0, scanned: 0 },
    });
    const detail = await dataOf<CampaignDetail>(manager.get(`/campaigns/${campaignId}`));
    expect(detail.orders.map((order) => [order.external_ref, order.source, order.status])).toEqual([
      ['SP-1', 'campaign', 'ready'],
      ['SP-9', 'campaign', 'ready'],
    ]);
    expect(detail.orders[0]!.customer).toBe('M*** L***');
    const [line] = await t.db.query<{ unit_price_cents: number; qty_reserved: number }>(
      `SELECT l.unit_price_cents::int AS unit_price_cents, l.qty_reserved FROM order_lines l
       JOIN orders o ON o.id = l.order_id WHERE o.external_ref = 'SP-9'`,
    );
    expect(line).toEqual({ unit_price_cents: 1999, qty_reserved: 1 });

    const errorFile = await manager.download(`/campaign-orders/imports/${id}/error-file`, {});
    expect(errorFile.body).toContain('3,zip,10001,');
    expect(errorFile.body.split('\n').filter(Boolean)).toHaveLength(8);
  });

  it('finds the same references and subscribers in the system the next time', async () => {
    const csv = [
      HEADER,
      `SP-1,Nina Ford,20 Main St,Houston,TX,77002,,${SKU},1,`,
      `SP-20,MARIA LOPEZ,1200 main st,Houston,TX,77002-1234,,${SKU},1,`,
      `SP-21,Nina Ford,20 Main St,Houston,TX,77002,,${SKU},1,`,
    ].join('\n');
    const id = await upload(csv);
    const checked = await check(id);
    expect(lines(checked)).toEqual([
      [2, 'external_ref'],
      [3, 'name'],
      [4, 'name'],
    ]);
    expect(checked.errors[0]!.message).toMatch(/SP-1 is received already: SO-/);
    expect(checked.errors[1]!.message).toMatch(/has an open order already: SO-/);
    // Another carrier's orders are no duplicates of this one's.
    const other = await check(id, options({ client_carrier_id: otherCarrierId }));
    expect(lines(other)).toEqual([[4, 'name']]);
  });

  it('all or nothing: a right file makes every order; past the stock they wait on hold', async () => {
    const csv = [
      HEADER,
      `AO-1,Tom Hardy,30 Main St,Austin,TX,78701,,${SKU},1,`,
      `AO-2,Ida Wells,32 Main St,Austin,TX,78701,,${SKU},4,`,
    ].join('\n');
    const id = await upload(csv);
    const checked = await check(id, options({ name: 'Austin', fulfilment_type: 'replacement' }));
    expect(checked.errors).toEqual([]);
    // Five units asked of a stock of 3: the summary says so before the commit.
    expect(checked.summary.demand[0]).toMatchObject({ units: 5, stock: 3, short: 2 });
    expect(await dataOf<ImportBatch>(commit(id))).toMatchObject({ created_count: 2 });
    const [campaign] = await dataOf<Campaign[]>(manager.get('/campaigns'));
    expect(campaign).toMatchObject({ name: 'Austin', fulfilment_type: 'replacement' });
    expect(campaign!.progress.orders).toBe(2);
    const statuses = await t.db.query<{ status: string; hold_reason: string | null }>(
      'SELECT status, hold_reason FROM orders WHERE campaign_id = $1 ORDER BY id',
      [campaign!.id],
    );
    expect(statuses).toEqual([
      { status: 'ready', hold_reason: null },
      { status: 'on_hold', hold_reason: 'no_stock' },
    ]);
  });

  it('lists a campaign’s orders on the order list by its filter', async () => {
    const page = await dataOf<{ items: OrderRow[] }>(
      manager.get(`/orders?campaign_id=${campaignId}`),
    );
    expect(page.items.map((order) => order.external_ref).sort()).toEqual(['SP-1', 'SP-9']);
    const found = await dataOf<{ id: number; label: string }[]>(
      manager.get('/campaigns/options?search=spring'),
    );
    expect(found).toEqual([{ id: campaignId, label: 'Spring upgrade' }]);
  });

  it('counts a held and a cancelled order in the progress, and closes once', async () => {
    const detail = await dataOf<CampaignDetail>(manager.get(`/campaigns/${campaignId}`));
    const [first, second] = detail.orders;
    await dataOf(manager.post(`/orders/${first!.id}/hold`, { reason: 'address' }));
    await dataOf(manager.post(`/orders/${second!.id}/cancellation`, { reason: 'carrier asked' }));
    const closed = await dataOf<Campaign>(manager.post(`/campaigns/${campaignId}/close`));
    expect(closed).toMatchObject({
      status: 'closed',
      progress: { orders: 2, waiting: 0, on_hold: 1, cancelled: 1 },
    });
    expect(closed.closed_at).not.toBeNull();
    expect(await refusalOf(manager.post(`/campaigns/${campaignId}/close`), 409)).toMatch(
      /closed already/,
    );
    const open = await dataOf<Campaign[]>(manager.get('/campaigns?status=open'));
    expect(open.map((campaign) => campaign.id)).not.toContain(campaignId);
    await refusalOf(manager.get('/campaigns/999999'), 404);
  });
});

describe('access', () => {
  it('refuses the import and the campaigns to whom the permissions are not given', async () => {
    const answer = await worker.uploadImport('campaign-orders', 'x.csv', MIXED);
    expect(answer.statusCode).toBe(403);
    await refusalOf(worker.get('/campaigns'), 403);
    await refusalOf(worker.post('/campaigns/1/close'), 403);
    await refusalOf(worker.get('/campaigns/carrier-options'), 403);
  });
});
