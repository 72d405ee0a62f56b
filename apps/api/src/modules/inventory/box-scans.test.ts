import type {
  BoxScanAnswer,
  InventoryBoxCount,
  InventoryBoxRow,
  StationBox,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { boxOf, createBins, grade, place, receiveDevices } from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * The box scan station (DOMAIN.md 4.2 /inventory-box/scan-device) and the counts started from
 * the device boxes' list: every rule, every refusal and what each scan writes.
 */

let t: TestApp;
let admin: ApiClient;
let worker: ApiClient;
let manager: ApiClient;
let catalogue: Catalogue;
let imeis: string[];

const userWith = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 40));
  await grade(t, imeis.slice(0, 30), { grade: 'A', colorId: catalogue.colors.black });
  await grade(t, imeis.slice(30, 34), { grade: 'B', colorId: catalogue.colors.blue });
  worker = await userWith('cw', ['Consolidation Worker']);
  manager = await userWith('wm', ['Warehouse Manager']);
  await createBins(t, 'A', 6, { capacity: 4 });
});
afterAll(() => t.close());

/** A scan at the station that must answer 200. */
async function scan(
  client: ApiClient,
  mode: 'add' | 'remove' | 'move' | 'verify',
  code: string,
  box: string,
  from?: string,
): Promise<BoxScanAnswer> {
  const response = await client.post('/box-scans', {
    mode,
    code,
    box_code: box,
    station: 'bench-2',
    ...(from && { from_box_code: from }),
  });
  expect(response.statusCode, response.body).toBe(200);
  return bodyOf<BoxScanAnswer>(response).data;
}

const deviceRow = async (imei: string) =>
  (
    await t.db.query<{ status: string; box: string | null }>(
      `SELECT d.status, b.code AS box FROM devices d
       LEFT JOIN inventory_boxes b ON b.id = d.inventory_box_id WHERE d.imei = $1`,
      [imei],
    )
  )[0]!;

const qtyOf = async (code: string) =>
  (
    await t.db.query<{ qty: number; status: string }>(
      'SELECT qty, status FROM inventory_boxes WHERE code = $1',
      [code],
    )
  )[0]!;

const lastEvent = async (imei: string) =>
  (
    await t.db.query<{ type: string; from_status: string; to_status: string; container: string }>(
      `SELECT e.type, e.from_status, e.to_status, e.container FROM device_events e
       JOIN devices d ON d.id = e.device_id WHERE d.imei = $1 ORDER BY e.id DESC LIMIT 1`,
      [imei],
    )
  )[0];

/** A device in stock in no box: taken out of a box it was in. */
async function looseDevice(imei: string) {
  await t.db.query(
    `UPDATE devices SET status = 'in_stock', inventory_box_id = NULL, warehouse_box_id = NULL
     WHERE imei = $1`,
    [imei],
  );
}

