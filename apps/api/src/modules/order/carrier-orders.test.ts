import type { CarrierOrder, CarrierOrderRequest } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp } from '../../test/api-client.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';
import { seedSellable } from '../../test/listing-fixtures.js';

/**
 * The client carriers' API (decision 0025): an approved enrolment becomes an order priced by the
 * carrier's plan, once per idempotency key, readable back by that carrier only.
 */

let t: TestApp;
let sku: string;
let airtalk: number;
const keys = { airtalk: `ck_${'A'.repeat(43)}`, other: `ck_${'B'.repeat(43)}` };

async function addCarrier(name: string, key: string) {
  const [carrier] = await t.db.query<{ id: number }>(
    "INSERT INTO vendors (name, type) VALUES ($1, 'carrier-client') RETURNING id::int AS id",
    [name],
  );
  await t.db.query(
    `INSERT INTO client_carrier_api_keys (client_carrier_id, name, key_prefix, key_hash)
     VALUES ($1, 'orders', left($2, 8), encode(sha256(convert_to($2, 'UTF8')), 'hex'))`,
    [carrier!.id, key],
  );
  return carrier!.id;
}

const enrolment = (
  ref: string,
  overrides: Partial<CarrierOrderRequest> = {},
): CarrierOrderRequest => ({
  external_ref: ref,
  program: 'lifeline',
  subscriber: {
    external_id: `ENR-${ref}`,
    first_name: 'Maria',
    last_name: 'Lopez',
    phone: '+1 214 555 0100',
    service_address: { line1: `${ref} Elm St`, city: 'Dallas', state: 'TX', zip: '75201' },
  },
  items: [{ sku, qty: 1 }],
  ...overrides,
});

const send = (key: string, body: unknown, idempotencyKey?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/carrier/orders',
    headers: {
      'x-api-key': key,
      ...(idempotencyKey !== undefined && { 'idempotency-key': idempotencyKey }),
    },
    payload: body as object,
  });
const read = (key: string, path: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/v1/carrier/orders${path}`,
    headers: { 'x-api-key': key },
  });

const ordersWithRef = async (ref: string) =>
  Number(
    (
      await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM orders WHERE external_ref = $1',
        [ref],
      )
    )[0]!.n,
  );

/** A carrier listing of the fixture's variant, and AirTalk's Texas Lifeline price of its model. */
async function listForCarrier(fixture: { variantSku: string; modelId: number }, units: number) {
  await t.db.query(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     SELECT id, 'carrier', $2, 0, 'live' FROM product_variants WHERE sku = $1`,
    [fixture.variantSku, units],
  );
  await t.db.query(
    `INSERT INTO gov_plan_prices (carrier_id, programme, state, model_id, version,
       device_price_cents, plan_name, data_gb, effective_from)
     VALUES ($1, 'lifeline', 'TX', $2, 1, 1099, 'Lifeline Unlimited', 10, plan_price_today() - 1)`,
    [airtalk, fixture.modelId],
  );
}

beforeAll(async () => {
  ({ t } = await createAdminTestApp('carrier'));
  const fixture = await seedSellable(t.db, 5);
  sku = fixture.variantSku;
  airtalk = await addCarrier('AirTalk Wireless', keys.airtalk);
  await addCarrier('Other Wireless', keys.other);
  await listForCarrier(fixture, 3);
}, 120_000);
afterAll(() => t.close());

