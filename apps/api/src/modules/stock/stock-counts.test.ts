import type { AccessoryStock, PartStock, StockCountResult } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { pdfPages } from '../../test/pdf-text.js';
import { ledgerOf, seedStockPlaces, type StockPlaces } from '../../test/stock-fixtures.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** Physical counts of counted stock, one item or a whole bin, and bin labels. */

let t: TestApp;
let admin: ApiClient;
let places: StockPlaces;
let bins: number[];
/** A second accessory, for the bin counts, and a third found in a bin. */
let cable: number;
let cover: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedStockPlaces(t.db);
  bins = places.bins;
  [{ id: cable }] = (await t.db.query<{ id: number }>(
    `INSERT INTO accessories (sku, name, kind) VALUES ('CBL-USBC-1M', 'USB-C cable 1 m', 'cable')
     RETURNING id::int AS id`,
  )) as [{ id: number }];
  for (const [accessory, bin, qty] of [
    [places.accessory, bins[0], 20],
    [cable, bins[0], 8],
    [places.accessory, bins[1], 5],
  ] as const) {
    const received = await admin.post('/accessory-stock/receipts', {
      accessory_id: accessory,
      location_id: bin,
      qty,
      reference: 'PO-COUNT',
    });
    expect(received.statusCode, received.body).toBe(201);
  }
});
afterAll(() => t.close());

const count = async (path: string, body: object) => {
  const response = await admin.post(path, body);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<StockCountResult>(response).data;
};
const level = async (kind: 'accessory' | 'part', itemId: number, locationId: number) => {
  const [row] = await t.db.query<{ on_hand: number; reserved: number; counted: boolean }>(
    `SELECT on_hand, reserved, last_counted_at IS NOT NULL AS counted FROM stock_levels
     WHERE item_kind = $1 AND item_id = $2 AND location_id = $3`,
    [kind, itemId, locationId],
  );
  return row;
};
const countMoves = async (kind: 'accessory' | 'part', itemId: number) =>
  t.db.query<{ qty: number; from_location_id: number | null; to_location_id: number | null }>(
    `SELECT qty, from_location_id::int AS from_location_id, to_location_id::int AS to_location_id
     FROM stock_moves WHERE item_kind = $1 AND item_id = $2 AND reason = 'count' ORDER BY id`,
    [kind, itemId],
  );

