import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-database.js';
import type { Db } from '../../db/db.js';
import { generateStock } from './generate-stock.js';

let db: Db;

beforeAll(async () => {
  db = await openTestDatabase({ prepared: true });
  const [zone] = await db.query<{ id: number }>(
    "INSERT INTO locations (code, kind, active) VALUES ('A', 'zone', true) RETURNING id::int AS id",
  );
  await db.query(
    `INSERT INTO locations (code, kind, parent_id, active)
     SELECT 'A-' || n, 'bin', $1, true FROM generate_series(1, 20) AS n`,
    [zone!.id],
  );
});
afterAll(() => db.close());

describe('generateStock', () => {
  it('writes a catalogue, levels that are the sums of their moves, and usage rows', async () => {
    const anchor = new Date('2026-11-02T00:00:00Z');
    const summary = await db.transaction((tx) =>
      generateStock(tx, { accessories: 10, parts: 12, days: 56, anchor }),
    );
    expect(summary).toMatchObject({ accessories: 10, parts: 12 });
    expect(summary.moves).toBeGreaterThan(300);
    const [mismatches] = await db.query<{ n: number; negative: number }>(
      `SELECT count(*) FILTER (WHERE s.on_hand <> COALESCE(i.qty, 0) - COALESCE(o.qty, 0))::int AS n,
         count(*) FILTER (WHERE s.on_hand < 0)::int AS negative
       FROM stock_levels s
       LEFT JOIN LATERAL (SELECT sum(qty) AS qty FROM stock_moves m WHERE m.item_kind = s.item_kind
         AND m.item_id = s.item_id AND m.to_location_id = s.location_id) i ON true
       LEFT JOIN LATERAL (SELECT sum(qty) AS qty FROM stock_moves m WHERE m.item_kind = s.item_kind
         AND m.item_id = s.item_id AND m.from_location_id = s.location_id) o ON true`,
    );
    expect(mismatches).toEqual({ n: 0, negative: 0 });
    const [usage] = await db.query<{ consumed: number; moved: number }>(
      `SELECT (SELECT sum(consumed) FROM stock_usage_days)::int AS consumed,
         (SELECT sum(qty) FROM stock_moves WHERE reason = 'consume')::int AS moved`,
    );
    expect(usage!.consumed).toBe(usage!.moved);
    const [below] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM accessories a
       WHERE a.reorder_point >= (SELECT sum(on_hand - reserved) FROM stock_levels WHERE accessory_id = a.id)`,
    );
    expect(below!.n).toBeGreaterThan(0);
    await expect(db.transaction((tx) => generateStock(tx))).rejects.toThrow(/already/);
  });
});