describe('a carrier order', () => {
  it('is priced by the plan, validated, and read back by its carrier only', async () => {
    const sent = await send(keys.airtalk, enrolment('A-100'), 'key-a-100');
    expect(sent.statusCode, sent.body).toBe(201);
    const order = bodyOf<CarrierOrder>(sent).data;
    expect(order).toMatchObject({
      external_ref: 'A-100',
      program: 'lifeline',
      status: 'ready',
      hold_reason: null,
      total_cents: 1099,
      lines: [{ sku, qty: 1, unit_price_cents: 1099 }],
    });
    expect(order.number).toMatch(/^SO-\d{7,}$/);
    const [stored] = await t.db.query<{ source: string; fulfilment_type: string; actor: string }>(
      `SELECT o.source, o.fulfilment_type, e.actor_name AS actor FROM orders o
       JOIN order_events e ON e.order_id = o.id AND e.type = 'received' WHERE o.external_ref = 'A-100'`,
    );
    expect(stored).toEqual({
      source: 'carrier_api',
      fulfilment_type: 'new_lifeline',
      actor: 'carrier: AirTalk Wireless',
    });

    expect(bodyOf<CarrierOrder>(await read(keys.airtalk, '/A-100')).data).toEqual(order);
    expect((await read(keys.other, '/A-100')).statusCode).toBe(404);
    const changes = bodyOf<{ items: CarrierOrder[] }>(await read(keys.airtalk, '')).data;
    expect(changes.items.map((item) => item.external_ref)).toContain('A-100');
    expect(bodyOf<{ items: CarrierOrder[] }>(await read(keys.other, '')).data.items).toEqual([]);
  });

  it('answers a retry with the first answer and creates nothing more', async () => {
    const first = await send(keys.airtalk, enrolment('A-200'), 'key-a-200');
    expect(first.statusCode, first.body).toBe(201);
    const retry = await send(keys.airtalk, enrolment('A-200'), 'key-a-200');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(bodyOf(retry).data).toEqual(bodyOf(first).data);
    expect(await ordersWithRef('A-200')).toBe(1);

    const reused = await send(keys.airtalk, enrolment('A-201'), 'key-a-200');
    expect(reused.statusCode).toBe(422);
    expect(Object.keys(bodyOf(reused).message as object)).toEqual(['idempotency_key']);
    const again = await send(keys.airtalk, enrolment('A-200'), 'another-key');
    expect(again.statusCode).toBe(409);
    expect(String(bodyOf(again).message)).toContain('A-200');
    expect(await ordersWithRef('A-200')).toBe(1);
  });

  it('refuses what no order can be made of, and keeps one that fails validation on hold', async () => {
    const noKey = await send(keys.airtalk, enrolment('A-300'));
    expect(noKey.statusCode).toBe(422);
    const unknownSku = await send(
      keys.airtalk,
      enrolment('A-301', { items: [{ sku: 'NO-SUCH-SKU', qty: 1 }] }),
      'key-a-301',
    );
    expect(bodyOf(unknownSku).message).toEqual({
      'items.0.sku': ['NO-SUCH-SKU is not a device SKU on sale.'],
    });
    const acp = await send(keys.airtalk, { ...enrolment('A-302'), program: 'acp-legacy' }, 'k-302');
    expect(Object.keys(bodyOf(acp).message as object)).toEqual(['program']);
    const noPrice = await send(
      keys.airtalk,
      enrolment('A-303', {
        subscriber: {
          ...enrolment('A-303').subscriber,
          service_address: { line1: '1 Main St', city: 'Miami', state: 'FL', zip: '33130' },
        },
      }),
      'key-a-303',
    );
    expect(noPrice.statusCode).toBe(422);
    expect(await ordersWithRef('A-303')).toBe(0);

    const wrongZip = await send(
      keys.airtalk,
      enrolment('A-304', {
        subscriber: {
          ...enrolment('A-304').subscriber,
          service_address: { line1: '9 Oak St', city: 'Dallas', state: 'TX', zip: '10001' },
        },
      }),
      'key-a-304',
    );
    expect(wrongZip.statusCode, wrongZip.body).toBe(201);
    expect(bodyOf<CarrierOrder>(wrongZip).data).toMatchObject({
      status: 'on_hold',
      hold_reason: 'address',
    });
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    "sells a listing's last units once when twelve carrier orders race for them",
    async () => {
      const scarce = await seedSellable(t.db, 5);
      await listForCarrier(scarce, 3);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, n) =>
          send(
            keys.airtalk,
            enrolment(`R-${n}`, { items: [{ sku: scarce.variantSku, qty: 1 }] }),
            `key-r-${n}`,
          ),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(12).fill(201));
      const orders = answers.map((answer) => bodyOf<CarrierOrder>(answer).data);
      expect(orders.filter((order) => order.status === 'ready')).toHaveLength(3);
      expect(orders.filter((order) => order.hold_reason === 'no_stock')).toHaveLength(9);
      const [listing] = await t.db.query<{ qty_reserved: number; status: string }>(
        `SELECT l.qty_reserved, l.status FROM pts_listings l
         JOIN product_variants v ON v.id = l.variant_id WHERE v.sku = $1`,
        [scarce.variantSku],
      );
      expect(listing).toEqual({ qty_reserved: 3, status: 'sold_out' });
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'is created once when twenty retries race the first attempt',
    async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => send(keys.airtalk, enrolment('A-400'), 'key-a-400')),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(201));
      const first = answers.find((answer) => !answer.headers['idempotent-replayed'])!;
      for (const answer of answers) expect(bodyOf(answer).data).toEqual(bodyOf(first).data);
      expect(answers.filter((answer) => answer.headers['idempotent-replayed'])).toHaveLength(19);
      expect(await ordersWithRef('A-400')).toBe(1);
    },
  );
});
