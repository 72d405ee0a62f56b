import type { WarehouseDashboard, WarehouseDashboardRefresh } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { imeiOf, seedCatalogue, TACS, type Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * The warehouse dashboard over a small warehouse seeded straight into the database: every figure
 * counted by hand, kept until refreshed, and only for the warehouse manager.
 */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let serial = 0;

const userWith = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};

/** A location's id by its code. */
const locationId = async (code: string) =>
  (
    await t.db.query<{ id: number }>('SELECT id::int AS id FROM locations WHERE code = $1', [code])
  )[0]!.id;

async function zone(code: string, bins: number, options: { quarantine?: boolean } = {}) {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO locations (code, kind, quarantine, active) VALUES ($1, 'zone', $2, true)
     RETURNING id::int AS id`,
    [code, options.quarantine ?? false],
  );
  await t.db.query(
    `INSERT INTO locations (code, kind, parent_id, capacity_boxes, active)
     SELECT $1 || '-0' || n, 'bin', $2, 2, true FROM generate_series(1, $3) n`,
    [code, row!.id, bins],
  );
  return row!.id;
}

/** An inventory box; located when given a location code, sealed when `sealed`. */
async function box(
  model: number,
  grade: string,
  qty: number,
  place: { location?: string; sealed?: boolean } = {},
) {
  const location = place.location ? await locationId(place.location) : null;
  const status = location ? 'located' : place.sealed ? 'sealed' : 'open';
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO inventory_boxes (model_id, grade, max_qty, qty, status, location_id, sealed_at)
     VALUES ($1, $2, 20, $3, $4, $5, CASE WHEN $4 = 'open' THEN NULL ELSE now() END)
     RETURNING id::int AS id`,
    [model, grade, qty, status, location],
  );
  return row!.id;
}

/** Devices straight into the registry, received `daysAgo` days ago. */
async function devices(
  count: number,
  device: {
    model: number;
    status: string;
    grade?: string;
    daysAgo?: number;
    box?: number;
    hold?: string;
  },
) {
  for (let n = 0; n < count; n++) {
    await t.db.query(
      `INSERT INTO devices (imei, model_id, status, grade, received_at, inventory_box_id,
         hold_reason)
       VALUES ($1, $2, $3, $4, now() - make_interval(days => $5), $6, $7)`,
      [
        imeiOf(TACS.a15, ++serial),
        device.model,
        device.status,
        device.grade ?? null,
        device.daysAgo ?? 1,
        device.box ?? null,
        device.hold ?? null,
      ],
    );
  }
}

