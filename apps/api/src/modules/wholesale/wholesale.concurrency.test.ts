import type { DockScanAnswer, OrderBox, OrderBoxScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  seedShop,
  seedWholesaleOrder,
  signedIn,
  type Shop,
} from '../../test/wholesale-fixtures.js';

/**
 * Two stations at once. On PostgreSQL (TEST_DATABASE_URL) the requests meet on concurrent
 * connections: a carton scan locks the order, then the carton, so two stations scanning the same
 * IMEIs into two cartons of one order take turns and each device lands in one carton; two orders
 * wanting the same spare device cannot both take it (the device lifecycle's locked step); a
 * carton scanned at two dock doors is scanned once, and a shipment is picked up once.
 */

let t: TestApp;
let shop: Shop;
let manager: ApiClient;
let workers: [{ id: number; client: ApiClient }, { id: number; client: ApiClient }];
let docks: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  manager = (await signedIn(t, 'wsc-manager', ['Fulfilment Manager'])).client;
  workers = [
    await signedIn(t, 'wsc-bench-a', ['Fulfilment Worker']),
    await signedIn(t, 'wsc-bench-b', ['Fulfilment Worker']),
  ];
  docks = [
    (await signedIn(t, 'wsc-door-a', ['Shipping Clerk'])).client,
    (await signedIn(t, 'wsc-door-b', ['Shipping Clerk'])).client,
  ];
});
afterAll(() => t.close());

const reservedImeis = async (orderId: number) =>
  (
    await t.db.query<{ identifier: string }>(
      `SELECT d.identifier FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id WHERE l.order_id = $1 ORDER BY u.id`,
      [orderId],
    )
  ).map((row) => row.identifier);

const openBox = (client: ApiClient, orderId: number) =>
  dataOf<OrderBox>(client.post('/order-boxes', { order_id: orderId }), 201);

const scanInto = (client: ApiClient, boxId: number, code: string) =>
  client.post(`/order-boxes/${boxId}/scans`, { code, station: 'Bench' });

describe('two carton stations at once', () => {
  it('scan the same IMEIs into two cartons of one order: each device is in one carton', async () => {
    const order = await seedWholesaleOrder(t.db, shop, {
      phones: 4,
      manager,
      workerId: workers[0].id,
    });
    const imeis = await reservedImeis(order.orderId);
    const boxes = await Promise.all(workers.map((worker) => openBox(worker.client, order.orderId)));
    const answers = await Promise.all(
      imeis.flatMap((imei) =>
        workers.map((worker, n) =>
          dataOf<OrderBoxScanAnswer>(scanInto(worker.client, boxes[n]!.id, imei)),
        ),
      ),
    );
    for (const imei of imeis) {
      const results = answers.filter((answer) => answer.code === imei).map((a) => a.result);
      expect(results.sort()).toEqual(['in_other_box', 'packed']);
    }
    const [placed] = await t.db.query<{ units: number; boxes: number; events: number }>(
      `SELECT count(*)::int AS units, count(DISTINCT u.order_box_id)::int AS boxes,
         (SELECT count(*)::int FROM device_events e
          WHERE e.device_id = ANY (array_agg(u.device_id)) AND e.type = 'picked') AS events
       FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       WHERE l.order_id = $1 AND u.order_box_id IS NOT NULL`,
      [order.orderId],
    );
    expect(placed!.units).toBe(4);
    expect(placed!.events).toBe(4);
  });

  it('two orders wanting the same spare device: one takes it', async () => {
    const first = await seedWholesaleOrder(t.db, shop, {
      phones: 1,
      manager,
      workerId: workers[0].id,
    });
    const second = await seedWholesaleOrder(t.db, shop, {
      phones: 1,
      manager,
      workerId: workers[1].id,
    });
    // A device in stock that neither order reserved.
    const [spare] = await t.db.query<{ identifier: string }>(
      `SELECT identifier FROM devices WHERE status = 'in_stock' AND model_id = $1
         AND color_id = $2 ORDER BY id DESC LIMIT 1`,
      [shop.modelId, shop.blackId],
    );
    const boxes = [
      await openBox(workers[0].client, first.orderId),
      await openBox(workers[1].client, second.orderId),
    ];
    const answers = await Promise.all(
      workers.map((worker, n) => scanInto(worker.client, boxes[n]!.id, spare!.identifier)),
    );
    const swapped = answers.filter(
      (answer) =>
        answer.statusCode === 200 &&
        (answer.json() as { data: OrderBoxScanAnswer }).data.result === 'swapped',
    );
    expect(swapped).toHaveLength(1);
    for (const answer of answers) expect([200, 409]).toContain(answer.statusCode);
    const [held] = await t.db.query<{ units: number; status: string }>(
      `SELECT count(u.id)::int AS units, d.status FROM devices d
       LEFT JOIN order_line_units u ON u.device_id = d.id AND u.status <> 'cancelled'
       WHERE d.identifier = $1 GROUP BY d.status`,
      [spare!.identifier],
    );
    expect(held).toEqual({ units: 1, status: 'picked' });
  });
});

describe('two dock doors at once', () => {
  it('scan the same cartons and confirm the pickup twice: each carton once, one pickup', async () => {
    const order = await seedWholesaleOrder(t.db, shop, {
      phones: 3,
      manager,
      workerId: workers[0].id,
    });
    const bench = workers[0].client;
    const codes: string[] = [];
    for (const imei of await reservedImeis(order.orderId)) {
      const box = await openBox(bench, order.orderId);
      await dataOf(scanInto(bench, box.id, imei));
      await dataOf(bench.post(`/order-boxes/${box.id}/close`, { weight_lb: 1.5 }));
      codes.push(box.code);
    }
    const made = await dataOf<{ shipment: { id: number } }>(
      docks[0].post('/wholesale-shipments', {
        order_id: order.orderId,
        mode: 'freight',
        carrier: 'Estes Express',
        bol_number: `BOL-${order.orderId}`,
      }),
      201,
    );
    const id = made.shipment.id;
    await dataOf(docks[0].post(`/wholesale-shipments/${id}/check`, {}));
    const answers = await Promise.all(
      codes.flatMap((code) =>
        docks.map((dock, n) =>
          dataOf<DockScanAnswer>(
            dock.post('/wholesale-shipments/dock-scans', { code, station: `Door ${n + 1}` }),
          ),
        ),
      ),
    );
    for (const code of codes) {
      const results = answers.filter((answer) => answer.code === code).map((a) => a.result);
      expect(results.sort()).toEqual(['already_scanned', 'scanned']);
    }
    const pickups = await Promise.all(
      docks.map((dock) =>
        dock.post(`/wholesale-shipments/${id}/pickup`, {
          carrier: 'Estes Express',
          driver_name: 'Sam Driver',
        }),
      ),
    );
    expect(pickups.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const [shipped] = await t.db.query<{ devices: number; events: number }>(
      `SELECT count(*)::int AS devices,
         (SELECT count(*)::int FROM device_events e
          WHERE e.device_id = ANY (array_agg(u.device_id)) AND e.type = 'shipped') AS events
       FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
       JOIN devices d ON d.id = u.device_id
       WHERE l.order_id = $1 AND d.status = 'shipped'`,
      [order.orderId],
    );
    expect(shipped).toEqual({ devices: 3, events: 3 });
  });
});