describe('add', () => {
  it('puts a device in stock in no box into a box of its kind, as a named step', async () => {
    const box = await boxOf(t, imeis.slice(0, 2), { location: 'A-01' });
    await looseDevice(imeis[2]!);
    const added = await scan(worker, 'add', imeis[2]!, box.code);
    expect(added).toMatchObject({
      result: 'added',
      box: { code: box.code, qty: 3, status: 'located' },
      device: { identifier: imeis[2], box_code: box.code, status: 'in_stock' },
    });
    expect(added.message).toContain(`${box.code} holds 3 of 20`);
    expect(await deviceRow(imeis[2]!)).toEqual({ status: 'in_stock', box: box.code });
    expect(await lastEvent(imeis[2]!)).toEqual({
      type: 'added_to_box',
      from_status: 'in_stock',
      to_status: 'in_stock',
      container: box.code,
    });
    const [audit] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'device.added_to_box'",
    );
    expect(audit!.n).toBe(1);

    // The same scan again: done already, nothing written.
    const again = await scan(worker, 'add', imeis[2]!, box.code);
    expect(again.result).toBe('duplicate');
    expect(again.message).toContain('already');
    expect((await qtyOf(box.code)).qty).toBe(3);
  });

  it('refuses a device of another kind, saying how it differs', async () => {
    const box = await boxOf(t, imeis.slice(3, 4), { location: 'A-02' });
    await looseDevice(imeis[30]!);
    const refused = await scan(worker, 'add', imeis[30]!, box.code);
    expect(refused.result).toBe('mismatch');
    expect(refused.message).toContain('grade B, the box holds grade A');
    expect(refused.message).toContain('colour Blue, the box holds Black');
    expect(await deviceRow(imeis[30]!)).toEqual({ status: 'in_stock', box: null });
  });

  it('refuses a held device, one not in stock, one in another box, and a full box', async () => {
    const box = await boxOf(t, imeis.slice(4, 5), { status: 'open', maxQty: 2 });
    const other = await boxOf(t, imeis.slice(5, 6), { location: 'A-02' });
    await looseDevice(imeis[6]!);
    await t.db.query(
      `UPDATE devices SET status = 'hold', hold_reason = 'blacklist', status_before_hold = 'in_stock'
       WHERE imei = $1`,
      [imeis[6]],
    );
    const held = await scan(worker, 'add', imeis[6]!, box.code);
    expect(held.result).toBe('held');
    expect(held.message).toContain('on hold (blacklist)');

    // imeis[7] is graded: the consolidation station boxes it.
    const graded = await scan(worker, 'add', imeis[7]!, box.code);
    expect(graded.result).toBe('not_in_stock');
    expect(graded.message).toContain('consolidation station');
    // Received, never graded.
    const received = await scan(worker, 'add', imeis[36]!, box.code);
    expect(received.result).toBe('not_in_stock');

    const elsewhere = await scan(worker, 'add', imeis[5]!, box.code);
    expect(elsewhere.result).toBe('in_other_box');
    expect(elsewhere.message).toContain(other.code);

    await looseDevice(imeis[8]!);
    await looseDevice(imeis[9]!);
    expect((await scan(worker, 'add', imeis[8]!, box.code)).result).toBe('added');
    const full = await scan(worker, 'add', imeis[9]!, box.code);
    expect(full.result).toBe('box_full');
    expect(full.box.qty).toBe(2);

    const unknown = await scan(worker, 'add', '350000019999995', box.code);
    expect(unknown).toMatchObject({ result: 'not_found', device: null });
  });

  it('answers 404 for a box no box has, and checks its input (422) and guard (403)', async () => {
    expect(
      (await worker.post('/box-scans', { mode: 'add', code: imeis[9], box_code: 'IB-999999' }))
        .statusCode,
    ).toBe(404);
    expect(await worker.fieldErrors('POST', '/box-scans', { code: imeis[9] })).toMatchObject({
      mode: expect.any(Array),
      box_code: expect.any(Array),
    });
    expect(
      await worker.fieldErrors('POST', '/box-scans', {
        mode: 'move',
        code: imeis[9],
        box_code: 'IB-000001',
      }),
    ).toHaveProperty('from_box_code');
    expect(
      await worker.fieldErrors('POST', '/box-scans', {
        mode: 'move',
        code: imeis[9],
        box_code: 'IB-000001',
        from_box_code: 'ib-000001',
      }),
    ).toHaveProperty('from_box_code');
    const clerk = await userWith('clerk', ['Warehouse Sorting']);
    expect(
      (await clerk.post('/box-scans', { mode: 'add', code: imeis[9], box_code: 'IB-000001' }))
        .statusCode,
    ).toBe(403);
    expect((await clerk.post('/box-scans/boxes', { box_code: 'IB-000001' })).statusCode).toBe(403);
  });

  it('refuses a sealed box until someone with box.reopen reopens it at the station', async () => {
    const box = await boxOf(t, imeis.slice(10, 11), { status: 'sealed' });
    await looseDevice(imeis[11]!);
    const refused = await worker.post('/box-scans', {
      mode: 'add',
      code: imeis[11],
      box_code: box.code,
    });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('box.reopen');
    // The consolidation worker scans but does not reopen; the warehouse manager does both.
    expect((await worker.post('/box-scans/reopenings', { box_code: box.code })).statusCode).toBe(
      403,
    );
    const reopened = await manager.post('/box-scans/reopenings', { box_code: box.code });
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(bodyOf<StationBox>(reopened).data).toMatchObject({
      box: { status: 'open', qty: 1 },
      devices: [{ identifier: imeis[10] }],
      count: null,
    });
    expect((await scan(manager, 'add', imeis[11]!, box.code)).result).toBe('added');
    expect(
      (await manager.post('/box-scans/reopenings', { box_code: 'IB-999999' })).statusCode,
    ).toBe(404);
  });

  it('reads a box for the station by its code, with what it holds', async () => {
    const box = await boxOf(t, imeis.slice(12, 14), { location: 'A-03' });
    const read = await worker.post('/box-scans/boxes', { box_code: box.code.toLowerCase() });
    expect(read.statusCode, read.body).toBe(200);
    const station = bodyOf<StationBox>(read).data;
    expect(station.box).toMatchObject({ code: box.code, qty: 2, location_code: 'A-03' });
    expect(station.devices.map((device) => device.identifier)).toEqual(imeis.slice(12, 14).sort());
    expect((await worker.post('/box-scans/boxes', { box_code: 'IB-999999' })).statusCode).toBe(404);
  });
});

