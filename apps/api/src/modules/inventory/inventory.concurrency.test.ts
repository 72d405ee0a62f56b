import type { InventoryBox } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  consolidationScan,
  createBins,
  grade,
  place,
  receiveDevices,
} from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Workers racing for the same device or box. On PostgreSQL (TEST_DATABASE_URL) the requests run
 * on concurrent connections of the pool; on PGlite one at a time, and the rules hold there too.
 */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let imeis: string[];

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 24));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'A', 4, { capacity: 1 });
});
afterAll(() => t.close());

/** A second open box with the attributes of `box`. */
const twinOf = async (box: InventoryBox) =>
  (
    await t.db.query<{ code: string }>(
      `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, carrier_lock, max_qty)
       SELECT model_id, color_id, capacity_gb, grade, carrier_lock, 50 FROM inventory_boxes
       WHERE id = $1 RETURNING code`,
      [box.id],
    )
  )[0]!.code;

describe('two workers putting the same device into two boxes at once', () => {
  it('put it in one; the other is told where it went', async () => {
    const left = (await consolidationScan(admin, imeis[0]!)).box!;
    await t.db.query('UPDATE inventory_boxes SET max_qty = 50 WHERE id = $1', [left.id]);
    const right = await twinOf(left);
    for (const imei of imeis.slice(0, 12)) {
      const answers = await Promise.all([place(admin, imei, left.code), place(admin, imei, right)]);
      expect(answers.map((answer) => answer.result).sort()).toEqual(['added', 'in_other_box']);
    }
    const [state] = await t.db.query<{ qty: number; boxed: number; events: number }>(
      `SELECT (SELECT sum(qty) FROM inventory_boxes)::int AS qty,
         (SELECT count(*) FROM devices WHERE inventory_box_id IS NOT NULL)::int AS boxed,
         (SELECT count(*) FROM device_events WHERE type = 'consolidated')::int AS events`,
    );
    expect(state).toEqual({ qty: 12, boxed: 12, events: 12 });
  });
});

describe('many workers filling one box with room for a few', () => {
  it('never put more in it than it holds', async () => {
    const box = (await consolidationScan(admin, imeis[12]!)).box!;
    await t.db.query('UPDATE inventory_boxes SET max_qty = qty + 4 WHERE id = $1', [box.id]);
    const answers = await Promise.all(imeis.slice(12).map((imei) => place(admin, imei, box.code)));
    expect(answers.filter((answer) => answer.result === 'added')).toHaveLength(4);
    expect(answers.filter((answer) => answer.result === 'box_full')).toHaveLength(8);
  });
});

describe('two people putting the same box away at once', () => {
  it('put it in one location; the other is refused', async () => {
    const boxes = await t.db.query<{ id: number; code: string }>(
      "SELECT id, code FROM inventory_boxes WHERE qty > 0 AND status = 'open' ORDER BY id",
    );
    for (const box of boxes) {
      expect((await admin.post(`/inventory-boxes/${box.id}/seal`)).statusCode).toBe(200);
    }
    const box = boxes[0]!;
    const answers = await Promise.all([
      admin.post('/putaway', { box_code: box.code, location_code: 'A-01' }),
      admin.post('/putaway', { box_code: box.code, location_code: 'A-02' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const [located] = await t.db.query<{ n: number; audits: number }>(
      `SELECT (SELECT count(*) FROM inventory_boxes WHERE status = 'located')::int AS n,
         (SELECT count(*) FROM audit_events WHERE action = 'inventory_box.located')::int AS audits`,
    );
    expect(located).toEqual({ n: 1, audits: 1 });
  });

  it('never put two boxes in a bin with room for one', async () => {
    // Boxes sealed elsewhere, waiting (beside the one left from the race above, when both
    // boxes of that race were filled: on PGlite one request runs before the other).
    await t.db.query(
      `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, sealed_at)
       SELECT $1, 'B', 10, 1, 'sealed', now() FROM generate_series(1, 3)`,
      [catalogue.models.a15],
    );
    const sealed = bodyOf<InventoryBox[]>(await admin.get('/putaway/queue')).data;
    expect(sealed.length).toBeGreaterThanOrEqual(3);
    const answers = await Promise.all(
      sealed.map((box) => admin.post('/putaway', { box_code: box.code, location_code: 'A-03' })),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(1);
  });
});
