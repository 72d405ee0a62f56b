import type {
  GaylordRow,
  GaylordScanAnswer,
  LabelBatch,
  LabelStepAnswer,
  ScanFormAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/**
 * Two sorting stations at once. On PostgreSQL (TEST_DATABASE_URL) the requests meet on concurrent
 * connections: a scan locks the parcel with its order before it reads where the parcel is, so of
 * two stations scanning the same parcel into two gaylords one sorts it and the other hears which
 * gaylord has it; two SCAN forms asked for at once make one form for the day.
 */

let t: TestApp;
let stations: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  const clients: ApiClient[] = [];
  for (const userName of ['sorter-a', 'sorter-b']) {
    const password = `${userName}-password-1`;
    await createUser(t.db, { userName, password, roles: ['Shipping Clerk'] });
    clients.push(apiClient(t, await login(t.app, userName, password)));
  }
  stations = clients as [ApiClient, ApiClient];
});
afterAll(() => t.close());

async function labelledCodes(count: number): Promise<string[]> {
  const orders = await seedFulfilledOrders(t.db, { count });
  const batch = await dataOf<LabelBatch>(
    stations[0].post('/label-batches', { format: 'pdf' }),
    201,
  );
  const labelled = await dataOf<LabelStepAnswer>(
    stations[0].post(`/label-batches/${batch.id}/labels`, {
      order_ids: orders.map((order) => order.orderId),
    }),
  );
  return labelled.results.map((result) => result.package!.tracking_number);
}

const openGaylord = (station: ApiClient) =>
  dataOf<GaylordRow>(station.post('/gaylords', { service: 'usps_ground_advantage' }), 201);

describe('two sorting stations at once', () => {
  it('scan the same parcels into two gaylords: each parcel is sorted once, the other station hears where it is', async () => {
    const codes = await labelledCodes(6);
    const gaylords = await Promise.all(stations.map(openGaylord));
    const answers = await Promise.all(
      codes.flatMap((code) =>
        stations.map((station, n) =>
          dataOf<GaylordScanAnswer>(
            station.post(`/gaylords/${gaylords[n]!.id}/scans`, {
              code,
              station: `Sorter ${n + 1}`,
            }),
          ),
        ),
      ),
    );
    for (const code of codes) {
      const results = answers.filter((answer) => answer.code === code);
      expect(results.map((answer) => answer.result).sort()).toEqual(['other_gaylord', 'sorted']);
      const winner = results.find((answer) => answer.result === 'sorted')!;
      expect(results.find((answer) => answer.result === 'other_gaylord')!.message).toContain(
        winner.gaylord.code,
      );
    }
    const rows = await t.db.query<{ gaylord_id: number; n: number; sorts: number }>(
      `SELECT p.gaylord_id::int AS gaylord_id, count(*)::int AS n,
         sum((SELECT count(*) FROM package_events e
              WHERE e.package_id = p.id AND e.type = 'sorted_into_gaylord'))::int AS sorts
       FROM packages p WHERE p.tracking_number = ANY ($1::text[]) AND p.status = 'in_gaylord'
       GROUP BY p.gaylord_id`,
      [codes],
    );
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBe(codes.length);
    expect(rows.reduce((sum, row) => sum + row.sorts, 0)).toBe(codes.length);
    const counts = await t.db.query<{ id: number; parcels: number }>(
      `SELECT g.id::int AS id, (SELECT count(*)::int FROM packages p WHERE p.gaylord_id = g.id)
         AS parcels
       FROM gaylords g WHERE g.id = ANY ($1::bigint[])`,
      [gaylords.map((gaylord) => gaylord.id)],
    );
    expect(counts.reduce((sum, row) => sum + row.parcels, 0)).toBe(codes.length);
  });

  it('ask for the day’s SCAN form at once: one form, each gaylord on it once', async () => {
    const codes = await labelledCodes(2);
    for (const [n, code] of codes.entries()) {
      const gaylord = await openGaylord(stations[n]!);
      await dataOf(stations[n]!.post(`/gaylords/${gaylord.id}/scans`, { code }));
      await dataOf(stations[n]!.post(`/gaylords/${gaylord.id}/close`, { count: 1 }));
    }
    const day = new Date(Date.now() + 50 * 86_400_000).toISOString().slice(0, 10);
    const answers = await Promise.all(
      stations.map((station) => station.post('/scan-forms', { carrier: 'usps', ship_date: day })),
    );
    const made = answers.filter((answer) => answer.statusCode === 200);
    expect(made.length).toBeGreaterThanOrEqual(1);
    // The one that waited found the gaylords on the form already, or added none twice.
    for (const answer of answers.filter((one) => one.statusCode !== 200)) {
      expect(answer.statusCode).toBe(409);
    }
    const forms = made.map((answer) => (answer.json() as { data: ScanFormAnswer }).data.form.id);
    expect(new Set(forms).size).toBe(1);
    const [row] = await t.db.query<{ forms: number; on_form: number }>(
      `SELECT (SELECT count(*)::int FROM scan_forms WHERE ship_date = $1) AS forms,
         (SELECT count(*)::int FROM gaylords WHERE scan_form_id = $2) AS on_form`,
      [day, forms[0]],
    );
    expect(row!.forms).toBe(1);
    expect(row!.on_form).toBeGreaterThanOrEqual(2);
  });
});
