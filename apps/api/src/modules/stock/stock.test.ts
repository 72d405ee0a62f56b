import type {
  AccessoryDashboard,
  AccessoryStock,
  PartStock,
  StockActionResult,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { ledgerOf, seedStockPlaces, type StockPlaces } from '../../test/stock-fixtures.js';
import { bodyOf, createRole, createUser, login, type TestApp } from '../../test/test-app.js';

/** Counted stock: the actions, their refusals, the ledger and the pages' reads. */

let t: TestApp;
let admin: ApiClient;
let places: StockPlaces;
let bins: number[];

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedStockPlaces(t.db);
  bins = places.bins;
});
afterAll(() => t.close());

const act = async (path: string, body: object) => {
  const response = await admin.post(path, body);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf<StockActionResult>(response).data;
};
const onHand = (result: StockActionResult, location: number) =>
  result.levels.find((level) => level.location_id === location)?.on_hand;

describe('accessories', () => {
  it('are received into a bin with a reference, and the move is in the ledger', async () => {
    const result = await act('/accessory-stock/receipts', {
      accessory_id: places.accessory,
      location_id: bins[0],
      qty: 30,
      reference: 'PO-1001',
    });
    expect(result.move).toMatchObject({
      reason: 'receipt',
      qty: 30,
      from_location_id: null,
      to_location_id: bins[0],
      reference: 'PO-1001',
    });
    expect(onHand(result, bins[0]!)).toBe(30);
  });

  it('need a reference to be received, and a positive whole quantity', async () => {
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/receipts', {
        accessory_id: places.accessory,
        location_id: bins[0],
        qty: 0,
        reference: '  ',
      }),
    ).toEqual({
      qty: ['The quantity must be at least 1.'],
      reference: ['Please enter the reference.'],
    });
  });

  it('go only to an active location outside quarantine', async () => {
    const body = { accessory_id: places.accessory, qty: 1, reference: 'PO-1' };
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/receipts', {
        ...body,
        location_id: places.inactiveBin,
      }),
    ).toEqual({ location_id: ['S-4 is not active: activate it first.'] });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/receipts', {
        ...body,
        location_id: places.quarantineBin,
      }),
    ).toEqual({
      location_id: ['Q-1 is in the quarantine zone, which holds held devices only.'],
    });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/receipts', {
        ...body,
        accessory_id: 999_999,
        location_id: bins[0],
      }),
    ).toEqual({ accessory_id: ['Choose an accessory.'] });
  });

  it('move between bins, and never more than there is', async () => {
    const moved = await act('/accessory-stock/moves', {
      accessory_id: places.accessory,
      from_location_id: bins[0],
      to_location_id: bins[1],
      qty: 12,
    });
    expect([onHand(moved, bins[0]!), onHand(moved, bins[1]!)]).toEqual([18, 12]);
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/moves', {
        accessory_id: places.accessory,
        from_location_id: bins[1],
        to_location_id: bins[2],
        qty: 13,
      }),
    ).toEqual({
      qty: [
        'Only 12 of CHG-20W available at S-2: 13 cannot be taken. Stock never goes below zero.',
      ],
    });
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/moves', {
        accessory_id: places.accessory,
        from_location_id: bins[1],
        to_location_id: bins[1],
        qty: 1,
      }),
    ).toEqual({
      to_location_id: ['Choose another location than the one the units come from.'],
    });
  });

  it('are adjusted with a reason, up or down, never below zero or below what is reserved', async () => {
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/adjustments', {
        accessory_id: places.accessory,
        location_id: bins[1],
        qty: 0,
        reason: '',
      }),
    ).toEqual({
      qty: ['An adjustment changes the quantity: enter a number other than 0.'],
      reason: ['Please enter the reason.'],
    });
    const down = await act('/accessory-stock/adjustments', {
      accessory_id: places.accessory,
      location_id: bins[1],
      qty: -2,
      reason: 'Two chargers crushed',
    });
    expect(down.move).toMatchObject({
      reason: 'adjust',
      qty: 2,
      from_location_id: bins[1],
      to_location_id: null,
      note: 'Two chargers crushed',
    });
    expect(onHand(down, bins[1]!)).toBe(10);
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/adjustments', {
        accessory_id: places.accessory,
        location_id: bins[1],
        qty: -11,
        reason: 'Count was short',
      }),
    ).toEqual({
      qty: [
        'Only 10 of CHG-20W available at S-2: 11 cannot be taken. Stock never goes below zero.',
      ],
    });
    // Reserved units stay: only what is available may be taken.
    await t.db.query(
      'UPDATE stock_levels SET reserved = 4 WHERE accessory_id = $1 AND location_id = $2',
      [places.accessory, bins[1]],
    );
    expect(
      await admin.fieldErrors('POST', '/accessory-stock/adjustments', {
        accessory_id: places.accessory,
        location_id: bins[1],
        qty: -7,
        reason: 'Count was short',
      }),
    ).toEqual({
      qty: [
        'Only 6 of CHG-20W available at S-2 (10 on hand, 4 reserved): 7 cannot be taken. Stock never goes below zero.',
      ],
    });
    await t.db.query('UPDATE stock_levels SET reserved = 0 WHERE accessory_id = $1', [
      places.accessory,
    ]);
    const up = await act('/accessory-stock/adjustments', {
      accessory_id: places.accessory,
      location_id: bins[2],
      qty: 3,
      reason: 'Found behind the shelf',
    });
    expect(up.move).toMatchObject({ from_location_id: null, to_location_id: bins[2], qty: 3 });
  });

  it('are listed per SKU and bin with what is available', async () => {
    const page = bodyOf<{ items: AccessoryStock[] }>(
      await admin.get(`/accessory-stock?accessory_id=${places.accessory}&sort=location`),
    ).data;
    expect(
      page.items.map(({ location, on_hand, reserved, available }) => ({
        location,
        on_hand,
        reserved,
        available,
      })),
    ).toEqual([
      { location: 'S-1', on_hand: 18, reserved: 0, available: 18 },
      { location: 'S-2', on_hand: 10, reserved: 0, available: 10 },
      { location: 'S-3', on_hand: 3, reserved: 0, available: 3 },
    ]);
  });

  it('keep the ledger equal to the levels, and every change is audited', async () => {
    for (const row of await ledgerOf(t.db, 'accessory', places.accessory)) {
      expect(row.ledger).toBe(row.on_hand);
    }
    const audits = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'accessory' AND entity_id = $1 ORDER BY id",
      [String(places.accessory)],
    );
    expect(audits.map((audit) => audit.action)).toEqual([
      'stock.receipt',
      'stock.move',
      'stock.adjust',
      'stock.adjust',
    ]);
  });
});

