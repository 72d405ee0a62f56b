import type {
  Failure,
  LeaderBox,
  ProductionBoxDevice,
  ProductRequest,
  TestOutcome,
  WorkerScan,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import {
  ALL_PASS,
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import type { TestApp } from '../../test/test-app.js';

/** The leader's review: reassigning a box or devices, the failures, re-grades. */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
});
afterAll(() => t.close());

/** A staged box of `count` devices in an approved request; answers the box, its IMEIs, the request. */
async function approvedBox(count: number) {
  const box = await stagedBox(t.db, places, count);
  const { request } = await dataOf<{ request: ProductRequest }>(
    admin.post('/product-requests', { model_id: places.catalogue.models.a15, qty: count }),
    201,
  );
  await dataOf(
    admin.post(`/product-requests/${request.id}/approval`, { warehouse_box_ids: [box.id] }),
  );
  return { ...box, requestId: request.id };
}

const assign = (boxId: number, workerId: number, qty?: number) =>
  dataOf<{ device_ids: number[] }>(
    places.leader.post('/product-team/assignments', {
      warehouse_box_id: boxId,
      worker_id: workerId,
      ...(qty && { qty }),
    }),
    201,
  );

const workerOf = async (deviceId: number) =>
  (
    await t.db.query<{ worker_id: number }>(
      'SELECT worker_id FROM production_assignments WHERE device_id = $1',
      [deviceId],
    )
  )[0]!.worker_id;

describe('reassigning', () => {
  it('moves a box’s devices of one worker to another, each on its timeline', async () => {
    const [one, two] = places.workers;
    const box = await approvedBox(4);
    const mine = await assign(box.id, one!.id, 3);
    const theirs = await assign(box.id, two!.id);
    const listed = await dataOf<ProductionBoxDevice[]>(
      places.leader.get(`/product-team/boxes/${box.id}/devices`),
    );
    expect(listed).toHaveLength(4);
    expect(listed.filter((device) => device.worker_id === one!.id)).toHaveLength(3);

    const moved = await dataOf<{ devices: number }>(
      places.leader.post('/product-team/reassignments', {
        warehouse_box_id: box.id,
        from_worker_id: one!.id,
        worker_id: two!.id,
      }),
    );
    expect(moved.devices).toBe(3);
    for (const id of [...mine.device_ids, ...theirs.device_ids]) {
      expect(await workerOf(id)).toBe(two!.id);
    }
    const [event] = await t.db.query<{ type: string; data: Record<string, unknown> }>(
      'SELECT type, data FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [mine.device_ids[0]],
    );
    expect(event).toMatchObject({
      type: 'reassigned',
      data: { worker_id: two!.id, worker: 'Name of worker2', from_worker: 'Name of worker1' },
    });
    const boxes = await dataOf<LeaderBox[]>(places.leader.get('/product-team/boxes'));
    expect(boxes.find((row) => row.id === box.id)!.workers).toEqual([
      { worker_id: two!.id, name: expect.any(String), devices: 4 },
    ]);

    // Nothing of the first worker's is left in the box: 409; named devices moved back: 200.
    expect(
      await refusalOf(
        places.leader.post('/product-team/reassignments', {
          warehouse_box_id: box.id,
          from_worker_id: one!.id,
          worker_id: two!.id,
        }),
        409,
      ),
    ).toMatch(/has no device in production with that worker/);
    await dataOf(
      places.leader.post('/product-team/reassignments', {
        device_ids: [mine.device_ids[0]],
        from_worker_id: two!.id,
        worker_id: one!.id,
      }),
    );
    expect(await workerOf(mine.device_ids[0]!)).toBe(one!.id);
    // The same devices, said to be with a worker who no longer has them: 409, nothing moves.
    expect(
      await refusalOf(
        places.leader.post('/product-team/reassignments', {
          device_ids: [mine.device_ids[0], mine.device_ids[1]],
          from_worker_id: two!.id,
          worker_id: one!.id,
        }),
        409,
      ),
    ).toMatch(/^1 of the devices are not in production with that worker/);
    expect(await workerOf(mine.device_ids[1]!)).toBe(two!.id);
  });

  it('checks the input (422), the box (404) and the caller (403)', async () => {
    const [one, two] = places.workers;
    expect(
      await places.leader.fieldErrors('POST', '/product-team/reassignments', {
        worker_id: one!.id,
      }),
    ).toEqual({ device_ids: ['Choose the devices to reassign, or a box.'] });
    expect(
      await places.leader.fieldErrors('POST', '/product-team/reassignments', {
        warehouse_box_id: 1,
        from_worker_id: one!.id,
        worker_id: one!.id,
      }),
    ).toEqual({ worker_id: ['Choose another worker than the one who has them.'] });
    await refusalOf(
      places.leader.post('/product-team/reassignments', {
        warehouse_box_id: 999_999,
        worker_id: two!.id,
      }),
      404,
    );
    await refusalOf(places.leader.get('/product-team/boxes/999999/devices'), 404);
    await refusalOf(one!.client.get('/product-team/failures'), 403);
    await refusalOf(one!.client.post('/product-team/regrades', { code: '1', reason: 'x' }), 403);
  });
});

