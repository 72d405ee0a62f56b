import type {
  CarrierOrder,
  CarrierOrderRequest,
  LabelBatch,
  LabelStepAnswer,
  OrderDetail,
  PickOrder,
  PickScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';
import { placeOrder, seedBox, seedShop, signedIn, type Shop } from './fulfilment.test-support.js';

/**
 * Prepaid payments (DOMAIN.md 4.14 /fulfill/prepaid, migration 0075): the carrier reports the
 * payment with the order (captured unless it says authorized) and later through its API, staff
 * write down what it reported; a prepaid order is picked only once captured and labelled only
 * while it stays captured. A change and a pick of one order take turns on its row.
 */

let t: TestApp;
let shop: Shop;
let sku: string;
let cs: ApiClient;
let manager: { id: number; client: ApiClient };
let picker: { id: number; client: ApiClient };
let clerk: ApiClient;
const key = `ck_${'P'.repeat(43)}`;

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  const [variant] = await t.db.query<{ sku: string }>(
    'SELECT sku FROM product_variants WHERE id = $1',
    [shop.variantId],
  );
  sku = variant!.sku;
  await t.db.query(
    `INSERT INTO client_carrier_api_keys (client_carrier_id, name, key_prefix, key_hash)
     VALUES ($1, 'orders', left($2, 8), encode(sha256(convert_to($2, 'UTF8')), 'hex'))`,
    [shop.carrierId, key],
  );
  await t.db.query(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, effective_from)
     VALUES ($1, 'prepaid', NULL, $2, 1, 4999, 'Prepaid Unlimited 30', NULL,
       plan_price_today() - 1)`,
    [shop.carrierId, shop.modelId],
  );
  cs = (await signedIn(t, 'pay.cs', ['Customer Support'])).client;
  manager = await signedIn(t, 'pay.fm', ['Fulfilment Manager']);
  picker = await signedIn(t, 'pay.fw', ['Fulfilment Worker']);
  clerk = (await signedIn(t, 'pay.sh', ['Shipping Clerk'])).client;
});
afterAll(() => t.close());

let serial = 0;
/** A prepaid order sent by the carrier's API (one unit in stock for it). */
async function sendPrepaid(overrides: Partial<CarrierOrderRequest> = {}) {
  serial += 1;
  const ref = `PRE-${serial}`;
  await seedBox(t.db, shop, 1);
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/v1/carrier/orders',
    headers: { 'x-api-key': key, 'idempotency-key': `pay-${ref}` },
    payload: {
      external_ref: ref,
      program: 'prepaid',
      subscriber: {
        external_id: `SUB-${ref}`,
        first_name: 'Rosa',
        last_name: 'Diaz',
        service_address: { line1: `${serial} Oak St`, city: 'Houston', state: 'TX', zip: '77002' },
      },
      items: [{ sku, qty: 1 }],
      ...overrides,
    } satisfies CarrierOrderRequest,
  });
  return { ref, answer };
}

const report = (ref: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/carrier/orders/${ref}/payment`,
    headers: { 'x-api-key': key },
    payload: body,
  });

/** The carrier's prepaid order assigned to the picker: its id, number and reserved IMEI. */
async function assignedPrepaid(overrides: Partial<CarrierOrderRequest> = {}) {
  const { ref, answer } = await sendPrepaid(overrides);
  expect(answer.statusCode).toBe(201);
  const [order] = await t.db.query<{ id: number; number: string }>(
    'SELECT id::int AS id, number FROM orders WHERE external_ref = $1',
    [ref],
  );
  await dataOf(
    manager.client.post('/fulfilment/assignments', {
      assignee_id: picker.id,
      order_ids: [order!.id],
    }),
  );
  const picked = await lookup(order!.number);
  return { ref, ...order!, imei: picked.units[0]!.imei! };
}

const lookup = (number: string) =>
  dataOf<PickOrder>(picker.client.get(`/fulfilment/picks/lookup?number=${number}&queue=prepaid`));
const scan = (id: number, code: string) =>
  picker.client.post(`/fulfilment/picks/${id}/scans`, { code, queue: 'prepaid' });
const changePayment = (client: ApiClient, id: number, body: object) =>
  client.post(`/orders/${id}/payment`, body);

async function labelStep(orderId: number) {
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  return dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [orderId] }),
  );
}