describe('a count of one item at a location', () => {
  it('writes the shortfall as a count move and notes when the level was counted', async () => {
    const result = await count('/accessory-stock/counts', {
      accessory_id: places.accessory,
      location_id: bins[0],
      counted_qty: 17,
      note: 'Cycle count aisle S',
    });
    expect(result).toMatchObject({ location_id: bins[0], location: 'S-1' });
    expect(result.lines).toEqual([
      expect.objectContaining({
        item: 'CHG-20W',
        book_qty: 20,
        counted_qty: 17,
        difference: -3,
        on_hand: 17,
      }),
    ]);
    expect(result.lines[0]!.move_id).toEqual(expect.any(Number));
    expect(await countMoves('accessory', places.accessory)).toEqual([
      { qty: 3, from_location_id: bins[0], to_location_id: null },
    ]);
    expect(await level('accessory', places.accessory, bins[0]!)).toEqual({
      on_hand: 17,
      reserved: 0,
      counted: true,
    });
    const [row] = bodyOf<{ items: AccessoryStock[] }>(
      await admin.get(`/accessory-stock?accessory_id=${places.accessory}&location_id=${bins[0]}`),
    ).data.items;
    expect(row!.last_counted_at).toBe(result.counted_at);
  });

  it('writes units found as a count move into the location', async () => {
    const result = await count('/accessory-stock/counts', {
      accessory_id: places.accessory,
      location_id: bins[1],
      counted_qty: 7,
    });
    expect(result.lines[0]).toMatchObject({ book_qty: 5, difference: 2, on_hand: 7 });
    expect((await countMoves('accessory', places.accessory)).at(-1)).toEqual({
      qty: 2,
      from_location_id: null,
      to_location_id: bins[1],
    });
  });

  it('writes no move when the books were right, but the count is noted and audited', async () => {
    await t.db.query('UPDATE stock_levels SET last_counted_at = NULL WHERE location_id = $1', [
      bins[1],
    ]);
    const movesBefore = (await countMoves('accessory', places.accessory)).length;
    const result = await count('/accessory-stock/counts', {
      accessory_id: places.accessory,
      location_id: bins[1],
      counted_qty: 7,
    });
    expect(result.lines[0]).toMatchObject({ difference: 0, move_id: null, on_hand: 7 });
    expect(await countMoves('accessory', places.accessory)).toHaveLength(movesBefore);
    expect((await level('accessory', places.accessory, bins[1]!))!.counted).toBe(true);
    const [audit] = await t.db.query<{ after: Record<string, unknown> }>(
      "SELECT after FROM audit_events WHERE action = 'stock.count' ORDER BY id DESC LIMIT 1",
    );
    expect(audit!.after).toMatchObject({ item: 'CHG-20W', at: 'S-2', counted: 7, difference: 0 });
  });

  it('counts units of an item the books did not have there, in a new level', async () => {
    const result = await count('/accessory-stock/counts', {
      accessory_id: cable,
      location_id: bins[2],
      counted_qty: 2,
    });
    expect(result.lines[0]).toMatchObject({ book_qty: 0, difference: 2, on_hand: 2 });
    expect(await level('accessory', cable, bins[2]!)).toEqual({
      on_hand: 2,
      reserved: 0,
      counted: true,
    });
  });

  it('is refused below what is reserved there, saying so, and changes nothing', async () => {
    await t.db.query(
      'UPDATE stock_levels SET reserved = 6 WHERE accessory_id = $1 AND location_id = $2',
      [places.accessory, bins[1]],
    );
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/counts', {
        accessory_id: places.accessory,
        location_id: bins[1],
        counted_qty: 4,
      }),
    ).toEqual({
      counted_qty: [
        'CHG-20W at S-2: 4 counted, but 6 are reserved there for orders or repairs. Release or ' +
          'move the reservations first: on hand never goes below what is reserved.',
      ],
    });
    expect(await level('accessory', places.accessory, bins[1]!)).toMatchObject({
      on_hand: 7,
      reserved: 6,
    });
    // Down to what is reserved is a count like any other.
    const result = await count('/accessory-stock/counts', {
      accessory_id: places.accessory,
      location_id: bins[1],
      counted_qty: 6,
    });
    expect(result.lines[0]).toMatchObject({ difference: -1, on_hand: 6, reserved: 6 });
    await t.db.query('UPDATE stock_levels SET reserved = 0 WHERE accessory_id = $1', [
      places.accessory,
    ]);
  });

  it('checks its input: a quantity of 0 or more, an existing item and location', async () => {
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/counts', {
        accessory_id: places.accessory,
        location_id: bins[0],
        counted_qty: -1,
      }),
    ).toEqual({
      counted_qty: ['The quantity counted cannot be negative: enter 0 when there is none.'],
    });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/counts', {
        accessory_id: 999_999,
        location_id: bins[0],
        counted_qty: 1,
      }),
    ).toEqual({ accessory_id: ['Choose an accessory.'] });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/counts', {
        accessory_id: places.accessory,
        location_id: 999_999,
        counted_qty: 1,
      }),
    ).toEqual({ location_id: ['Choose an existing location.'] });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/counts', {
        accessory_id: places.accessory,
        location_id: places.quarantineBin,
        counted_qty: 1,
      }),
    ).toEqual({
      location_id: ['Q-1 is in the quarantine zone, which holds held devices only.'],
    });
  });

  it('of a part works the same, and the parts list shows its last count', async () => {
    await admin.post('/part-stock/receipts', {
      part_id: places.part,
      location_id: bins[0],
      vendor_id: places.vendor,
      qty: 4,
      unit_cost_cents: 1000,
      reference: 'INV-COUNT',
    });
    const result = await count('/part-stock/counts', {
      part_id: places.part,
      location_id: bins[0],
      counted_qty: 3,
    });
    expect(result.lines[0]).toMatchObject({ item: 'LCD-A15', difference: -1, on_hand: 3 });
    const part = bodyOf<{ items: PartStock[] }>(await admin.get('/part-stock?search=LCD-A15')).data
      .items[0]!;
    expect(part).toMatchObject({ on_hand: 3, last_counted_at: result.counted_at });
  });
});

