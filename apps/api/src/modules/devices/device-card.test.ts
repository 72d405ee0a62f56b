import type {
  DeviceCard,
  DeviceLookup,
  DeviceProduction,
  ProductRequest,
  TransferDevice,
  VendorTransfer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import { consolidationScan, createBins, place } from '../../test/inventory-fixtures.js';
import {
  ALL_PASS,
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/**
 * A device's card after the production line: what production recorded (tests, wipe, locks,
 * battery, grade, request, worker), the inventory box it is in and the box's location, the
 * timeline's new steps; and a device leaving for its vendor leaving its inventory box.
 */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;
/** Graded A twice (boxed and put away), failed once, never handed out once. */
let imeis: string[];
let ids: number[];
let requestNumber: string;
let boxCode: string;

const lookUp = async (code: string) =>
  (await dataOf<DeviceLookup>(admin.get(`/devices/lookup?code=${code}`))).card!;
const productionOf = (id: number) =>
  dataOf<DeviceProduction>(admin.get(`/devices/${id}/production`));
const boxOf = async (code: string) =>
  (
    await t.db.query<{ qty: number; held: number }>(
      `SELECT b.qty, (SELECT count(*)::int FROM devices d WHERE d.inventory_box_id = b.id) AS held
       FROM inventory_boxes b WHERE b.code = $1`,
      [code],
    )
  )[0]!;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
  const box = await stagedBox(t.db, places, 4);
  imeis = box.imeis;
  ids = (
    await t.db.query<{ id: number }>(
      'SELECT id FROM devices WHERE imei = ANY ($1::text[]) ORDER BY imei',
      [imeis],
    )
  ).map((row) => row.id);
  await t.db.query('UPDATE devices SET vendor_id = $1 WHERE warehouse_box_id = $2', [
    places.catalogue.vendors.acme,
    box.id,
  ]);
  const { request } = await dataOf<{ request: ProductRequest }>(
    places.manager.post('/product-requests', { model_id: places.catalogue.models.a15, qty: 4 }),
    201,
  );
  requestNumber = request.number;
  await dataOf(places.manager.post(`/product-requests/${request.id}/approval`, {}));
  const [worker] = places.workers;
  await dataOf(
    places.leader.post('/product-team/assignments', {
      warehouse_box_id: box.id,
      worker_id: worker!.id,
      qty: 3,
    }),
    201,
  );
  const passing = {
    outcome: 'pass',
    items: ALL_PASS,
    frp_lock: false,
    battery_health: 91,
    wipe_method: 'nist_800_88',
    wipe_certificate: 'CERT-7',
    grade: 'A',
    color_id: places.catalogue.colors.black,
    capacity_gb: 128,
    station: 'bench-3',
  };
  for (const id of ids.slice(0, 2)) {
    await dataOf(
      worker!.client.post('/product-team/worker/tests', { ...passing, device_id: id }),
      201,
    );
  }
  await dataOf(
    worker!.client.post('/product-team/worker/tests', {
      device_id: ids[2],
      outcome: 'fail',
      items: { ...ALL_PASS, screen: 'fail', touch: 'fail' },
      frp_lock: false,
      battery_health: 64,
      issue_codes: ['LCD-CRACK', 'TOUCH-FAIL'],
      cosmetic_notes: 'Cracked corner',
    }),
    201,
  );
  const named = await consolidationScan(admin, imeis[0]!);
  boxCode = named.box!.code;
  for (const imei of imeis.slice(0, 2))
    expect((await place(admin, imei, boxCode)).result).toBe('added');
  await dataOf(admin.post(`/inventory-boxes/${named.box!.id}/seal`));
  await createBins(t, 'K', 2);
  await dataOf(admin.post('/putaway', { box_code: boxCode, location_code: 'K-01' }));
});
afterAll(() => t.close());

