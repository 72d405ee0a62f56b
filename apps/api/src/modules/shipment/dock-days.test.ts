import type { DockDay, LabelBatch, LabelStepAnswer, ShipScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/**
 * The dock's end-of-day close: the day's figures kept, nothing more scans out until a manager
 * reopens it, the report printed. On PostgreSQL (TEST_DATABASE_URL) the close meets scans under
 * way on other connections: it waits for them and counts them, and a scan after it is refused.
 */

let t: TestApp;
let clerk: ApiClient;
let manager: ApiClient;
let picker: ApiClient;
let support: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'dock-clerk', ['Shipping Clerk']);
  manager = await signedInClient(t, 'dock-manager', ['Fulfilment Manager']);
  picker = await signedInClient(t, 'dock-picker', ['Fulfilment Worker']);
  support = await signedInClient(t, 'dock-support', ['Customer Support']);
});
afterAll(() => t.close());

/** Labelled parcels ready at the dock: their tracking numbers. */
async function labelledParcels(count: number): Promise<string[]> {
  const orders = await seedFulfilledOrders(t.db, { count });
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  const labelled = await dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, {
      order_ids: orders.map((order) => order.orderId),
    }),
  );
  return labelled.results.map((result) => result.package!.tracking_number);
}

const scan = (code: string, station: ApiClient = clerk) =>
  dataOf<ShipScanAnswer>(station.post('/ship-scans', { code, station: 'Dock 1' }));

const reopen = () =>
  dataOf<DockDay>(manager.post('/dock-days/today/reopen', { reason: 'The truck came back' }));

describe("the dock's end-of-day close", () => {
  it('keeps what left and what stayed, refuses scans until reopened, and prints', async () => {
    const [first, second, third] = await labelledParcels(3);
    expect((await scan(first!)).result).toBe('shipped');

    const open = await dataOf<DockDay>(clerk.get('/dock-days/today'));
    expect(open).toMatchObject({ status: 'open', closed_at: null });
    expect(open.figures.shipped).toBeGreaterThanOrEqual(1);

    const closed = await dataOf<DockDay>(clerk.post('/dock-days/today/close'));
    expect(closed).toMatchObject({ status: 'closed', closed_by_name: expect.any(String) });
    expect(closed.figures.shipped).toBe(open.figures.shipped);
    const behind = closed.figures.left_behind.map((parcel) => parcel.tracking_number);
    expect(behind).toEqual(expect.arrayContaining([second, third]));
    expect(behind).not.toContain(first);

    const refused = await scan(second!);
    expect(refused.result).toBe('day_closed');
    expect(refused.message).toMatch(/^Today's dock is closed/);
    // A repeat scan of a parcel that left before the close is still a no-op.
    expect((await scan(first!)).result).toBe('already_shipped');

    const again = await clerk.post('/dock-days/today/close');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/was closed at .* by /);
    // Closed, the figures stay as they were at the close.
    const kept = await dataOf<DockDay>(clerk.get('/dock-days/today'));
    expect(kept.figures).toEqual(closed.figures);

    const pdf = await clerk.download(`/dock-days/${closed.business_day}/print`, {});
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // The clerk may close but not reopen; the manager reopens with a reason.
    expect(
      (await clerk.post('/dock-days/today/reopen', { reason: 'More parcels' })).statusCode,
    ).toBe(403);
    const short = await manager.post('/dock-days/today/reopen', { reason: '' });
    expect(short.statusCode).toBe(422);
    expect(short.json().message.reason).toEqual(['Say why the day opens again.']);
    const reopened = await reopen();
    expect(reopened).toMatchObject({
      status: 'open',
      reopen_reason: 'The truck came back',
      reopened_by_name: expect.any(String),
    });
    expect((await manager.post('/dock-days/today/reopen', { reason: 'Again' })).statusCode).toBe(
      409,
    );
    expect((await scan(second!)).result).toBe('shipped');
    const [audits] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
       WHERE entity_type = 'dock_day' AND action IN ('dock_day.closed', 'dock_day.reopened')`,
    );
    expect(audits!.n).toBe(2);
  });

  it('is closed by the shipping lead, read at the dock only; a day never closed prints nothing', async () => {
    expect((await picker.get('/dock-days/today')).statusCode).toBe(200);
    expect((await picker.post('/dock-days/today/close')).statusCode).toBe(403);
    expect((await support.get('/dock-days/today')).statusCode).toBe(403);
    const never = await clerk.post('/dock-days/2001-01-01/print', {});
    expect(never.statusCode).toBe(404);
    expect((await clerk.post('/dock-days/2001-13-01/print', {})).statusCode).toBe(422);
  });

  it('counts every scan that won against the close, and ships none after it', async () => {
    const codes = await labelledParcels(8);
    const [scans, closed] = await Promise.all([
      Promise.all(codes.map((code) => scan(code))),
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return dataOf<DockDay>(clerk.post('/dock-days/today/close'));
      })(),
    ]);
    const results = scans.map((answer) => answer.result);
    expect(results.every((result) => result === 'shipped' || result === 'day_closed')).toBe(true);
    const [shipped] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM packages
       WHERE scanned_out_at >= (order_business_day(now())::timestamp
         AT TIME ZONE (SELECT time_zone FROM order_settings))`,
    );
    expect(closed.figures.shipped).toBe(shipped!.n);
    const behind = new Set(closed.figures.left_behind.map((parcel) => parcel.tracking_number));
    codes.forEach((code, n) => expect(behind.has(code)).toBe(results[n] === 'day_closed'));
    await reopen();
  });
});
