import {
  FULFILMENT_TYPES,
  type AssignmentOverview,
  type FulfilmentDashboard,
  type FulfilmentDashboardRefresh,
  type FulfilmentFigures,
  type FulfilmentType,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';
import { imeiOf, TACS } from '../../test/receiving-fixtures.js';
import { makeFulfilledOrder } from '../fulfilment/index.js';

/**
 * The fulfilment dashboard over a day of orders seeded straight into the database in every stage
 * (and one picked through the real station), with picks, labels and scan-outs at known hours of
 * the business day and the day before: every figure equals a recount of the rows, kept until
 * refreshed, and only for the warehouse manager.
 */

let t: TestApp;
let admin: ApiClient;
let picker: { id: number; name: string };
let carrierId: number;
let subscriberId: number;
let variantId: number;
let serial = 0;

const one = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ id: number }>(`${sql} RETURNING id::int AS id`, params))[0]!.id;

const userWith = async (userName: string, roles: string[]) => {
  const id = await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return { id, client: apiClient(t, await login(t.app, userName, `${userName}-password-1`)) };
};

/** A moment of the business day (0: today, -1: yesterday) at `hour`:30 local time. */
async function at(hour: number, day = 0): Promise<string> {
  const [row] = await t.db.query<{ at: string }>(
    `SELECT ((order_business_day(now()) + $1::int) + make_interval(hours => $2, mins => 30))
       ::timestamp AT TIME ZONE (SELECT time_zone FROM order_settings) AS at`,
    [day, hour],
  );
  return new Date(row!.at).toISOString();
}

type Seeded = {
  type?: FulfilmentType;
  status: string;
  hold?: string;
  /** Hours from now to the SLA (negative: past it); none by default. */
  slaHours?: number;
  /** Device units on its one line of the shop's variant. */
  units?: number;
};

/** An order in a stage, with one line of `units` units of the variant. */
async function order({ type = 'new_lifeline', status, hold, slaHours, units = 1 }: Seeded) {
  const id = await one(
    `INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
       status, hold_reason, status_before_hold, sla_due_at, total_cents, payment_status)
     VALUES ('carrier_api', $1, $2, $3, $4, $5, $6::text, CASE WHEN $6::text IS NOT NULL
       THEN 'ready' END, now() + make_interval(hours => $7::int), 0,
       CASE WHEN $1 = 'prepaid' THEN 'captured' END)`,
    [
      type,
      carrierId,
      type === 'prepaid' ? 'prepaid' : 'lifeline',
      subscriberId,
      status,
      hold ?? null,
      slaHours ?? null,
    ],
  );
  await t.db.query(
    `INSERT INTO order_ship_to (order_id, name, line1, city, state, zip)
     VALUES ($1, 'Pat Doe', '1 Main St', 'Houston', 'TX', '77002')`,
    [id],
  );
  const line = await one(
    `INSERT INTO order_lines (order_id, position, variant_id, sku, description, qty,
       unit_price_cents)
     VALUES ($1, 1, $2, 'FD-PHONE-A', 'Phone', $3, 0)`,
    [id, variantId, units],
  );
  return { id, line };
}

/** A unit of an order line, picked at `pickedAt` (null: not picked). */
const unit = (line: number, pickedAt: string | null) =>
  t.db.query(
    `INSERT INTO order_line_units (order_line_id, variant_id, status, picked_at)
     VALUES ($1, $2, CASE WHEN $3::timestamptz IS NULL THEN 'allocated' ELSE 'picked' END, $3)`,
    [line, variantId, pickedAt],
  );

/** An order's package: labelled at `labelled`, scanned out at `scannedOut`, or voided. */
async function parcel(
  orderId: number,
  labelled: string,
  { scannedOut = null, voided = false }: { scannedOut?: string | null; voided?: boolean } = {},
) {
  serial += 1;
  const status = voided ? 'voided' : scannedOut ? 'scanned_out' : 'label_created';
  await t.db.query(
    `INSERT INTO packages (order_id, carrier, service, tracking_number, weight_g, label_format,
       status, label_created_at, scanned_out_at, voided_at)
     VALUES ($1, 'usps', 'usps_ground_advantage', $2, 370, 'pdf', $3, $4, $5,
       CASE WHEN $3 = 'voided' THEN $4::timestamptz END)`,
    [orderId, `94001${String(serial).padStart(17, '0')}`, status, labelled, scannedOut],
  );
}