describe('remove', () => {
  it('takes a device out of its box, once', async () => {
    const box = await boxOf(t, imeis.slice(14, 17), { location: 'A-04' });
    const removed = await scan(worker, 'remove', imeis[14]!, box.code);
    expect(removed).toMatchObject({
      result: 'removed',
      box: { qty: 2 },
      device: { box_code: null, status: 'in_stock' },
    });
    expect(await deviceRow(imeis[14]!)).toEqual({ status: 'in_stock', box: null });
    expect(await lastEvent(imeis[14]!)).toMatchObject({ type: 'removed_from_box' });

    const again = await scan(worker, 'remove', imeis[14]!, box.code);
    expect(again.result).toBe('duplicate');
    expect(again.message).toContain('already');
    expect((await qtyOf(box.code)).qty).toBe(2);

    const other = await boxOf(t, imeis.slice(17, 18), { location: 'A-04' });
    const notHere = await scan(worker, 'remove', imeis[17]!, box.code);
    expect(notHere.result).toBe('not_in_box');
    expect(notHere.message).toContain(other.code);
  });

  it('keeps a reserved device in its box', async () => {
    const box = await boxOf(t, imeis.slice(18, 19), { location: 'A-05' });
    await t.db.query("UPDATE devices SET status = 'reserved' WHERE imei = $1", [imeis[18]]);
    const refused = await scan(worker, 'remove', imeis[18]!, box.code);
    expect(refused.result).toBe('reserved');
    expect(await deviceRow(imeis[18]!)).toEqual({ status: 'reserved', box: box.code });
  });
});