describe("a graded, consolidated and located device's card", () => {
  it('names its inventory box and the location the box is put away at', async () => {
    const card = await lookUp(imeis[0]!);
    const [location] = await t.db.query<{ id: number }>(
      "SELECT id FROM locations WHERE code = 'K-01'",
    );
    expect(card.device).toMatchObject({
      status: 'in_stock',
      grade: 'A',
      warehouse_box_id: null,
      container: boxCode,
    });
    expect(card.inventory_box).toEqual({
      id: card.device.inventory_box_id,
      code: boxCode,
      status: 'located',
      qty: 2,
      max_qty: 20,
      location_id: location!.id,
      location_code: 'K-01',
    });
    // The card endpoint answers the same card.
    expect(await dataOf<DeviceCard>(admin.get(`/devices/${ids[0]}/card`))).toEqual(card);
  });

  it('shows what production recorded: request, worker, wipe, locks, battery, grading and tests', async () => {
    const record = await productionOf(ids[0]!);
    expect(record).toMatchObject({
      request: { number: requestNumber, status: 'in_progress' },
      worker: 'Name of worker1',
      graded_by: 'Name of worker1',
      wipe: { method: 'nist_800_88', certificate: 'CERT-7' },
      lock_on: false,
      battery_health: 91,
    });
    expect(record.graded_at).toMatch(/Z$/);
    expect(record.wipe!.wiped_at).toMatch(/Z$/);
    expect(record.tests).toEqual([
      expect.objectContaining({
        result: 'pass',
        grade: 'A',
        battery_health: 91,
        tester: 'Name of worker1',
        tool: 'manual',
        items: ALL_PASS,
        issue_codes: [],
      }),
    ]);
  });

  it('shows a failed device with its issue codes and the items that failed', async () => {
    const record = await productionOf(ids[2]!);
    expect(record).toMatchObject({ wipe: null, lock_on: false, battery_health: 64 });
    expect(record.tests[0]).toMatchObject({
      result: 'fail',
      grade: 'F',
      issue_codes: ['LCD-CRACK', 'TOUCH-FAIL'],
      items: { ...ALL_PASS, screen: 'fail', touch: 'fail' },
      cosmetic_notes: 'Cracked corner',
    });
    const card = await lookUp(imeis[2]!);
    expect(card.inventory_box).toBeNull();
    expect(card.device.container).toMatch(/^WB-/);
  });

  it('shows a device never handed out as not through production; 404 for no device', async () => {
    expect(await productionOf(ids[3]!)).toEqual({
      request: null,
      worker: null,
      assigned_at: null,
      graded_at: null,
      graded_by: null,
      wipe: null,
      lock_on: null,
      battery_health: null,
      tests: [],
    });
    expect((await admin.get('/devices/999999/production')).statusCode).toBe(404);
  });

  it('puts the production steps on the timeline with their station and details', async () => {
    const { events } = await lookUp(imeis[0]!);
    expect(events.map((event) => event.type)).toEqual([
      'consolidated',
      'graded',
      'production_started',
    ]);
    expect(events[0]).toMatchObject({ container: boxCode, station: 'cons-1' });
    expect(events[0]!.data).toEqual({ box: boxCode });
    expect(events[1]).toMatchObject({ station: 'bench-3', data: { grade: 'A' } });
    expect(events[2]!.data).toMatchObject({ worker: 'Name of worker1' });
  });
});

describe('a device leaving for its vendor', () => {
  let transferId: number;

  it('stays in its box while held, and leaves it when the return ships', async () => {
    // Held (a blacklist listing): it stays where it is, in its box.
    await dataOf(
      admin.post('/blacklist-entries', { imei: imeis[1], source: 'gsma', reason: 'stolen' }),
      201,
    );
    expect((await lookUp(imeis[1]!)).device).toMatchObject({
      status: 'hold',
      container: boxCode,
    });
    expect(await boxOf(boxCode)).toEqual({ qty: 2, held: 2 });

    const transfer = await dataOf<VendorTransfer>(
      admin.post('/vendor-transfers', {
        vendor_id: places.catalogue.vendors.acme,
        reason: 'blacklisted',
      }),
      201,
    );
    transferId = transfer.id;
    await dataOf(admin.post(`/vendor-transfers/${transferId}/devices`, { codes: [imeis[1]] }));
    // The return says which box to take it from.
    const [listed] = await dataOf<TransferDevice[]>(
      admin.get(`/vendor-transfers/${transferId}/devices`),
    );
    expect(listed!.container).toBe(boxCode);
    await dataOf(admin.post(`/vendor-transfers/${transferId}/pack`, {}));
    await dataOf(
      admin.post(`/vendor-transfers/${transferId}/ship`, { carrier: 'UPS', tracking: '1Z0001' }),
    );

    expect(await boxOf(boxCode)).toEqual({ qty: 1, held: 1 });
    const card = await lookUp(imeis[1]!);
    expect(card.device).toMatchObject({ status: 'rtv', inventory_box_id: null, container: null });
    expect(card.inventory_box).toBeNull();
    expect(card.events[0]).toMatchObject({ type: 'returned_to_vendor', container: null });
    // The device still in the box sees the box's count.
    expect((await lookUp(imeis[0]!)).inventory_box).toMatchObject({ qty: 1 });
  });

  it('waits for a running count of its box: 409, and nothing moves', async () => {
    await t.db.query("UPDATE inventory_boxes SET status = 'locked' WHERE code = $1", [boxCode]);
    try {
      const transfer = await dataOf<VendorTransfer>(
        admin.post('/vendor-transfers', {
          vendor_id: places.catalogue.vendors.acme,
          reason: 'other',
        }),
        201,
      );
      await dataOf(admin.post(`/vendor-transfers/${transfer.id}/devices`, { codes: [imeis[0]] }));
      await dataOf(admin.post(`/vendor-transfers/${transfer.id}/pack`, {}));
      const refused = await admin.post(`/vendor-transfers/${transfer.id}/ship`, {
        carrier: 'UPS',
        tracking: '1Z0002',
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe(
        `${boxCode} is locked by a count: finish the count before its devices leave.`,
      );
      expect((await lookUp(imeis[0]!)).device).toMatchObject({
        status: 'in_stock',
        container: boxCode,
      });
      expect(await boxOf(boxCode)).toEqual({ qty: 1, held: 1 });
    } finally {
      await t.db.query("UPDATE inventory_boxes SET status = 'located' WHERE code = $1", [boxCode]);
    }
  });
});