describe('the ledger', () => {
  it('is never edited or deleted', async () => {
    await expect(t.db.query('UPDATE stock_moves SET qty = qty + 1')).rejects.toThrow(
      /never edited or deleted/,
    );
    await expect(t.db.query('DELETE FROM stock_moves')).rejects.toThrow(/never edited or deleted/);
    // Repair part issues point at the ledger, so a plain TRUNCATE stops at their foreign key;
    // CASCADE reaches the ledger's own trigger.
    await expect(t.db.exec('TRUNCATE stock_moves CASCADE')).rejects.toThrow(
      /never edited or deleted/,
    );
  });

  it('and the levels refuse a negative quantity or more reserved than on hand', async () => {
    await expect(t.db.query('UPDATE stock_levels SET on_hand = -1')).rejects.toThrow(/check/i);
    await expect(t.db.query('UPDATE stock_levels SET reserved = on_hand + 1')).rejects.toThrow(
      /check/i,
    );
  });
});

describe('parts', () => {
  it("are received from a vendor at a unit cost, which averages into the part's cost", async () => {
    const first = await act('/part-stock/receipts', {
      part_id: places.part,
      location_id: bins[0],
      vendor_id: places.vendor,
      qty: 10,
      unit_cost_cents: 1200,
      reference: 'INV-P-1',
    });
    expect(onHand(first, bins[0]!)).toBe(10);
    // Nothing was held before: the first receipt's cost is the average.
    const [afterFirst] = await t.db.query<{ cost_cents: number }>(
      'SELECT cost_cents FROM parts WHERE id = $1',
      [places.part],
    );
    expect(afterFirst!.cost_cents).toBe(1200);
    await act('/part-stock/receipts', {
      part_id: places.part,
      location_id: bins[1],
      vendor_id: places.vendor,
      qty: 30,
      unit_cost_cents: 800,
      reference: 'INV-P-2',
    });
    // (10 x 12.00 + 30 x 8.00) / 40 = 9.00
    const part = bodyOf<{ items: PartStock[] }>(await admin.get('/part-stock?search=LCD-A15')).data
      .items[0]!;
    expect(part).toMatchObject({
      part_number: 'LCD-A15',
      cost_cents: 900,
      on_hand: 40,
      available: 40,
      used_30d: 0,
      below_reorder: false,
    });
    expect(part.bins.map((bin) => `${bin.location} ${bin.on_hand}`)).toEqual(['S-1 10', 'S-2 30']);
  });

  it('need a vendor and a unit cost to be received', async () => {
    expect(
      await admin.fieldErrors('POST', '/part-stock/receipts', {
        part_id: places.part,
        location_id: bins[0],
        qty: 1,
        reference: 'INV-P-3',
      }),
    ).toEqual({ vendor_id: ['Choose a vendor.'], unit_cost_cents: ['Enter the unit cost.'] });
  });

  it('are adjusted and moved like accessories, never below zero', async () => {
    await act('/part-stock/moves', {
      part_id: places.part,
      from_location_id: bins[1],
      to_location_id: bins[2],
      qty: 5,
    });
    expect(
      await admin.fieldErrors('POST', '/part-stock/adjustments', {
        part_id: places.part,
        location_id: bins[2],
        qty: -6,
        reason: 'Cracked in storage',
      }),
    ).toEqual({
      qty: ['Only 5 of LCD-A15 available at S-3: 6 cannot be taken. Stock never goes below zero.'],
    });
  });
});