describe('move', () => {
  it('moves a device from one box to another of its kind, counting both again', async () => {
    const from = await boxOf(t, imeis.slice(19, 22), { location: 'A-05' });
    const into = await boxOf(t, imeis.slice(22, 23), { location: 'A-06' });
    const moved = await scan(worker, 'move', imeis[19]!, into.code, from.code);
    expect(moved).toMatchObject({
      result: 'moved',
      box: { code: into.code, qty: 2 },
      from_box: { code: from.code, qty: 2 },
    });
    expect(await lastEvent(imeis[19]!)).toMatchObject({
      type: 'moved_between_boxes',
      container: into.code,
    });
    expect((await scan(worker, 'move', imeis[19]!, into.code, from.code)).result).toBe('duplicate');
    // A device that is not in the box to take from.
    const stray = await scan(worker, 'move', imeis[0]!, into.code, from.code);
    expect(stray.result).toBe('not_in_box');
    expect(stray.message).toContain(`not ${from.code}`);
  });

  it('refuses a device of another kind for the box it goes into', async () => {
    const from = await boxOf(t, imeis.slice(31, 32), { location: 'A-06' });
    const into = await boxOf(t, imeis.slice(23, 24), { location: 'A-06' });
    const refused = await scan(worker, 'move', imeis[31]!, into.code, from.code);
    expect(refused.result).toBe('mismatch');
    expect(refused.message).toContain('grade B, the box holds grade A');
  });

  it('moves a reserved device only to a box of the same kind', async () => {
    const from = await boxOf(t, imeis.slice(24, 26), { location: 'A-03' });
    const twin = await boxOf(t, imeis.slice(26, 27), { location: 'A-03' });
    await t.db.query("UPDATE devices SET status = 'reserved' WHERE imei = $1", [imeis[24]]);
    const moved = await scan(worker, 'move', imeis[24]!, twin.code, from.code);
    expect(moved.result).toBe('moved');
    expect(await deviceRow(imeis[24]!)).toEqual({ status: 'reserved', box: twin.code });

    // A box of another lock: the device itself would not match it either, but the reservation
    // is refused first, saying why.
    const other = await boxOf(t, imeis.slice(27, 28), { location: 'A-02' });
    await t.db.query("UPDATE inventory_boxes SET carrier_lock = 'T-Mobile' WHERE code = $1", [
      other.code,
    ]);
    await t.db.query("UPDATE devices SET status = 'reserved' WHERE imei = $1", [imeis[25]]);
    const refused = await scan(worker, 'move', imeis[25]!, other.code, from.code);
    expect(refused.result).toBe('reserved');
    expect(refused.message).toContain(`only to a box like ${from.code}`);
    expect(refused.message).toContain('lock unknown, the box holds T-Mobile');
    expect(await deviceRow(imeis[25]!)).toEqual({ status: 'reserved', box: from.code });
  });
});