describe('a count of a whole bin', () => {
  it('counts every item of the bin in one request, adding one the books did not have', async () => {
    // S-1 holds 17 chargers and 8 cables; a third accessory is found there.
    [{ id: cover }] = (await t.db.query<{ id: number }>(
      `INSERT INTO accessories (sku, name, kind) VALUES ('CASE-A15', 'Galaxy A15 case', 'case')
       RETURNING id::int AS id`,
    )) as [{ id: number }];
    const result = await count('/accessory-stock/bin-counts', {
      location_id: bins[0],
      lines: [
        { accessory_id: cable, counted_qty: 8 },
        { accessory_id: places.accessory, counted_qty: 15 },
        { accessory_id: cover, counted_qty: 4 },
      ],
      note: 'Bin S-1 recount',
    });
    expect(
      result.lines.map(({ item, book_qty, counted_qty, difference }) => [
        item,
        book_qty,
        counted_qty,
        difference,
      ]),
    ).toEqual([
      ['CHG-20W', 17, 15, -2],
      ['CBL-USBC-1M', 8, 8, 0],
      ['CASE-A15', 0, 4, 4],
    ]);
    for (const accessory of [places.accessory, cable, cover]) {
      expect((await level('accessory', accessory, bins[0]!))!.counted).toBe(true);
      for (const row of await ledgerOf(t.db, 'accessory', accessory)) {
        expect(row.ledger).toBe(row.on_hand);
      }
    }
    const [audit] = await t.db.query<{ after: { lines: unknown[] } }>(
      "SELECT after FROM audit_events WHERE action = 'stock.bin_count' ORDER BY id DESC LIMIT 1",
    );
    expect(audit!.after.lines).toHaveLength(3);
  });

  it('must list every item the books have there with units', async () => {
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/bin-counts', {
        location_id: bins[0],
        lines: [{ accessory_id: places.accessory, counted_qty: 15 }],
      }),
    ).toEqual({
      lines: [
        'Count every one of the accessories the books have at S-1: CASE-A15, CBL-USBC-1M are ' +
          'missing (enter 0 for one not found).',
      ],
    });
  });

  it('lists each item once', async () => {
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/bin-counts', {
        location_id: bins[0],
        lines: [
          { accessory_id: places.accessory, counted_qty: 1 },
          { accessory_id: places.accessory, counted_qty: 2 },
        ],
      }),
    ).toEqual({ lines: ['List each item once, with all its units.'] });
  });

  it('is refused whole when one line would go below what is reserved', async () => {
    await t.db.query(
      'UPDATE stock_levels SET reserved = 5 WHERE accessory_id = $1 AND location_id = $2',
      [cable, bins[0]],
    );
    const moves = await t.db.query('SELECT id FROM stock_moves');
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/bin-counts', {
        location_id: bins[0],
        lines: [
          { accessory_id: places.accessory, counted_qty: 10 },
          { accessory_id: cable, counted_qty: 1 },
          { accessory_id: 999_999, counted_qty: 0 },
        ],
      }),
    ).toEqual({ 'lines.2.accessory_id': ['Choose an accessory.'] });
    const refused = await admin.fieldErrors('POST', '/accessory-stock/bin-counts', {
      location_id: bins[0],
      lines: [
        { accessory_id: places.accessory, counted_qty: 10 },
        { accessory_id: cable, counted_qty: 1 },
        { accessory_id: cover, counted_qty: 4 },
      ],
    });
    expect(refused).toEqual({
      'lines.1.counted_qty': [
        'CBL-USBC-1M at S-1: 1 counted, but 5 are reserved there for orders or repairs. Release ' +
          'or move the reservations first: on hand never goes below what is reserved.',
      ],
    });
    expect(await t.db.query('SELECT id FROM stock_moves')).toHaveLength(moves.length);
    expect((await level('accessory', places.accessory, bins[0]!))!.on_hand).toBe(15);
    await t.db.query('UPDATE stock_levels SET reserved = 0 WHERE accessory_id = $1', [cable]);
  });

  it('of parts counts the parts of the bin', async () => {
    const result = await count('/part-stock/bin-counts', {
      location_id: bins[0],
      lines: [{ part_id: places.part, counted_qty: 3 }],
    });
    expect(result.lines).toEqual([
      expect.objectContaining({ item: 'LCD-A15', book_qty: 3, difference: 0, move_id: null }),
    ]);
  });
});

