import type { MainDashboard, MainDashboardRefresh } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import { businessDay } from '../../test/business-day.js';
import { imeiOf, seedCatalogue, TACS, type Catalogue } from '../../test/receiving-fixtures.js';
import { seedCarrier, seedPacks } from '../../test/sim-request-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';
import { snapshotsOf } from '../../toolkit/snapshots.js';

/**
 * The main dashboard over a small business seeded straight into the database: devices, two client
 * carriers' orders, RMAs, unpacks and SIMs, every figure counted by hand; each reader sees the
 * widgets of their access only; the figures are kept until the refresher reads them again.
 */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let iphone: number;
let airtalk: number;
let safelink: number;
let serial = 0;

const userWith = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};

async function devices(count: number, model: number, status: string, grade: string | null) {
  for (let n = 0; n < count; n++) {
    await t.db.query(
      `INSERT INTO devices (imei, model_id, status, grade, hold_reason)
       VALUES ($1, $2, $3, $4, CASE WHEN $3 = 'hold' THEN 'frp' END)`,
      [imeiOf(TACS.a15, ++serial), model, status, grade],
    );
  }
}

/** A subscriber's order of the carrier, received `daysAgo`, shipped or held as told. */
async function order(
  carrier: number,
  daysAgo: number,
  outcome: { shippedDaysAgo?: number; held?: boolean } = {},
) {
  const [subscriber] = await t.db.query<{ id: number }>(
    `INSERT INTO subscribers (client_carrier_id, program, first_name, last_name, service_line1,
       service_city, service_state, service_zip, service_address_key)
     VALUES ($1, 'lifeline', 'Sam', 'Subscriber', '1 Main St', 'Austin', 'TX', '78701', $2)
     RETURNING id::int AS id`,
    [carrier, `1 main st ${++serial}`],
  );
  const status =
    outcome.shippedDaysAgo !== undefined ? 'shipped' : outcome.held ? 'on_hold' : 'ready';
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
       status, hold_reason, created_at, shipped_at)
     VALUES ('carrier_api', 'new_lifeline', $1, 'lifeline', $2, $3,
       CASE WHEN $3 = 'on_hold' THEN 'address' END, now() - make_interval(days => $4),
       now() - make_interval(days => $5::int))
     RETURNING id::int AS id`,
    [carrier, subscriber!.id, status, daysAgo, outcome.shippedDaysAgo ?? null],
  );
  return row!.id;
}

async function rma(orderId: number, daysAgo: number) {
  await t.db.query(
    `INSERT INTO rmas (order_id, reason, warranty_ok, created_at)
     VALUES ($1, 'defective', true, now() - make_interval(days => $2))`,
    [orderId, daysAgo],
  );
}

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  const { a15, moto } = catalogue.models;
  [{ id: iphone }] = (await t.db.query<{ id: number }>(
    `WITH apple AS (INSERT INTO brands (name) VALUES ('Apple') RETURNING id)
     INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network)
     SELECT id, 'iPhone 12', '{A2172}', 'phone', 'ios', '5G' FROM apple RETURNING id::int AS id`,
  )) as [{ id: number }];

  await devices(3, a15, 'in_stock', 'A');
  await devices(1, a15, 'in_stock', 'B');
  await devices(2, iphone, 'in_stock', 'A');
  await devices(1, moto, 'in_stock', 'C');
  await devices(2, a15, 'received', null);
  await devices(1, a15, 'in_production', null);
  await devices(1, moto, 'graded', 'B');
  await devices(1, moto, 'in_repair', 'C');
  await devices(1, iphone, 'hold', 'A');
  await devices(1, a15, 'shipped', 'A');

  airtalk = await seedCarrier(t.db, 'AirTalk Wireless');
  safelink = await seedCarrier(t.db, 'SafeLink');
  const shippedToday = await order(airtalk, 0, { shippedDaysAgo: 0 });
  await order(airtalk, 0, { held: true });
  await order(airtalk, 0);
  await order(airtalk, 3, { shippedDaysAgo: 2 });
  await order(airtalk, 3, { shippedDaysAgo: 2 });
  const older = await order(airtalk, 20, { shippedDaysAgo: 19 });
  // Out of the kept days: no figure of the dashboard counts it.
  await order(airtalk, 70, { shippedDaysAgo: 65 });
  await order(safelink, 0);
  await order(safelink, 1, { held: true });

  await rma(shippedToday, 0);
  await rma(older, 10);

  await t.db.query(
    `INSERT INTO unpack_day_counts (day, carrier, reason, client_carrier_id, shard, returns)
     VALUES (order_business_day(now()), 'usps', 'undeliverable', $1, 0, 2),
            (order_business_day(now()), 'usps', 'no_tracking', 0, 1, 1)`,
    [airtalk],
  );

  const [pack] = await seedPacks(t.db, airtalk, 1, 5);
  const agent = async (userName: string) =>
    createUser(t.db, { userName, password: `${userName}-password-1`, type: 'agent' });
  const [first, second] = [await agent('agent-one'), await agent('agent-two')];
  const simIds = pack!.iccids;
  await t.db.query(
    `UPDATE sim_cards SET status = 'with_agent', agent_id = $2 WHERE iccid = ANY ($1::text[])`,
    [simIds.slice(0, 3), first],
  );
  await t.db.query(`UPDATE sim_cards SET status = 'with_agent', agent_id = $2 WHERE iccid = $1`, [
    simIds[3],
    second,
  ]);
  await t.db.query(
    `UPDATE sim_cards SET status = 'active', activated_at = now() - interval '2 days',
       activated_agent_id = $2, ever_active = true
     WHERE iccid = $1`,
    [simIds[4], first],
  );
});
afterAll(() => t.close());

const read = async (client: ApiClient, query = '') => {
  const response = await client.get(`/dashboard${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<MainDashboard>(response).data;
};