describe('counts', () => {
  let box: { id: number; code: string };

  beforeAll(async () => {
    await grade(t, imeis.slice(34, 40), { grade: 'C', colorId: catalogue.colors.black });
    box = await boxOf(t, imeis.slice(34, 38), { location: 'A-01' });
    await boxOf(t, imeis.slice(38, 39), { location: 'A-01' });
  });

  it('starts from the list on a sealed or located box, locking it; one at a time', async () => {
    const started = await manager.post(`/inventory-boxes/${box.id}/counts`);
    expect(started.statusCode, started.body).toBe(201);
    expect(bodyOf<InventoryBoxCount>(started).data).toMatchObject({
      box_code: box.code,
      expected: 4,
      counted: [],
      missing: [...imeis.slice(34, 38)].sort(),
      finished_at: null,
    });
    expect((await qtyOf(box.code)).status).toBe('locked');
    const row = bodyOf<InventoryBoxRow>(await manager.get(`/inventory-boxes/${box.id}`)).data;
    expect(row).toMatchObject({ status: 'locked', count_id: expect.any(Number) });

    const twice = await manager.post(`/inventory-boxes/${box.id}/counts`);
    expect(twice.statusCode).toBe(409);
    expect(bodyOf(twice).message).toContain('runs already');
    const open = await boxOf(t, imeis.slice(39, 40), { status: 'open' });
    const refused = await manager.post(`/inventory-boxes/${open.id}/counts`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('seal it before counting');
    expect((await manager.post('/inventory-boxes/999999/counts')).statusCode).toBe(404);
    // Reading the list is not counting: the sales reader cannot start one.
    const reader = await userWith('sales', ['Sales / Account Manager']);
    expect((await reader.post(`/inventory-boxes/${box.id}/counts`)).statusCode).toBe(403);
  });

  it('locks the box against every change but the verify scans of its count', async () => {
    await looseDevice(imeis[29]!);
    await grade(t, [imeis[29]!], { grade: 'C', colorId: catalogue.colors.black });
    await t.db.query("UPDATE devices SET status = 'in_stock' WHERE imei = $1", [imeis[29]]);
    for (const [mode, code] of [
      ['add', imeis[29]],
      ['remove', imeis[34]],
    ] as const) {
      const refused = await worker.post('/box-scans', { mode, code, box_code: box.code });
      expect(refused.statusCode).toBe(409);
      expect(bodyOf(refused).message).toContain('locked by a count');
    }
    const other = await t.db.query<{ code: string }>(
      'SELECT b.code FROM inventory_boxes b JOIN devices d ON d.inventory_box_id = b.id WHERE d.imei = $1',
      [imeis[38]],
    );
    const moveOut = await worker.post('/box-scans', {
      mode: 'move',
      code: imeis[34],
      box_code: other[0]!.code,
      from_box_code: box.code,
    });
    expect(moveOut.statusCode).toBe(409);
    // Putaway, reopening and consolidation refuse it too.
    const putaway = await admin.post('/putaway', { box_code: box.code, location_code: 'A-02' });
    expect(putaway.statusCode).toBe(409);
    expect((await manager.post('/box-scans/reopenings', { box_code: box.code })).statusCode).toBe(
      409,
    );
    await t.db.query("UPDATE devices SET status = 'graded' WHERE imei = $1", [imeis[29]]);
    const placed = await place(admin, imeis[29]!, box.code);
    expect(placed.result).toBe('box_closed');
    expect(placed.message).toContain('locked by a count');
  });

  it('verifies: counts each device once, names extra ones, and finishes with what is missing', async () => {
    const counted = await scan(worker, 'verify', imeis[34]!, box.code);
    expect(counted.result).toBe('counted');
    expect(counted.message).toContain('1 of 4');
    expect(counted.count).toMatchObject({ counted: [imeis[34]], expected: 4 });
    expect((await scan(worker, 'verify', imeis[35]!, box.code)).result).toBe('counted');
    const again = await scan(worker, 'verify', imeis[34]!, box.code);
    expect(again.result).toBe('duplicate');
    expect(again.message).toContain('counted already');

    const extra = await scan(worker, 'verify', imeis[38]!, box.code);
    expect(extra.result).toBe('extra');
    expect(extra.count!.extra).toEqual([
      { identifier: imeis[38], box_code: expect.stringMatching(/^IB-/) },
    ]);
    expect((await scan(worker, 'verify', imeis[38]!, box.code)).result).toBe('duplicate');
    expect((await scan(worker, 'verify', '350000019999995', box.code)).result).toBe('not_found');
    // Scanning changed nothing in the box.
    expect(await deviceRow(imeis[38]!)).not.toEqual({ status: 'in_stock', box: box.code });
    expect(extra.count!.missing).toEqual([...imeis.slice(36, 38)].sort());

    const countId = extra.count!.id;
    const finished = await worker.post(`/inventory-box-counts/${countId}/finish`);
    expect(finished.statusCode, finished.body).toBe(200);
    const report = bodyOf<StationBox>(finished).data;
    expect(report.box).toMatchObject({ status: 'located', qty: 4 });
    expect(report.count).toMatchObject({
      counted: [imeis[35], imeis[34]],
      missing: [...imeis.slice(36, 38)].sort(),
      extra: [{ identifier: imeis[38] }],
      finished_at: expect.any(String),
    });
    const [audit] = await t.db.query<{ after: { missing: string[] } }>(
      "SELECT after FROM audit_events WHERE action = 'inventory_box.count_finished'",
    );
    expect(audit!.after.missing).toHaveLength(2);
    const [scans] = await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE action = 'inventory_box.count_scanned'",
    );
    expect(scans!.n).toBe(3);

    // Finished: the box takes changes again, and no count runs to verify.
    const finishedAgain = await worker.post(`/inventory-box-counts/${countId}/finish`);
    expect(finishedAgain.statusCode).toBe(409);
    const verify = await worker.post('/box-scans', {
      mode: 'verify',
      code: imeis[34],
      box_code: box.code,
    });
    expect(verify.statusCode).toBe(409);
    expect(bodyOf(verify).message).toContain('No count runs');
    expect((await worker.post('/inventory-box-counts/999999/finish')).statusCode).toBe(404);
    expect((await scan(worker, 'remove', imeis[37]!, box.code)).result).toBe('removed');
  });

  it('can be started at the station by whoever verifies', async () => {
    const started = await worker.post(`/inventory-boxes/${box.id}/counts`);
    expect(started.statusCode, started.body).toBe(201);
    const station = bodyOf<StationBox>(
      await worker.post('/box-scans/boxes', { box_code: box.code }),
    ).data;
    expect(station.count).toMatchObject({ expected: 3, counted: [] });
    await worker.post(`/inventory-box-counts/${station.count!.id}/finish`);
  });
});
