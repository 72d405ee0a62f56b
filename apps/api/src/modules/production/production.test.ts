import type {
  CorrectableDevice,
  ProductionOverview,
  LeaderBox,
  ProductRequest,
  RequestBox,
  TestOutcome,
  WorkerScan,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import {
  ALL_PASS,
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/** Production: requests and their boxes, the leader's assignments, the worker's tests. */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
});
afterAll(() => t.close());

const statusOf = async (deviceId: number) =>
  (
    await t.db.query<{ status: string; hold_reason: string | null }>(
      'SELECT status, hold_reason FROM devices WHERE id = $1',
      [deviceId],
    )
  )[0]!;

describe('product requests', () => {
  it('propose staged boxes of the model oldest first, enough to cover the quantity', async () => {
    const old = await stagedBox(t.db, places, 3, 10);
    const middle = await stagedBox(t.db, places, 3, 5);
    await stagedBox(t.db, places, 3, 1);
    const created = await dataOf<{ request: ProductRequest; proposal: RequestBox[] }>(
      places.manager.post('/product-requests', {
        model_id: places.catalogue.models.a15,
        qty: 5,
        target_grade: 'B',
        priority: 'high',
        due_date: '2026-12-01',
      }),
      201,
    );
    expect(created.request).toMatchObject({ status: 'submitted', qty: 5, priority: 'high' });
    expect(created.proposal.map((box) => box.id)).toEqual([old.id, middle.id]);

    const approved = await dataOf<ProductRequest>(
      places.manager.post(`/product-requests/${created.request.id}/approval`, {}),
    );
    expect(approved.status).toBe('approved');
    expect(approved.boxes.map((box) => box.id)).toEqual([old.id, middle.id]);
    expect(approved.progress.waiting).toBe(6);
    const [box] = await t.db.query<{ status: string }>(
      'SELECT status FROM warehouse_boxes WHERE id = $1',
      [old.id],
    );
    expect(box!.status).toBe('requested');

    // The same box in a second request: 409, nothing linked.
    const second = await dataOf<{ request: ProductRequest }>(
      places.manager.post('/product-requests', { model_id: places.catalogue.models.a15, qty: 1 }),
      201,
    );
    const refused = await places.manager.post(`/product-requests/${second.request.id}/approval`, {
      warehouse_box_ids: [old.id],
    });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toMatch(/not staged/);
    const cancelled = await dataOf<ProductRequest>(
      places.manager.post(`/product-requests/${second.request.id}/cancellation`, { reason: 'dup' }),
    );
    expect(cancelled.status).toBe('cancelled');
    expect(
      (await places.manager.post(`/product-requests/${second.request.id}/approval`, {})).statusCode,
    ).toBe(409);
  });

  it('hold a box in one active request at most, by the database itself', async () => {
    const box = await stagedBox(t.db, places, 1);
    const ids = await t.db.query<{ id: number }>(
      `INSERT INTO product_requests (model_id, qty) VALUES ($1, 1), ($1, 1) RETURNING id`,
      [places.catalogue.models.a15],
    );
    const link = (request: number) =>
      t.db.query(
        'INSERT INTO product_request_boxes (product_request_id, warehouse_box_id) VALUES ($1, $2)',
        [request, box.id],
      );
    await link(ids[0]!.id);
    await expect(link(ids[1]!.id)).rejects.toThrow(/product_request_boxes_active_box_key/);
  });

  it('check their input (422), the request (404) and the permission (403)', async () => {
    expect(
      await admin.fieldErrors('POST', '/product-requests', {
        model_id: places.catalogue.models.a15,
        qty: 0,
      }),
    ).toEqual({ qty: ['The quantity must be at least 1.'] });
    expect((await admin.post('/product-requests/99999/approval', {})).statusCode).toBe(404);
    expect((await places.workers[0]!.client.get('/product-requests')).statusCode).toBe(403);
    expect((await places.workers[0]!.client.get('/product-team/boxes')).statusCode).toBe(403);
    expect((await places.manager.get('/product-team/worker/queue')).statusCode).toBe(403);
  });

  it('cancelled, put their boxes not started back to staged', async () => {
    const box = await stagedBox(t.db, places, 2, 30);
    const { request } = await dataOf<{ request: ProductRequest }>(
      admin.post('/product-requests', { model_id: places.catalogue.models.a15, qty: 2 }),
      201,
    );
    await dataOf(
      admin.post(`/product-requests/${request.id}/approval`, { warehouse_box_ids: [box.id] }),
    );
    await dataOf(admin.post(`/product-requests/${request.id}/cancellation`, {}));
    const [row] = await t.db.query<{ status: string }>(
      'SELECT status FROM warehouse_boxes WHERE id = $1',
      [box.id],
    );
    expect(row!.status).toBe('staged');
  });
});

