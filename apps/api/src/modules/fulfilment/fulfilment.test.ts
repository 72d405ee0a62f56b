import type {
  AssignmentOverview,
  FulfilmentOrderRow,
  OrderAssignmentResult,
  OrderDetail,
  PickOrder,
  PickScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { makeFulfilledOrder } from './index.js';
import {
  nextImei,
  placeOrder,
  seedBox,
  seedShop,
  seedSims,
  signedIn,
  type Shop,
} from './fulfilment.test-support.js';

/**
 * Fulfilment's first half: assignment with a device reserved per unit (oldest box first, all or
 * nothing per order, no stock → backlog), unassign and hold releasing them, the pick station's
 * rules (my orders only, variant rule, hold and blacklist, swap, SIM of the order's carrier,
 * repeat scans), fulfilment, unpick back into the box, the backlog and the documents.
 */

let t: TestApp;
let shop: Shop;
let cs: ApiClient;
let manager: { id: number; name: string; client: ApiClient };
let picker: { id: number; name: string; client: ApiClient };
let otherPicker: { id: number; name: string; client: ApiClient };

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  cs = (await signedIn(t, 'ful.cs', ['Customer Support', 'Fulfilment Manager'])).client;
  manager = await signedIn(t, 'ful.fm', ['Fulfilment Manager']);
  picker = await signedIn(t, 'ful.fw', ['Fulfilment Worker']);
  otherPicker = await signedIn(t, 'ful.fw2', ['Fulfilment Worker']);
});
afterAll(() => t.close());

const assign = (orderIds: number[], assigneeId = picker.id) =>
  dataOf<OrderAssignmentResult>(
    manager.client.post('/fulfilment/assignments', {
      assignee_id: assigneeId,
      order_ids: orderIds,
    }),
  );
const detail = (id: number) => dataOf<OrderDetail>(cs.get(`/orders/${id}/detail`));
const scan = (client: ApiClient, id: number, code: string) =>
  dataOf<PickScanAnswer>(client.post(`/fulfilment/picks/${id}/scans`, { code, station: 'P1' }));
const deviceOf = async (imei: string) =>
  (
    await t.db.query<{
      id: number;
      status: string;
      inventory_box_id: number | null;
      hold_reason: string | null;
    }>(
      `SELECT id::int AS id, status, inventory_box_id::int AS inventory_box_id, hold_reason
       FROM devices WHERE imei = $1`,
      [imei],
    )
  )[0]!;
const boxOf = async (id: number) =>
  (
    await t.db.query<{ qty: number; status: string }>(
      'SELECT qty, status FROM inventory_boxes WHERE id = $1',
      [id],
    )
  )[0]!;

