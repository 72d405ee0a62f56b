import type {
  CartonOrderDetail,
  CartonQueue,
  DockScanAnswer,
  OrderBox,
  OrderBoxScanAnswer,
  WholesaleShipmentBoard,
  WholesaleShipmentDetail,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  seedBox,
  seedShop,
  seedWholesaleOrder,
  signedIn,
  type Shop,
} from '../../test/wholesale-fixtures.js';

let t: TestApp;
let shop: Shop;
let manager: ApiClient;
let worker: { id: number; client: ApiClient };
let clerk: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  manager = (await signedIn(t, 'ws-manager', ['Fulfilment Manager'])).client;
  worker = await signedIn(t, 'ws-worker', ['Fulfilment Worker']);
  clerk = (await signedIn(t, 'ws-clerk', ['Shipping Clerk'])).client;
});
afterAll(() => t.close());

const assigned = (phones: number, kits = 0) =>
  seedWholesaleOrder(t.db, shop, { phones, kits, manager, workerId: worker.id });

const reservedImeis = async (orderId: number) =>
  (
    await t.db.query<{ identifier: string }>(
      `SELECT d.identifier FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id WHERE l.order_id = $1 ORDER BY u.id`,
      [orderId],
    )
  ).map((row) => row.identifier);

const statusOf = async (table: string, where: string, value: unknown) =>
  (
    await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE ${where} = $1`, [value])
  )[0]?.status;

const openBox = (orderId: number, as = worker.client) =>
  dataOf<OrderBox>(as.post('/order-boxes', { order_id: orderId }), 201);

const scan = (boxId: number, code: string, qty?: number) =>
  dataOf<OrderBoxScanAnswer>(
    worker.client.post(`/order-boxes/${boxId}/scans`, {
      code,
      station: 'Bench 1',
      ...(qty && { qty }),
    }),
  );

const closeBox = (boxId: number, weightLb = 12.5) =>
  dataOf<OrderBox>(worker.client.post(`/order-boxes/${boxId}/close`, { weight_lb: weightLb }));

const dock = (code: string) =>
  dataOf<DockScanAnswer>(
    clerk.post('/wholesale-shipments/dock-scans', { code, station: 'Door 3' }),
  );

/** An assigned order packed whole into cartons of `perBox` devices each, closed. */
async function packed(phones: number, perBox: number) {
  const order = await assigned(phones);
  const imeis = await reservedImeis(order.orderId);
  const boxes: OrderBox[] = [];
  for (let n = 0; n < imeis.length; n += perBox) {
    const box = await openBox(order.orderId);
    for (const imei of imeis.slice(n, n + perBox))
      expect((await scan(box.id, imei)).result).toBe('packed');
    boxes.push(await closeBox(box.id));
  }
  return { ...order, boxes };
}

describe('order boxes (/order/box)', () => {
  it('packs an assigned order by IMEI and accessory quantity, closes by weight, fulfils it', async () => {
    const order = await assigned(2, 1);
    const [first, second, third] = (await reservedImeis(order.orderId)) as [string, string, string];
    const queue = await dataOf<CartonQueue>(worker.client.get('/order-boxes/orders'));
    const row = queue.orders.find((candidate) => candidate.id === order.orderId)!;
    expect(row).toMatchObject({ status: 'assigned', units: 4, units_in_boxes: 0, boxes: 0 });
    // The phones' line, the kit's phone and the kit's charger.
    expect(row.lines.map((line) => [line.kind, line.qty])).toEqual([
      ['device', 2],
      ['device', 1],
      ['accessory', 1],
    ]);

    const box = await openBox(order.orderId);
    expect(box).toMatchObject({ status: 'open', seq: 1, devices: 0 });
    expect(box.code).toMatch(/^OB-\d{6}$/);
    const label = await worker.client.download(`/order-boxes/${box.id}/label`, { format: 'zpl' });
    expect(label.body).toContain(box.code);

    const packedFirst = await scan(box.id, first);
    expect(packedFirst).toMatchObject({ result: 'packed', order: { status: 'in_progress' } });
    expect(await statusOf('devices', 'identifier', first)).toBe('picked');
    expect((await scan(box.id, first)).result).toBe('already_in_box');

    // A matching device in stock swaps with a reserved one, which goes back to stock.
    const spare = order.imeis.find((imei) => ![first, second, third].includes(imei))!;
    expect((await scan(box.id, spare)).result).toBe('swapped');
    const other = (await statusOf('devices', 'identifier', second)) === 'in_stock' ? third : second;
    const red = await seedBox(t.db, shop, 1, { colorId: shop.redId });
    expect((await scan(box.id, red.imeis[0]!)).result).toBe('wrong_variant');
    expect((await scan(box.id, 'NOT-A-THING')).result).toBe('invalid');

    const [sku] = await t.db.query<{ sku: string }>(
      `SELECT v.sku FROM bundle_components c JOIN product_variants v ON v.id = c.variant_id
       JOIN pts_listings l ON l.bundle_id = c.bundle_id
       WHERE l.id = $1 AND v.id <> $2`,
      [shop.bundleListingId, shop.variantId],
    );
    expect((await scan(box.id, sku!.sku, 2)).result).toBe('too_many');
    expect((await scan(box.id, sku!.sku)).result).toBe('accessory_added');
    const last = await scan(box.id, other);
    expect(last).toMatchObject({ result: 'packed', box: { box: { devices: 3, accessories: 1 } } });
    expect(last.order.status).toBe('in_progress');

    expect(
      await refusalOf(worker.client.post(`/order-boxes/${box.id}/close`, {}), 422),
    ).toBeTruthy();
    const closed = await closeBox(box.id, 12.5);
    expect(closed).toMatchObject({ status: 'closed', weight_g: 5670 });
    expect(await statusOf('orders', 'id', order.orderId)).toBe('fulfilled');
    expect(await statusOf('devices', 'identifier', first)).toBe('packed');
    expect((await scan(box.id, spare)).result).toBe('box_closed');

    const list = await worker.client.download(
      `/order-boxes/orders/${order.orderId}/packing-list`,
      {},
    );
    expect(list.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // Reopening is a leader's: the devices are picked again and the order is packed again.
    await refusalOf(worker.client.post(`/order-boxes/${box.id}/reopen`, {}), 403);
    const reopened = await dataOf<OrderBox>(manager.post(`/order-boxes/${box.id}/reopen`, {}));
    expect(reopened).toMatchObject({ status: 'open', weight_g: null, reopened_count: 1 });
    expect(await statusOf('devices', 'identifier', first)).toBe('picked');
    expect(await statusOf('orders', 'id', order.orderId)).toBe('assigned');
    await closeBox(box.id, 12);
    expect(await statusOf('orders', 'id', order.orderId)).toBe('fulfilled');

    const detail = await dataOf<CartonOrderDetail>(
      worker.client.get(`/order-boxes/orders/${order.orderId}`),
    );
    expect(detail.order).toMatchObject({ units: 4, units_packed: 4, open_boxes: 0 });
    expect(detail.boxes[0]!.units.map((unit) => unit.imei)).toContain(spare);
  });

  it('refuses an empty carton, a closed order and a shipping clerk', async () => {
    const order = await assigned(1);
    const box = await openBox(order.orderId);
    expect(
      await refusalOf(worker.client.post(`/order-boxes/${box.id}/close`, { weight_lb: 2 }), 409),
    ).toMatch(/empty/);
    await refusalOf(clerk.post('/order-boxes', { order_id: order.orderId }), 403);
    await refusalOf(worker.client.post('/order-boxes', { order_id: 999_999 }), 404);
  });
});

describe('wholesale shipments (/shipment, /shipment/scan-out-to-ship)', () => {
  it('ships a freight shipment: BOL, check, dock scan on a pallet, pickup', async () => {
    const order = await packed(2, 1);
    const [a, b] = order.boxes as [OrderBox, OrderBox];
    const board = await dataOf<WholesaleShipmentBoard>(clerk.get('/wholesale-shipments'));
    expect(board.ready.map((ready) => ready.order_id)).toContain(order.orderId);

    const message = await refusalOf(
      clerk.post('/wholesale-shipments', { order_id: order.orderId, mode: 'freight' }),
      422,
    );
    expect(message).toBeTruthy();
    const made = await dataOf<WholesaleShipmentDetail>(
      clerk.post('/wholesale-shipments', {
        order_id: order.orderId,
        mode: 'freight',
        carrier: 'Estes Express',
      }),
      201,
    );
    const id = made.shipment.id;
    expect(made.shipment).toMatchObject({
      has_tracking: false,
      boxes: 2,
      units: 2,
      status: 'open',
    });
    expect((await dock(a.code)).result).toBe('no_tracking');
    await refusalOf(
      clerk.post(`/wholesale-shipments/${id}/pickup`, { carrier: 'Estes', driver_name: 'Sam' }),
      409,
    );

    const billed = await dataOf<WholesaleShipmentDetail>(
      clerk.post(`/wholesale-shipments/${id}/bill`, {
        bol_number: 'BOL-778899',
        pro_number: 'PRO1',
      }),
    );
    expect(billed.shipment).toMatchObject({ has_tracking: true, order_status: 'labeled' });
    expect((await dock(a.code)).result).toBe('not_checked');
    const checked = await dataOf<WholesaleShipmentDetail>(
      clerk.post(`/wholesale-shipments/${id}/check`, {}),
    );
    expect(checked.shipment.checked_by_name).toBeTruthy();

    expect((await dock('OB-999999')).result).toBe('unknown');
    await dataOf(clerk.post(`/wholesale-shipments/${id}/pallets`, {}), 201);
    const scanned = await dock(a.code.toLowerCase());
    expect(scanned).toMatchObject({
      result: 'scanned',
      shipment: { shipment: { boxes_scanned: 1 } },
    });
    expect(scanned.shipment!.boxes.find((box) => box.id === a.id)!.pallet_code).toMatch(/^PL-/);
    expect((await dock(a.code)).result).toBe('already_scanned');
    expect(
      await refusalOf(
        clerk.post(`/wholesale-shipments/${id}/pickup`, { carrier: 'Estes', driver_name: 'Sam' }),
        409,
      ),
    ).toContain(b.code);
    expect((await dock(b.code)).message).toContain('2 of 2');
    await dataOf(clerk.post(`/wholesale-shipments/${id}/pallets/close`, {}));

    const bill = await clerk.download(`/wholesale-shipments/${id}/bill-of-lading`, {});
    expect(bill.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const gone = await dataOf<WholesaleShipmentDetail>(
      clerk.post(`/wholesale-shipments/${id}/pickup`, {
        carrier: 'Estes Express',
        driver_name: 'Sam Driver',
      }),
    );
    expect(gone.shipment).toMatchObject({ status: 'in_transit', driver_name: 'Sam Driver' });
    expect(gone.boxes.every((box) => box.status === 'scanned_out')).toBe(true);
    expect(await statusOf('orders', 'id', order.orderId)).toBe('shipped');
    const [imei] = await reservedImeis(order.orderId);
    expect(await statusOf('devices', 'identifier', imei)).toBe('shipped');
    const steps = await t.db.query<{ type: string }>(
      `SELECT e.type FROM device_events e JOIN devices d ON d.id = e.device_id
       WHERE d.identifier = $1 ORDER BY e.id`,
      [imei],
    );
    expect(steps.map((step) => step.type)).toEqual(
      expect.arrayContaining(['reserved', 'picked', 'packed', 'shipped']),
    );
    const audits = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'wholesale_shipment' AND entity_id = $1`,
      [String(id)],
    );
    expect(audits.map((row) => row.action)).toEqual(
      expect.arrayContaining([
        'wholesale_shipment.created',
        'wholesale_shipment.checked',
        'wholesale_shipment.picked_up',
      ]),
    );
    const manifest = await clerk.download(`/wholesale-shipments/${id}/manifest`, {});
    expect(manifest.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect((await dock(a.code)).result).toBe('shipped');
  });

  it('labels each carton of a parcel shipment; a partial pickup needs a manager', async () => {
    const order = await packed(2, 1);
    const made = await dataOf<WholesaleShipmentDetail>(
      clerk.post('/wholesale-shipments', {
        order_id: order.orderId,
        mode: 'parcel',
        service: 'ups_next_day_air',
      }),
      201,
    );
    const id = made.shipment.id;
    expect(made.shipment.tracking_numbers).toHaveLength(2);
    expect(made.shipment).toMatchObject({
      carrier: 'ups',
      has_tracking: true,
      order_status: 'labeled',
    });
    const labels = await clerk.download(`/wholesale-shipments/${id}/labels`, { format: 'zpl' });
    expect(labels.body).toContain(made.shipment.tracking_numbers[0]);
    await dataOf(clerk.post(`/wholesale-shipments/${id}/check`, {}));
    // A carton's parcel label scans as well as its OB label.
    expect((await dock(made.shipment.tracking_numbers[0]!)).result).toBe('scanned');
    await refusalOf(
      clerk.post(`/wholesale-shipments/${id}/pickup`, { carrier: 'UPS', driver_name: 'Lee' }),
      409,
    );
    await refusalOf(
      clerk.post(`/wholesale-shipments/${id}/override`, { reason: 'Truck leaving' }),
      403,
    );
    expect(
      await refusalOf(manager.post(`/wholesale-shipments/${id}/override`, { reason: '' }), 422),
    ).toBeTruthy();
    await dataOf(
      manager.post(`/wholesale-shipments/${id}/override`, {
        reason: 'Second carton found damaged, driver could not wait',
      }),
    );
    const gone = await dataOf<WholesaleShipmentDetail>(
      clerk.post(`/wholesale-shipments/${id}/pickup`, { carrier: 'UPS', driver_name: 'Lee' }),
    );
    expect(gone.shipment).toMatchObject({
      status: 'in_transit',
      boxes_scanned: 1,
      override_by_name: expect.any(String),
    });
    expect(await statusOf('orders', 'id', order.orderId)).toBe('shipped');
  });

  it('refuses a shipment of an order not fulfilled, and a second one', async () => {
    const order = await assigned(1);
    await refusalOf(
      clerk.post('/wholesale-shipments', {
        order_id: order.orderId,
        mode: 'freight',
        carrier: 'X',
      }),
      409,
    );
    const full = await packed(1, 1);
    const body = { order_id: full.orderId, mode: 'freight', carrier: 'Estes' };
    await dataOf(clerk.post('/wholesale-shipments', body), 201);
    expect(await refusalOf(clerk.post('/wholesale-shipments', body), 409)).toMatch(/ships in WS-/);
    // A carton in a shipment is not reopened.
    expect(
      await refusalOf(manager.post(`/order-boxes/${full.boxes[0]!.id}/reopen`, {}), 409),
    ).toMatch(/ships in/);
  });
});
