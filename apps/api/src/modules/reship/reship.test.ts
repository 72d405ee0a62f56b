import type {
  CancelRequest,
  ImportBatch,
  LabelBatch,
  LabelStepAnswer,
  Reship,
  ReshipCandidate,
  ReshipStatistics,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from '../../test/shipment-fixtures.js';
import {
  hoursAgo,
  shippedParcels,
  trackingCsv,
  type ShippedParcel,
} from '../../test/shipment-fixtures.js';
import { businessDay } from '../../test/business-day.js';

let t: TestApp;
let clerk: ApiClient;
let support: ApiClient;
let manager: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
  support = await signedInClient(t, 'support', ['Customer Support']);
  manager = await signedInClient(t, 'manager', ['Fulfilment Manager']);
});
afterAll(() => t.close());

const statusOf = async (table: 'orders' | 'packages', id: number) =>
  (await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id]))[0]!
    .status;

const deviceStatuses = async (ids: readonly number[]) =>
  (
    await t.db.query<{ status: string }>(
      'SELECT status FROM devices WHERE id = ANY ($1::bigint[]) ORDER BY id',
      [ids],
    )
  ).map((row) => row.status);

const requestCancel = (number: string, requester = 'customer', by = support) =>
  dataOf<CancelRequest>(
    by.post('/cancel-requests', { order_number: number, requester, reason: 'Changed mind' }),
    201,
  );

async function labelledOrder() {
  const [order] = await seedFulfilledOrders(t.db, { count: 1 });
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  const answer = await dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [order!.orderId] }),
  );
  return { ...order!, packageId: answer.results[0]!.package!.id };
}

/** Tracking events imported for the parcels (the return to sender of issue 18). */
async function importTracking(rows: Parameters<typeof trackingCsv>[0]) {
  const { check } = await clerk.uploadAndCheck(
    'tracking-events',
    'tracking.csv',
    trackingCsv(rows),
  );
  expect(check.errors).toEqual([]);
  await dataOf<ImportBatch>(clerk.commitImport('tracking-events', check.batch.id));
}

async function returnedParcel(): Promise<ShippedParcel> {
  const [parcel] = await shippedParcels(t, clerk, 1);
  await importTracking([[parcel!.tracking, 'Return to Sender', hoursAgo(1), 'HOUSTON, TX']]);
  expect(await statusOf('orders', parcel!.orderId)).toBe('returned');
  return parcel!;
}

describe('cancellation requests', () => {
  it('before the label: a manager approves, the order is cancelled and its units go back', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const request = await requestCancel(order!.number);
    expect(request).toMatchObject({ status: 'requested', stage: 'pre_label' });
    await refusalOf(support.post(`/cancel-requests/${request.id}/approval`, {}), 403);

    const done = await dataOf<CancelRequest>(
      manager.post(`/cancel-requests/${request.id}/approval`, {}),
    );
    expect(done.status).toBe('cancelled');
    expect(done.order_status).toBe('cancelled');
    expect(await deviceStatuses(order!.deviceIds)).toEqual(['in_stock']);
    const [listing] = await t.db.query<{ qty_reserved: number }>(
      'SELECT qty_reserved FROM pts_listings WHERE id = $1',
      [order!.listingId],
    );
    expect(listing!.qty_reserved).toBe(0);
  });

  it('labelled: the label is voided and the unit is back in stock', async () => {
    const order = await labelledOrder();
    const request = await requestCancel(order.number);
    expect(request.stage).toBe('labeled');
    const done = await dataOf<CancelRequest>(
      manager.post(`/cancel-requests/${request.id}/approval`, {}),
    );
    expect(done).toMatchObject({ status: 'cancelled', order_status: 'cancelled' });
    expect(done.tracking_number).not.toBeNull();
    expect(done.events.map((event) => event.type)).toEqual([
      'requested',
      'approved',
      'label_voided',
      'cancelled',
    ]);
    expect(await statusOf('packages', order.packageId)).toBe('voided');
    expect(await deviceStatuses(order.deviceIds)).toEqual(['in_stock']);
    // A second approval finds it decided.
    await refusalOf(manager.post(`/cancel-requests/${request.id}/approval`, {}), 409);
  });

  it("a client carrier's cancel before the label approves itself", async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const done = await requestCancel(order!.number, 'carrier', manager);
    expect(done.status).toBe('cancelled');
    expect(done.events.map((event) => event.type)).toContain('approved_automatically');
  });

  it('shipped: the carrier is asked to intercept; the order is cancelled once the parcel is back', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    const request = await requestCancel(parcel!.orderNumber);
    expect(request.stage).toBe('shipped');
    const asked = await dataOf<CancelRequest>(
      manager.post(`/cancel-requests/${request.id}/approval`, {}),
    );
    expect(asked.status).toBe('intercept_requested');
    expect(asked.carrier_answer).toContain(parcel!.tracking);
    await refusalOf(support.post(`/cancel-requests/${request.id}/completion`, {}), 409);
    await importTracking([[parcel!.tracking, 'Return to Sender', hoursAgo(1)]]);
    const done = await dataOf<CancelRequest>(
      support.post(`/cancel-requests/${request.id}/completion`, {}),
    );
    expect(done).toMatchObject({ status: 'cancelled', order_status: 'cancelled' });
  });

  it('is denied with a reason, refused for a delivered order and kept one open per order', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const request = await requestCancel(order!.number);
    const answer = await support.post('/cancel-requests', {
      order_number: order!.number,
      requester: 'customer',
      reason: 'Again',
    });
    expect(answer.statusCode).toBe(422);
    await refusalOf(manager.post(`/cancel-requests/${request.id}/denial`, {}), 422);
    const denied = await dataOf<CancelRequest>(
      manager.post(`/cancel-requests/${request.id}/denial`, { reason: 'Already packed' }),
    );
    expect(denied).toMatchObject({ status: 'denied', deny_reason: 'Already packed' });
    expect(await statusOf('orders', order!.orderId)).toBe('fulfilled');

    await t.db.query(`UPDATE orders SET status = 'delivered' WHERE id = $1`, [order!.orderId]);
    await refusalOf(
      support.post('/cancel-requests', {
        order_number: order!.number,
        requester: 'customer',
        reason: 'Late',
      }),
      409,
    );
    const open = await dataOf<{ requests: CancelRequest[] }>(support.get('/cancel-requests'));
    expect(open.requests.every((row) => row.status !== 'denied')).toBe(true);
  });
});