describe('assignment', () => {
  it('reserves one device per unit, oldest box first, and assigns the order to the worker', async () => {
    const older = await seedBox(t.db, shop, 2, { sealedDaysAgo: 30 });
    await seedBox(t.db, shop, 2, { sealedDaysAgo: 2 });
    const order = await placeOrder(cs, shop, { lines: [{ listing_id: shop.listingId, qty: 2 }] });
    expect(order.status).toBe('ready');

    const result = await assign([order.id]);
    expect(result).toMatchObject({
      assignee_id: picker.id,
      assigned: [{ id: order.id }],
      held: [],
      units_reserved: 2,
    });
    const after = await detail(order.id);
    expect(after.status).toBe('assigned');
    expect(after.units.map((unit) => [unit.status, unit.imei]).sort()).toEqual(
      older.imeis.map((imei) => ['allocated', imei]).sort(),
    );
    for (const imei of older.imeis) expect((await deviceOf(imei)).status).toBe('reserved');
    expect(after.events.at(-1)).toMatchObject({ type: 'assigned', to_status: 'assigned' });

    const row = await dataOf<FulfilmentOrderRow>(
      manager.client.post(`/fulfilment/orders/${order.id}/unassignment`, {}),
    );
    expect(row).toMatchObject({ status: 'ready', assignee_id: null });
    for (const imei of older.imeis) expect((await deviceOf(imei)).status).toBe('in_stock');
    expect((await detail(order.id)).units.every((unit) => unit.status === 'cancelled')).toBe(true);
  });

  it('puts an order short of stock on hold no_stock with nothing reserved, and assigns the rest', async () => {
    const scarce = await seedShop(t.db);
    const box = await seedBox(t.db, scarce, 3);
    const small = await placeOrder(cs, scarce);
    const third = await placeOrder(cs, scarce);
    // Placed last, so the least urgent: the two before it take what there is.
    const big = await placeOrder(cs, scarce, { lines: [{ listing_id: scarce.listingId, qty: 2 }] });
    // Take one device away after intake: 2 left for 4 units.
    await t.db.query(`UPDATE devices SET status = 'rtv', inventory_box_id = NULL WHERE imei = $1`, [
      box.imeis[0],
    ]);
    const result = await assign([big.id, small.id, third.id]);
    expect(result.units_reserved).toBe(2);
    expect(result.assigned.map((o) => o.id).sort()).toEqual([small.id, third.id].sort());
    expect(result.held).toMatchObject([{ id: big.id }]);
    expect(result.held[0]!.note).toMatch(new RegExp(`PHONE-\\d+-BLK-A`));
    const held = await detail(big.id);
    expect(held).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });
    expect(held.units).toEqual([]);
  });

  it('skips orders no longer ready and refuses an assignee who does not pick', async () => {
    await seedBox(t.db, shop, 1);
    const order = await placeOrder(cs, shop);
    await assign([order.id]);
    const again = await assign([order.id], otherPicker.id);
    expect(again).toMatchObject({ assigned: [], skipped: [{ id: order.id }] });
    const fields = await manager.client.fieldErrors('POST', '/fulfilment/assignments', {
      assignee_id: (await signedIn(t, 'ful.sales', ['Customer Support'])).id,
      order_ids: [order.id],
    });
    expect(fields.assignee_id).toBeDefined();
    await refusalOf(
      picker.client.post('/fulfilment/assignments', { assignee_id: picker.id, order_ids: [1] }),
      403,
    );
  });

  it('auto-assigns the most urgent orders of a model and shows demand, queues and load', async () => {
    const model = await seedShop(t.db);
    await seedBox(t.db, model, 3);
    const orders = [];
    for (let n = 0; n < 3; n += 1) orders.push(await placeOrder(cs, model));
    const overview = await dataOf<AssignmentOverview>(manager.client.get('/fulfilment/assignment'));
    expect(overview.demand.find((row) => row.variant_id === model.variantId)).toMatchObject({
      orders: 3,
      units: 3,
      available: 3,
    });
    expect(
      overview.queues.find((q) => q.fulfilment_type === 'new_lifeline')!.orders,
    ).toBeGreaterThan(0);
    expect(overview.workers.map((w) => w.id)).toEqual(
      expect.arrayContaining([picker.id, otherPicker.id, manager.id]),
    );

    const result = await dataOf<OrderAssignmentResult>(
      manager.client.post('/fulfilment/auto-assignments', {
        assignee_id: otherPicker.id,
        count: 2,
        model_id: model.modelId,
      }),
    );
    expect(result.assigned.map((o) => o.id)).toEqual([orders[0]!.id, orders[1]!.id]);
    const load = await dataOf<AssignmentOverview>(manager.client.get('/fulfilment/assignment'));
    expect(load.workers.find((w) => w.id === otherPicker.id)).toMatchObject({ assigned: 2 });
  });

  it('pushes an assigned order to the backlog, releasing it; released, it is ready again', async () => {
    const box = await seedBox(t.db, shop, 1, { sealedDaysAgo: 400 });
    const order = await placeOrder(cs, shop);
    await assign([order.id]);
    expect((await deviceOf(box.imeis[0]!)).status).toBe('reserved');
    const held = await dataOf<OrderDetail>(
      cs.post(`/orders/${order.id}/hold`, { reason: 'fraud_review' }),
    );
    expect(held).toMatchObject({ status: 'on_hold', status_before_hold: 'ready' });
    expect((await deviceOf(box.imeis[0]!)).status).toBe('in_stock');
    const released = await dataOf<OrderDetail>(cs.post(`/orders/${order.id}/release`, {}));
    expect(released.status).toBe('ready');
  });
});

