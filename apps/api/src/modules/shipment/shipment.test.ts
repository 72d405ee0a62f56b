import {
  isUpsTracking,
  isUspsTracking,
  trackingOfScan,
  upsCheckDigit,
  uspsCheckDigit,
  type LabelBatch,
  type LabelQueue,
  type LabelStepAnswer,
  type PackageDetail,
  type PackageRow,
  type Parcel,
  type ShipScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';
import { offlineCarrier, upsTrackingNumber, uspsTrackingNumber } from './carrier-adapter.js';
import { seedFulfilledOrders, type FulfilledOrder } from './shipment.test-support.js';
import { businessDay } from '../../test/business-day.js';

let t: TestApp;
let clerk: ApiClient;
let nobody: ApiClient;

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedIn('clerk', ['Shipping Clerk']);
  nobody = await signedIn('picker', ['Production Worker']);
});
afterAll(() => t.close());

const newBatch = (format: 'pdf' | 'zpl' = 'pdf') =>
  dataOf<LabelBatch>(clerk.post('/label-batches', { format }), 201);

const labelStep = (batchId: number, orderIds: number[]) =>
  dataOf<LabelStepAnswer>(clerk.post(`/label-batches/${batchId}/labels`, { order_ids: orderIds }));

/** Labels the orders in a new batch; answers their packages in order. */
async function labelled(orders: readonly FulfilledOrder[]): Promise<PackageRow[]> {
  const batch = await newBatch();
  const answer = await labelStep(
    batch.id,
    orders.map((order) => order.orderId),
  );
  return answer.results.map((result) => result.package!);
}

const scan = (code: string, extra: Record<string, unknown> = {}) =>
  dataOf<ShipScanAnswer>(clerk.post('/ship-scans', { code, station: 'Dock 1', ...extra }));

const statusOf = async (table: string, id: number) =>
  (await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id]))[0]!
    .status;

const unitStatuses = async (orderId: number) =>
  (
    await t.db.query<{ status: string }>(
      `SELECT u.status FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
       WHERE l.order_id = $1 ORDER BY u.id`,
      [orderId],
    )
  ).map((row) => row.status);

describe('tracking numbers', () => {
  it('carry the carriers’ check digits', () => {
    // UPS's published example.
    expect(isUpsTracking('1Z999AA10123456784')).toBe(true);
    expect(upsCheckDigit('999AA1012345678')).toBe(4);
    expect(isUpsTracking('1Z999AA10123456785')).toBe(false);
    // USS mod 10 by hand: 21 digits, weights 3 and 1 from the right.
    const payload = '940010090123400000001';
    const sum = [...payload]
      .reverse()
      .reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 3 : 1), 0);
    expect(uspsCheckDigit(payload)).toBe((10 - (sum % 10)) % 10);
    const usps = uspsTrackingNumber('001', '901234', 12_345n);
    expect(usps).toMatch(/^9400190123400000123450?\d$/);
    expect(usps).toHaveLength(22);
    expect(isUspsTracking(usps)).toBe(true);
    const wrong = `${usps.slice(0, 21)}${(Number(usps[21]) + 1) % 10}`;
    expect(isUspsTracking(wrong)).toBe(false);
    const ups = upsTrackingNumber('A1B2C3', '01', 4_200n);
    expect(ups).toHaveLength(18);
    expect(isUpsTracking(ups)).toBe(true);
    // The IMpb barcode as scanned: routing code 420 and the ZIP before the number.
    expect(trackingOfScan(`42077002${usps}`)).toBe(usps);
    expect(trackingOfScan(`420770021234${usps}`)).toBe(usps);
  });

  it('are the same for every retry of one label, and new for the next label of the order', async () => {
    const carrier = offlineCarrier({ uspsMailerId: '901234', upsShipperNumber: 'A1B2C3' });
    const address = { name: 'A', line1: '1 St', city: 'Dallas', state: 'TX', zip: '75001' };
    const request = {
      idempotencyKey: '12-0',
      orderId: 12,
      generation: 0,
      service: 'usps_ground_advantage' as const,
      weightG: 350,
      shipFrom: address,
      shipTo: address,
      reference: 'SO-0000012',
    };
    const first = await carrier.createLabel(request);
    expect(await carrier.createLabel(request)).toEqual(first);
    const next = await carrier.createLabel({ ...request, generation: 1 });
    expect(next.trackingNumber).not.toBe(first.trackingNumber);
    expect(isUspsTracking(next.trackingNumber)).toBe(true);
    const ups = await carrier.createLabel({ ...request, service: 'ups_next_day_air' });
    expect(ups.carrier).toBe('ups');
    expect(isUpsTracking(ups.trackingNumber)).toBe(true);
  });
});

