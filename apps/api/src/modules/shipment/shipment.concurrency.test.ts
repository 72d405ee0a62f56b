import type { LabelBatch, LabelStepAnswer, ShipScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/**
 * Two stations at once over the same parcels and orders. On PostgreSQL (TEST_DATABASE_URL) the
 * requests meet on concurrent connections: the package and its order are locked before they are
 * read, so one station ships a parcel and the other hears "already shipped"; the orders of a label
 * step are locked first, so two steps over the same orders buy one label each.
 */

let t: TestApp;
let stations: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  const clients: ApiClient[] = [];
  for (const userName of ['dock-a', 'dock-b']) {
    const password = `${userName}-password-1`;
    await createUser(t.db, { userName, password, roles: ['Shipping Clerk'] });
    clients.push(apiClient(t, await login(t.app, userName, password)));
  }
  stations = clients as [ApiClient, ApiClient];
});
afterAll(() => t.close());

const batchOf = (station: ApiClient) =>
  dataOf<LabelBatch>(station.post('/label-batches', { format: 'pdf' }), 201);

describe('two stations at once', () => {
  it('label the same orders once: one label per order, the other step answers it', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 8 });
    const ids = orders.map((order) => order.orderId);
    const batches = await Promise.all(stations.map(batchOf));
    const answers = await Promise.all(
      stations.map((station, n) =>
        dataOf<LabelStepAnswer>(
          station.post(`/label-batches/${batches[n]!.id}/labels`, { order_ids: ids }),
        ),
      ),
    );
    for (const id of ids) {
      const results = answers.map((answer) =>
        answer.results.find((result) => result.order_id === id)!,
      );
      expect(results.map((result) => result.result).sort()).toEqual([
        'already_labelled',
        'created',
      ]);
      expect(results[0]!.package!.id).toBe(results[1]!.package!.id);
    }
    const [count] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM packages WHERE order_id = ANY ($1::bigint[])',
      [ids],
    );
    expect(count!.n).toBe(ids.length);
  });

  it('scan the same parcels: each ships once, the other station hears "already shipped"', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 6, withSim: true });
    const batch = await batchOf(stations[0]);
    const labelled = await dataOf<LabelStepAnswer>(
      stations[0].post(`/label-batches/${batch.id}/labels`, {
        order_ids: orders.map((order) => order.orderId),
      }),
    );
    const codes = labelled.results.map((result) => result.package!.tracking_number);
    const answers = await Promise.all(
      codes.flatMap((code) =>
        stations.map((station, n) =>
          dataOf<ShipScanAnswer>(station.post('/ship-scans', { code, station: `Dock ${n + 1}` })),
        ),
      ),
    );
    for (const code of codes) {
      const results = answers.filter((answer) => answer.code === code).map((a) => a.result);
      expect(results.sort()).toEqual(['already_shipped', 'shipped']);
    }
    const [counts] = await t.db.query<{ scans: number; ships: number; sold: number }>(
      `SELECT
         (SELECT count(*)::int FROM package_events e JOIN packages p ON p.id = e.package_id
          WHERE p.tracking_number = ANY ($1::text[]) AND e.type = 'scanned_out') AS scans,
         (SELECT count(*)::int FROM order_events
          WHERE order_id = ANY ($2::bigint[]) AND type = 'shipped') AS ships,
         (SELECT qty_sold FROM pts_listings WHERE id = $3) AS sold`,
      [codes, orders.map((order) => order.orderId), orders[0]!.listingId],
    );
    expect(counts).toEqual({ scans: codes.length, ships: codes.length, sold: codes.length });
  });
});