const refresh = async (client: ApiClient) => {
  const response = await client.post('/dashboard/refresh');
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<MainDashboardRefresh>(response).data;
};

describe('the main dashboard', () => {
  it('counts the small business, each widget over its own period', async () => {
    const { figures } = await refresh(admin);
    const today = await businessDay(t.db);
    const { a15, moto } = catalogue.models;
    expect(figures.business_day).toBe(today);
    expect(figures.carriers).toEqual([
      { id: airtalk, name: 'AirTalk Wireless' },
      { id: safelink, name: 'SafeLink' },
    ]);
    const { widgets } = figures;
    expect(widgets.stock).toEqual({
      units: 7,
      by_os: [
        { os: 'android', units: 5 },
        { os: 'ios', units: 2 },
        { os: 'other', units: 0 },
      ],
      by_grade: [
        { grade: 'A', units: 5 },
        { grade: 'B', units: 1 },
        { grade: 'C', units: 1 },
      ],
      top_models: [
        { model_id: a15, model: 'Samsung Galaxy A15', os: 'android', units: 4 },
        { model_id: iphone, model: 'Apple iPhone 12', os: 'ios', units: 2 },
        { model_id: moto, model: 'Motorola Moto G Play 2023', os: 'android', units: 1 },
      ],
    });
    expect(widgets.pipeline).toEqual({
      received: 2,
      in_production: 1,
      graded: 1,
      in_repair: 1,
      hold: 1,
    });
    expect(widgets.orders).toEqual({
      from: today,
      to: today,
      received: 4,
      shipped: 1,
      backlog: 2,
    });
    expect(widgets.sims).toMatchObject({
      from: await businessDay(t.db, -6),
      to: today,
      with_agents: 4,
      agents: 2,
      activations: 1,
    });
    expect(widgets.sims!.by_day).toHaveLength(7);
    expect(widgets.sims!.by_day.filter((row) => row.activations > 0)).toEqual([
      { day: await businessDay(t.db, -2), activations: 1 },
    ]);
    // This week: today's RMA always, the one of ten days ago never.
    expect(widgets.rmas).toMatchObject({ to: today, rmas: 1 });
    expect(widgets.unpacks).toMatchObject({ to: today, unpacks: 3 });
    const chart = widgets.shipped_received!;
    expect(chart).toMatchObject({ from: await businessDay(t.db, -29), to: today });
    expect(chart.by_day).toHaveLength(30);
    expect([chart.received, chart.shipped]).toEqual([8, 4]);
    expect(chart.by_day.find((row) => row.day === today)).toEqual({
      day: today,
      received: 4,
      shipped: 1,
    });
    const twoDaysAgo = await businessDay(t.db, -2);
    expect(chart.by_day.find((row) => row.day === twoDaysAgo)!.shipped).toBe(2);
  });

  it('filters by client carrier and by a range of the kept days', async () => {
    const carrier = (await read(admin, `?client_carrier_id=${airtalk}`)).figures.widgets;
    expect(carrier.orders).toMatchObject({ received: 3, shipped: 1, backlog: 1 });
    expect(carrier.unpacks!.unpacks).toBe(2);
    expect(carrier.sims).toMatchObject({ with_agents: 4, agents: 2 });
    expect(carrier.shipped_received).toMatchObject({ received: 6, shipped: 4 });
    const other = (await read(admin, `?client_carrier_id=${safelink}`)).figures.widgets;
    expect(other.orders).toMatchObject({ received: 1, shipped: 0, backlog: 1 });
    expect(other.rmas!.rmas).toBe(0);
    expect(other.sims).toMatchObject({ with_agents: 0, agents: 0, activations: 0 });

    const [from, to] = [await businessDay(t.db, -14), await businessDay(t.db)];
    const ranged = await read(admin, `?from=${from}&to=${to}`);
    expect(ranged.figures).toMatchObject({ from, to, client_carrier_id: null });
    const { widgets } = ranged.figures;
    expect(widgets.rmas).toEqual(expect.objectContaining({ from, to, rmas: 2 }));
    expect(widgets.orders).toMatchObject({ from, to, received: 7, shipped: 3 });
    expect(widgets.shipped_received!.by_day).toHaveLength(15);
  });

  it('drills down to lists that hold what each figure counts', async () => {
    const [from, to] = [await businessDay(t.db, -14), await businessDay(t.db)];
    const { widgets } = (await read(admin, `?from=${from}&to=${to}`)).figures;
    const total = async (path: string) =>
      (await dataOf<{ items: unknown[] }>(admin.get(`${path}&limit=200`))).items.length;

    expect(await total('/devices?status=in_stock&os=ios')).toBe(2);
    expect(await total('/devices?status=in_stock&os=android')).toBe(5);
    const period = `from=${from}&received_to=${to}`;
    expect(await total(`/orders?received_${period}`)).toBe(widgets.orders!.received);
    expect(await total(`/orders?received_${period}&client_carrier_id=${safelink}`)).toBe(2);
    expect(await total(`/orders?shipped_from=${from}&shipped_to=${to}`)).toBe(
      widgets.orders!.shipped,
    );
    const twoDaysAgo = await businessDay(t.db, -2);
    expect(await total(`/orders?shipped_from=${twoDaysAgo}&shipped_to=${twoDaysAgo}`)).toBe(2);
    expect(await total(`/rmas?created_from=${from}&created_to=${to}`)).toBe(widgets.rmas!.rmas);
    expect(await total(`/rmas?created_from=${to}&created_to=${to}`)).toBe(1);
  });

  it('refuses filters it cannot answer', async () => {
    const { first_day: firstDay, business_day: today } = (await read(admin)).figures;
    const early = new Date(Date.parse(`${firstDay}T00:00:00Z`) - 86_400_000)
      .toISOString()
      .slice(0, 10);
    const refused = async (query: string, field: string) => {
      const response = await admin.get(`/dashboard${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(JSON.parse(response.body).message)).toContain(field);
    };
    await refused(`?from=${early}&to=${today}`, 'from');
    await refused(`?from=${today}`, 'to');
    await refused(`?from=${today}&to=${firstDay}`, 'to');
    await refused('?from=yesterday&to=today', 'from');
    await refused('?client_carrier_id=999999', 'client_carrier_id');
    await refused('?widget=everything', 'widget');
  });

  it('exports each widget as the figures it shows', async () => {
    const csv = async (body: Record<string, unknown>) => {
      const response = await admin.download('/dashboard/exports', body);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toMatch(
        /dashboard-[a-z-]+-\d{4}-\d{2}-\d{2}T\d{4}\.csv/,
      );
      return response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
    };
    expect(await csv({ widget: 'pipeline' })).toEqual([
      'Stage,Devices',
      'Received,2',
      'In production,1',
      'Graded,1',
      'In repair,1',
      'On hold,1',
    ]);
    const today = await businessDay(t.db);
    expect(await csv({ widget: 'orders', client_carrier_id: airtalk })).toEqual([
      'Figure,From,To,Orders',
      `Received,${today},${today},3`,
      `Shipped,${today},${today},1`,
      'On hold now (backlog),,,1',
    ]);
    expect((await csv({ widget: 'stock' })).slice(0, 3)).toEqual([
      'By,Name,Units',
      'All,Ready to sell,7',
      'OS,Android,5',
    ]);
    expect(await csv({ widget: 'shipped_received' })).toHaveLength(31);
    for (const widget of ['sims', 'rmas', 'unpacks']) {
      expect((await csv({ widget })).length).toBeGreaterThan(1);
    }
    const refused = await admin.post('/dashboard/exports', { widget: 'orders', from: today });
    expect(refused.statusCode).toBe(422);
  });
});

describe('who sees which widget', () => {
  it('answers a reader only the widgets whose source is theirs', async () => {
    const coordinator = await userWith('simc', ['SIM Coordinator']);
    const { figures } = await read(coordinator);
    expect(Object.keys(figures.widgets).sort()).toEqual(['pipeline', 'sims', 'stock']);
    expect((await coordinator.get('/dashboard?widget=sims')).statusCode).toBe(200);
    const orders = await coordinator.get('/dashboard?widget=orders');
    expect(orders.statusCode).toBe(403);
    expect(JSON.parse(orders.body).message).toContain('order.management');
    expect((await coordinator.post('/dashboard/exports', { widget: 'rmas' })).statusCode).toBe(403);
    expect((await coordinator.post('/dashboard/exports', { widget: 'sims' })).statusCode).toBe(201);

    const manager = await userWith('fm', ['Fulfilment Manager']);
    const seen = Object.keys((await read(manager)).figures.widgets);
    expect(seen).toEqual(expect.arrayContaining(['orders', 'shipped_received', 'unpacks']));
    expect(seen).not.toContain('sims');
  });

  it('is closed to those without the main dashboard', async () => {
    const nobody = await userWith('nobody', []);
    expect((await nobody.get('/dashboard')).statusCode).toBe(403);
    expect((await nobody.post('/dashboard/refresh')).statusCode).toBe(403);
    expect((await nobody.post('/dashboard/exports', { widget: 'stock' })).statusCode).toBe(403);
  });
});

describe('the kept figures', () => {
  it('stay until refreshed, and the refresher reads them again once older than five minutes', async () => {
    const kept = await read(admin);
    expect(kept.max_age_seconds).toBe(300);
    await devices(1, catalogue.models.a14, 'received', null);
    expect((await read(admin)).figures.widgets.pipeline!.received).toBe(
      kept.figures.widgets.pipeline!.received,
    );

    const snapshots = snapshotsOf(t.app)!;
    // Young figures: the refresher leaves them.
    await snapshots.refreshStale();
    expect((await read(admin)).as_of).toBe(kept.as_of);

    await t.db.query(
      `UPDATE snapshots SET as_of = as_of - interval '6 minutes' WHERE name = 'main-dashboard'`,
    );
    await snapshots.refreshStale();
    const after = await read(admin);
    expect(after.refreshed_by).toBeNull();
    expect(after.figures.widgets.pipeline!.received).toBe(
      kept.figures.widgets.pipeline!.received + 1,
    );
    expect(Date.parse(after.as_of)).toBeGreaterThan(Date.parse(kept.as_of));
  });

  it('reads the figures on the first request of a new database', async () => {
    await t.db.query("DELETE FROM snapshots WHERE name = 'main-dashboard'");
    const first = await read(admin);
    expect(first.refreshed_by).toBeNull();
    expect(first.figures.widgets.stock!.units).toBe(7);
  });

  it('says who asked for a refresh', async () => {
    const refreshed = await refresh(admin);
    expect(refreshed.refreshed).toBe(true);
    expect(refreshed.refreshed_by).not.toBeNull();
  });
});