/** Counts every figure again from the rows, another way than the dashboard reads them. */
async function recount(): Promise<
  Omit<FulfilmentFigures, 'day' | 'cutoff_at' | 'demand' | 'demand_variants'>
> {
  const [settings] = await t.db.query<{ time_zone: string; cutoff: string }>(
    "SELECT time_zone, to_char(same_day_cutoff, 'HH24:MI') AS cutoff FROM order_settings",
  );
  const count = async (sql: string, params: unknown[] = []) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;
  const today = 'order_business_day(now())';
  const queueOf = async (type: FulfilmentType) => {
    const stage = (status: string) =>
      count('orders WHERE fulfilment_type = $1 AND status = $2', [type, status]);
    return {
      ready: await stage('ready'),
      assigned: await stage('assigned'),
      in_progress: await stage('in_progress'),
      fulfilled: await stage('fulfilled'),
      labeled: await stage('labeled'),
      shipped_today: await count(
        `orders o WHERE o.fulfilment_type = $1 AND EXISTS (SELECT 1 FROM packages p
           WHERE p.order_id = o.id AND p.scanned_out_at IS NOT NULL
             AND order_business_day(p.scanned_out_at) = ${today})`,
        [type],
      ),
    };
  };
  const queues: FulfilmentFigures['queues'] = [];
  for (const type of FULFILMENT_TYPES) {
    queues.push({ fulfilment_type: type, ...(await queueOf(type)) });
  }
  const total = (key: keyof FulfilmentFigures['totals']) =>
    queues.reduce((sum, queue) => sum + queue[key], 0);
  const backlog = await t.db.query<FulfilmentFigures['backlog'][number]>(
    `SELECT hold_reason, count(*)::int AS orders,
       count(*) FILTER (WHERE sla_due_at < now())::int AS sla_breached
     FROM orders WHERE status = 'on_hold' GROUP BY hold_reason
     ORDER BY array_position(ARRAY['no_stock', 'address', 'duplicate_benefit', 'carrier_rejected',
       'fraud_review', 'pairing_failed', 'damaged_unit', 'wrong_item'], hold_reason)`,
  );
  const late = await t.db.query<FulfilmentFigures['sla']['by_status'][number]>(
    `SELECT status, count(*)::int AS orders FROM orders
     WHERE sla_due_at < now() AND status NOT IN ('shipped', 'delivered', 'closed', 'cancelled',
       'returned', 'reshipped', 'lost')
     GROUP BY status
     ORDER BY array_position(ARRAY['pending', 'ready', 'assigned', 'in_progress', 'fulfilled',
       'labeled', 'on_hold', 'substitution_pending', 'cancel_requested'], status)`,
  );
  const perHour = async (sql: string) =>
    new Map((await t.db.query<{ hour: number; n: number }>(sql)).map((row) => [row.hour, row.n]));
  const hourOf = (column: string) =>
    `extract(hour FROM ${column} AT TIME ZONE (SELECT time_zone FROM order_settings))::int`;
  const picked = await perHour(
    `SELECT ${hourOf('picked_at')} AS hour, count(*)::int AS n FROM order_line_units
     WHERE picked_at IS NOT NULL AND order_business_day(picked_at) = ${today} GROUP BY 1`,
  );
  const labelled = await perHour(
    `SELECT ${hourOf('label_created_at')} AS hour, count(*)::int AS n FROM packages
     WHERE voided_at IS NULL AND order_business_day(label_created_at) = ${today} GROUP BY 1`,
  );
  const scanned = await perHour(
    `SELECT ${hourOf('scanned_out_at')} AS hour, count(*)::int AS n FROM packages
     WHERE scanned_out_at IS NOT NULL AND order_business_day(scanned_out_at) = ${today}
     GROUP BY 1`,
  );
  const byHour = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    picked: picked.get(hour) ?? 0,
    labelled: labelled.get(hour) ?? 0,
    scanned_out: scanned.get(hour) ?? 0,
  }));
  const sumOf = (key: 'picked' | 'labelled' | 'scanned_out') =>
    byHour.reduce((sum, hour) => sum + hour[key], 0);
  return {
    time_zone: settings!.time_zone,
    cutoff: settings!.cutoff,
    queues,
    totals: {
      ready: total('ready'),
      assigned: total('assigned'),
      in_progress: total('in_progress'),
      fulfilled: total('fulfilled'),
      labeled: total('labeled'),
      shipped_today: total('shipped_today'),
    },
    backlog,
    sla: { breached: late.reduce((sum, row) => sum + row.orders, 0), by_status: late },
    throughput: {
      picked: sumOf('picked'),
      labelled: sumOf('labelled'),
      scanned_out: sumOf('scanned_out'),
      by_hour: byHour,
    },
  };
}