describe('reships', () => {
  const reshipBody = (number: string, extra: Record<string, unknown> = {}) => ({
    order_number: number,
    reason: 'return_to_sender',
    cost_owner: 'carrier',
    ...extra,
  });
  const corrected = {
    name: 'Jane Doe',
    line1: '14 Oak Ave',
    city: 'Houston',
    state: 'TX',
    zip: '77002',
  };

  it('an undeliverable parcel ships again to a corrected address as a child order', async () => {
    const parcel = await returnedParcel();
    const candidate = await dataOf<ReshipCandidate>(
      support.get(`/reships/candidate?order_number=${parcel.orderNumber}`),
    );
    expect(candidate).toMatchObject({ undeliverable: true, earlier_reships: 0 });

    await refusalOf(support.post('/reships', reshipBody(parcel.orderNumber)), 422);
    const same = await support.post(
      '/reships',
      reshipBody(parcel.orderNumber, { ship_to: { ...corrected, line1: '12 Elm St' } }),
    );
    expect(same.statusCode).toBe(422);
    expect(Object.keys(same.json().message)).toEqual(['ship_to.line1']);

    const request = await dataOf<Reship>(
      support.post('/reships', reshipBody(parcel.orderNumber, { ship_to: corrected })),
      201,
    );
    expect(request).toMatchObject({ status: 'requested', new_place: 'HOUSTON, TX' });
    const approved = await dataOf<Reship>(support.post(`/reships/${request.id}/approval`, {}));
    expect(approved.status).toBe('order_created');
    expect(approved.original_order_status).toBe('reshipped');

    const [child] = await t.db.query<{ source: string; parent_order_id: number; line1: string }>(
      `SELECT o.source, o.parent_order_id::int AS parent_order_id, t.line1
       FROM orders o JOIN order_ship_to t ON t.order_id = o.id WHERE o.id = $1`,
      [approved.new_order_id],
    );
    expect(child).toEqual({
      source: 'reship',
      parent_order_id: parcel.orderId,
      line1: '14 OAK AVE',
    });
    const orders = await dataOf<{ orders: { number: string; parent_number: string }[] }>(
      support.get('/reships/orders'),
    );
    expect(orders.orders).toContainEqual(
      expect.objectContaining({
        number: approved.new_order_number,
        parent_number: parcel.orderNumber,
      }),
    );

    // Its second reship (the child lost in turn) needs a manager.
    await t.db.query(`UPDATE orders SET status = 'lost', hold_reason = NULL WHERE id = $1`, [
      approved.new_order_id,
    ]);
    const again = await dataOf<Reship>(
      support.post(
        '/reships',
        reshipBody(approved.new_order_number!, { reason: 'lost', cost_owner: 'company' }),
      ),
      201,
    );
    expect(again.earlier_reships).toBe(1);
    await refusalOf(support.post(`/reships/${again.id}/approval`, {}), 403);
    const second = await dataOf<Reship>(manager.post(`/reships/${again.id}/approval`, {}));
    expect(second.status).toBe('order_created');

    const today = await businessDay(t.db);
    const stats = await dataOf<ReshipStatistics>(
      manager.get(`/reships/statistics?from=${today}&to=${today}`),
    );
    expect(stats.reships).toBeGreaterThanOrEqual(2);
    expect(stats.by_reason).toContainEqual(expect.objectContaining({ key: 'lost' }));
    expect(stats.by_cost_owner.map((row) => row.key)).toEqual(
      expect.arrayContaining(['carrier', 'company']),
    );
    expect(stats.by_day).toEqual([{ day: today, reships: stats.reships }]);
  });

  it('refuses an order on its way and a range the wrong way round', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    await refusalOf(support.post('/reships', reshipBody(parcel!.orderNumber)), 409);
    await refusalOf(manager.get('/reships/statistics?from=2026-02-01&to=2026-01-01'), 422);
    await refusalOf(support.get('/reships/statistics?from=2026-01-01&to=2026-01-02'), 403);
  });
});