describe('the label desk', () => {
  it('lists fulfilled orders by carrier and service, without those that take no parcel label', async () => {
    const [ground] = await seedFulfilledOrders(t.db, { count: 1 });
    const [overnight] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'overnight' });
    await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'freight' });
    const queue = await dataOf<LabelQueue>(clerk.get('/label-queue'));
    const groupOf = (orderId: number) =>
      queue.groups.find((group) => group.orders.some((order) => order.order_id === orderId));
    expect(groupOf(ground!.orderId)).toMatchObject({
      service: 'usps_ground_advantage',
      carrier: 'usps',
    });
    expect(groupOf(overnight!.orderId)).toMatchObject({
      service: 'ups_next_day_air',
      carrier: 'ups',
    });
    expect(queue.without_parcel).toBeGreaterThanOrEqual(1);
  });

  it('labels an order: the package with its weight, the order labelled, its devices and units packed', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, devices: 2 });
    const batch = await newBatch('zpl');
    const answer = await labelStep(batch.id, [order!.orderId]);
    const [result] = answer.results;
    expect(result).toMatchObject({ result: 'created', order_number: order!.number });
    const parcel = result!.package!;
    expect(parcel).toMatchObject({
      order_id: order!.orderId,
      carrier: 'usps',
      service: 'usps_ground_advantage',
      status: 'label_created',
      label_format: 'zpl',
      order_status: 'labeled',
      // Two devices of 180 g and the packaging's 170 g.
      weight_g: 530,
      reprint_count: 0,
    });
    expect(isUspsTracking(parcel.tracking_number)).toBe(true);
    expect(answer.batch.labels).toBe(1);
    expect(await statusOf('orders', order!.orderId)).toBe('labeled');
    for (const id of order!.deviceIds) expect(await statusOf('devices', id)).toBe('packed');
    expect(await unitStatuses(order!.orderId)).toEqual(['packed', 'packed']);
    const [audit] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events
       WHERE action = 'package.label_created' AND entity_id = $1`,
      [String(parcel.id)],
    );
    expect(audit!.n).toBe(1);
  });

  it('takes the default weight for a model without one', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, modelWeightG: null });
    const [parcel] = await labelled([order!]);
    expect(parcel!.weight_g).toBe(200 + 170);
  });

  it('never makes a second label when a step is retried', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 3 });
    const ids = orders.map((order) => order.orderId);
    const batch = await newBatch();
    const first = await labelStep(batch.id, ids);
    const again = await labelStep(batch.id, ids);
    expect(again.results.map((r) => r.result)).toEqual([
      'already_labelled',
      'already_labelled',
      'already_labelled',
    ]);
    expect(again.results.map((r) => r.package!.tracking_number)).toEqual(
      first.results.map((r) => r.package!.tracking_number),
    );
    const [count] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM packages WHERE order_id = ANY ($1::bigint[])',
      [ids],
    );
    expect(count!.n).toBe(3);
    expect(again.batch.labels).toBe(3);
  });

  it('refuses, by order, what cannot be labelled and labels the rest', async () => {
    const [freight] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'freight' });
    const [good, notFulfilled] = await seedFulfilledOrders(t.db, { count: 2 });
    await t.db.query("UPDATE orders SET status = 'in_progress' WHERE id = $1", [
      notFulfilled!.orderId,
    ]);
    const batch = await newBatch();
    const answer = await labelStep(batch.id, [
      freight!.orderId,
      good!.orderId,
      notFulfilled!.orderId,
      999_999_999,
    ]);
    expect(answer.results.map((r) => r.result)).toEqual([
      'refused',
      'created',
      'refused',
      'refused',
    ]);
    expect(answer.results[0]!.message).toMatch(/freight: it takes no parcel label/);
    expect(answer.results[2]!.message).toMatch(/in progress cannot be labelled/);
    expect(answer.results[3]!.message).toMatch(/no order with id 999999999/);
    expect(await statusOf('orders', freight!.orderId)).toBe('fulfilled');
  });

  it('checks its input (422) and its batch (404)', async () => {
    const batch = await newBatch();
    const fields = await clerk.fieldErrors('POST', `/label-batches/${batch.id}/labels`, {
      order_ids: [],
    });
    expect(fields.order_ids).toEqual(['Choose at least one order.']);
    expect(
      await refusalOf(clerk.post('/label-batches/999999/labels', { order_ids: [1] }), 404),
    ).toMatch(/no label batch/);
    expect((await clerk.fieldErrors('POST', '/label-batches', { format: 'png' })).format).toEqual([
      'Choose the format: pdf or zpl.',
    ]);
  });

  it('is for the shipping desk only (403)', async () => {
    await refusalOf(nobody.get('/label-queue'), 403);
    await refusalOf(nobody.post('/ship-scans', { code: '1' }), 403);
    await refusalOf(nobody.get('/packages'), 403);
  });
});

describe('printing', () => {
  it('prints a batch as one PDF or ZPL; printing it again counts reprints, audited', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 2 });
    const batch = await newBatch();
    const answer = await labelStep(
      batch.id,
      orders.map((order) => order.orderId),
    );
    const pdf = await clerk.download(`/label-batches/${batch.id}/print`, {});
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const zpl = await clerk.download(`/label-batches/${batch.id}/print`, { format: 'zpl' });
    expect(zpl.headers['content-type']).toBe('application/x-zpl');
    for (const result of answer.results) {
      expect(zpl.body).toContain(result.package!.tracking_number);
    }
    expect(zpl.body.match(/\^XA/g)).toHaveLength(2);
    expect(zpl.body).toContain('USPS GROUND ADV');
    expect(zpl.body).toContain('SHIP TO: Jane Doe');
    const rows = await t.db.query<{ reprint_count: number; first_printed_at: Date | null }>(
      'SELECT reprint_count, first_printed_at FROM packages WHERE label_batch_id = $1',
      [batch.id],
    );
    expect(rows.map((row) => row.reprint_count)).toEqual([1, 1]);
    expect(rows.every((row) => row.first_printed_at !== null)).toBe(true);
    const [audits] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'package.label_reprinted'
       AND entity_id = ANY ($1::text[])`,
      [answer.results.map((r) => String(r.package!.id))],
    );
    expect(audits!.n).toBe(2);
  });

  it('reprints one label, counted; a voided label is not printed (409)', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    const first = await clerk.download(`/packages/${parcel!.id}/label`, {});
    expect(first.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await clerk.download(`/packages/${parcel!.id}/label`, {});
    const detail = await dataOf<PackageDetail>(clerk.get(`/packages/${parcel!.id}/detail`));
    expect(detail.package.reprint_count).toBe(1);
    expect(detail.events.map((event) => event.type)).toEqual([
      'label_reprinted',
      'label_printed',
      'label_created',
    ]);
    await dataOf(clerk.post(`/packages/${parcel!.id}/void`, { reason: 'Wrong address' }));
    expect(await refusalOf(clerk.post(`/packages/${parcel!.id}/label`, {}), 409)).toMatch(
      /is voided: it is not printed again/,
    );
  });
});

