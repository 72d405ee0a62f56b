import type { OrderAssignmentResult } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { assignmentTeam, placeOrder, seedBox, seedShop } from './fulfilment.test-support.js';

/**
 * A device named by lines of orders in different assignment batches, and wanted by general
 * batches too (it is in the oldest box): on PostgreSQL (TEST_DATABASE_URL) the four batches run at
 * once on concurrent connections, on PGlite one after the other. Whatever the interleaving, the
 * device is reserved at most once, and once it is, it is `reserved` and the order holding it has
 * all its units.
 */

let t: TestApp;
let leaders: ApiClient[];
let workers: number[];
let support: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  ({ support, leaders, workers } = await assignmentTeam(t, 'named'));
});
afterAll(() => t.close());

describe('2 batches naming one device and 2 general batches, racing', () => {
  it.each([1, 2, 3])(
    'reserve it at most once (round %i)',
    async () => {
      const shop = await seedShop(t.db);
      const oldest = await seedBox(t.db, shop, 3, { sealedDaysAgo: 20 });
      await seedBox(t.db, shop, 5, { sealedDaysAgo: 5 });
      const named = oldest.imeis[0]!;
      const batches: number[][] = [];
      for (let n = 0; n < 4; n += 1) {
        const batch = [];
        for (let k = 0; k < 3; k += 1) batch.push((await placeOrder(support, shop)).id);
        batches.push(batch);
      }
      // The first order of the first two batches names the device.
      await t.db.query(
        `UPDATE order_lines SET requested_device_id = (SELECT id FROM devices WHERE imei = $2)
       WHERE order_id = ANY ($1::bigint[])`,
        [[batches[0]![0], batches[1]![0]], named],
      );
      const answers = await Promise.all(
        leaders.map((leader, n) =>
          leader.post('/fulfilment/assignments', {
            assignee_id: workers[n],
            order_ids: batches[n],
          }),
        ),
      );
      for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
      const results = answers.map(
        (answer) => (answer.json() as { data: OrderAssignmentResult }).data,
      );
      const reservedUnits = results.reduce((sum, result) => sum + result.units_reserved, 0);
      expect(reservedUnits).toBe(8);

      const orders = batches.flat();
      const [counts] = await t.db.query<{
        holding: number;
        named_status: string;
        open_units: number;
        devices: number;
        reserved: number;
      }>(
        `SELECT
         (SELECT count(*)::int FROM order_line_units u JOIN devices d ON d.id = u.device_id
          WHERE d.imei = $3 AND u.status IN ('allocated', 'picked', 'packed')) AS holding,
         (SELECT status FROM devices WHERE imei = $3) AS named_status,
         (SELECT count(*)::int FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
          WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated') AS open_units,
         (SELECT count(DISTINCT u.device_id)::int FROM order_line_units u
          JOIN order_lines l ON l.id = u.order_line_id
          WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated') AS devices,
         (SELECT count(*)::int FROM devices WHERE model_id = $2 AND status = 'reserved') AS reserved`,
        [orders, shop.modelId, named],
      );
      expect(counts).toEqual({
        holding: 1,
        named_status: 'reserved',
        open_units: 8,
        devices: 8,
        reserved: 8,
      });
      // The orders that named it and did not get it say so; the one that did, does not.
      const [notes] = await t.db.query<{ noted: number; holder_noted: number }>(
        `SELECT count(*)::int AS noted,
         count(*) FILTER (WHERE EXISTS (
           SELECT 1 FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
           JOIN devices d ON d.id = u.device_id
           WHERE l.order_id = e.order_id AND d.imei = $2 AND u.status = 'allocated'))::int
           AS holder_noted
       FROM order_events e
       WHERE e.order_id = ANY ($1::bigint[]) AND e.type = 'requested_unit_unavailable'`,
        [orders, named],
      );
      expect(notes!.holder_noted).toBe(0);
      expect(notes!.noted).toBeLessThanOrEqual(2);
    },
    120_000,
  );
});
