import type { StockCountResult } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { ledgerOf, seedStockPlaces, type StockPlaces } from '../../test/stock-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Many takers of the last units at once. On PostgreSQL (TEST_DATABASE_URL) the requests run on
 * concurrent connections of the pool; on PGlite one at a time, and the rules hold there too.
 */

let t: TestApp;
let admin: ApiClient;
let places: StockPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedStockPlaces(t.db);
});
afterAll(() => t.close());

const receive = (location: number, qty: number) =>
  admin.post('/accessory-stock/receipts', {
    accessory_id: places.accessory,
    location_id: location,
    qty,
    reference: 'PO-RACE',
  });
const takeOne = (location: number) =>
  admin.post('/accessory-stock/adjustments', {
    accessory_id: places.accessory,
    location_id: location,
    qty: -1,
    reason: 'Used for a replacement',
  });
const moveOne = (from: number, to: number) =>
  admin.post('/accessory-stock/moves', {
    accessory_id: places.accessory,
    from_location_id: from,
    to_location_id: to,
    qty: 1,
  });

describe('many takers of the last units', () => {
  it('succeed exactly as many times as there are units', async () => {
    const [, , last] = places.bins;
    expect((await receive(last!, 3)).statusCode).toBe(201);
    const answers = await Promise.all(Array.from({ length: 12 }, () => takeOne(last!)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(201), ...Array(9).fill(422)]);
    const [level] = await t.db.query<{ on_hand: number }>(
      'SELECT on_hand FROM stock_levels WHERE accessory_id = $1 AND location_id = $2',
      [places.accessory, last],
    );
    expect(level!.on_hand).toBe(0);
  });

  it('moving both ways and taking at once: never below zero, no deadlock, the ledger adds up', async () => {
    const [a, b] = places.bins as [number, number];
    expect((await receive(a, 10)).statusCode).toBe(201);
    expect((await receive(b, 5)).statusCode).toBe(201);
    const requests = [
      ...Array.from({ length: 15 }, () => takeOne(a)),
      ...Array.from({ length: 10 }, () => moveOne(a, b)),
      ...Array.from({ length: 10 }, () => moveOne(b, a)),
      ...Array.from({ length: 8 }, () => takeOne(b)),
    ];
    const answers = await Promise.all(requests);
    for (const answer of answers) expect([201, 422], answer.body).toContain(answer.statusCode);
    const taken = answers
      .slice(0, 15)
      .concat(answers.slice(35))
      .filter((answer) => answer.statusCode === 201).length;

    const ledger = await ledgerOf(t.db, 'accessory', places.accessory);
    for (const row of ledger) {
      expect(row.on_hand).toBeGreaterThanOrEqual(0);
      expect(row.ledger).toBe(row.on_hand);
    }
    const atAandB = ledger
      .filter((row) => row.location_id === a || row.location_id === b)
      .reduce((sum, row) => sum + row.on_hand, 0);
    // Moves keep the units; only the adjustments that succeeded took any.
    expect(atAandB).toBe(15 - taken);
    expect(taken).toBeGreaterThan(0);
  });
});

const count = (kind: 'accessory' | 'part', itemId: number, location: number, counted: number) =>
  admin.post(`/${kind}-stock/counts`, {
    [`${kind}_id`]: itemId,
    location_id: location,
    counted_qty: counted,
  });
const countMoves = (kind: 'accessory' | 'part', itemId: number) =>
  t.db.query<{ qty: number }>(
    "SELECT qty FROM stock_moves WHERE item_kind = $1 AND item_id = $2 AND reason = 'count'",
    [kind, itemId],
  );

describe('counts of one level at once', () => {
  it('take turns: the first writes the difference, the others find the books right', async () => {
    const [a] = places.bins as [number];
    const [before] = await t.db.query<{ on_hand: number }>(
      'SELECT on_hand FROM stock_levels WHERE accessory_id = $1 AND location_id = $2',
      [places.accessory, a],
    );
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => count('accessory', places.accessory, a, before!.on_hand + 6)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const differences = answers
      .map((answer) => bodyOf<StockCountResult>(answer).data.lines[0]!.difference)
      .sort((x, y) => y - x);
    // Had they not waited for each other, each would have found the old books and added 6.
    expect(differences).toEqual([6, 0, 0, 0, 0, 0, 0, 0]);
    for (const row of await ledgerOf(t.db, 'accessory', places.accessory)) {
      expect(row.ledger).toBe(row.on_hand);
    }
  });

  it('of units found where the books had none: one level, one move', async () => {
    const [, , c] = places.bins as [number, number, number];
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => count('part', places.part, c, 3)),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const [level] = await t.db.query<{ on_hand: number }>(
      'SELECT on_hand FROM stock_levels WHERE part_id = $1 AND location_id = $2',
      [places.part, c],
    );
    expect(level!.on_hand).toBe(3);
    expect(await countMoves('part', places.part)).toEqual([{ qty: 3 }]);
  });

  it('beside receipts, moves and whole-bin counts of the same part: no deadlock, the ledger adds up', async () => {
    const [a, b, c] = places.bins as [number, number, number];
    const receipt = (location: number) =>
      admin.post('/part-stock/receipts', {
        part_id: places.part,
        location_id: location,
        vendor_id: places.vendor,
        qty: 2,
        unit_cost_cents: 500,
        reference: 'INV-RACE',
      });
    const binCount = (location: number, counted: number) =>
      admin.post('/part-stock/bin-counts', {
        location_id: location,
        lines: [{ part_id: places.part, counted_qty: counted }],
      });
    const move = (from: number, to: number) =>
      admin.post('/part-stock/moves', {
        part_id: places.part,
        from_location_id: from,
        to_location_id: to,
        qty: 1,
      });
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => receipt([a, b, c][i % 3]!)),
      ...Array.from({ length: 6 }, (_, i) => count('part', places.part, [a, b, c][i % 3]!, 4)),
      ...Array.from({ length: 4 }, (_, i) => binCount([a, c][i % 2]!, 5)),
      ...Array.from({ length: 6 }, (_, i) => move([a, b, c][i % 3]!, [b, c, a][i % 3]!)),
    ]);
    for (const answer of answers) expect([201, 422], answer.body).toContain(answer.statusCode);
    // Counts and receipts never refuse here; only a move may find its bin empty.
    expect(answers.slice(0, 16).every((answer) => answer.statusCode === 201)).toBe(true);
    for (const row of await ledgerOf(t.db, 'part', places.part)) {
      expect(row.on_hand).toBeGreaterThanOrEqual(0);
      expect(row.ledger).toBe(row.on_hand);
    }
  });
});
