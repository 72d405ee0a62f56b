import type { ImportBatch } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { hoursAgo, shippedParcels, trackingCsv } from './tracking.test-support.js';

/**
 * Two tracking files of the same parcels committed at once. On PostgreSQL (TEST_DATABASE_URL) the
 * commits meet on concurrent connections: each locks the parcels before it records, so the second
 * reads what the first wrote. Every event is stored once, each parcel's state is its newest
 * event's, and its order moves once.
 */

let t: TestApp;
let clerks: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  const clients: ApiClient[] = [];
  for (const userName of ['tracker-a', 'tracker-b']) {
    const password = `${userName}-password-1`;
    await createUser(t.db, { userName, password, roles: ['Shipping Clerk'] });
    clients.push(apiClient(t, await login(t.app, userName, password)));
  }
  clerks = clients as [ApiClient, ApiClient];
});
afterAll(() => t.close());

describe('two tracking files at once', () => {
  it('leave each parcel one consistent state and no event twice', async () => {
    const parcels = await shippedParcels(t, clerks[0], 4);
    const delivered = hoursAgo(2);
    // Both files hold the delivery; each holds an earlier event the other lacks.
    const files = [
      trackingCsv(
        parcels.flatMap((parcel) => [
          [parcel.tracking, 'Accepted at USPS Origin Facility', hoursAgo(30)] as const,
          [parcel.tracking, 'Delivered', delivered, 'HOUSTON, TX 77002'] as const,
        ]),
      ),
      trackingCsv(
        parcels.flatMap((parcel) => [
          [parcel.tracking, 'Delivered', delivered, 'HOUSTON, TX 77002'] as const,
          [parcel.tracking, 'Out for Delivery', hoursAgo(8)] as const,
        ]),
      ),
    ];
    const checks = await Promise.all(
      clerks.map((clerk, n) => clerk.uploadAndCheck('tracking-events', `file-${n}.csv`, files[n]!)),
    );
    for (const { check } of checks) expect(check.errors).toEqual([]);
    const batches = await Promise.all(
      clerks.map((clerk, n) =>
        dataOf<ImportBatch>(clerk.commitImport('tracking-events', checks[n]!.check.batch.id)),
      ),
    );
    // Four deliveries in all, recorded by one file or the other; the parcels moved once each.
    expect(batches.map((batch) => batch.status)).toEqual(['committed', 'committed']);
    expect(batches.reduce((sum, batch) => sum + batch.created_count, 0)).toBe(parcels.length * 3);
    expect(batches.reduce((sum, batch) => sum + batch.updated_count, 0)).toBe(parcels.length);

    const ids = parcels.map((parcel) => parcel.id);
    const orderIds = parcels.map((parcel) => parcel.orderId);
    const [counts] = await t.db.query<{
      events: number;
      distinct_events: number;
      delivered_steps: number;
      order_deliveries: number;
      states: string[];
      order_states: string[];
    }>(
      `SELECT
         (SELECT count(*)::int FROM tracking_events WHERE package_id = ANY ($1::bigint[])) AS events,
         (SELECT count(DISTINCT (package_id, occurred_at, status))::int FROM tracking_events
          WHERE package_id = ANY ($1::bigint[])) AS distinct_events,
         (SELECT count(*)::int FROM package_events
          WHERE package_id = ANY ($1::bigint[]) AND type = 'delivered') AS delivered_steps,
         (SELECT count(*)::int FROM order_events
          WHERE order_id = ANY ($2::bigint[]) AND type = 'delivered') AS order_deliveries,
         (SELECT array_agg(DISTINCT status) FROM packages WHERE id = ANY ($1::bigint[])) AS states,
         (SELECT array_agg(DISTINCT status) FROM orders WHERE id = ANY ($2::bigint[]))
           AS order_states`,
      [ids, orderIds],
    );
    expect(counts).toEqual({
      events: parcels.length * 3,
      distinct_events: parcels.length * 3,
      delivered_steps: parcels.length,
      order_deliveries: parcels.length,
      states: ['delivered'],
      order_states: ['delivered'],
    });
    const kept = await t.db.query<{ tracking_status: string; delivered: boolean }>(
      `SELECT DISTINCT tracking_status, delivered_at = $2::timestamptz AS delivered
       FROM packages WHERE id = ANY ($1::bigint[])`,
      [ids, delivered],
    );
    expect(kept).toEqual([{ tracking_status: 'delivered', delivered: true }]);
  });
});