describe('the leader and the worker', () => {
  let boxId: number;
  let imeis: string[];
  let deviceIds: number[];

  beforeAll(async () => {
    ({ id: boxId, imeis } = await stagedBox(t.db, places, 5, 60));
    const { request } = await dataOf<{ request: ProductRequest }>(
      admin.post('/product-requests', { model_id: places.catalogue.models.a15, qty: 5 }),
      201,
    );
    await dataOf(
      admin.post(`/product-requests/${request.id}/approval`, { warehouse_box_ids: [boxId] }),
    );
  });

  it('hands N devices, then the rest, to workers: received → in production', async () => {
    const [one, two] = places.workers;
    const workers = await dataOf<{ id: number }[]>(places.leader.get('/product-team/workers'));
    expect(workers.map((worker) => worker.id)).toEqual(expect.arrayContaining([one!.id, two!.id]));
    const first = await dataOf<{ devices: number; device_ids: number[]; box: LeaderBox }>(
      places.leader.post('/product-team/assignments', {
        warehouse_box_id: boxId,
        worker_id: one!.id,
        qty: 4,
      }),
      201,
    );
    expect(first.devices).toBe(4);
    expect(first.box).toMatchObject({ waiting: 1, in_production: 4 });
    const rest = await dataOf<{ device_ids: number[] }>(
      places.leader.post('/product-team/assignments', {
        warehouse_box_id: boxId,
        worker_id: two!.id,
      }),
      201,
    );
    deviceIds = [...first.device_ids, ...rest.device_ids];
    expect((await statusOf(deviceIds[0]!)).status).toBe('in_production');
    const again = await places.leader.post('/product-team/assignments', {
      warehouse_box_id: boxId,
      worker_id: one!.id,
    });
    expect(again.statusCode).toBe(409);
    expect(
      await places.leader.fieldErrors('POST', '/product-team/assignments', {
        warehouse_box_id: boxId,
        worker_id: 1,
      }),
    ).toEqual({ worker_id: ['Choose an active user with the Production Worker role.'] });
    const [request] = await t.db.query<{ status: string }>(
      'SELECT r.status FROM product_requests r JOIN product_request_boxes l ON l.product_request_id = r.id WHERE l.warehouse_box_id = $1',
      [boxId],
    );
    expect(request!.status).toBe('in_progress');
    const [event] = await t.db.query<{ type: string }>(
      'SELECT type FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [deviceIds[0]],
    );
    expect(event!.type).toBe('production_started');
  });

  it("refuses a scan of another worker's device and of one not in production", async () => {
    const [one, two] = places.workers;
    const mine = await dataOf<WorkerScan>(
      one!.client.post('/product-team/worker/scans', { code: imeis[0] }),
    );
    expect(mine.result).toBe('ready');
    expect(mine.device.tac_model).toBe('Samsung Galaxy A15');
    const theirs = await two!.client.post('/product-team/worker/scans', { code: imeis[0] });
    expect(theirs.statusCode).toBe(409);
    expect(bodyOf(theirs).message).toMatch(/queue, not yours/);
    const other = await stagedBox(t.db, places, 1);
    const idle = await one!.client.post('/product-team/worker/scans', { code: other.imeis[0] });
    expect(idle.statusCode).toBe(409);
    expect(bodyOf(idle).message).toMatch(/not in production/);
    expect(
      (await one!.client.post('/product-team/worker/scans', { code: '000000000000000' }))
        .statusCode,
    ).toBe(404);
    const queue = await dataOf<unknown[]>(one!.client.get('/product-team/worker/queue'));
    expect(queue).toHaveLength(4);
  });

  it('grades with a wipe, FRP off and a clean blacklist; a repeat says graded already', async () => {
    const worker = places.workers[0]!.client;
    const base = {
      device_id: deviceIds[0],
      outcome: 'pass',
      items: ALL_PASS,
      frp_lock: false,
      battery_health: 91,
    };
    expect(await worker.fieldErrors('POST', '/product-team/worker/tests', base)).toEqual({
      wipe_method: ['Record the wipe before grading.'],
      wipe_certificate: ['Enter the wipe certificate id.'],
      grade: ['Choose the grade (A+ to D).'],
    });
    const full = { ...base, wipe_method: 'nist_800_88', wipe_certificate: 'CERT-1', grade: 'B' };
    const graded = await dataOf<TestOutcome>(worker.post('/product-team/worker/tests', full), 201);
    expect(graded.result).toBe('graded');
    expect(await statusOf(deviceIds[0]!)).toEqual({ status: 'graded', hold_reason: null });
    const repeat = await dataOf<TestOutcome>(worker.post('/product-team/worker/tests', full), 201);
    expect(repeat.result).toBe('already_graded');
    const scanned = await dataOf<WorkerScan>(
      worker.post('/product-team/worker/scans', { code: imeis[0] }),
    );
    expect(scanned.result).toBe('already_graded');
    const [test] = await t.db.query<{ result: string; grade: string }>(
      'SELECT result, grade FROM device_tests WHERE device_id = $1',
      [deviceIds[0]],
    );
    expect(test).toEqual({ result: 'pass', grade: 'B' });
  });

  it('fails QC with issue codes, holds on FRP and on a blacklist listing', async () => {
    const worker = places.workers[0]!.client;
    const failing = {
      device_id: deviceIds[1],
      outcome: 'fail',
      items: { ...ALL_PASS, screen: 'fail' },
      frp_lock: false,
      battery_health: 80,
    };
    expect(await worker.fieldErrors('POST', '/product-team/worker/tests', failing)).toEqual({
      issue_codes: ['Choose at least one issue code.'],
    });
    const failed = await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', { ...failing, issue_codes: ['LCD-CRACK'] }),
      201,
    );
    expect(failed.result).toBe('failed_qc');
    expect((await statusOf(deviceIds[1]!)).status).toBe('failed_qc');

    const locked = await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', {
        device_id: deviceIds[2],
        outcome: 'pass',
        items: ALL_PASS,
        frp_lock: true,
        battery_health: 88,
      }),
      201,
    );
    expect(locked.result).toBe('held');
    expect(await statusOf(deviceIds[2]!)).toEqual({ status: 'hold', hold_reason: 'frp' });

    await t.db.query(
      "INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'gsma', 'stolen')",
      [imeis[3]],
    );
    const listed = await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', {
        device_id: deviceIds[3],
        outcome: 'pass',
        items: ALL_PASS,
        frp_lock: false,
        battery_health: 95,
        wipe_method: 'factory_reset',
        wipe_certificate: 'C-2',
        grade: 'A',
      }),
      201,
    );
    expect(listed.result).toBe('held');
    expect(await statusOf(deviceIds[3]!)).toEqual({ status: 'hold', hold_reason: 'blacklist' });
  });

  it('reassigns devices in production, and only those', async () => {
    const [one, two] = places.workers;
    const moved = await dataOf<{ devices: number }>(
      places.leader.post('/product-team/reassignments', {
        device_ids: [deviceIds[4]],
        worker_id: one!.id,
      }),
    );
    expect(moved.devices).toBe(1);
    expect(
      (await one!.client.post('/product-team/worker/scans', { code: imeis[4] })).statusCode,
    ).toBe(200);
    const refused = await places.leader.post('/product-team/reassignments', {
      device_ids: [deviceIds[0]],
      worker_id: two!.id,
    });
    expect(refused.statusCode).toBe(409);
  });
});

