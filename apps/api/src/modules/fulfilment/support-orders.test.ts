import type {
  AssignmentOverview,
  LabelBatch,
  LabelStepAnswer,
  OrderAssignmentResult,
  OrderDetail,
  PickOrder,
  PickScanAnswer,
  ShipScanAnswer,
  SupportItemOption,
  SupportOrderRow,
  SupportSubscriber,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import {
  one,
  placeOrder,
  seedBox,
  seedShop,
  seedSims,
  signedIn,
  type Shop,
} from './fulfilment.test-support.js';
import { roleWith } from './substitutions.test-support.js';

/**
 * Support orders (DOMAIN.md 4.14 /fulfill/support-order): a subscriber found by enrolment or order
 * number; chargers go to the queue at once, a device waits for a manager; the reason is required;
 * the same item within the setting's days is a duplicate unless a manager overrides. A SIM-only
 * replacement is picked by scanning an ICCID alone, then labelled and shipped like any parcel.
 */

let t: TestApp;
let cs: ApiClient;
let lead: ApiClient;
let manager: ApiClient;
let shop: Shop;
let chargerId: number;
let subscriberId: number;

beforeAll(async () => {
  t = await createTestApp();
  await roleWith(t.db, 'Support Lead', [
    'order.management',
    'order.support-create',
    'order.support-approve',
  ]);
  cs = (await signedIn(t, 'sup.cs', ['Customer Support'])).client;
  lead = (await signedIn(t, 'sup.lead', ['Support Lead'])).client;
  manager = (await signedIn(t, 'sup.fm', ['Fulfilment Manager'])).client;
  shop = await seedShop(t.db);
  await seedBox(t.db, shop, 3);
  const [charger] = await t.db.query<{ id: number }>(
    `SELECT v.id::int AS id FROM product_variants v JOIN products p ON p.id = v.product_id
     WHERE p.kind = 'accessory' AND v.sku = $1`,
    [`CHARGER-${await skuNumber()}`],
  );
  chargerId = charger!.id;
  const first = await placeOrder(cs, shop, { external_id: 'SUP-ENR-1' });
  const [row] = await t.db.query<{ subscriber_id: number }>(
    'SELECT subscriber_id::int AS subscriber_id FROM orders WHERE id = $1',
    [first.id],
  );
  subscriberId = row!.subscriber_id;
});
afterAll(() => t.close());

/** The shop's number, as its charger's SKU carries it. */
async function skuNumber() {
  const [variant] = await t.db.query<{ sku: string }>(
    'SELECT sku FROM product_variants WHERE id = $1',
    [shop.variantId],
  );
  return variant!.sku.split('-')[1];
}

const create = (client: ApiClient, body: Record<string, unknown>) =>
  client.post('/support-orders', {
    subscriber_id: subscriberId,
    reason: 'defective_accessory',
    ship_method: 'ground',
    items: [{ variant_id: chargerId, qty: 1 }],
    ...body,
  });

describe('the subscriber lookup', () => {
  it('finds a subscriber by enrolment number or order number, the name masked', async () => {
    const [byEnrolment] = await dataOf<SupportSubscriber[]>(
      cs.get('/support-orders/subscribers?search=SUP-ENR-1'),
    );
    expect(byEnrolment).toMatchObject({ id: subscriberId, customer: 'P*** S***' });
    const [order] = await t.db.query<{ number: string }>(
      'SELECT number FROM orders WHERE subscriber_id = $1',
      [subscriberId],
    );
    const byOrder = await dataOf<SupportSubscriber[]>(
      cs.get(`/support-orders/subscribers?search=${order!.number}`),
    );
    expect(byOrder.map((s) => s.id)).toEqual([subscriberId]);
    expect(byOrder[0]!.last_order).toBe(order!.number);
  });
});

describe('a support order', () => {
  it('for a charger goes to the support queue at once, with its reason', async () => {
    const created = await dataOf<SupportOrderRow>(
      create(cs, { note: 'Charger stopped working' }),
      201,
    );
    expect(created).toMatchObject({
      status: 'ready',
      reason: 'defective_accessory',
      needs_approval: false,
      duplicate_of: null,
    });
    const order = await dataOf<OrderDetail>(cs.get(`/orders/${created.order_id}/detail`));
    expect(order).toMatchObject({ source: 'support', fulfilment_type: 'support', total_cents: 0 });
    expect(order.events.map((event) => event.type)).toEqual(['received', 'validated']);
    const overview = await dataOf<AssignmentOverview>(manager.get('/fulfilment/assignment'));
    expect(overview.queues.find((queue) => queue.fulfilment_type === 'support')?.orders).toBe(1);
  });

  it('for an accessory of the master puts it in the catalogue once and sends it', async () => {
    const accessory = await one(
      t.db,
      "INSERT INTO accessories (sku, name, kind) VALUES ('usb-c-cable-1m', 'USB-C cable', 'cable')",
    );
    const [option] = await dataOf<{ id: number; source: string }[]>(
      cs.get('/support-orders/item-options?search=usb-c'),
    );
    expect(option).toMatchObject({ id: accessory, source: 'accessory' });
    const sent = await dataOf<SupportOrderRow>(
      create(cs, { items: [{ accessory_id: accessory, qty: 2 }], reason: 'missing_item' }),
      201,
    );
    expect(sent).toMatchObject({ status: 'ready', items_text: '2 × USB-C-CABLE-1M' });
    const variants = await t.db.query('SELECT 1 FROM product_variants WHERE accessory_id = $1', [
      accessory,
    ]);
    expect(variants).toHaveLength(1);
    const again = await dataOf<{ source: string }[]>(
      cs.get('/support-orders/item-options?search=usb-c'),
    );
    expect(again.map((item) => item.source)).toEqual(['variant']);
  });

  it('needs a reason, an item and a ship method', async () => {
    const answer = await cs.post('/support-orders', { subscriber_id: subscriberId, items: [] });
    expect(answer.statusCode).toBe(422);
    expect(Object.keys(answer.json().message).sort()).toEqual(['items', 'reason', 'ship_method']);
  });

  it('for the same item again within the window is refused unless a manager overrides', async () => {
    expect(await refusalOf(create(cs, {}), 409)).toMatch(
      /had the same item within 30 days: CHARGER-.* on SO-.*A manager may override/,
    );
    await refusalOf(create(cs, { override_duplicate: true }), 403);
    const overridden = await dataOf<SupportOrderRow>(
      create(lead, { override_duplicate: true }),
      201,
    );
    expect(overridden.duplicate_of).toHaveLength(1);
    // A shorter window lets it through.
    await t.db.query(
      `UPDATE orders SET created_at = now() - interval '3 days' WHERE subscriber_id = $1`,
      [subscriberId],
    );
    await t.db.query('UPDATE order_settings SET support_duplicate_days = 2');
    await dataOf(create(cs, { reason: 'missing_item' }), 201);
    await t.db.query('UPDATE order_settings SET support_duplicate_days = 30');
  });

  it('with a device waits for a manager, who approves it to the queue or refuses it', async () => {
    // Goodwill phones of the shop's model, A (in stock) and B, not sent to the subscriber before.
    const product = await one(
      t.db,
      "INSERT INTO products (name, kind, model_id) VALUES ('Goodwill phone', 'device', $1)",
      [shop.modelId],
    );
    const [gradeA, gradeB] = await Promise.all(
      ['A', 'B'].map((grade) =>
        one(t.db, 'INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, $2, $3)', [
          product,
          `GOODWILL-${grade}`,
          grade,
        ]),
      ),
    );
    const device = (variantId: number) => ({
      items: [{ variant_id: variantId, qty: 1 }],
      reason: 'goodwill',
    });
    const waiting = await dataOf<SupportOrderRow>(create(cs, device(gradeA!)), 201);
    expect(waiting).toMatchObject({ status: 'pending', needs_approval: true, approved_at: null });
    const awaiting = await dataOf<SupportOrderRow[]>(
      cs.get('/support-orders?awaiting_approval=true'),
    );
    expect(awaiting.map((row) => row.order_id)).toContain(waiting.order_id);
    await refusalOf(cs.post(`/support-orders/${waiting.order_id}/approval`, {}), 403);
    const approved = await dataOf<SupportOrderRow>(
      lead.post(`/support-orders/${waiting.order_id}/approval`, {}),
    );
    expect(approved).toMatchObject({ status: 'ready', approved_by: 'Name of sup.lead' });
    await refusalOf(lead.post(`/support-orders/${waiting.order_id}/approval`, {}), 409);

    const refused = await dataOf<SupportOrderRow>(create(cs, device(gradeB!)), 201);
    const cancelled = await dataOf<SupportOrderRow>(
      lead.post(`/support-orders/${refused.order_id}/rejection`, { reason: 'Not eligible' }),
    );
    expect(cancelled.status).toBe('cancelled');
  });
});

describe('a SIM-only replacement', () => {
  it('is picked by its ICCID alone, the SIM allocated, then labelled and shipped', async () => {
    const kit = await one(t.db, "INSERT INTO products (name, kind) VALUES ('SIM kit', 'sim_kit')");
    const kitVariant = await one(
      t.db,
      "INSERT INTO product_variants (product_id, sku) VALUES ($1, 'SIMKIT-TRIPLE')",
      [kit],
    );
    const [iccid, spare] = await seedSims(t.db, shop.carrierId, 2);
    const [foreign] = await seedSims(t.db, shop.otherCarrierId, 1);
    const sent = await dataOf<SupportOrderRow>(
      create(cs, { reason: 'sim_replacement', items: [{ variant_id: kitVariant, qty: 1 }] }),
      201,
    );
    expect(sent).toMatchObject({ status: 'ready', needs_approval: false });
    const picker = await signedIn(t, 'sup.fw', ['Fulfilment Worker']);
    const assigned = await dataOf<OrderAssignmentResult>(
      manager.post('/fulfilment/assignments', {
        assignee_id: picker.id,
        order_ids: [sent.order_id],
      }),
    );
    expect(assigned).toMatchObject({ units_reserved: 0, held: [] });
    expect(assigned.assigned.map((order) => order.id)).toEqual([sent.order_id]);

    // The station shows a SIM to scan and no accessory to confirm.
    const opened = await dataOf<PickOrder>(
      picker.client.get(`/fulfilment/picks/lookup?number=${sent.number}`),
    );
    expect(opened.accessories).toEqual([]);
    expect(opened.units).toMatchObject([
      { sku: 'SIMKIT-TRIPLE', status: 'allocated', imei: null, iccid: null, sim_required: true },
    ]);
    const scan = (code: string) =>
      dataOf<PickScanAnswer>(
        picker.client.post(`/fulfilment/picks/${sent.order_id}/scans`, { code }),
      );
    expect((await scan(foreign!)).result).toBe('sim_wrong_carrier');
    const picked = await scan(iccid!);
    expect(picked).toMatchObject({
      result: 'picked',
      message: `${iccid} picked: ${sent.number} is fulfilled.`,
    });
    expect(picked.order.status).toBe('fulfilled');
    expect(picked.order.units).toMatchObject([{ status: 'picked', iccid, imei: null }]);
    expect((await scan(spare!)).result).toBe('order_fulfilled');
    const simOf = async (code: string) =>
      (
        await t.db.query<{ status: string; order_id: number | null; device_id: number | null }>(
          `SELECT status, order_id::int AS order_id, device_id::int AS device_id
           FROM sim_cards WHERE iccid = $1`,
          [code],
        )
      )[0]!;
    expect(await simOf(iccid!)).toEqual({
      status: 'allocated',
      order_id: sent.order_id,
      device_id: null,
    });

    // Unpicked, the SIM goes back to stock and the unit waits for an ICCID; picked again.
    await dataOf(manager.post(`/fulfilment/orders/${sent.order_id}/unpick`, {}));
    expect((await simOf(iccid!)).status).toBe('in_stock');
    expect((await scan(spare!)).result).toBe('picked');

    // Labelled and scanned out like any parcel: the SIM ships with the order.
    const clerk = (await signedIn(t, 'sup.sh', ['Shipping Clerk'])).client;
    const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
    const labelled = await dataOf<LabelStepAnswer>(
      clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [sent.order_id] }),
    );
    expect(labelled.results[0]!.result).toBe('created');
    const shipped = await dataOf<ShipScanAnswer>(
      clerk.post('/ship-scans', {
        code: labelled.results[0]!.package!.tracking_number,
        station: 'Dock 1',
      }),
    );
    expect(shipped.result).toBe('shipped');
    expect((await simOf(spare!)).status).toBe('shipped');
    expect((await simOf(iccid!)).status).toBe('in_stock');
    const order = await dataOf<OrderDetail>(cs.get(`/orders/${sent.order_id}/detail`));
    expect(order.status).toBe('shipped');
    expect(order.units.filter((unit) => unit.status === 'shipped')).toMatchObject([
      { iccid: spare, imei: null },
    ]);
  });

  it("sends the subscriber's carrier's SIM kit, put in the catalogue on first use", async () => {
    const options = await dataOf<SupportItemOption[]>(
      cs.get('/support-orders/item-options?search=sim kit'),
    );
    expect(options.filter((option) => option.source === 'sim_kit')).toEqual([
      { id: 0, source: 'sim_kit', label: "SIM kit · the subscriber's carrier", kind: 'sim_kit' },
    ]);
    const simKit = { reason: 'sim_replacement', items: [{ sim_kit: true, qty: 1 }] };
    const sent = await dataOf<SupportOrderRow>(create(cs, simKit), 201);
    expect(sent).toMatchObject({ status: 'ready', needs_approval: false });
    const kits = () =>
      t.db.query<{ sku: string; kind: string; model_id: number | null }>(
        `SELECT v.sku, p.kind, p.model_id FROM product_variants v
         JOIN products p ON p.id = v.product_id WHERE v.sim_carrier_id = $1`,
        [shop.carrierId],
      );
    const [kit] = await kits();
    expect(kit).toMatchObject({ kind: 'sim_kit', model_id: null });
    expect(kit!.sku).toMatch(/^SIM-[A-Z0-9-]+$/);
    expect(sent.items_text).toBe(`1 × ${kit!.sku}`);
    // The picker still offers the one entry, not the carrier's kit beside it.
    const again = await dataOf<SupportItemOption[]>(
      cs.get('/support-orders/item-options?search=sim'),
    );
    expect(again.filter((option) => option.label.startsWith(kit!.sku))).toEqual([]);

    // The same kit again is a duplicate; a manager's override reuses the kit.
    expect(await refusalOf(create(cs, simKit), 409)).toContain(`${kit!.sku} on ${sent.number}`);
    const overridden = await dataOf<SupportOrderRow>(
      create(lead, { ...simKit, override_duplicate: true }),
      201,
    );
    expect(overridden.duplicate_of).toEqual([sent.number]);
    expect(await kits()).toHaveLength(1);
    const twice = await create(lead, {
      ...simKit,
      items: [simKit.items[0], { sim_kit: true, qty: 2 }],
      override_duplicate: true,
    });
    expect(twice.statusCode).toBe(422);
    expect(twice.json().message).toEqual({
      'items.1.variant_id': ['This item is listed already: change its quantity.'],
    });

    // Assigned, it waits for an ICCID of the carrier, as any SIM kit line.
    const picker = await signedIn(t, 'sup.fw2', ['Fulfilment Worker']);
    await dataOf(
      manager.post('/fulfilment/assignments', {
        assignee_id: picker.id,
        order_ids: [sent.order_id],
      }),
    );
    const [iccid] = await seedSims(t.db, shop.carrierId, 1);
    const picked = await dataOf<PickScanAnswer>(
      picker.client.post(`/fulfilment/picks/${sent.order_id}/scans`, { code: iccid }),
    );
    expect(picked).toMatchObject({ result: 'picked', order: { status: 'fulfilled' } });
  });
});
