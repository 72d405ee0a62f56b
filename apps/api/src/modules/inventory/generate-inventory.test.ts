import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import type { TestApp } from '../../test/test-app.js';
import { generateBoxHistory, generateInventory } from './generate-inventory.js';

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
});
afterAll(() => t.close());

it('packs the unboxed in-stock devices by kind into boxes, most of them located', async () => {
  const { catalogue, imeis } = await receiveDevices(t, admin, 23);
  await grade(t, imeis.slice(0, 17), { grade: 'A', colorId: catalogue.colors.black });
  await grade(t, imeis.slice(17, 21), { grade: 'B', colorId: catalogue.colors.black });
  await t.db.query(`UPDATE devices SET status = 'in_stock' WHERE imei = ANY ($1::text[])`, [
    imeis.slice(0, 21),
  ]);
  // Graded devices stay waiting for consolidation.
  await grade(t, imeis.slice(21), { grade: 'A', colorId: catalogue.colors.blue });
  await createBins(t, 'A', 2, { capacity: 1 });

  const summary = await generateInventory(t.db, { boxSize: 4, putawayEvery: 3 });
  // Grade A: 17 devices in 4 full boxes and one of 1; grade B: one full box of 4.
  expect(summary).toMatchObject({ boxes: 6, devices: 21 });
  const boxes = await t.db.query<{ status: string; qty: number; location: string | null }>(
    `SELECT b.status, b.qty, l.code AS location FROM inventory_boxes b
     LEFT JOIN locations l ON l.id = b.location_id ORDER BY b.id`,
  );
  // Box 3 waits for putaway; the bins' two places go to the first full boxes; the rest queue.
  expect(boxes).toEqual([
    { status: 'located', qty: 4, location: 'A-01' },
    { status: 'located', qty: 4, location: 'A-02' },
    { status: 'sealed', qty: 4, location: null },
    { status: 'sealed', qty: 4, location: null },
    { status: 'open', qty: 1, location: null },
    { status: 'sealed', qty: 4, location: null },
  ]);
  const [devices] = await t.db.query<{ boxed: number; mismatched: number }>(
    `SELECT count(d.inventory_box_id)::int AS boxed,
       count(*) FILTER (WHERE b.grade <> d.grade OR b.model_id <> d.model_id)::int AS mismatched
     FROM devices d LEFT JOIN inventory_boxes b ON b.id = d.inventory_box_id`,
  );
  expect(devices).toEqual({ boxed: 21, mismatched: 0 });
  // Codes and the sequence go on from the generated boxes.
  const [next] = await t.db.query<{ code: string }>(
    `INSERT INTO inventory_boxes (model_id, grade, max_qty) VALUES ($1, 'A', 5) RETURNING code`,
    [catalogue.models.a15],
  );
  expect(next!.code).toBe('IB-000007');
  expect((await generateInventory(t.db)).boxes).toBe(0);
});

it('adds archived boxes over two years, each empty, of the models and colours there are', async () => {
  const before = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM inventory_boxes');
  const anchor = new Date('2026-11-01T00:00:00Z');
  expect(await generateBoxHistory(t.db, { boxes: 30, anchor })).toEqual({ boxes: 30 });
  const [history] = await t.db.query<{
    n: number;
    empty: boolean;
    oldest: string;
    newest: string;
    kinds: number;
  }>(
    `SELECT count(*)::int AS n, bool_and(qty = 0 AND status = 'archived') AS empty,
       to_char(min(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS oldest,
       to_char(max(created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS newest,
       count(DISTINCT (model_id, grade))::int AS kinds
     FROM inventory_boxes WHERE id > $1`,
    [before[0]!.n],
  );
  expect(history).toMatchObject({ n: 30, empty: true, oldest: '2024-10-26', newest: '2026-10-02' });
  expect(history!.kinds).toBeGreaterThan(1);
  await expect(generateBoxHistory(t.db, { boxes: 0 })).rejects.toThrow('boxes must be');
});