describe('correcting a device', () => {
  it('changes the attributes given, with a reason, on the timeline and in the audit', async () => {
    const { imeis } = await stagedBox(t.db, places, 1);
    const found = await dataOf<CorrectableDevice>(
      places.leader.post('/device-corrections/lookup', { code: imeis[0] }),
    );
    expect(found).toMatchObject({ model: 'Samsung Galaxy A15', grade: null });
    const corrected = await dataOf<CorrectableDevice>(
      places.leader.post('/device-corrections', {
        device_id: found.id,
        model_id: places.catalogue.models.a14,
        color_id: places.catalogue.colors.blue,
        grade: 'C',
        reason: 'TAC of an A14 housing',
      }),
    );
    expect(corrected).toMatchObject({ model: 'Samsung Galaxy A14', color: 'Blue', grade: 'C' });
    const [event] = await t.db.query<{ type: string; data: { reason: string } }>(
      'SELECT type, data FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [found.id],
    );
    expect(event).toMatchObject({ type: 'corrected', data: { reason: 'TAC of an A14 housing' } });
    const [audit] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'device' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(found.id)],
    );
    expect(audit!.action).toBe('device.corrected');
    // Nothing changed, no reason: 422 on the fields.
    expect(
      await places.leader.fieldErrors('POST', '/device-corrections', {
        device_id: found.id,
        grade: 'C',
        reason: 'again',
      }),
    ).toEqual({ reason: ['Change at least one attribute before you save.'] });
    expect(
      await places.leader.fieldErrors('POST', '/device-corrections', {
        device_id: found.id,
        grade: 'B',
        reason: ' ',
      }),
    ).toEqual({ reason: ['Say why you correct the device.'] });
  });

  it('refuses a unit promised or gone to a customer (409), an unknown IMEI (404), a worker (403)', async () => {
    const { imeis } = await stagedBox(t.db, places, 1);
    await t.db.query("UPDATE devices SET status = 'reserved' WHERE imei = $1", [imeis[0]]);
    const found = await dataOf<CorrectableDevice>(
      places.manager.post('/device-corrections/lookup', { code: imeis[0] }),
    );
    const refused = await places.manager.post('/device-corrections', {
      device_id: found.id,
      grade: 'A',
      reason: 'regrade',
    });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toMatch(/is reserved/);
    expect(
      (await places.manager.post('/device-corrections/lookup', { code: '000000000000000' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await places.workers[0]!.client.post('/device-corrections/lookup', { code: imeis[0] }))
        .statusCode,
    ).toBe(403);
  });
});

describe('the product team overview', () => {
  it('counts boxes per open request, today’s tests and the grades', async () => {
    const overview = await dataOf<ProductionOverview>(places.manager.get('/product-team/overview'));
    expect(overview.today).toEqual({ graded: 1, failed: 1, held: 2 });
    expect(overview.grades).toEqual([{ grade: 'B', devices: 1 }]);
    const started = overview.requests.find((request) => request.status === 'in_progress');
    expect(started).toMatchObject({ boxes_waiting: 0, boxes_in_production: 1, boxes_done: 0 });
    expect((await places.leader.get('/product-team/overview')).statusCode).toBe(403);
  });
});
