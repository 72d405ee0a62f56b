import type { BoxScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, receiveDevices } from '../../test/inventory-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Two stations or two people at once at the box scan station and the box list. On PostgreSQL
 * (TEST_DATABASE_URL) the requests run on concurrent connections of the pool; on PGlite one at a
 * time, and the rules hold there too.
 */

let t: TestApp;
let admin: ApiClient;
let imeis: string[];

beforeAll(async () => {
  let catalogue;
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 24));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  await createBins(t, 'A', 4, { capacity: 20 });
});
afterAll(() => t.close());

const scan = async (body: Record<string, unknown>) => {
  const response = await admin.post('/box-scans', { station: 'race', ...body });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<BoxScanAnswer>(response).data;
};

const state = async () =>
  (
    await t.db.query<{ qty: number; boxed: number; events: number }>(
      `SELECT (SELECT sum(qty) FROM inventory_boxes)::int AS qty,
         (SELECT count(*) FROM devices WHERE inventory_box_id IS NOT NULL)::int AS boxed,
         (SELECT count(*) FROM device_events
          WHERE type IN ('added_to_box', 'moved_between_boxes'))::int AS events`,
    )
  )[0]!;

describe('two stations moving the same device into two boxes at once', () => {
  it('move it into one; the other is told it is no longer in the box it scanned', async () => {
    const from = await boxOf(t, imeis.slice(0, 8), { location: 'A-01', maxQty: 50 });
    const left = await boxOf(t, imeis.slice(8, 9), { location: 'A-02', maxQty: 50 });
    const right = await boxOf(t, imeis.slice(9, 10), { location: 'A-03', maxQty: 50 });
    for (const imei of imeis.slice(0, 8)) {
      const answers = await Promise.all(
        [left, right].map((into) =>
          scan({ mode: 'move', code: imei, box_code: into.code, from_box_code: from.code }),
        ),
      );
      expect(answers.map((answer) => answer.result).sort()).toEqual(['moved', 'not_in_box']);
    }
    expect(await state()).toEqual({ qty: 10, boxed: 10, events: 8 });
    const [source] = await t.db.query<{ qty: number }>(
      'SELECT qty FROM inventory_boxes WHERE id = $1',
      [from.id],
    );
    expect(source!.qty).toBe(0);
  });

  it('add a device in no box into one of them; the other is told where it went', async () => {
    const left = await boxOf(t, imeis.slice(10, 11), { location: 'A-04', maxQty: 50 });
    const right = await boxOf(t, imeis.slice(11, 12), { location: 'A-04', maxQty: 50 });
    await t.db.query(
      `UPDATE devices SET status = 'in_stock', inventory_box_id = NULL, warehouse_box_id = NULL
       WHERE imei = ANY ($1::text[])`,
      [imeis.slice(12, 20)],
    );
    const before = await state();
    for (const imei of imeis.slice(12, 20)) {
      const answers = await Promise.all(
        [left, right].map((into) => scan({ mode: 'add', code: imei, box_code: into.code })),
      );
      expect(answers.map((answer) => answer.result).sort()).toEqual(['added', 'in_other_box']);
    }
    expect(await state()).toEqual({
      qty: before.qty + 8,
      boxed: before.boxed + 8,
      events: before.events + 8,
    });
  });
});

describe('two people starting a count on one box at once', () => {
  it('start one; the other is told it runs already', async () => {
    const boxes = await Promise.all(
      [20, 21, 22].map((n) => boxOf(t, imeis.slice(n, n + 1), { location: 'A-01' })),
    );
    for (const box of boxes) {
      const answers = await Promise.all([
        admin.post(`/inventory-boxes/${box.id}/counts`),
        admin.post(`/inventory-boxes/${box.id}/counts`),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    }
    const [counts] = await t.db.query<{ running: number; locked: number; audits: number }>(
      `SELECT (SELECT count(*) FROM inventory_box_counts WHERE finished_at IS NULL)::int AS running,
         (SELECT count(*) FROM inventory_boxes WHERE status = 'locked')::int AS locked,
         (SELECT count(*) FROM audit_events
          WHERE action = 'inventory_box.count_started')::int AS audits`,
    );
    expect(counts).toEqual({ running: 3, locked: 3, audits: 3 });
  });

  it('count a device scanned twice at once once, and finish a count once', async () => {
    const [running] = await t.db.query<{ id: number; code: string; imei: string }>(
      `SELECT c.id, b.code, d.imei FROM inventory_box_counts c
       JOIN inventory_boxes b ON b.id = c.box_id JOIN devices d ON d.inventory_box_id = b.id
       WHERE c.finished_at IS NULL ORDER BY c.id LIMIT 1`,
    );
    const scans = await Promise.all(
      [1, 2].map(() => scan({ mode: 'verify', code: running!.imei, box_code: running!.code })),
    );
    expect(scans.map((answer) => answer.result).sort()).toEqual(['counted', 'duplicate']);
    const finishes = await Promise.all(
      [1, 2].map(() => admin.post(`/inventory-box-counts/${running!.id}/finish`)),
    );
    expect(finishes.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
  });
});