describe('the pick station', () => {
  it('picks the reserved unit, pairs a SIM of the carrier and fulfils the order', async () => {
    const box = await seedBox(t.db, shop, 1, { sealedDaysAgo: 500 });
    const [iccid] = await seedSims(t.db, shop.carrierId, 1);
    const [foreign] = await seedSims(t.db, shop.otherCarrierId, 1);
    const order = await placeOrder(cs, shop);
    await assign([order.id]);
    const imei = box.imeis[0]!;

    const mine = await dataOf<PickOrder[]>(picker.client.get('/fulfilment/picks'));
    expect(mine.find((o) => o.id === order.id)!.units[0]).toMatchObject({
      imei,
      sim_required: true,
      location_code: expect.stringMatching(/^Z\d+-1$/),
    });
    const found = await dataOf<PickOrder>(
      picker.client.get(`/fulfilment/picks/lookup?number=${order.number}`),
    );
    expect(found.id).toBe(order.id);
    await refusalOf(otherPicker.client.get(`/fulfilment/picks/lookup?number=${order.number}`), 404);
    await refusalOf(
      otherPicker.client.post(`/fulfilment/picks/${order.id}/scans`, { code: imei }),
      404,
    );

    expect((await scan(picker.client, order.id, iccid!)).result).toBe('device_first');
    const picked = await scan(picker.client, order.id, imei);
    expect(picked).toMatchObject({ result: 'picked', order: { status: 'in_progress' } });
    expect((await scan(picker.client, order.id, imei)).result).toBe('already_done');
    const device = await deviceOf(imei);
    expect(device).toMatchObject({ status: 'picked', inventory_box_id: null });
    expect(await boxOf(box.boxId)).toEqual({ qty: 0, status: 'partially_picked' });

    expect((await scan(picker.client, order.id, foreign!)).result).toBe('sim_wrong_carrier');
    const paired = await scan(picker.client, order.id, iccid!);
    expect(paired).toMatchObject({ result: 'sim_paired', order: { status: 'fulfilled' } });
    expect((await scan(picker.client, order.id, iccid!)).result).toBe('order_fulfilled');
    const [sim] = await t.db.query<{ status: string; order_id: number; device_id: number }>(
      `SELECT status, order_id::int AS order_id, device_id::int AS device_id FROM sim_cards
       WHERE iccid = $1`,
      [iccid],
    );
    expect(sim).toEqual({ status: 'allocated', order_id: order.id, device_id: device.id });
    const units = (await detail(order.id)).units;
    expect(units).toMatchObject([{ status: 'picked', imei, iccid, device_id: device.id }]);

    const slip = await picker.client.download(`/fulfilment/orders/${order.id}/packing-slip`, {});
    expect(slip.statusCode).toBe(200);
    expect(slip.headers['content-type']).toBe('application/pdf');
  });

  it('refuses a unit of another variant, a held one and another order’s, and swaps a matching one', async () => {
    const reserved = await seedBox(t.db, shop, 1, { sealedDaysAgo: 600 });
    const spare = await seedBox(t.db, shop, 2, { sealedDaysAgo: 1 });
    const red = await seedBox(t.db, shop, 1, { colorId: shop.redId });
    const order = await placeOrder(cs, shop, {
      fulfilment_type: 'support',
      program: 'lifeline',
    });
    const other = await placeOrder(cs, shop, { fulfilment_type: 'support' });
    await assign([order.id]);
    await assign([other.id], otherPicker.id);

    expect((await scan(picker.client, order.id, red.imeis[0]!)).result).toBe('wrong_variant');
    expect((await scan(picker.client, order.id, nextImei())).result).toBe('unknown');
    expect((await scan(picker.client, order.id, '12345')).result).toBe('invalid');
    const otherUnit = (await detail(other.id)).units[0]!.imei!;
    expect((await scan(picker.client, order.id, otherUnit)).result).toBe('not_available');
    await t.db.query(
      `UPDATE devices SET status = 'hold', status_before_hold = 'in_stock',
      hold_reason = 'frp' WHERE imei = $1`,
      [spare.imeis[0]],
    );
    expect((await scan(picker.client, order.id, spare.imeis[0]!)).result).toBe('held');
    await t.db.query(
      `INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'carrier', 'stolen')`,
      [spare.imeis[1]],
    );
    const listed = await scan(picker.client, order.id, spare.imeis[1]!);
    expect(listed.result).toBe('blacklisted');
    expect(await deviceOf(spare.imeis[1]!)).toMatchObject({
      status: 'hold',
      hold_reason: 'blacklist',
    });

    const fresh = await seedBox(t.db, shop, 1);
    const swapped = await scan(picker.client, order.id, fresh.imeis[0]!);
    expect(swapped).toMatchObject({ result: 'swapped', order: { status: 'fulfilled' } });
    expect((await deviceOf(reserved.imeis[0]!)).status).toBe('in_stock');
    expect((await deviceOf(fresh.imeis[0]!)).status).toBe('picked');
  });

  it('waits for the accessories to be confirmed before fulfilling a kit', async () => {
    await seedBox(t.db, shop, 1);
    const order = await placeOrder(cs, shop, {
      fulfilment_type: 'support',
      lines: [{ listing_id: shop.bundleListingId, qty: 1 }],
    });
    // Intake counts the charger as device stock it cannot find (decision 0026): release it by hand.
    await t.db.query(
      `UPDATE orders SET status = 'ready', hold_reason = NULL, status_before_hold = NULL,
         hold_note = NULL WHERE id = $1`,
      [order.id],
    );
    await assign([order.id]);
    const before = (await dataOf<PickOrder[]>(picker.client.get('/fulfilment/picks'))).find(
      (o) => o.id === order.id,
    )!;
    expect(before.accessories).toMatchObject([{ sku: expect.stringMatching(/^CHARGER-/), qty: 1 }]);
    const picked = await scan(picker.client, order.id, before.units[0]!.imei!);
    expect(picked.order.status).toBe('in_progress');
    const confirmed = await dataOf<PickOrder>(
      picker.client.post(`/fulfilment/picks/${order.id}/accessories`, {}),
    );
    expect(confirmed).toMatchObject({ status: 'fulfilled', accessories_confirmed: true });
  });
});