describe('voiding a label', () => {
  it('before scan-out: the package voided, the order fulfilled again, its devices and units picked', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    const voided = await dataOf<PackageRow>(
      clerk.post(`/packages/${parcel!.id}/void`, { reason: 'Address corrected' }),
    );
    expect(voided).toMatchObject({
      status: 'voided',
      void_reason: 'Address corrected',
      order_status: 'fulfilled',
    });
    expect(voided.voided_at).not.toBeNull();
    expect(await statusOf('devices', order!.deviceIds[0]!)).toBe('picked');
    expect(await unitStatuses(order!.orderId)).toEqual(['picked']);
    // Labelled again: a new package with a new tracking number.
    const [again] = await labelled([order!]);
    expect(again!.id).not.toBe(parcel!.id);
    expect(again!.tracking_number).not.toBe(parcel!.tracking_number);
    expect(isUspsTracking(again!.tracking_number)).toBe(true);
    // Voiding twice is a 409.
    expect(await refusalOf(clerk.post(`/packages/${parcel!.id}/void`, {}), 409)).toMatch(
      /voided cannot have its label voided/,
    );
  });

  it('of a label EasyPost sold is refused (409) by a server not set up for EasyPost', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    await t.db.query(
      `INSERT INTO package_carrier_labels (package_id, carrier_ref, format, content)
       VALUES ($1, 'shp_sold_by_easypost', 'pdf', '\\x255044462d'::bytea)`,
      [parcel!.id],
    );
    expect(await refusalOf(clerk.post(`/packages/${parcel!.id}/void`, {}), 409)).toMatch(
      /was bought from EasyPost: it is voided through EasyPost/,
    );
    expect(await statusOf('packages', parcel!.id)).toBe('label_created');
  });

  it('after scan-out is refused (409), saying why: an intercept or an RMA instead', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    expect((await scan(parcel!.tracking_number)).result).toBe('shipped');
    const message = await refusalOf(clerk.post(`/packages/${parcel!.id}/void`, {}), 409);
    expect(message).toMatch(/scanned out/);
    expect(message).toMatch(/only before scan-out/);
    expect(message).toMatch(/intercept or an RMA/);
    expect(await statusOf('packages', parcel!.id)).toBe('scanned_out');
  });
});