describe('a prepaid order from the carrier', () => {
  it('is captured unless the carrier says authorized, with the plan bought', async () => {
    const paid = await sendPrepaid();
    expect(paid.answer.statusCode).toBe(201);
    expect(bodyOf<CarrierOrder>(paid.answer).data).toMatchObject({
      status: 'ready',
      payment_status: 'captured',
    });
    const authorised = await sendPrepaid({ payment_status: 'authorized' });
    expect(bodyOf<CarrierOrder>(authorised.answer).data.payment_status).toBe('authorized');
    const [stored] = await t.db.query<{ plan_name: string; payment_status: string }>(
      'SELECT plan_name, payment_status FROM orders WHERE external_ref = $1',
      [authorised.ref],
    );
    expect(stored).toEqual({ plan_name: 'Prepaid Unlimited 30', payment_status: 'authorized' });

    // Another programme carries no payment; an unknown status is refused.
    const lifeline = await sendPrepaid({ program: 'lifeline', payment_status: 'captured' });
    expect(lifeline.answer.statusCode).toBe(422);
    expect(Object.keys(bodyOf(lifeline.answer).message as object)).toEqual(['payment_status']);
    const unknown = await sendPrepaid({ payment_status: 'paid' as never });
    expect(unknown.answer.statusCode).toBe(422);
  });

  it('changes as the carrier reports it, on the timeline, and refuses what it cannot become', async () => {
    const { ref } = await sendPrepaid({ payment_status: 'authorized' });
    const captured = await report(ref, { status: 'captured', reference: 'ch_3PmQ' });
    expect(captured.statusCode).toBe(200);
    expect(bodyOf<CarrierOrder>(captured).data.payment_status).toBe('captured');
    // The same report again changes nothing.
    expect((await report(ref, { status: 'captured' })).statusCode).toBe(200);
    const back = await report(ref, { status: 'authorized' });
    expect(back.statusCode).toBe(409);
    expect(bodyOf(back).message).toMatch(/payment is captured: it cannot become authorized/);
    expect((await report(ref, { status: 'refunded' })).statusCode).toBe(200);
    expect((await report(ref, { status: 'captured' })).statusCode).toBe(409);
    expect((await report('PRE-none', { status: 'captured' })).statusCode).toBe(404);

    const events = await t.db.query<{ type: string; data: Record<string, unknown> }>(
      `SELECT e.type, e.data FROM order_events e JOIN orders o ON o.id = e.order_id
       WHERE o.external_ref = $1 AND e.type = 'payment_changed' ORDER BY e.id`,
      [ref],
    );
    expect(events.map((event) => event.data)).toEqual([
      { from: 'authorized', to: 'captured', by: 'carrier', note: 'ch_3PmQ' },
      { from: 'captured', to: 'refunded', by: 'carrier' },
    ]);
    const audits = await t.db.query<{ actor_name: string }>(
      `SELECT a.actor_name FROM audit_events a JOIN orders o ON a.entity_id = o.id::text
       WHERE a.action = 'order.payment_changed' AND o.external_ref = $1`,
      [ref],
    );
    expect(audits).toHaveLength(2);
  });
});

