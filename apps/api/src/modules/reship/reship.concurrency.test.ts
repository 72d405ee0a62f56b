import type {
  CancelRequest,
  ImportBatch,
  LabelBatch,
  LabelStepAnswer,
  Reship,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from '../../test/shipment-fixtures.js';
import { hoursAgo, shippedParcels, trackingCsv } from '../../test/shipment-fixtures.js';

/**
 * Two managers at once over the same request. On PostgreSQL (TEST_DATABASE_URL) the approvals
 * meet on concurrent connections: the request's row is locked first, so one approval carries it
 * out and the other hears that it is decided already.
 */

let t: TestApp;
let clerk: ApiClient;
let managers: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
  managers = [
    await signedInClient(t, 'manager-a', ['Fulfilment Manager']),
    await signedInClient(t, 'manager-b', ['Fulfilment Manager']),
  ];
});
afterAll(() => t.close());

const countOf = async (sql: string, params: unknown[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;

const bothAt = (path: string) => Promise.all(managers.map((manager) => manager.post(path, {})));

describe('two managers at once', () => {
  it('approve the cancellation of a labelled order: its label is voided once', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
    const labelled = await dataOf<LabelStepAnswer>(
      clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [order!.orderId] }),
    );
    const packageId = labelled.results[0]!.package!.id;
    const request = await dataOf<CancelRequest>(
      managers[0].post('/cancel-requests', {
        order_number: order!.number,
        requester: 'customer',
        reason: 'Moved away',
      }),
      201,
    );
    const answers = await bothAt(`/cancel-requests/${request.id}/approval`);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(
      await countOf(`package_events WHERE package_id = $1 AND type = 'voided'`, [packageId]),
    ).toBe(1);
    expect(
      await countOf(`device_events WHERE device_id = $1 AND type = 'unpicked'`, [
        order!.deviceIds[0],
      ]),
    ).toBe(1);
  });

  it('approve one reship: one child order is created', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    const { check } = await clerk.uploadAndCheck(
      'tracking-events',
      'rts.csv',
      trackingCsv([[parcel!.tracking, 'Return to Sender', hoursAgo(1)]]),
    );
    await dataOf<ImportBatch>(clerk.commitImport('tracking-events', check.batch.id));
    const request = await dataOf<Reship>(
      managers[0].post('/reships', {
        order_number: parcel!.orderNumber,
        reason: 'return_to_sender',
        cost_owner: 'carrier',
        ship_to: {
          name: 'Jane Doe',
          line1: '9 Pine Rd',
          city: 'Houston',
          state: 'TX',
          zip: '77002',
        },
      }),
      201,
    );
    const answers = await bothAt(`/reships/${request.id}/approval`);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    expect(await countOf(`orders WHERE parent_order_id = $1`, [parcel!.orderId])).toBe(1);
  });
});