/** The hour of the business day it is now, where the real pick lands. */
let pickHour: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  const pickerId = await createUser(t.db, {
    userName: 'fd.picker',
    password: 'fd.picker-password-1',
    roles: ['Fulfilment Worker'],
  });
  picker = { id: pickerId, name: 'Name of fd.picker' };
  carrierId = await one("INSERT INTO vendors (name, type) VALUES ('FD Carrier', 'carrier-client')");
  subscriberId = await one(
    `INSERT INTO subscribers (client_carrier_id, program, first_name, last_name, service_line1,
       service_city, service_state, service_zip, service_address_key)
     VALUES ($1, 'lifeline', 'Pat', 'Doe', '1 Main St', 'Houston', 'TX', '77002', 'fd')`,
    [carrierId],
  );
  const brand = await one("INSERT INTO brands (name) VALUES ('FD Brand')");
  const model = await one(
    `INSERT INTO device_models (brand_id, name, device_type, os, network)
     VALUES ($1, 'FD Phone', 'phone', 'android', '4G')`,
    [brand],
  );
  const product = await one(
    "INSERT INTO products (name, kind, model_id) VALUES ('FD Phone', 'device', $1)",
    [model],
  );
  variantId = await one(
    "INSERT INTO product_variants (product_id, sku, grade) VALUES ($1, 'FD-PHONE-A', 'A')",
    [product],
  );
  // Three grade-A units in a located box: one is picked below, two stay available.
  const zone = await one("INSERT INTO locations (code, kind, active) VALUES ('FDZ', 'zone', true)");
  const bin = await one(
    "INSERT INTO locations (code, kind, parent_id, active) VALUES ('FDZ-1', 'bin', $1, true)",
    [zone],
  );
  const box = await one(
    `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id, sealed_at,
       located_at)
     VALUES ($1, 'A', 50, 3, 'located', $2, now() - interval '1 day', now())`,
    [model, bin],
  );
  await t.db.query(
    `INSERT INTO devices (imei, tac, model_id, grade, status, inventory_box_id)
     SELECT imei, left(imei, 8), $1, 'A', 'in_stock', $2 FROM unnest($3::text[]) AS imei`,
    [model, box, [1, 2, 3].map((n) => imeiOf(TACS.a15, 9000 + n))],
  );

  // Ready: three Lifeline (one past its SLA), one prepaid of two units; one more prepaid order
  // assigned and picked through the real station, now.
  await order({ status: 'ready', slaHours: -2 });
  await order({ status: 'ready', slaHours: 24 });
  await order({ status: 'ready' });
  await order({ type: 'prepaid', status: 'ready', units: 2 });
  const real = await order({ type: 'prepaid', status: 'ready' });
  await makeFulfilledOrder(t.db, { orderId: real.id, picker });
  pickHour = (
    await t.db.query<{ hour: number }>(
      `SELECT extract(hour FROM now() AT TIME ZONE (SELECT time_zone FROM order_settings))::int
         AS hour`,
    )
  )[0]!.hour;

  // Assigned (one past its SLA, one unit waiting), being picked (a unit at 08:30), picked (two
  // units at 09:30, and a label voided at 09:30).
  const assigned = await order({ status: 'assigned', slaHours: -1 });
  await unit(assigned.line, null);
  await order({ status: 'assigned', slaHours: 5 });
  const picking = await order({ status: 'in_progress', units: 2 });
  await unit(picking.line, await at(8));
  await unit(picking.line, null);
  const picked = await order({ status: 'fulfilled', units: 2 });
  await unit(picked.line, await at(9));
  await unit(picked.line, await at(9));
  await parcel(picked.id, await at(9), { voided: true });

  // Labelled at 09:30 today, waiting for the dock; their units picked yesterday evening.
  for (let n = 0; n < 2; n++) {
    const labelled = await order({ status: 'labeled' });
    await unit(labelled.line, await at(20, -1));
    await parcel(labelled.id, await at(9));
  }

  // Shipped today: two Lifeline and one OTA parcel labelled at 08:30, out at 10:30 and 11:30,
  // all past their SLA (shipped: no breach); one shipped yesterday.
  const out = [
    { type: 'new_lifeline', hour: 10 },
    { type: 'new_lifeline', hour: 11 },
    { type: 'ota', hour: 11 },
  ] as const;
  for (const { type, hour } of out) {
    const shipped = await order({ type, status: 'shipped', slaHours: -30 });
    await parcel(shipped.id, await at(8), { scannedOut: await at(hour) });
  }
  const yesterday = await order({ status: 'shipped' });
  await parcel(yesterday.id, await at(22, -1), { scannedOut: await at(23, -1) });

  // The backlog: two without stock (one past its SLA), one bad address past its SLA; a pending
  // order past its SLA; delivered and cancelled ones past theirs (ended: no breach).
  await order({ status: 'on_hold', hold: 'no_stock', slaHours: -3 });
  await order({ status: 'on_hold', hold: 'no_stock' });
  await order({ status: 'on_hold', hold: 'address', slaHours: -48 });
  await order({ status: 'pending', slaHours: -1 });
  await order({ status: 'delivered', slaHours: -100 });
  await order({ status: 'cancelled', slaHours: -100 });
});
afterAll(() => t.close());