describe('the prepaid station', () => {
  it('refuses to pick until the payment is captured, which staff may write down', async () => {
    const order = await assignedPrepaid({ payment_status: 'authorized' });
    expect(await lookup(order.number)).toMatchObject({
      payment_status: 'authorized',
      plan_name: 'Prepaid Unlimited 30',
      pre_activation: false,
    });
    expect(await refusalOf(scan(order.id, order.imei), 409)).toBe(
      `${order.number}'s payment is authorized, not captured: a prepaid order is picked once the carrier captures its payment.`,
    );
    const [unit] = await t.db.query<{ status: string }>(
      `SELECT u.status FROM order_line_units u JOIN order_lines l ON l.id = u.order_line_id
       WHERE l.order_id = $1`,
      [order.id],
    );
    expect(unit!.status).toBe('allocated');
    // The picker does not manage orders; a manager writes down what the carrier said.
    expect((await changePayment(picker.client, order.id, { status: 'captured' })).statusCode).toBe(
      403,
    );
    expect(
      (await cs.fieldErrors('POST', `/orders/${order.id}/payment`, { status: 'paid' })).status,
    ).toEqual(['Choose the payment status.']);
    const captured = await dataOf<OrderDetail>(
      changePayment(manager.client, order.id, { status: 'captured', note: 'Carrier called' }),
    );
    expect(captured).toMatchObject({
      payment_status: 'captured',
      plan_name: 'Prepaid Unlimited 30',
    });
    expect(captured.events.at(-1)).toMatchObject({
      type: 'payment_changed',
      actor_name: 'pay.fm',
      data: { from: 'authorized', to: 'captured', by: 'staff', note: 'Carrier called' },
    });
    const picked = await dataOf<PickScanAnswer>(scan(order.id, order.imei));
    expect(picked.result).toBe('picked');
    expect(picked.order).toMatchObject({ status: 'fulfilled', label_blocker: null });
  });

  it('blocks the label of a picked order refunded before it is labelled', async () => {
    const order = await assignedPrepaid();
    expect((await dataOf<PickScanAnswer>(scan(order.id, order.imei))).result).toBe('picked');
    await dataOf<OrderDetail>(
      changePayment(cs, order.id, { status: 'refunded', note: 'Customer cancelled' }),
    );
    expect((await lookup(order.number)).label_blocker).toBe(
      'The payment is refunded, not captured.',
    );
    expect((await labelStep(order.id)).results[0]!.result).toBe('refused');
  });

  it('takes the payment staff enter with an order, captured when left out', async () => {
    const entered = await placeOrder(cs, shop, {
      program: 'prepaid',
      fulfilment_type: 'prepaid',
      payment_status: 'authorized',
    });
    const detail = await dataOf<OrderDetail>(cs.get(`/orders/${entered.id}/detail`));
    expect(detail).toMatchObject({ payment_status: 'authorized', plan_name: null });
    const paid = await placeOrder(cs, shop, { program: 'prepaid', fulfilment_type: 'prepaid' });
    expect((await dataOf<OrderDetail>(cs.get(`/orders/${paid.id}/detail`))).payment_status).toBe(
      'captured',
    );
    expect(
      (
        await cs.fieldErrors('POST', '/orders', {
          client_carrier_id: shop.carrierId,
          program: 'lifeline',
          payment_status: 'captured',
          first_name: 'Pat',
          last_name: 'Lee',
          service_address: { line1: '9 Elm St', city: 'Houston', state: 'TX', zip: '77002' },
          lines: [{ listing_id: shop.listingId, qty: 1 }],
        })
      ).payment_status,
    ).toEqual(['Only a prepaid order carries a payment status.']);
  });

  it('takes no payment for an order of another programme', async () => {
    const lifeline = await placeOrder(cs, shop);
    expect(await refusalOf(changePayment(cs, lifeline.id, { status: 'captured' }), 409)).toBe(
      `${lifeline.number} is not a prepaid order: it carries no payment.`,
    );
  });
});

describe('a payment change and a pick at once', () => {
  // On PostgreSQL (TEST_DATABASE_URL) on concurrent connections; on PGlite one after the other.
  it('take turns: a unit is never picked while the payment is not captured', async () => {
    for (let round = 0; round < 4; round += 1) {
      const order = await assignedPrepaid();
      const [scanned, refund] = await Promise.all([
        scan(order.id, order.imei),
        changePayment(manager.client, order.id, { status: 'refunded' }),
      ]);
      expect(refund.statusCode).toBe(200);
      const events = await t.db.query<{ id: number; type: string }>(
        `SELECT id::int AS id, type FROM order_events
         WHERE order_id = $1 AND type IN ('payment_changed', 'pick_started')
         ORDER BY id`,
        [order.id],
      );
      const [row] = await t.db.query<{ units_picked: number; blocker: string | null }>(
        `SELECT (SELECT count(*)::int FROM order_lines l JOIN order_line_units u
                 ON u.order_line_id = l.id WHERE l.order_id = o.id AND u.status = 'picked')
                 AS units_picked,
           order_label_blocker(o.id) AS blocker
         FROM orders o WHERE o.id = $1`,
        [order.id],
      );
      if (scanned.statusCode === 200) {
        // Picked while captured, then refunded: the label waits.
        expect(events.map((event) => event.type)).toEqual(['pick_started', 'payment_changed']);
        expect(row).toEqual({
          units_picked: 1,
          blocker: 'The payment is refunded, not captured.',
        });
      } else {
        expect(scanned.statusCode).toBe(409);
        expect(events.map((event) => event.type)).toEqual(['payment_changed']);
        expect(row!.units_picked).toBe(0);
      }
    }
  });
});
