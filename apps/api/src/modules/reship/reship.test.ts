import {
  luhnCheckDigit,
  type CancelRequest,
  type ImportBatch,
  type LabelBatch,
  type LabelStepAnswer,
  type OrderAssignmentResult,
  type Reship,
  type ReshipCandidate,
  type ReshipOrder,
  type ReshipStatistics,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.js';
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

  it('names the returned unit on the child order: reserved if back in stock, else another ships', async () => {
    const parcels = [await returnedParcel(), await returnedParcel()];
    // Both parcels unpacked: the units came back (as the unpack station leaves them).
    const units = await t.db.query<{ id: number; imei: string; model_id: number }>(
      `SELECT d.id::int AS id, d.identifier AS imei, d.model_id::int AS model_id
       FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = ANY ($1::bigint[]) ORDER BY l.order_id`,
      [parcels.map((parcel) => parcel.orderId)],
    );
    await t.db.query(`UPDATE devices SET status = 'returned' WHERE id = ANY ($1::bigint[])`, [
      units.map((unit) => unit.id),
    ]);
    const children: number[] = [];
    for (const [n, parcel] of parcels.entries()) {
      const request = await dataOf<Reship>(
        support.post(
          '/reships',
          reshipBody(parcel.orderNumber, {
            ship_to: corrected,
            same_unit_imei: units[n]!.imei,
          }),
        ),
        201,
      );
      expect(request.imei).toBe(units[n]!.imei);
      const approved = await dataOf<Reship>(support.post(`/reships/${request.id}/approval`, {}));
      children.push(approved.new_order_id!);
    }
    const lines = await t.db.query<{ requested_device_id: number; notes: string }>(
      `SELECT l.requested_device_id::int AS requested_device_id, o.notes
       FROM order_lines l JOIN orders o ON o.id = l.order_id
       WHERE l.order_id = ANY ($1::bigint[]) ORDER BY l.order_id`,
      [children],
    );
    expect(lines.map((line) => line.requested_device_id)).toEqual(units.map((unit) => unit.id));
    expect(lines[0]!.notes).toContain(
      `returned unit ${units[0]!.imei} ships if it is back in stock`,
    );
    const listed = async () =>
      (await dataOf<{ orders: ReshipOrder[] }>(support.get('/reships/orders'))).orders.filter(
        (order) => children.includes(order.id),
      );
    expect((await listed()).map((order) => [order.requested_imei, order.requested_unit])).toEqual([
      [units[1]!.imei, 'to_assign'],
      [units[0]!.imei, 'to_assign'],
    ]);

    // The first unit is back on the shelf (reused and put away) in a box newer than a spare's of
    // its model; the second is still being inspected, a spare of its model in stock.
    const [bin] = await t.db.query<{ id: number }>(
      `WITH zone AS (INSERT INTO locations (code, kind, active)
                     VALUES ('RZ' || $1, 'zone', true) RETURNING id)
       INSERT INTO locations (code, kind, parent_id, active)
       SELECT 'RZ' || $1 || '-1', 'bin', id, true FROM zone RETURNING id::int AS id`,
      [parcels[0]!.orderId],
    );
    const boxOf = async (modelId: number, daysAgo: number) =>
      (
        await t.db.query<{ id: number }>(
          `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id,
             sealed_at, located_at)
           VALUES ($1, 'A', 10, 1, 'located', $2, now() - make_interval(days => $3), now())
           RETURNING id::int AS id`,
          [modelId, bin!.id, daysAgo],
        )
      )[0]!.id;
    await t.db.query(
      `UPDATE devices SET status = 'in_stock', inventory_box_id = $2 WHERE id = $1`,
      [units[0]!.id, await boxOf(units[0]!.model_id, 1)],
    );
    const spares: string[] = [];
    for (const [n, unit] of units.entries()) {
      const payload = `3599991${String(parcels[n]!.orderId).padStart(7, '0')}`;
      spares.push(`${payload}${luhnCheckDigit(payload)}`);
      await t.db.query(
        `INSERT INTO devices (imei, model_id, grade, status, inventory_box_id)
         VALUES ($1, $2, 'A', 'in_stock', $3)`,
        [spares[n], unit.model_id, await boxOf(unit.model_id, 30)],
      );
    }
    // The children waited for stock (the original listings sold out): released now.
    await t.db.query(
      `UPDATE pts_listings SET qty_pushed = qty_pushed + 1
       WHERE id IN (SELECT listing_id FROM order_lines WHERE order_id = ANY ($1::bigint[]))`,
      [children],
    );
    for (const child of children) await dataOf(support.post(`/orders/${child}/release`, {}));
    expect(await statusOf('orders', children[0]!)).toBe('ready');
    const worker = await createUser(t.db, {
      userName: `reship.fw.${parcels[0]!.orderId}`,
      password: 'reship-worker-1',
      roles: ['Fulfilment Worker'],
    });
    const result = await dataOf<OrderAssignmentResult>(
      manager.post('/fulfilment/assignments', { assignee_id: worker, order_ids: children }),
    );
    expect(result.assigned.map((order) => order.id).sort()).toEqual([...children].sort());
    const reserved = await t.db.query<{ order_id: number; imei: string }>(
      `SELECT l.order_id::int AS order_id, d.identifier AS imei
       FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = ANY ($1::bigint[]) AND u.status = 'allocated' ORDER BY l.order_id`,
      [children],
    );
    expect(reserved).toEqual([
      { order_id: children[0], imei: units[0]!.imei },
      { order_id: children[1], imei: spares[1] },
    ]);
    expect((await listed()).map((order) => [order.requested_imei, order.requested_unit])).toEqual([
      [units[1]!.imei, 'another_unit'],
      [units[0]!.imei, 'reserved'],
    ]);
  });

  it('refuses an order on its way and a range the wrong way round', async () => {
    const [parcel] = await shippedParcels(t, clerk, 1);
    await refusalOf(support.post('/reships', reshipBody(parcel!.orderNumber)), 409);
    await refusalOf(manager.get('/reships/statistics?from=2026-02-01&to=2026-01-01'), 422);
    await refusalOf(support.get('/reships/statistics?from=2026-01-01&to=2026-01-02'), 403);
  });
});