describe('scan to ship', () => {
  it('ships the order: package scanned out, order shipped, devices, units and SIM shipped, the listing sold', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, withSim: true });
    const [parcel] = await labelled([order!]);
    const before = await dataOf<{ today: number }>(clerk.get('/ship-scans/today'));
    const lookup = await dataOf<Parcel>(
      clerk.get(`/ship-scans/parcel?code=${parcel!.tracking_number}`),
    );
    expect(lookup.units.map((unit) => unit.imei)).toEqual(order!.imeis);
    expect(lookup.units[0]!.iccid).toBe(order!.iccids[0]);

    const answer = await scan(parcel!.tracking_number);
    expect(answer).toMatchObject({ result: 'shipped', today: before.today + 1 });
    expect(answer.parcel!.package).toMatchObject({
      status: 'scanned_out',
      order_status: 'shipped',
      scan_station: 'Dock 1',
    });
    expect(answer.parcel!.units[0]).toMatchObject({ status: 'shipped', device_status: 'shipped' });
    expect(await statusOf('devices', order!.deviceIds[0]!)).toBe('shipped');
    expect(await unitStatuses(order!.orderId)).toEqual(['shipped']);
    const [shipped] = await t.db.query<{ shipped_at: Date | null; status: string }>(
      'SELECT shipped_at, status FROM orders WHERE id = $1',
      [order!.orderId],
    );
    expect(shipped!.shipped_at).not.toBeNull();
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [order!.iccids[0]],
    );
    expect(sim!.status).toBe('shipped');
    const [listing] = await t.db.query<{ qty_reserved: number; qty_sold: number }>(
      'SELECT qty_reserved, qty_sold FROM pts_listings WHERE id = $1',
      [order!.listingId],
    );
    expect(listing).toEqual({ qty_reserved: 0, qty_sold: 1 });
    const [line] = await t.db.query<{ qty_reserved: number; status: string }>(
      'SELECT qty_reserved, status FROM order_lines WHERE order_id = $1',
      [order!.orderId],
    );
    expect(line).toEqual({ qty_reserved: 0, status: 'shipped' });
    const events = await t.db.query<{ type: string }>(
      'SELECT type FROM order_events WHERE order_id = $1 ORDER BY id',
      [order!.orderId],
    );
    expect(events.map((event) => event.type)).toEqual(['labeled', 'shipped']);
  });

  it('answers a repeat scan "already shipped" and changes nothing', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    await scan(parcel!.tracking_number);
    const answer = await scan(` ${parcel!.tracking_number} `);
    expect(answer.result).toBe('already_shipped');
    const [count] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM package_events WHERE package_id = $1 AND type = 'scanned_out'",
      [parcel!.id],
    );
    expect(count!.n).toBe(1);
  });

  it('reads the IMpb barcode with its routing code', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1 });
    const [parcel] = await labelled([order!]);
    expect((await scan(`42077002${parcel!.tracking_number}`)).result).toBe('shipped');
  });

  it('refuses a voided label, a cancellation requested and an unknown code, writing nothing', async () => {
    const [voidedOrder, cancelled] = await seedFulfilledOrders(t.db, { count: 2 });
    const [voided, held] = await labelled([voidedOrder!, cancelled!]);
    await dataOf(clerk.post(`/packages/${voided!.id}/void`, {}));
    expect((await scan(voided!.tracking_number)).result).toBe('voided');
    await t.db.query("UPDATE orders SET status = 'cancel_requested' WHERE id = $1", [
      cancelled!.orderId,
    ]);
    const refused = await scan(held!.tracking_number);
    expect(refused.result).toBe('cancel_requested');
    expect(refused.message).toMatch(/cancellation requested/);
    expect(await statusOf('packages', held!.id)).toBe('label_created');
    expect(await statusOf('devices', cancelled!.deviceIds[0]!)).toBe('packed');
    expect((await scan('9400100000000000000000')).result).toBe('unknown');
    // The cancellation's label voided: the order stays cancel_requested, its device picked.
    const row = await dataOf<PackageRow>(clerk.post(`/packages/${held!.id}/void`, {}));
    expect(row.order_status).toBe('cancel_requested');
    expect(await statusOf('devices', cancelled!.deviceIds[0]!)).toBe('picked');
  });

  it('verifies the devices when they are scanned: a wrong or missing IMEI ships nothing', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, devices: 2 });
    const [parcel] = await labelled([order!]);
    const stranger = await scan(parcel!.tracking_number, { imeis: ['359999900000009'] });
    expect(stranger.result).toBe('device_mismatch');
    expect(stranger.message).toMatch(/not in this parcel/);
    const missing = await scan(parcel!.tracking_number, { imeis: [order!.imeis[0]] });
    expect(missing.result).toBe('device_mismatch');
    expect(missing.message).toMatch(/Scan every device/);
    expect(await statusOf('packages', parcel!.id)).toBe('label_created');
    const shipped = await scan(parcel!.tracking_number, { imeis: order!.imeis });
    expect(shipped.result).toBe('shipped');
  });

  it('answers 404 for the lookup of an unknown parcel', async () => {
    expect(await refusalOf(clerk.get('/ship-scans/parcel?code=1Z0000'), 404)).toMatch(/No parcel/);
  });
});