describe('the accessory dashboard', () => {
  it('shows cover and the weekly consumption from the usage rows', async () => {
    // Consumption arrives through the service (repairs and orders later); here straight into the
    // ledger, as the generator writes it, so its trigger keeps the daily rows.
    await t.db.query(
      `INSERT INTO stock_moves (item_kind, item_id, qty, from_location_id, reason, reference, at)
       VALUES ('accessory', $1, 6, $2, 'consume', 'SO-1', now() - interval '2 days'),
              ('accessory', $1, 9, $2, 'consume', 'SO-2', now() - interval '1 day')`,
      [places.accessory, bins[0]],
    );
    await t.db.query(
      'UPDATE stock_levels SET on_hand = on_hand - 15 WHERE accessory_id = $1 AND location_id = $2',
      [places.accessory, bins[0]],
    );
    const dashboard = bodyOf<AccessoryDashboard>(
      await admin.get('/accessory-stock/dashboard'),
    ).data;
    const sku = dashboard.skus.find((row) => row.sku === 'CHG-20W')!;
    // 3 + 10 + 3 on hand; 15 used in 30 days: 16 / 0.5 a day = 32 days.
    expect(sku).toMatchObject({
      on_hand: 16,
      available: 16,
      used_30d: 15,
      days_of_cover: 32,
      reorder_point: 10,
      below_reorder: false,
    });
    expect(dashboard.weeks).toHaveLength(12);
    expect(dashboard.weeks.reduce((sum, week) => sum + week.consumed, 0)).toBe(15);
    expect(dashboard.weeks.reduce((sum, week) => sum + week.received, 0)).toBe(30);
    const busiest = dashboard.weeks.find((week) => week.consumed > 0)!;
    const detail = bodyOf<AccessoryDashboard>(
      await admin.get(`/accessory-stock/dashboard?week=${busiest.week}`),
    ).data.week_detail;
    expect(detail?.skus[0]).toMatchObject({ sku: 'CHG-20W', consumed: busiest.consumed });
  });

  it('exports the reorder list: the SKUs at or below their reorder point', async () => {
    await act('/accessory-stock/adjustments', {
      accessory_id: places.accessory,
      location_id: bins[1],
      qty: -8,
      reason: 'Water damage',
    });
    const file = await admin.download('/accessory-stock/dashboard/reorder-list/exports', {
      format: 'csv',
    });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain('SKU');
    expect(file.body).toContain('CHG-20W');
  });
});

describe('who may', () => {
  it('read with the page, and act only with the right to change stock', async () => {
    await createRole(t.db, 'Box reader', ['box.view-list', 'part-stock.view-list']);
    await createUser(t.db, {
      userName: 'reader',
      password: 'reader-password-1',
      roles: ['Box reader'],
    });
    const reader = apiClient(t, await login(t.app, 'reader', 'reader-password-1'));
    expect((await reader.get('/accessory-stock')).statusCode).toBe(200);
    expect((await reader.get('/part-stock')).statusCode).toBe(200);
    const receipt = {
      accessory_id: places.accessory,
      location_id: bins[0],
      qty: 1,
      reference: 'PO-9',
    };
    expect((await reader.post('/accessory-stock/receipts', receipt)).statusCode).toBe(403);
    expect(
      (
        await reader.post('/part-stock/adjustments', {
          part_id: places.part,
          location_id: bins[0],
          qty: 1,
          reason: 'Found',
        })
      ).statusCode,
    ).toBe(403);
    expect((await reader.get('/accessory-stock/dashboard')).statusCode).toBe(403);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/v1/accessory-stock/receipts',
      payload: receipt,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a location holding counted stock', () => {
  it('counts its levels with units, and those below it, so it stays active', async () => {
    const [zone] = await t.db.query<{ holds: number }>(
      "SELECT location_holds(id) AS holds FROM locations WHERE code = 'S'",
    );
    const [emptied] = await t.db.query<{ holds: number }>(
      "SELECT location_holds(id) AS holds FROM locations WHERE code = 'S-4'",
    );
    // S-1, S-2 and S-3 each hold chargers and screens: six levels.
    expect([zone!.holds, emptied!.holds]).toEqual([6, 0]);
    const refused = await admin.post('/locations/activation', { ids: [bins[0]], active: false });
    expect(refused.statusCode).toBe(409);
  });
});

describe('an item with stock moves', () => {
  it('is not deleted from the master: its ledger refers to it (409)', async () => {
    const refused = await admin.delete(`/accessories/${places.accessory}`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(bodyOf(refused).message).toContain('stock moves');
    expect((await admin.delete(`/parts/${places.part}`)).statusCode).toBe(409);
  });
});
