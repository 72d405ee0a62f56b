import type {
  DailyOrderReport,
  OrderCreated,
  OrderCustomer,
  OrderDetail,
  OrderRow,
  SupportOrderInput,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { imeiOf } from '../../test/receiving-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Orders: intake validation (address, duplicate benefit, listing cap, stock), the lifecycle's
 * refusals, masked PII in the list and its audited full read, address edits, and the daily
 * report's kept figures against a recount.
 */

let t: TestApp;
let support: ApiClient;
let manager: ApiClient;
let carrierId: number;
let listingId: number;
let scarceListingId: number;

/** A carrier, a sellable variant with 5 units in a located box, and two live listings of it. */
async function seedSellable(db: Db) {
  const one = async (sql: string, params: unknown[] = []) =>
    (await db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;
  const brand = await one("INSERT INTO brands (name) VALUES ('Motorola')");
  const model = await one(
    `INSERT INTO device_models (brand_id, name, device_type, os, network)
     VALUES ($1, 'Moto G Play 2023', 'phone', 'android', '4G')`,
    [brand],
  );
  const product = await one(
    "INSERT INTO products (name, kind, model_id) VALUES ('Moto G Play', 'device', $1)",
    [model],
  );
  const variant = await one(
    "INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, 'MOTO-G-A', 'A')",
    [product],
  );
  const zone = await one("INSERT INTO locations (code, kind, active) VALUES ('R', 'zone', true)");
  const bin = await one(
    "INSERT INTO locations (code, kind, parent_id, active) VALUES ('R-1', 'bin', $1, true)",
    [zone],
  );
  const box = await one(
    `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id, sealed_at)
     VALUES ($1, 'A', 20, 5, 'located', $2, now())`,
    [model, bin],
  );
  await db.query(
    `INSERT INTO devices (imei, tac, model_id, grade, status, inventory_box_id)
     SELECT imei, left(imei, 8), $1, 'A', 'in_stock', $2 FROM unnest($3::text[]) AS imei`,
    [model, box, [1, 2, 3, 4, 5].map((n) => imeiOf('35000003', 900 + n))],
  );
  carrierId = await one(
    "INSERT INTO vendors (name, type) VALUES ('AirTalk Wireless', 'carrier-client')",
  );
  listingId = await one(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     VALUES ($1, 'carrier', 100, 0, 'live')`,
    [variant],
  );
  scarceListingId = await one(
    `INSERT INTO pts_listings (variant_id, channel, qty_pushed, price_cents, status)
     VALUES ($1, 'web', 1, 4999, 'live')`,
    [variant],
  );
}

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

beforeAll(async () => {
  t = await createTestApp();
  await seedSellable(t.db);
  support = await signedIn('cs', ['Customer Support']);
  manager = await signedIn('fm', ['Fulfilment Manager']);
});
afterAll(() => t.close());

const HOUSTON = { line1: '1 Main St', city: 'Houston', state: 'TX', zip: '77002' };

let enrolment = 1000;
/** A support order's body: a new subscriber in Houston, one unit of the carrier listing. */
const orderBody = (overrides: Partial<SupportOrderInput> = {}): SupportOrderInput => ({
  client_carrier_id: carrierId,
  program: 'lifeline',
  external_id: `ENR-${enrolment++}`,
  first_name: 'Jane',
  last_name: 'Doe',
  phone: '713-555-0100',
  service_address: { ...HOUSTON, line1: `${enrolment} Main St` },
  lines: [{ listing_id: listingId, qty: 1 }],
  ...overrides,
});

const create = (body: SupportOrderInput) =>
  dataOf<OrderCreated>(support.post('/orders', body), 201);
const detail = (id: number) => dataOf<OrderDetail>(support.get(`/orders/${id}/detail`));
const reservedOf = async (id: number) =>
  (
    await t.db.query<{ qty_reserved: number }>(
      'SELECT qty_reserved FROM pts_listings WHERE id = $1',
      [id],
    )
  )[0]!.qty_reserved;

describe('intake', () => {
  it('creates a valid order ready, with its price kept and its listing units reserved', async () => {
    const before = await reservedOf(listingId);
    const created = await create(orderBody());
    expect(created).toMatchObject({ status: 'ready', hold_reason: null });
    expect(created.number).toMatch(/^SO-\d{7}$/);
    expect(await reservedOf(listingId)).toBe(before + 1);
    const order = await detail(created.id);
    expect(order.lines).toEqual([
      expect.objectContaining({ sku: 'MOTO-G-A', qty: 1, qty_reserved: 1, unit_price_cents: 0 }),
    ]);
    expect(order.events.map((event) => event.type)).toEqual(['received', 'validated']);
    expect(order.approved_at).not.toBeNull();
    expect(order.source).toBe('support');
  });

  it('holds an order whose ZIP is not in its state, with the reason and the finding', async () => {
    const created = await create(
      orderBody({
        service_address: { line1: '5 Elm St', city: 'Houston', state: 'CA', zip: '77002' },
      }),
    );
    expect(created).toMatchObject({ status: 'on_hold', hold_reason: 'address' });
    expect(created.hold_note).toMatch(/ZIP 77002 is in TX \(Houston\), not CA/);
    const order = await detail(created.id);
    expect(order.status_before_hold).toBe('pending');
    expect(order.events.at(-1)).toMatchObject({ type: 'held', to_status: 'on_hold' });
  });

  it('holds a PO box as a service address, but not as a ship-to', async () => {
    const poBox = await create(orderBody({ service_address: { ...HOUSTON, line1: 'PO Box 12' } }));
    expect(poBox.hold_reason).toBe('address');
    expect(poBox.hold_note).toMatch(/physical address/);
    const shipsToBox = await create(
      orderBody({ ship_to: { name: 'Jane Doe', ...HOUSTON, line1: 'P.O. Box 12' } }),
    );
    expect(shipsToBox.status).toBe('ready');
  });

  it('holds a second open benefit for the same subscriber or service address', async () => {
    const lifeline = { fulfilment_type: 'new_lifeline' } as const;
    const first = await create(
      orderBody({
        ...lifeline,
        external_id: 'ENR-DUP',
        service_address: { ...HOUSTON, line1: '9 Oak Ave' },
      }),
    );
    expect(first.status).toBe('ready');
    const sameSubscriber = await create(
      orderBody({
        ...lifeline,
        external_id: 'ENR-DUP',
        service_address: { ...HOUSTON, line1: '10 Oak Ave' },
      }),
    );
    expect(sameSubscriber).toMatchObject({ status: 'on_hold', hold_reason: 'duplicate_benefit' });
    expect(sameSubscriber.hold_note).toContain(`${first.number} (same subscriber)`);
    // The subscriber moved to 10 Oak Ave (the carrier's latest enrolment data is kept); another
    // subscriber there, written otherwise, is the same address.
    const sameAddress = await create(
      orderBody({
        ...lifeline,
        external_id: 'ENR-OTHER',
        service_address: { ...HOUSTON, line1: ' 10  oak ave ' },
      }),
    );
    expect(sameAddress.hold_reason).toBe('duplicate_benefit');
    expect(sameAddress.hold_note).toContain('(same address)');

    // Releasing while the first is open: validated again, still a duplicate (409), still held.
    const refused = await refusalOf(support.post(`/orders/${sameAddress.id}/release`, {}), 409);
    expect(refused).toMatch(/stays on hold: One benefit per subscriber and address/);
    expect((await detail(sameAddress.id)).status).toBe('on_hold');

    // A replacement is not a second benefit.
    const replacement = await create(
      orderBody({ external_id: 'ENR-DUP', fulfilment_type: 'replacement' }),
    );
    expect(replacement.status).toBe('ready');

    // Once the first is cancelled, the address's order may go: released, it is ready.
    await dataOf(support.post(`/orders/${first.id}/cancellation`, { reason: 'Customer asked' }));
    await dataOf(support.post(`/orders/${sameSubscriber.id}/cancellation`, {}));
    const released = await dataOf<OrderDetail>(
      support.post(`/orders/${sameAddress.id}/release`, {}),
    );
    expect(released).toMatchObject({ status: 'ready', hold_reason: null, hold_note: null });
    expect(released.events.slice(-2).map((event) => event.type)).toEqual(['released', 'validated']);
  });

  it('holds for stock when the listing cap or the stock is short, reserving nothing short', async () => {
    const cap = await create(orderBody({ lines: [{ listing_id: scarceListingId, qty: 2 }] }));
    expect(cap).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });
    expect(cap.hold_note).toMatch(/MOTO-G-A: Listing \d+ has 1 left, not 2\./);
    expect(await reservedOf(scarceListingId)).toBe(0);

    const stock = await create(orderBody({ lines: [{ listing_id: listingId, qty: 6 }] }));
    expect(stock.hold_reason).toBe('no_stock');
    expect(stock.hold_note).toMatch(/MOTO-G-A: 5 in stock, 6 needed/);
    // Cancelled, the units it held go back to the listing.
    const before = await reservedOf(listingId);
    const cancelled = await dataOf<OrderDetail>(
      support.post(`/orders/${stock.id}/cancellation`, {}),
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.lines[0]).toMatchObject({ qty_reserved: 0, status: 'cancelled' });
    expect(await reservedOf(listingId)).toBe(before - 6);
  });

  it('refuses (422) what no order can be made of, and creates nothing', async () => {
    const count = async () =>
      (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders'))[0]!.n;
    const before = await count();
    const unknown = await support.fieldErrors(
      'POST',
      '/orders',
      orderBody({ lines: [{ listing_id: 99999, qty: 1 }] }),
    );
    expect(unknown).toMatchObject({ 'lines.0.listing_id': ['There is no listing with id 99999.'] });
    const zip = await support.fieldErrors(
      'POST',
      '/orders',
      orderBody({ service_address: { ...HOUSTON, zip: '7700' } }),
    );
    expect(zip).toHaveProperty(['service_address.zip']);
    const notCarrier = await support.fieldErrors(
      'POST',
      '/orders',
      orderBody({ client_carrier_id: 99999 }),
    );
    expect(notCarrier).toMatchObject({ client_carrier_id: ['Choose an active client carrier.'] });
    expect(await count()).toBe(before);
  });
});

describe('lifecycle', () => {
  it('answers 409 for actions the state does not allow, 403 without the permission', async () => {
    const created = await create(orderBody());
    expect(await refusalOf(support.post(`/orders/${created.id}/release`, {}), 409)).toBe(
      'An order that is ready cannot release the order.',
    );
    await dataOf(
      support.post(`/orders/${created.id}/hold`, { reason: 'fraud_review', note: 'Check ID' }),
    );
    expect(
      await refusalOf(support.post(`/orders/${created.id}/hold`, { reason: 'address' }), 409),
    ).toBe('The order is on hold already.');
    const held = await detail(created.id);
    expect(held).toMatchObject({ hold_reason: 'fraud_review', hold_note: 'Check ID' });
    const released = await dataOf<OrderDetail>(support.post(`/orders/${created.id}/release`, {}));
    expect(released.status).toBe('ready');
    expect(
      await support.fieldErrors('POST', `/orders/${created.id}/hold`, { reason: 'bored' }),
    ).toHaveProperty('reason');

    const viewer = await signedIn('sales', ['Sales / Account Manager']);
    expect((await viewer.post(`/orders/${created.id}/cancellation`, {})).statusCode).toBe(403);
    await dataOf(support.post(`/orders/${created.id}/cancellation`, {}));
    expect(await refusalOf(support.post(`/orders/${created.id}/cancellation`, {}), 409)).toBe(
      'An order that is cancelled cannot be cancelled.',
    );
    expect((await support.get('/orders/999999/detail')).statusCode).toBe(404);
  });
});

describe('customer data', () => {
  it('is masked in the list and the record, and read in full only with its permission, audited', async () => {
    const created = await create(orderBody({ first_name: 'Jonathan', last_name: 'Quincey' }));
    const page = await dataOf<{ items: OrderRow[] }>(
      manager.get(`/orders?search=${created.number}`),
    );
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ customer: 'J*** Q***', place: 'HOUSTON, TX', items: 1 });
    const listBody = (await manager.get('/orders?limit=200')).body;
    expect(listBody).not.toContain('QUINCEY');
    expect(listBody).not.toContain('Quincey');
    expect(JSON.stringify(await detail(created.id))).not.toMatch(/quincey|555-0100|MAIN ST/i);

    // The fulfilment manager manages orders but may not read PII.
    expect((await manager.get(`/orders/${created.id}/customer`)).statusCode).toBe(403);
    const audits = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_events
           WHERE action = 'order.customer_viewed' AND entity_id = $1`,
          [String(created.id)],
        )
      )[0]!.n;
    expect(await audits()).toBe(0);
    const customer = await dataOf<OrderCustomer>(support.get(`/orders/${created.id}/customer`));
    expect(customer.subscriber).toMatchObject({
      first_name: 'Jonathan',
      last_name: 'Quincey',
      phone: '713-555-0100',
      service_address: { city: 'HOUSTON', state: 'TX', zip: '77002' },
    });
    expect(customer.ship_to).toMatchObject({ name: 'Jonathan Quincey', state: 'TX' });
    expect(await audits()).toBe(1);
  });
});

