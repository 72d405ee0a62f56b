import type { OrderAssignmentResult, PickScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  assignmentTeam,
  placeOrder,
  seedBox,
  seedShop,
  signedIn,
} from './fulfilment.test-support.js';

/**
 * Assignment batches racing over scarce stock (issue 18): on PostgreSQL (TEST_DATABASE_URL) four
 * leaders assign four batches at once on concurrent connections; on PGlite one after the other.
 * Whatever the interleaving, no device is reserved twice, every reserved device is `reserved`,
 * and each order has all its units or none.
 */

let t: TestApp;
let leaders: ApiClient[];
let workers: number[];
let support: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  ({ support, leaders, workers } = await assignmentTeam(t, 'race'));
});
afterAll(() => t.close());

describe('4 assignment batches racing for 10 devices their orders want 40 of', () => {
  it('reserve every device at most once and leave no order half reserved', async () => {
    const shop = await seedShop(t.db);
    await seedBox(t.db, shop, 6, { sealedDaysAgo: 9 });
    await seedBox(t.db, shop, 4, { sealedDaysAgo: 3 });
    const orders: number[] = [];
    for (let n = 0; n < 32; n += 1) {
      const qty = n % 4 === 0 ? 2 : 1;
      orders.push(
        (await placeOrder(support, shop, { lines: [{ listing_id: shop.listingId, qty }] })).id,
      );
    }
    // Batches of 8 orders each, the last two sharing half their orders: they race for the
    // devices (each wants all 10), and two of them for orders too.
    const batches = [0, 8, 16, 20].map((start) => orders.slice(start, start + 8));
    const answers = await Promise.all(
      leaders.map((leader, n) =>
        leader.post('/fulfilment/assignments', { assignee_id: workers[n], order_ids: batches[n] }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const results = answers.map(
      (answer) => (answer.json() as { data: OrderAssignmentResult }).data,
    );
    const assigned = results.flatMap((result) => result.assigned.map((order) => order.id));
    expect(new Set(assigned).size).toBe(assigned.length);
    const reservedUnits = results.reduce((sum, result) => sum + result.units_reserved, 0);
    expect(reservedUnits).toBeGreaterThan(0);
    expect(reservedUnits).toBeLessThanOrEqual(10);

    const [counts] = await t.db.query<{
      open_units: number;
      devices: number;
      reserved: number;
      half: number;
    }>(
      `SELECT
         (SELECT count(*)::int FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
          WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated') AS open_units,
         (SELECT count(DISTINCT u.device_id)::int FROM order_line_units u
          JOIN order_lines l ON l.id = u.order_line_id
          WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated') AS devices,
         (SELECT count(*)::int FROM devices WHERE model_id = $2 AND status = 'reserved') AS reserved,
         (SELECT count(*)::int FROM orders o WHERE o.id = ANY ($1::bigint[])
          AND (o.status = 'assigned') <> ((SELECT count(*) FROM order_line_units u
               JOIN order_lines l ON l.id = u.order_line_id
               WHERE l.order_id = o.id AND u.status = 'allocated')
             = (SELECT sum(qty) FROM order_lines WHERE order_id = o.id))) AS half`,
      [orders, shop.modelId],
    );
    expect(counts).toEqual({
      open_units: reservedUnits,
      devices: reservedUnits,
      reserved: reservedUnits,
      half: 0,
    });
  }, 120_000);
});

describe('10 pick scans at once, every unit reserved from one box', () => {
  it('all pick, and the box counts every unit that left it', async () => {
    const shop = await seedShop(t.db);
    const { boxId } = await seedBox(t.db, shop, 12);
    const picker = await signedIn(t, 'race.picker', ['Fulfilment Worker']);
    const orders: number[] = [];
    for (let n = 0; n < 10; n += 1) orders.push((await placeOrder(support, shop)).id);
    await dataOf(
      leaders[0]!.post('/fulfilment/assignments', { assignee_id: picker.id, order_ids: orders }),
    );
    const reserved = await t.db.query<{ order_id: number; imei: string }>(
      `SELECT l.order_id::int AS order_id, d.identifier AS imei FROM order_line_units u
       JOIN order_lines l ON l.id = u.order_line_id JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = ANY ($1::bigint[])`,
      [orders],
    );
    expect(reserved).toHaveLength(10);
    // The box's count waits for the end of each scan's transaction: pickers of one box once
    // locked each other in a circle there (a key share from the unit, then the box's lock).
    const answers = await Promise.all(
      reserved.map(({ order_id, imei }) =>
        picker.client.post(`/fulfilment/picks/${order_id}/scans`, { code: imei, station: 'P' }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect(
      answers.map((answer) => (answer.json() as { data: PickScanAnswer }).data.result),
    ).toEqual(Array(10).fill('picked'));
    const [box] = await t.db.query<{ qty: number; status: string; in_box: number }>(
      `SELECT qty, status, (SELECT count(*)::int FROM devices WHERE inventory_box_id = b.id)
         AS in_box FROM inventory_boxes b WHERE id = $1`,
      [boxId],
    );
    expect(box).toEqual({ qty: 2, status: 'partially_picked', in_box: 2 });
  }, 120_000);
});