const refresh = async (client: ApiClient) =>
  dataOf<FulfilmentDashboardRefresh>(client.post('/warehouse/dashboard-fulfill/refresh'));

const zeroQueue = {
  ready: 0,
  assigned: 0,
  in_progress: 0,
  fulfilled: 0,
  labeled: 0,
  shipped_today: 0,
};

describe('the fulfilment dashboard', () => {
  it('counts the day by queue, backlog, SLA and hour, as a recount of the rows does', async () => {
    const { figures } = await refresh(admin);
    const {
      day: _day,
      cutoff_at: _cutoff,
      demand: _demand,
      demand_variants: _variants,
      ...counted
    } = figures;
    expect(counted).toEqual(await recount());

    // The same figures by hand.
    expect(figures.time_zone).toBe('America/Chicago');
    expect(figures.cutoff).toBe('14:00');
    expect(figures.queues).toEqual([
      {
        fulfilment_type: 'new_lifeline',
        ready: 3,
        assigned: 2,
        in_progress: 1,
        fulfilled: 1,
        labeled: 2,
        shipped_today: 2,
      },
      { fulfilment_type: 'ota', ...zeroQueue, shipped_today: 1 },
      { fulfilment_type: 'prepaid', ...zeroQueue, ready: 1, fulfilled: 1 },
      { fulfilment_type: 'existing_customer', ...zeroQueue },
      { fulfilment_type: 'replacement', ...zeroQueue },
      { fulfilment_type: 'support', ...zeroQueue },
      { fulfilment_type: 'wholesale', ...zeroQueue },
    ]);
    expect(figures.totals).toEqual({
      ready: 4,
      assigned: 2,
      in_progress: 1,
      fulfilled: 2,
      labeled: 2,
      shipped_today: 3,
    });
    expect(figures.backlog).toEqual([
      { hold_reason: 'no_stock', orders: 2, sla_breached: 1 },
      { hold_reason: 'address', orders: 1, sla_breached: 1 },
    ]);
    expect(figures.sla).toEqual({
      breached: 5,
      by_status: [
        { status: 'pending', orders: 1 },
        { status: 'ready', orders: 1 },
        { status: 'assigned', orders: 1 },
        { status: 'on_hold', orders: 2 },
      ],
    });
    const hours = new Map<number, { picked: number; labelled: number; scanned_out: number }>();
    const add = (hour: number, figure: 'picked' | 'labelled' | 'scanned_out', n: number) => {
      const row = hours.get(hour) ?? { picked: 0, labelled: 0, scanned_out: 0 };
      row[figure] += n;
      hours.set(hour, row);
    };
    add(8, 'picked', 1);
    add(9, 'picked', 2);
    add(pickHour, 'picked', 1);
    add(8, 'labelled', 3);
    add(9, 'labelled', 2);
    add(10, 'scanned_out', 1);
    add(11, 'scanned_out', 2);
    expect(figures.throughput).toEqual({
      picked: 4,
      labelled: 5,
      scanned_out: 3,
      by_hour: Array.from({ length: 24 }, (_, hour) => ({
        hour,
        ...(hours.get(hour) ?? { picked: 0, labelled: 0, scanned_out: 0 }),
      })),
    });
  });

  it('gives the demand of the ready orders against stock as the assignment page does', async () => {
    const { figures } = await refresh(admin);
    expect(figures.demand).toEqual([
      expect.objectContaining({ sku: 'FD-PHONE-A', orders: 4, units: 5, available: 2 }),
    ]);
    expect(figures.demand_variants).toBe(1);
    const overview = await dataOf<AssignmentOverview>(admin.get('/fulfilment/assignment'));
    expect(figures.demand).toEqual(overview.demand);
  });

  it('gives the business day and its carrier cut-off from the order settings', async () => {
    await t.db.query("UPDATE order_settings SET same_day_cutoff = '15:30'");
    try {
      const { figures } = await refresh(admin);
      const [expected] = await t.db.query<{ day: string; cutoff_at: string }>(
        `SELECT order_business_day(now())::text AS day,
           (order_business_day(now()) + time '15:30')::timestamp
             AT TIME ZONE (SELECT time_zone FROM order_settings) AS cutoff_at`,
      );
      expect(figures.day).toBe(expected!.day);
      expect(figures.cutoff).toBe('15:30');
      expect(figures.cutoff_at).toBe(new Date(expected!.cutoff_at).toISOString());
    } finally {
      await t.db.query("UPDATE order_settings SET same_day_cutoff = '14:00'");
    }
  });

  it('exports each widget as the figures it shows', async () => {
    await refresh(admin);
    const csv = async (widget: string) => {
      const response = await admin.download('/warehouse/dashboard-fulfill/exports', { widget });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toMatch(
        new RegExp(`fulfilment-${widget}-\\d{4}-\\d{2}-\\d{2}T\\d{4}\\.csv`),
      );
      return response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
    };
    expect((await csv('queues')).slice(0, 3)).toEqual([
      'Queue,Ready,Assigned,Being picked,"Picked, to label","Labelled, to scan out",Shipped today',
      'new_lifeline,3,2,1,1,2,2',
      'ota,0,0,0,0,0,1',
    ]);
    expect(await csv('backlog')).toEqual(['Reason,Orders,Past SLA', 'no_stock,2,1', 'address,1,1']);
    expect(await csv('sla')).toEqual([
      'Status,Orders past SLA',
      'pending,1',
      'ready,1',
      'assigned,1',
      'on_hold,2',
    ]);
    const throughput = await csv('throughput');
    expect(throughput).toHaveLength(25);
    expect(throughput[0]).toBe('Hour,Units picked,Labels,Scanned out');
    expect(throughput[12]).toMatch(/^11:00,\d+,0,2$/);
    expect(await csv('demand')).toEqual([
      'Model,SKU,Ready orders,Units wanted,Available',
      'FD Phone,FD-PHONE-A,4,5,2',
    ]);
    expect(
      (await admin.post('/warehouse/dashboard-fulfill/exports', { widget: 'everything' }))
        .statusCode,
    ).toBe(422);
  });

  it('keeps its figures until they are refreshed, and says how old they are and who asked', async () => {
    const kept = await dataOf<FulfilmentDashboard>(admin.get('/warehouse/dashboard-fulfill'));
    await order({ status: 'ready' });
    const read = await dataOf<FulfilmentDashboard>(admin.get('/warehouse/dashboard-fulfill'));
    expect(read.figures.totals.ready).toBe(kept.figures.totals.ready);
    expect(read.as_of).toBe(kept.as_of);
    expect(read.max_age_seconds).toBe(60);

    const manager = await userWith('fd.wm', ['Warehouse Manager']);
    const refreshed = await refresh(manager.client);
    expect(refreshed).toMatchObject({ refreshed: true, refreshed_by: 'Name of fd.wm' });
    expect(refreshed.figures.totals.ready).toBe(kept.figures.totals.ready + 1);
    expect(Date.parse(refreshed.as_of)).toBeGreaterThan(Date.parse(kept.as_of));
  });

  it('is the warehouse manager’s only: the fulfilment roles alone do not open it', async () => {
    const fm = await userWith('fd.fm', ['Fulfilment Manager']);
    expect((await fm.client.get('/warehouse/dashboard-fulfill')).statusCode).toBe(403);
    expect((await fm.client.post('/warehouse/dashboard-fulfill/refresh')).statusCode).toBe(403);
    const exported = await fm.client.post('/warehouse/dashboard-fulfill/exports', {
      widget: 'queues',
    });
    expect(exported.statusCode).toBe(403);
  });
});

describe('a new database', () => {
  it('reads the figures on the first request, before the refresher has run', async () => {
    await t.db.query("DELETE FROM snapshots WHERE name = 'fulfilment-dashboard'");
    const read = await dataOf<FulfilmentDashboard>(admin.get('/warehouse/dashboard-fulfill'));
    expect(read.refreshed_by).toBeNull();
    expect(read.figures.totals.shipped_today).toBe(3);
  });
});