describe('address edits', () => {
  it('validate the ZIP against the state (422), then change the ship-to with an event without PII', async () => {
    const created = await create(orderBody());
    const ship = {
      name: 'Jane Doe',
      line1: '20 Pine Rd',
      city: 'Dallas',
      state: 'TX',
      zip: '10001',
      phone: '713-555-0100',
    };
    const errors = await support.fieldErrors('PUT', `/orders/${created.id}/ship-to`, ship);
    expect(errors).toEqual({ zip: ['ZIP 10001 is in NY (New York), not TX.'] });
    const edited = await dataOf<OrderDetail>(
      support.put(`/orders/${created.id}/ship-to`, { ...ship, zip: '75201' }),
    );
    expect(edited.place).toBe('DALLAS, TX');
    expect(edited.events.at(-1)).toMatchObject({
      type: 'address_edited',
      data: { fields: ['line1', 'city', 'zip'] },
    });
    await dataOf(support.post(`/orders/${created.id}/cancellation`, {}));
    expect(
      await refusalOf(support.put(`/orders/${created.id}/ship-to`, { ...ship, zip: '75201' }), 409),
    ).toMatch(/cancelled: its address can no longer change/);
  });
});

describe('daily order report', () => {
  it('keeps figures that match a recount of the orders', async () => {
    // A shipment, as fulfilment will write it: the counters follow any writer.
    const created = await create(orderBody());
    await t.db.query(`UPDATE orders SET status = 'shipped', shipped_at = now() WHERE id = $1`, [
      created.id,
    ]);
    const report = await dataOf<DailyOrderReport>(manager.get('/orders/daily'));
    expect(report.time_zone).toBe('America/Chicago');
    expect(report.cutoff).toBe('14:00');
    const recount = await t.db.query<DailyOrderReport['rows'][number]>(
      `WITH figures AS (
         SELECT received_day AS day, source, fulfilment_type, 1 AS received,
           received_before_cutoff::int AS received_before_cutoff, 0 AS approved, 0 AS shipped,
           (received_before_cutoff AND shipped_at IS NOT NULL
            AND order_business_day(shipped_at) = received_day)::int AS shipped_same_day,
           (status = 'on_hold')::int AS backlog, 0 AS cancelled FROM orders
         UNION ALL SELECT order_business_day(approved_at), source, fulfilment_type, 0, 0, 1, 0, 0, 0, 0
           FROM orders WHERE approved_at IS NOT NULL
         UNION ALL SELECT order_business_day(shipped_at), source, fulfilment_type, 0, 0, 0, 1, 0, 0, 0
           FROM orders WHERE shipped_at IS NOT NULL
         UNION ALL SELECT order_business_day(cancelled_at), source, fulfilment_type, 0, 0, 0, 0, 0, 0, 1
           FROM orders WHERE cancelled_at IS NOT NULL)
       SELECT day::text AS day, source, fulfilment_type, sum(received)::int AS received,
         sum(approved)::int AS approved, sum(shipped)::int AS shipped,
         sum(backlog)::int AS backlog, sum(cancelled)::int AS cancelled,
         sum(received_before_cutoff)::int AS received_before_cutoff,
         sum(shipped_same_day)::int AS shipped_same_day
       FROM figures GROUP BY 1, 2, 3 ORDER BY 1 DESC, 2, 3`,
    );
    expect(report.rows).toEqual(recount);
    const today = report.rows.find((row) => row.fulfilment_type === 'support')!;
    expect(today.received).toBeGreaterThan(5);
    expect(today.shipped).toBe(1);
    expect(today.backlog).toBeGreaterThan(0);

    const drilled = await dataOf<{ items: OrderRow[] }>(
      manager.get(`/orders?received_day=${today.day}&source=support&status=on_hold&limit=200`),
    );
    expect(drilled.items).toHaveLength(today.backlog);
  });

  it('refuses a range that ends before it starts or is too long', async () => {
    expect(
      await refusalOf(manager.get('/orders/daily?from=2026-02-01&to=2026-01-01'), 422),
    ).toEqual({
      from: ['The first day must not be after the last.'],
    });
    expect((await manager.get('/orders/daily?from=2020-01-01&to=2026-01-01')).statusCode).toBe(422);
  });
});
