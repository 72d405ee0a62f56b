import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { ledgerOf, seedStockPlaces, type StockPlaces } from '../../test/stock-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

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
