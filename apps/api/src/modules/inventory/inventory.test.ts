import type { InventoryBox, PutawaySuggestion } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import {
  consolidationScan,
  createBins,
  grade,
  place,
  receiveDevices,
} from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let admin: ApiClient;
let worker: ApiClient;
let catalogue: Catalogue;
let imeis: string[];

const userWith = async (userName: string, roles: string[]) => {
  await createUser(t.db, { userName, password: `${userName}-password-1`, roles });
  return apiClient(t, await login(t.app, userName, `${userName}-password-1`));
};

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 30));
  worker = await userWith('cw', ['Consolidation Worker']);
  await createBins(t, 'A', 3, { capacity: 2 });
  await createBins(t, 'B', 2, { capacity: 1 });
  await createBins(t, 'Q', 2, { quarantine: true });
});
afterAll(() => t.close());

const deviceRow = async (imei: string) =>
  (
    await t.db.query<{
      status: string;
      inventory_box_id: number | null;
      warehouse_box_id: number | null;
    }>('SELECT status, inventory_box_id, warehouse_box_id FROM devices WHERE imei = $1', [imei])
  )[0]!;

describe('consolidation', () => {
  it('names a new box for the first device, and the open box for the next of its kind', async () => {
    await grade(t, imeis.slice(0, 4), { grade: 'A', colorId: catalogue.colors.black });
    const first = await consolidationScan(worker, imeis[0]!);
    expect(first.result).toBe('box_named');
    expect(first.box!.code).toMatch(/^IB-\d{6}$/);
    expect(first.box).toMatchObject({ status: 'open', qty: 0, grade: 'A', capacity_gb: 128 });
    // Nothing moved yet: the box is only named.
    expect((await deviceRow(imeis[0]!)).status).toBe('graded');

    const added = await place(worker, imeis[0]!, first.box!.code);
    expect(added.result).toBe('added');
    expect(added.box!.qty).toBe(1);
    expect(await deviceRow(imeis[0]!)).toMatchObject({
      status: 'in_stock',
      inventory_box_id: first.box!.id,
      warehouse_box_id: null,
    });
    const second = await consolidationScan(worker, imeis[1]!);
    expect(second.box!.id).toBe(first.box!.id);

    // The device's timeline and the audit log have the step, with the box.
    const [event] = await t.db.query<{ type: string; container: string }>(
      `SELECT e.type, e.container FROM device_events e JOIN devices d ON d.id = e.device_id
       WHERE d.imei = $1 ORDER BY e.id DESC LIMIT 1`,
      [imeis[0]],
    );
    expect(event).toEqual({ type: 'consolidated', container: first.box!.code });
    const [audit] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_events WHERE action = 'device.consolidated'`,
    );
    expect(audit!.n).toBe(1);
    const [opened] = await t.db.query<{ entity_id: string }>(
      `SELECT entity_id FROM audit_events WHERE action = 'inventory_box.opened'`,
    );
    expect(opened!.entity_id).toBe(String(first.box!.id));
  });

  it('says a repeated scan was done already', async () => {
    const box = (await consolidationScan(worker, imeis[0]!)).box!;
    expect((await consolidationScan(worker, imeis[0]!)).result).toBe('already_in_box');
    const again = await place(worker, imeis[0]!, box.code);
    expect(again.result).toBe('already_in_box');
    expect(again.box!.qty).toBe(1);
  });

  it('refuses a unit that does not match the box, saying how', async () => {
    await grade(t, imeis.slice(4, 5), { grade: 'B', colorId: catalogue.colors.blue });
    const box = (await consolidationScan(worker, imeis[1]!)).box!;
    const refused = await place(worker, imeis[4]!, box.code);
    expect(refused.result).toBe('mismatch');
    expect(refused.message).toContain('grade B, the box holds grade A');
    expect(refused.message).toContain('colour Blue, the box holds Black');
    expect((await deviceRow(imeis[4]!)).status).toBe('graded');
    // Its own scan names another box.
    const own = await consolidationScan(worker, imeis[4]!);
    expect(own.box!.id).not.toBe(box.id);
  });

  it('refuses a held device and one not graded', async () => {
    await t.db.query(
      `UPDATE devices SET status = 'hold', hold_reason = 'blacklist', status_before_hold = 'graded',
         grade = 'A', color_id = $2, capacity_gb = 128 WHERE imei = $1`,
      [imeis[5], catalogue.colors.black],
    );
    const box = (await consolidationScan(worker, imeis[1]!)).box!;
    const held = await consolidationScan(worker, imeis[5]!);
    expect(held.result).toBe('held');
    expect(held.message).toContain('on hold (blacklist)');
    expect((await place(worker, imeis[5]!, box.code)).result).toBe('held');
    const received = await place(worker, imeis[6]!, box.code);
    expect(received.result).toBe('not_ready');
    expect(received.message).toContain('is received');
    expect((await consolidationScan(worker, '350000019999995')).result).toBe('not_found');
    expect((await place(worker, imeis[1]!, 'IB-999999')).result).toBe('not_found');
  });

  it('fills a box to its limit, then asks for a seal', async () => {
    const box = (await consolidationScan(worker, imeis[1]!)).box!;
    const set = await worker.put(`/inventory-boxes/${box.id}/max-qty`, { max_qty: 3 });
    expect(set.statusCode, set.body).toBe(200);
    expect(
      (await worker.put(`/inventory-boxes/${box.id}/max-qty`, { max_qty: 0 })).statusCode,
    ).toBe(422);
    expect((await place(worker, imeis[1]!, box.code)).box!.qty).toBe(2);
    const full = await place(worker, imeis[2]!, box.code);
    expect(full.box!.qty).toBe(3);
    expect(full.message).toContain('is full, seal it');
    expect((await place(worker, imeis[3]!, box.code)).result).toBe('box_full');
    // The next device of its kind is named a new box.
    const next = await consolidationScan(worker, imeis[3]!);
    expect(next.box!.id).not.toBe(box.id);
    // A limit below what it holds is a 409.
    expect(
      (await worker.put(`/inventory-boxes/${box.id}/max-qty`, { max_qty: 2 })).statusCode,
    ).toBe(409);

    const sealed = await worker.post(`/inventory-boxes/${box.id}/seal`);
    expect(sealed.statusCode, sealed.body).toBe(200);
    expect(bodyOf<InventoryBox>(sealed).data).toMatchObject({ status: 'sealed', qty: 3 });
    // Sealing again answers it as it is; a sealed box takes no device.
    expect((await worker.post(`/inventory-boxes/${box.id}/seal`)).statusCode).toBe(200);
    expect((await place(worker, imeis[3]!, box.code)).result).toBe('box_closed');
    const label = await worker.download(`/inventory-boxes/${box.id}/label`, {
      format: 'zpl',
      size: '2x1',
    });
    expect(label.statusCode).toBe(200);
    expect(label.body).toContain(box.code);
  });

  it('refuses to seal an empty box (409) and answers 404 for no box', async () => {
    const empty = (await consolidationScan(worker, imeis[3]!)).box!;
    expect(empty.qty).toBe(0);
    const refused = await worker.post(`/inventory-boxes/${empty.id}/seal`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('is empty');
    expect((await worker.post('/inventory-boxes/999999/seal')).statusCode).toBe(404);
    expect((await worker.post('/inventory-boxes/999999/label', { format: 'pdf' })).statusCode).toBe(
      404,
    );
  });

  it('checks its input (422) and its guard (403)', async () => {
    expect(
      await worker.fieldErrors('POST', '/consolidation/placements', { code: imeis[0] }),
    ).toHaveProperty('box_code');
    const clerk = await userWith('clerk', ['Warehouse Sorting']);
    expect((await clerk.post('/consolidation/scans', { code: imeis[0] })).statusCode).toBe(403);
    // The dock clerk puts boxes away (location.assignment); someone without it does not.
    expect((await clerk.get('/putaway/queue')).statusCode).toBe(200);
    const reader = await userWith('reader', []);
    expect((await reader.get('/putaway/queue')).statusCode).toBe(403);
    expect((await reader.post('/inventory-boxes/1/seal')).statusCode).toBe(403);
  });
});

describe('putaway', () => {
  let sealed: InventoryBox;

  beforeAll(async () => {
    sealed = bodyOf<InventoryBox[]>(await admin.get('/putaway/queue')).data[0]!;
  });

  it('queues the sealed boxes without a location', async () => {
    const queue = bodyOf<InventoryBox[]>(await admin.get('/putaway/queue')).data;
    expect(queue.map((box) => box.status)).toEqual(['sealed']);
  });

  it('suggests the nearest empty bin, then puts the box there', async () => {
    const response = await admin.post('/putaway/suggestions', { box_code: sealed.code });
    expect(response.statusCode, response.body).toBe(200);
    const suggestion = bodyOf<PutawaySuggestion>(response).data;
    expect(suggestion.location?.code).toBe('A-01');

    const refusedInactive = async () => {
      await t.db.query("UPDATE locations SET active = false WHERE code = 'B-02'");
      return admin.post('/putaway', { box_code: sealed.code, location_code: 'B-02' });
    };
    const inactive = await refusedInactive();
    expect(inactive.statusCode).toBe(409);
    expect(bodyOf(inactive).message).toContain('not active');
    const quarantine = await admin.post('/putaway', {
      box_code: sealed.code,
      location_code: 'Q-01',
    });
    expect(quarantine.statusCode).toBe(409);
    expect(bodyOf(quarantine).message).toContain('quarantine');
    expect(
      (await admin.post('/putaway', { box_code: sealed.code, location_code: 'Z-99' })).statusCode,
    ).toBe(404);
    expect(
      (await admin.post('/putaway', { box_code: 'IB-999999', location_code: 'A-01' })).statusCode,
    ).toBe(404);

    const put = await admin.post('/putaway', { box_code: sealed.code, location_code: 'B-01' });
    expect(put.statusCode, put.body).toBe(200);
    expect(bodyOf<{ box: InventoryBox; already: boolean }>(put).data).toMatchObject({
      already: false,
      box: { status: 'located', location_code: 'B-01' },
    });
    const again = await admin.post('/putaway', { box_code: sealed.code, location_code: 'B-01' });
    expect(bodyOf<{ already: boolean }>(again).data.already).toBe(true);
    const elsewhere = await admin.post('/putaway', {
      box_code: sealed.code,
      location_code: 'A-02',
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(bodyOf(elsewhere).message).toContain('in B-01');

    // The location now holds it: it cannot be deactivated.
    const [holds] = await t.db.query<{ n: number }>(
      "SELECT location_holds(id) AS n FROM locations WHERE code = 'B'",
    );
    expect(holds!.n).toBe(1);
    // B-01 is full (capacity 1).
    expect((await admin.post('/putaway/suggestions', { box_code: sealed.code })).statusCode).toBe(
      409,
    );
  });

  it('suggests the zone that holds the model and grade first, and never a full bin', async () => {
    const box = await sealedBoxOf([imeis[10]!, imeis[11]!], 'A');
    const suggestion = bodyOf<PutawaySuggestion>(
      await admin.post('/putaway/suggestions', { box_code: box.code }),
    ).data;
    // Zone B holds its kind, but B-01 is full and B-02 inactive: the nearest empty bin.
    expect(suggestion.location?.code).toBe('A-01');
    await t.db.query("UPDATE locations SET active = true WHERE code = 'B-02'");
    const inZone = bodyOf<PutawaySuggestion>(
      await admin.post('/putaway/suggestions', { box_code: box.code }),
    ).data;
    expect(inZone.location?.code).toBe('B-02');
    expect(inZone.reason).toContain('Zone B');
  });

  it('sends a box with a held device to the quarantine zone only', async () => {
    const box = await sealedBoxOf([imeis[12]!], 'C');
    await t.db.query(
      `UPDATE devices SET status = 'hold', hold_reason = 'blacklist', status_before_hold = 'in_stock'
       WHERE imei = $1`,
      [imeis[12]],
    );
    const suggestion = bodyOf<PutawaySuggestion>(
      await admin.post('/putaway/suggestions', { box_code: box.code }),
    ).data;
    expect(suggestion.location?.code).toBe('Q-01');
    const refused = await admin.post('/putaway', { box_code: box.code, location_code: 'A-03' });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('quarantine zone only');
    const put = await admin.post('/putaway', { box_code: box.code, location_code: 'Q-01' });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('refuses an open box', async () => {
    const open = (await consolidationScan(worker, imeis[3]!)).box!;
    const refused = await admin.post('/putaway/suggestions', { box_code: open.code });
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('seal it before');
  });
});

describe('consolidation boxes and overview', () => {
  it('groups the devices waiting by kind and lists the open boxes', async () => {
    const leader = await userWith('cl', ['Consolidation Leader']);
    const response = await leader.get('/consolidation/overview');
    expect(response.statusCode, response.body).toBe(200);
    const { waiting, open_boxes } = bodyOf<{
      waiting: { grade: string; color: string | null; devices: number }[];
      open_boxes: InventoryBox[];
    }>(response).data;
    // imeis[3] (grade A, black) and imeis[4] (grade B, blue) wait; the held one does not.
    expect(waiting).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ grade: 'A', color: 'Black', devices: 1 }),
        expect.objectContaining({ grade: 'B', color: 'Blue', devices: 1 }),
      ]),
    );
    expect(waiting.reduce((sum, group) => sum + group.devices, 0)).toBe(2);
    expect(open_boxes.every((box) => box.status === 'open')).toBe(true);
    expect((await worker.get('/consolidation/overview')).statusCode).toBe(403);
  });

  it('reopens a sealed box only with box.reopen, and never a located one', async () => {
    const manager = await userWith('wm', ['Warehouse Manager']);
    const leader = await userWith('cl2', ['Consolidation Leader']);
    const located = bodyOf<InventoryBox[]>(
      await manager.get('/consolidation/boxes?status=located'),
    ).data;
    expect(located.length).toBeGreaterThan(0);
    const refused = await leader.post(`/inventory-boxes/${located[0]!.id}/reopen`);
    expect(refused.statusCode).toBe(409);
    expect(bodyOf(refused).message).toContain('not put away');

    const box = await sealedBoxOf([imeis[13]!], 'D');
    // Reopening takes the page's roles and box.reopen: the consolidation worker has neither.
    expect((await worker.post(`/inventory-boxes/${box.id}/reopen`)).statusCode).toBe(403);
    const reopened = await leader.post(`/inventory-boxes/${box.id}/reopen`);
    expect(reopened.statusCode, reopened.body).toBe(200);
    expect(bodyOf<InventoryBox>(reopened).data).toMatchObject({ status: 'open', sealed_at: null });
    expect((await place(worker, imeis[14]!, box.code)).result).toBe('not_ready');
    expect((await leader.post('/inventory-boxes/999999/reopen')).statusCode).toBe(404);
  });
});

describe('inquire device', () => {
  it('shows its stage, box, location and steps, read-only', async () => {
    const response = await worker.post('/consolidation/inquiries', { code: imeis[0] });
    expect(response.statusCode, response.body).toBe(200);
    const inquiry = bodyOf<{
      device: { status: string; grade: string };
      warehouse_box: string | null;
      box: InventoryBox;
      events: { type: string; container: string | null }[];
    }>(response).data;
    expect(inquiry.device).toMatchObject({ status: 'in_stock', grade: 'A' });
    expect(inquiry.warehouse_box).toBeNull();
    expect(inquiry.box).toMatchObject({ status: 'located', location_code: 'B-01' });
    expect(inquiry.events[0]).toMatchObject({ type: 'consolidated', container: inquiry.box.code });
    const waiting = bodyOf<{ warehouse_box: string | null; box: null }>(
      await worker.post('/consolidation/inquiries', { code: imeis[6] }),
    ).data;
    expect(waiting.warehouse_box).toMatch(/^WB-/);
    expect(waiting.box).toBeNull();
    expect(
      (await worker.post('/consolidation/inquiries', { code: '350000019999995' })).statusCode,
    ).toBe(404);
    expect(
      await worker.fieldErrors('POST', '/consolidation/inquiries', { code: '' }),
    ).toHaveProperty('code');
  });
});

/** Grades the devices alike, consolidates them into one box and seals it. */
async function sealedBoxOf(devices: string[], grading: string): Promise<InventoryBox> {
  await grade(t, devices, { grade: grading, colorId: catalogue.colors.black });
  const box = (await consolidationScan(worker, devices[0]!)).box!;
  for (const imei of devices) expect((await place(worker, imei, box.code)).result).toBe('added');
  return bodyOf<InventoryBox>(await worker.post(`/inventory-boxes/${box.id}/seal`)).data;
}