async function accessory(sku: string, reorderPoint: number, onHand: number, bin: string) {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO accessories (sku, name, kind, reorder_point) VALUES ($1, $1 || ' charger', 'charger', $2)
     RETURNING id::int AS id`,
    [sku, reorderPoint],
  );
  if (onHand > 0) {
    await t.db.query(
      `INSERT INTO stock_levels (item_kind, item_id, location_id, on_hand, reserved)
       VALUES ('accessory', $1, $2, $3, 1)`,
      [row!.id, await locationId(bin), onHand],
    );
  }
  return row!.id;
}

let zones: { storage: number; quarantine: number };
let chargers: number;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  catalogue = await seedCatalogue(t);
  const { a15, a14, moto } = catalogue.models;
  zones = { storage: await zone('WA', 4), quarantine: await zone('WQ', 1, { quarantine: true }) };
  // WA-04 is inactive: its capacity is no room to fill.
  await t.db.query("UPDATE locations SET active = false WHERE code = 'WA-04'");

  const a15A = await box(a15, 'A', 3, { location: 'WA-01' });
  const a15B = await box(a15, 'B', 1, { location: 'WA-01' });
  const motoA = await box(moto, 'A', 2, { location: 'WA-02' });
  const a14Open = await box(a14, 'A', 1);
  const a15Sealed = await box(a15, 'A', 1, { sealed: true });
  const held = await box(a15, 'A', 1, { location: 'WQ-01' });

  await devices(1, { model: a15, status: 'in_stock', grade: 'A', daysAgo: 10, box: a15A });
  await devices(1, { model: a15, status: 'in_stock', grade: 'A', daysAgo: 40, box: a15A });
  await devices(1, { model: a15, status: 'in_stock', grade: 'A', daysAgo: 200, box: a15A });
  await devices(1, { model: a15, status: 'in_stock', grade: 'B', daysAgo: 70, box: a15B });
  await devices(2, { model: moto, status: 'in_stock', grade: 'A', daysAgo: 100, box: motoA });
  await devices(1, { model: a14, status: 'in_stock', grade: 'A', daysAgo: 5, box: a14Open });
  await devices(1, { model: a15, status: 'in_stock', grade: 'A', daysAgo: 5, box: a15Sealed });
  await devices(1, { model: a15, status: 'hold', grade: 'A', box: held, hold: 'blacklist' });
  await devices(1, { model: a14, status: 'hold', hold: 'frp' });
  await devices(2, { model: moto, status: 'in_repair', grade: 'C' });
  await devices(1, { model: a15, status: 'shipped', grade: 'A' });
  await devices(1, { model: a15, status: 'received' });

  chargers = await accessory('CHG-LOW', 10, 4, 'WA-03');
  await accessory('CHG-OK', 5, 20, 'WA-03');
  await accessory('CHG-NONE', 0, 0, 'WA-03');

  await t.db.query(
    `UPDATE locations SET next_audit_due = current_date + CASE code
       WHEN 'WA-01' THEN -1 WHEN 'WA-02' THEN 3 WHEN 'WA-03' THEN 30 WHEN 'WQ-01' THEN 0 END
     WHERE code IN ('WA-01', 'WA-02', 'WA-03', 'WQ-01')`,
  );
});
afterAll(() => t.close());

const refresh = async (client: ApiClient) => {
  const response = await client.post('/warehouse/dashboard/refresh');
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<WarehouseDashboardRefresh>(response).data;
};

describe('the warehouse dashboard', () => {
  it('counts the small warehouse', async () => {
    const { figures } = await refresh(admin);
    const { a15, a14, moto } = catalogue.models;
    expect(figures.rts).toEqual({
      units: 8,
      by_grade: [
        { grade: 'A', units: 7 },
        { grade: 'B', units: 1 },
      ],
      by_model: [
        {
          model_id: a15,
          model: 'Samsung Galaxy A15',
          units: 5,
          by_grade: [
            { grade: 'A', units: 4 },
            { grade: 'B', units: 1 },
          ],
        },
        {
          model_id: moto,
          model: 'Motorola Moto G Play 2023',
          units: 2,
          by_grade: [{ grade: 'A', units: 2 }],
        },
        {
          model_id: a14,
          model: 'Samsung Galaxy A14',
          units: 1,
          by_grade: [{ grade: 'A', units: 1 }],
        },
      ],
    });
    expect(figures.boxes).toEqual({
      open: 1,
      sealed: 1,
      located: 4,
      by_zone: [
        {
          zone_id: zones.storage,
          zone: 'WA',
          name: null,
          quarantine: false,
          boxes: 3,
          units: 6,
          capacity: 6,
          utilisation: 50,
        },
        {
          zone_id: zones.quarantine,
          zone: 'WQ',
          name: null,
          quarantine: true,
          boxes: 1,
          units: 1,
          capacity: 2,
          utilisation: 50,
        },
      ],
    });
    expect(figures.utilisation).toEqual({ capacity: 8, boxes: 4, percent: 50 });
    expect(figures.stock_age).toEqual([
      { bucket: '0-30', units: 3 },
      { bucket: '31-60', units: 1 },
      { bucket: '61-90', units: 1 },
      { bucket: '91-180', units: 2 },
      { bucket: '181+', units: 1 },
    ]);
    expect(figures.holds).toEqual({
      on_hold: 2,
      by_reason: [
        { reason: 'blacklist', units: 1 },
        { reason: 'frp', units: 1 },
      ],
      quarantine_boxes: 1,
      quarantine_units: 1,
      in_repair: 2,
    });
    expect(figures.accessories_below_reorder).toEqual([
      {
        accessory_id: chargers,
        sku: 'CHG-LOW',
        name: 'CHG-LOW charger',
        available: 3,
        reorder_point: 10,
      },
    ]);
    expect(figures.audits).toEqual({
      due: 2,
      due_soon: 1,
      by_zone: [
        { zone_id: zones.storage, zone: 'WA', due: 1, due_soon: 1 },
        { zone_id: zones.quarantine, zone: 'WQ', due: 1, due_soon: 0 },
      ],
    });
  });

  it('exports each widget as the figures it shows', async () => {
    const csv = async (widget: string) => {
      const response = await admin.download('/warehouse/dashboard/exports', { widget });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-disposition']).toMatch(
        new RegExp(`warehouse-${widget.replace('_', '-')}-\\d{4}-\\d{2}-\\d{2}T\\d{4}\\.csv`),
      );
      return response.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
    };
    expect(await csv('rts')).toEqual([
      'Model,Grade,Units',
      'Samsung Galaxy A15,A,4',
      'Samsung Galaxy A15,B,1',
      'Motorola Moto G Play 2023,A,2',
      'Samsung Galaxy A14,A,1',
    ]);
    expect(await csv('zones')).toEqual([
      'Zone,Name,Quarantine,Boxes,Devices,Capacity (boxes),Utilisation %',
      'WA,,no,3,6,6,50',
      'WQ,,yes,1,1,2,50',
    ]);
    expect(await csv('holds')).toEqual([
      'Devices,Units',
      'On hold: blacklist,1',
      'On hold: frp,1',
      'In quarantine zone WQ,1',
      'In repair,2',
    ]);
    expect(await csv('stock_age')).toHaveLength(6);
    expect(await csv('accessories')).toEqual([
      'SKU,Name,Available,Reorder point',
      'CHG-LOW,CHG-LOW charger,3,10',
    ]);
    expect(await csv('audits')).toEqual(['Zone,Due now,Due within 7 days', 'WA,1,1', 'WQ,1,0']);
    expect(
      (await admin.post('/warehouse/dashboard/exports', { widget: 'everything' })).statusCode,
    ).toBe(422);
  });

  it('reads the devices in ranges of ids, so a registry past one range counts the same', async () => {
    // Ids far apart: the devices fall in ranges of their own, with empty ranges between.
    await t.db.query(
      `INSERT INTO devices (id, imei, model_id, status, grade)
       OVERRIDING SYSTEM VALUE VALUES (120001, $1, $2, 'in_repair', 'C')`,
      [imeiOf(TACS.moto, 1), catalogue.models.moto],
    );
    const { figures } = await refresh(admin);
    expect(figures.holds.in_repair).toBe(3);
    await t.db.query('DELETE FROM devices WHERE id = 120001');
    expect((await refresh(admin)).figures.holds.in_repair).toBe(2);
  });

  it('keeps its figures until they are refreshed, and says how old they are and who asked', async () => {
    const kept = bodyOf<WarehouseDashboard>(await admin.get('/warehouse/dashboard')).data;
    await devices(1, { model: catalogue.models.a14, status: 'in_repair' });
    const read = bodyOf<WarehouseDashboard>(await admin.get('/warehouse/dashboard')).data;
    expect(read.figures.holds.in_repair).toBe(kept.figures.holds.in_repair);
    expect(read.as_of).toBe(kept.as_of);
    expect(read.max_age_seconds).toBe(300);
    expect(Date.parse(read.read_at)).toBeGreaterThanOrEqual(Date.parse(read.as_of));

    const manager = await userWith('wm', ['Warehouse Manager']);
    const refreshed = await refresh(manager);
    expect(refreshed).toMatchObject({ refreshed: true, refreshed_by: 'Name of wm' });
    expect(refreshed.figures.holds.in_repair).toBe(kept.figures.holds.in_repair + 1);
    expect(Date.parse(refreshed.as_of)).toBeGreaterThan(Date.parse(kept.as_of));
    const after = bodyOf<WarehouseDashboard>(await manager.get('/warehouse/dashboard')).data;
    expect(after.as_of).toBe(refreshed.as_of);
  });

  it('is the warehouse manager’s only', async () => {
    const other = await userWith('pm', ['Production Manager']);
    expect((await other.get('/warehouse/dashboard')).statusCode).toBe(403);
    expect((await other.post('/warehouse/dashboard/refresh')).statusCode).toBe(403);
    const exported = await other.post('/warehouse/dashboard/exports', { widget: 'rts' });
    expect(exported.statusCode).toBe(403);
  });
});

describe('a new database', () => {
  it('reads the figures on the first request, before the refresher has run', async () => {
    await t.db.query("DELETE FROM snapshots WHERE name = 'warehouse-dashboard'");
    const response = await admin.get('/warehouse/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    const read = bodyOf<WarehouseDashboard>(response).data;
    expect(read.refreshed_by).toBeNull();
    expect(read.figures.rts.units).toBe(8);
  });
});
