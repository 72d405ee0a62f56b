import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * People moving boxes and putting pallets away at once. On PostgreSQL (TEST_DATABASE_URL) the
 * requests run on concurrent connections of the pool; on PGlite one at a time, and the rules
 * hold there too.
 */

let t: TestApp;
let admin: ApiClient;
let imeis: string[];
let next = 0;

const newBox = (location?: string) =>
  boxOf(t, [imeis[next++]!], {
    status: location ? 'located' : 'sealed',
    ...(location && { location }),
  });

/** Boxes in a location, counted from the boxes and as migration 0032's counters keep it. */
const heldIn = async (code: string) =>
  (
    await t.db.query<{ boxes: number; counted: number }>(
      `SELECT (SELECT count(*)::int FROM inventory_boxes WHERE location_id = l.id) AS boxes,
         location_holds(l.id) AS counted
       FROM locations l WHERE l.code = $1`,
      [code],
    )
  )[0]!;

beforeAll(async () => {
  let catalogue;
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 60));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'A', 3, { capacity: 20 });
  await createBins(t, 'P', 2, { capacity: 6 });
});
afterAll(() => t.close());

describe('two people moving the same box to two bins at once', () => {
  it('move it to one; the other is told it was moved meanwhile', async () => {
    for (let round = 0; round < 6; round += 1) {
      const box = await newBox('A-01');
      const answers = await Promise.all(
        ['A-02', 'A-03'].map((to) =>
          admin.post('/putaway/moves', {
            box_code: box.code,
            from_location_code: 'A-01',
            location_code: to,
          }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const refused = answers.find((answer) => answer.statusCode === 409)!;
      expect(refused.json().message).toMatch(/now, not A-01: it was moved meanwhile/);
      const [audits] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM audit_events
         WHERE action = 'inventory_box.moved' AND entity_id = $1`,
        [String(box.id)],
      );
      expect(audits!.n).toBe(1);
    }
    const counts = await Promise.all(['A-01', 'A-02', 'A-03'].map(heldIn));
    expect(counts.map((count) => count.boxes)).toEqual(counts.map((count) => count.counted));
    expect(counts[0]!.boxes).toBe(0);
    expect(counts[1]!.boxes + counts[2]!.boxes).toBe(6);
  });
});

describe('pallets racing for the last places of a bin', () => {
  it('never put more in it than it holds', async () => {
    // P-01 holds 6: 2 there already, room for 4; five pallets of 2 race for it.
    await newBox('P-01');
    await newBox('P-01');
    const pallets = [];
    for (let n = 0; n < 5; n += 1) pallets.push([await newBox(), await newBox()]);
    const answers = await Promise.all(
      pallets.map((pallet) =>
        admin.post('/putaway/pallets', {
          box_codes: pallet.map((box) => box.code),
          location_code: 'P-01',
        }),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(2);
    const refused = answers.filter((answer) => answer.statusCode === 409);
    expect(refused).toHaveLength(3);
    for (const answer of refused) {
      expect(answer.json().message).toContain('P-01 has room for 0 more, not 2 boxes');
    }
    expect(await heldIn('P-01')).toEqual({ boxes: 6, counted: 6 });
    // All or nothing: every pallet's boxes are all located or all sealed.
    for (const pallet of pallets) {
      const statuses = await t.db.query<{ status: string }>(
        'SELECT DISTINCT status FROM inventory_boxes WHERE id = ANY ($1::bigint[])',
        [pallet.map((box) => box.id)],
      );
      expect(statuses).toHaveLength(1);
    }
  });

  it('hold with a pallet, single putaways and moves racing for the same places', async () => {
    // P-02 holds 6, empty: a pallet of 4, two single putaways and two moves race for it.
    const pallet = [await newBox(), await newBox(), await newBox(), await newBox()];
    const singles = [await newBox(), await newBox()];
    const moved = [await newBox('A-01'), await newBox('A-01')];
    const answers = await Promise.all([
      admin.post('/putaway/pallets', {
        box_codes: pallet.map((box) => box.code),
        location_code: 'P-02',
      }),
      ...singles.map((box) =>
        admin.post('/putaway', { box_code: box.code, location_code: 'P-02' }),
      ),
      ...moved.map((box) =>
        admin.post('/putaway/moves', {
          box_code: box.code,
          from_location_code: 'A-01',
          location_code: 'P-02',
        }),
      ),
    ]);
    expect(answers.every((answer) => [200, 409].includes(answer.statusCode))).toBe(true);
    const placed = answers.reduce(
      (sum, answer, index) => sum + (answer.statusCode === 200 ? (index === 0 ? 4 : 1) : 0),
      0,
    );
    const held = await heldIn('P-02');
    expect(held).toEqual({ boxes: placed, counted: placed });
    expect(placed).toBeLessThanOrEqual(6);
    // Whatever came first, the places left over were taken by whoever fitted.
    expect(placed).toBeGreaterThanOrEqual(4);
  });
});