describe('the pipeline', () => {
  it('unpicks a fulfilled order back into its box, and refuses once labeled', async () => {
    const box = await seedBox(t.db, shop, 1, { sealedDaysAgo: 700 });
    const [iccid] = await seedSims(t.db, shop.carrierId, 1);
    const order = await placeOrder(cs, shop);
    const made = await makeFulfilledOrder(t.db, {
      orderId: order.id,
      picker: { id: picker.id, name: picker.name },
      iccids: [iccid!],
    });
    expect(made.units).toEqual([
      expect.objectContaining({ imei: box.imeis[0], iccid, deviceId: expect.any(Number) }),
    ]);

    const rows = await dataOf<{ items: FulfilmentOrderRow[] }>(
      manager.client.get(`/fulfilment-orders?status=fulfilled&assignee_id=${picker.id}`),
    );
    expect(rows.items.map((row) => row.id)).toContain(order.id);

    const row = await dataOf<FulfilmentOrderRow>(
      picker.client.post(`/fulfilment/orders/${order.id}/unpick`, {}),
    );
    expect(row).toMatchObject({ status: 'assigned', units_picked: 0 });
    expect(await deviceOf(box.imeis[0]!)).toMatchObject({
      status: 'in_stock',
      inventory_box_id: box.boxId,
    });
    expect((await boxOf(box.boxId)).qty).toBe(1);
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [iccid],
    );
    expect(sim!.status).toBe('in_stock');

    // Picked again, then labeled by the shipping half: unpicking waits for the label's void.
    await scan(picker.client, order.id, box.imeis[0]!);
    await scan(picker.client, order.id, iccid!);
    await t.db.query(`UPDATE orders SET status = 'labeled' WHERE id = $1`, [order.id]);
    expect(
      await refusalOf(picker.client.post(`/fulfilment/orders/${order.id}/unpick`, {}), 409),
    ).toMatch(/void the label first/);
  });

  it('pushes a started order to the backlog with the problem, unpicking what was picked', async () => {
    const box = await seedBox(t.db, shop, 2, { sealedDaysAgo: 800 });
    const order = await placeOrder(cs, shop, {
      fulfilment_type: 'support',
      lines: [{ listing_id: shop.listingId, qty: 2 }],
    });
    await assign([order.id]);
    await scan(picker.client, order.id, box.imeis[0]!);
    const row = await dataOf<FulfilmentOrderRow>(
      picker.client.post(`/fulfilment/orders/${order.id}/backlog`, {
        reason: 'damaged_unit',
        note: 'Cracked screen',
      }),
    );
    expect(row).toMatchObject({
      status: 'on_hold',
      hold_reason: 'damaged_unit',
      assignee_id: null,
    });
    for (const imei of box.imeis) {
      expect(await deviceOf(imei)).toMatchObject({
        status: 'in_stock',
        inventory_box_id: box.boxId,
      });
    }
    const released = await dataOf<OrderDetail>(cs.post(`/orders/${order.id}/release`, {}));
    expect(released.status).toBe('ready');
    const list = await picker.client.download(`/fulfilment/orders/${order.id}/pick-list`, {});
    expect(list.statusCode).toBe(200);
  });
});

describe('a short order', () => {
  it('keeps nothing that a less urgent order of the batch can use', async () => {
    const scarce = await seedShop(t.db);
    const box = await seedBox(t.db, scarce, 2);
    const big = await placeOrder(cs, scarce, {
      priority: 'urgent',
      lines: [{ listing_id: scarce.listingId, qty: 2 }],
    });
    const small = await placeOrder(cs, scarce);
    await t.db.query(`UPDATE devices SET status = 'rtv', inventory_box_id = NULL WHERE imei = $1`, [
      box.imeis[0],
    ]);
    const result = await assign([big.id, small.id]);
    expect(result).toMatchObject({ assigned: [{ id: small.id }], held: [{ id: big.id }] });
  });
});