describe('who may count', () => {
  it('those who change the stock; readers are refused', async () => {
    await createRole(t.db, 'Count reader', ['box.view-list', 'part-stock.view-list']);
    await createUser(t.db, {
      userName: 'count-reader',
      password: 'count-reader-password-1',
      roles: ['Count reader'],
    });
    const reader = apiClient(t, await login(t.app, 'count-reader', 'count-reader-password-1'));
    const body = { accessory_id: places.accessory, location_id: bins[0], counted_qty: 1 };
    expect((await reader.post('/accessory-stock/counts', body)).statusCode).toBe(403);
    expect(
      (
        await reader.post('/part-stock/bin-counts', {
          location_id: bins[0],
          lines: [{ part_id: places.part, counted_qty: 1 }],
        })
      ).statusCode,
    ).toBe(403);
    expect((await reader.post('/accessory-stock/labels', { ids: [1] })).statusCode).toBe(403);
  });
});

describe('bin labels', () => {
  const levelId = async (accessory: number, bin: number) =>
    (
      await t.db.query<{ id: number }>(
        'SELECT id::int AS id FROM stock_levels WHERE accessory_id = $1 AND location_id = $2',
        [accessory, bin],
      )
    )[0]!.id;

  it('print 2x1 as ZPL: the SKU and the bin each as Code128, in bin order', async () => {
    const ids = [await levelId(places.accessory, bins[1]!), await levelId(cable, bins[0]!)];
    const file = await admin.download('/accessory-stock/labels', { ids, format: 'zpl' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/x-zpl');
    expect(file.body.startsWith('^XA^CI28^PW406^LL203')).toBe(true);
    const barcodes = [...file.body.matchAll(/\^BC[^^]*\^FH\^FD([^^]+)\^FS/g)].map((m) => m[1]);
    expect(barcodes).toEqual(['CBL-USBC-1M', 'S-1', 'CHG-20W', 'S-2']);
    expect(file.body).toContain('^FDUSB-C cable 1 m^FS');
  });

  it('print as PDF, one 2x1 page per label', async () => {
    const file = await admin.download('/accessory-stock/labels', {
      ids: [await levelId(places.accessory, bins[0]!)],
    });
    expect(file.headers['content-disposition']).toContain('bin-label-CHG-20W-S-1.pdf');
    const pages = await pdfPages(file.rawPayload);
    expect(pages.map((page) => page.size)).toEqual([[144, 72]]);
    // The title, the SKU's barcode line, the name, the bin's barcode line.
    expect(pages[0]!.text).toEqual(['CHG-20W', 'CHG-20W', 'USB-C charger 20 W', 'S-1']);
  });

  it("of a part print one label per bin holding it, the parts' rows being parts", async () => {
    await admin.post('/part-stock/receipts', {
      part_id: places.part,
      location_id: bins[2],
      vendor_id: places.vendor,
      qty: 1,
      unit_cost_cents: 1000,
      reference: 'INV-LABEL',
    });
    const file = await admin.download('/part-stock/labels', { ids: [places.part], format: 'zpl' });
    const barcodes = [...file.body.matchAll(/\^BC[^^]*\^FH\^FD([^^]+)\^FS/g)].map((m) => m[1]);
    expect(barcodes).toEqual(['LCD-A15', 'S-1', 'LCD-A15', 'S-3']);
  });

  it('answer 404 for an unknown row, 422 for a part in no bin or too many rows', async () => {
    expect((await admin.post('/accessory-stock/labels', { ids: [999_998] })).statusCode).toBe(404);
    expect((await admin.post('/part-stock/labels', { ids: [999_998] })).statusCode).toBe(404);
    const [{ id: bare }] = (await t.db.query<{ id: number }>(
      `INSERT INTO parts (part_number, name, category) VALUES ('BAT-A15', 'Galaxy A15 battery', 'battery')
       RETURNING id::int AS id`,
    )) as [{ id: number }];
    expect(await admin.fieldErrors('POST', '/part-stock/labels', { ids: [bare] })).toEqual({
      ids: ['This part is in no bin: there is no bin label to print.'],
    });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/labels', {
        ids: Array.from({ length: 51 }, (_, index) => index + 1),
      }),
    ).toEqual({ ids: ['Choose at most 50 rows to print labels for at a time.'] });
  });
});