describe('the packages list', () => {
  it('filters by status, carrier, order and day, and opens a package with its contents and events', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'overnight' });
    const [parcel] = await labelled([order!]);
    const day = await businessDay(t.db);
    const page = bodyOf<{ items: PackageRow[] }>(
      await clerk.get(
        `/packages?carrier=ups&status=label_created&order_id=${order!.orderId}&created_from=${day}&created_to=${day}`,
      ),
    ).data;
    expect(page.items.map((row) => row.id)).toEqual([parcel!.id]);
    expect(page.items[0]).toMatchObject({ carrier: 'ups', contents_text: order!.imeis[0] });
    const none = bodyOf<{ items: PackageRow[] }>(
      await clerk.get(`/packages?carrier=usps&order_id=${order!.orderId}`),
    ).data;
    expect(none.items).toEqual([]);
    const found = bodyOf<{ items: PackageRow[] }>(
      await clerk.get(`/packages?search=${parcel!.tracking_number}`),
    ).data;
    expect(found.items.map((row) => row.id)).toEqual([parcel!.id]);
    const detail = await dataOf<PackageDetail>(clerk.get(`/packages/${parcel!.id}/detail`));
    expect(detail.units[0]).toMatchObject({ imei: order!.imeis[0], device_status: 'packed' });
    expect(detail.events.map((event) => event.type)).toEqual(['label_created']);
    await refusalOf(clerk.get('/packages/999999/detail'), 404);
  });
});