describe('failures and re-grades', () => {
  let box: Awaited<ReturnType<typeof approvedBox>>;
  let ids: number[];

  beforeAll(async () => {
    box = await approvedBox(3);
    ids = (await assign(box.id, places.workers[0]!.id)).device_ids;
    const worker = places.workers[0]!.client;
    await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', {
        device_id: ids[0],
        outcome: 'fail',
        items: { ...ALL_PASS, screen: 'fail' },
        frp_lock: false,
        battery_health: 77,
        issue_codes: ['LCD-CRACK', 'TOUCH-FAIL'],
        cosmetic_notes: 'Corner crack',
      }),
      201,
    );
    await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', {
        device_id: ids[1],
        outcome: 'pass',
        items: ALL_PASS,
        frp_lock: false,
        battery_health: 90,
        wipe_method: 'factory_reset',
        wipe_certificate: 'W-1',
        grade: 'B',
      }),
      201,
    );
  });

  it('lists the devices failed in open requests with their issue codes', async () => {
    const failures = await dataOf<Failure[]>(places.leader.get('/product-team/failures'));
    const failure = failures.find((row) => row.device_id === ids[0]);
    expect(failure).toMatchObject({
      identifier: box.imeis[0],
      model: 'Samsung Galaxy A15',
      issue_codes: ['LCD-CRACK', 'TOUCH-FAIL'],
      battery_health: 77,
      cosmetic_notes: 'Corner crack',
      worker_id: places.workers[0]!.id,
    });
    expect(failures.some((row) => row.device_id === ids[1])).toBe(false);
  });

  it('sends a failed device back to its worker with a reason, on the timeline', async () => {
    const [one] = places.workers;
    expect(
      await places.leader.fieldErrors('POST', '/product-team/regrades', { code: box.imeis[0] }),
    ).toEqual({ reason: ['Say why you send back for a re-grade.'] });
    const sent = await dataOf<{ worker: string; message: string }>(
      places.leader.post('/product-team/regrades', {
        code: box.imeis[0],
        reason: 'The crack is the screen protector',
      }),
    );
    expect(sent.message).toMatch(/is back in .*'s queue for a re-grade\./);
    const [device] = await t.db.query<{ status: string }>(
      'SELECT status FROM devices WHERE id = $1',
      [ids[0]],
    );
    expect(device!.status).toBe('in_production');
    const [event] = await t.db.query<{ type: string; from_status: string; data: object }>(
      'SELECT type, from_status, data FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT 1',
      [ids[0]],
    );
    expect(event).toMatchObject({
      type: 'regrade_requested',
      from_status: 'failed_qc',
      data: {
        reason: 'The crack is the screen protector',
        previous_grade: 'F',
        worker_id: one!.id,
      },
    });
    const [audit] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'device' AND entity_id = $1 ORDER BY id DESC LIMIT 1",
      [String(ids[0])],
    );
    expect(audit!.action).toBe('device.regrade_requested');
    const scan = await dataOf<WorkerScan>(
      one!.client.post('/product-team/worker/scans', { code: box.imeis[0] }),
    );
    expect(scan.result).toBe('ready');
    const failures = await dataOf<Failure[]>(places.leader.get('/product-team/failures'));
    expect(failures.some((row) => row.device_id === ids[0])).toBe(false);
    // Sent already: it is in production now.
    expect(
      await refusalOf(
        places.leader.post('/product-team/regrades', { code: box.imeis[0], reason: 'again' }),
        409,
      ),
    ).toMatch(/in production cannot send back for a re-grade/);
  });

  it('sends a graded device to another worker’s queue', async () => {
    const [, two] = places.workers;
    await dataOf(
      places.leader.post('/product-team/regrades', {
        code: box.imeis[1],
        worker_id: two!.id,
        reason: 'Customer complaint on B units',
      }),
    );
    expect(await workerOf(ids[1]!)).toBe(two!.id);
    const queue = await dataOf<{ id: number }[]>(two!.client.get('/product-team/worker/queue'));
    expect(queue.map((device) => device.id)).toContain(ids[1]);
  });

  it('refuses an unknown IMEI (404), an untested device and a closed request (409), a non-worker (422)', async () => {
    await refusalOf(
      places.leader.post('/product-team/regrades', { code: '000000000000000', reason: 'x' }),
      404,
    );
    expect(
      await refusalOf(
        places.leader.post('/product-team/regrades', { code: box.imeis[2], reason: 'x' }),
        409,
      ),
    ).toMatch(/in production cannot send back/);
    const idle = await stagedBox(t.db, places, 1);
    await t.db.query("UPDATE devices SET status = 'graded' WHERE imei = $1", [idle.imeis[0]]);
    expect(
      await refusalOf(
        places.leader.post('/product-team/regrades', { code: idle.imeis[0], reason: 'x' }),
        409,
      ),
    ).toMatch(/was not tested in production/);
    const closed = await approvedBox(1);
    const [device] = (await assign(closed.id, places.workers[0]!.id)).device_ids;
    await t.db.query("UPDATE devices SET status = 'graded' WHERE id = $1", [device]);
    expect(
      await places.leader.fieldErrors('POST', '/product-team/regrades', {
        code: closed.imeis[0],
        worker_id: 1,
        reason: 'x',
      }),
    ).toEqual({ worker_id: ['Choose an active user with the Production Worker role.'] });
    await dataOf(admin.post(`/product-requests/${closed.requestId}/completion`, {}));
    expect(
      await refusalOf(
        places.leader.post('/product-team/regrades', { code: closed.imeis[0], reason: 'x' }),
        409,
      ),
    ).toMatch(/which is completed: a re-grade needs its request open/);
  });
});
