import type { ReuseDecisionAnswer, RmaDetail, RmaScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { shippedLifelineParcels } from '../../test/returned-parcel-fixtures.js';

let t: TestApp;
let clerk: ApiClient;
let support: ApiClient;
let sorter: ApiClient;
let leader: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'clerk', ['Shipping Clerk']);
  support = await signedInClient(t, 'support', ['Customer Support']);
  sorter = await signedInClient(t, 'sorter', ['Warehouse Sorting']);
  leader = await signedInClient(t, 'leader', ['Repair Leader']);
});
afterAll(() => t.close());

const deviceOf = async (id: number) =>
  (
    await t.db.query<{ status: string; reuse_count: number; grade: string | null }>(
      `SELECT status, reuse_count, grade FROM devices WHERE id = $1`,
      [id],
    )
  )[0]!;

const eventsOf = async (deviceId: number) =>
  (
    await t.db.query<{ type: string }>(
      `SELECT type FROM device_events WHERE device_id = $1 ORDER BY id`,
      [deviceId],
    )
  ).map((event) => event.type);

/** A shipped order's device under an authorised RMA. */
async function authorisedRma() {
  const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
  const opened = await dataOf<RmaDetail>(
    support.post('/rmas', { imei: parcel!.imeis[0], reason: 'defective', note: 'No sound' }),
    201,
  );
  const rma = await dataOf<RmaDetail>(support.post(`/rmas/${opened.rma.id}/authorize`, {}));
  return { parcel: parcel!, rma, deviceId: parcel!.deviceIds[0]! };
}

describe('opening an RMA', () => {
  it('opens one from a device on the order it shipped on, one open RMA per device', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    const opened = await dataOf<RmaDetail>(
      support.post('/rmas', { order_number: parcel!.number, reason: 'defective' }),
      201,
    );
    expect(opened.rma).toMatchObject({
      status: 'requested',
      order_number: parcel!.number,
      warranty_ok: true,
      devices: 1,
      imeis_text: parcel!.imeis[0],
    });
    const again = await refusalOf(
      support.post('/rmas', { imei: parcel!.imeis[0], reason: 'wrong_item' }),
      409,
    );
    expect(again).toContain(opened.rma.number);
    expect(await eventsOf(parcel!.deviceIds[0]!)).toContain('rma_requested');
  });

  it('refuses a device that did not ship on the order, and a defect out of warranty', async () => {
    const [a, b] = await shippedLifelineParcels(t, clerk, 2, false);
    const other = await refusalOf(
      support.post('/rmas', { order_number: a!.number, imei: b!.imeis[0], reason: 'defective' }),
      422,
    );
    expect(other).toBeTruthy();
    await t.db.query(`UPDATE orders SET shipped_at = now() - interval '400 days' WHERE id = $1`, [
      a!.orderId,
    ]);
    const late = await refusalOf(
      support.post('/rmas', { order_number: a!.number, reason: 'defective' }),
      422,
    );
    expect(late).toEqual({ order_number: [expect.stringContaining('no longer under warranty')] });
    const answer = await dataOf<RmaDetail>(
      support.post('/rmas', { order_number: a!.number, reason: 'customer_return' }),
      201,
    );
    expect(answer.rma.warranty_ok).toBe(false);
  });

  it('answers 422 for no order and no IMEI, and for an unknown reason', async () => {
    expect((await support.post('/rmas', { reason: 'defective' })).statusCode).toBe(422);
    expect((await support.post('/rmas', { imei: '1', reason: 'bored' })).statusCode).toBe(422);
  });
});

describe('authorising, receiving and resolving', () => {
  it('buys a return label and prints it', async () => {
    const { rma } = await authorisedRma();
    expect(rma.rma.status).toBe('authorized');
    expect(rma.label?.tracking_number).toMatch(/^9/);
    expect(rma.rma.return_tracking).toBe(rma.label?.tracking_number);
    const file = await support.download(`/rmas/${rma.rma.id}/return-label`, { format: 'zpl' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toContain(rma.label!.tracking_number);
    expect(file.body).toContain(rma.rma.number);
    // Authorised once: a second click buys nothing.
    await refusalOf(support.post(`/rmas/${rma.rma.id}/authorize`, {}), 409);
  });

  it('receives by return label, flags a mismatch, routes and orders a replacement', async () => {
    const { rma, deviceId, parcel } = await authorisedRma();
    const found = await dataOf<RmaDetail>(
      sorter.get(`/rma-receiving?code=${rma.label!.tracking_number}`),
    );
    expect(found.rma.id).toBe(rma.rma.id);
    const byNumber = await dataOf<RmaDetail>(sorter.get(`/rma-receiving?code=${rma.rma.number}`));
    expect(byNumber.rma.id).toBe(rma.rma.id);

    const [stranger] = await shippedLifelineParcels(t, clerk, 1, false);
    const mismatch = await dataOf<RmaScanAnswer>(
      sorter.post(`/rmas/${rma.rma.id}/scans`, { code: stranger!.imeis[0], station: 'RMA 1' }),
    );
    expect(mismatch.result).toBe('mismatch');
    expect(mismatch.detail.rma.mismatch_flagged).toBe(true);

    const scan = await dataOf<RmaScanAnswer>(
      sorter.post(`/rmas/${rma.rma.id}/scans`, { code: parcel.imeis[0], station: 'RMA 1' }),
    );
    expect(scan.result).toBe('received');
    expect(scan.detail.rma.status).toBe('received');
    expect((await deviceOf(deviceId)).status).toBe('returned');
    const again = await dataOf<RmaScanAnswer>(
      sorter.post(`/rmas/${rma.rma.id}/scans`, { code: parcel.imeis[0] }),
    );
    expect(again.result).toBe('already_received');

    const checked = await dataOf<RmaDetail>(
      sorter.put(`/rmas/${rma.rma.id}/checklist`, {
        accessories: ['charger', 'box'],
        damage_note: 'Scratched back',
      }),
    );
    expect(checked.accessories).toEqual(['charger', 'box']);

    // Cancelling is for before the parcel is received.
    await refusalOf(support.post(`/rmas/${rma.rma.id}/transitions`, { action: 'cancel' }), 409);

    const routed = await dataOf<RmaDetail>(
      sorter.post(`/rmas/${rma.rma.id}/routes`, { device_id: deviceId, route: 'reuse' }),
    );
    expect(routed.rma.status).toBe('inspected');
    expect(routed.lines[0]!.route).toBe('reuse');

    const resolved = await dataOf<RmaDetail>(
      support.post(`/rmas/${rma.rma.id}/resolution`, { resolution: 'replacement' }),
    );
    expect(resolved.rma).toMatchObject({ status: 'replacement_sent', resolution: 'replacement' });
    const [replacement] = await t.db.query<{
      source: string;
      fulfilment_type: string;
      parent_order_id: number;
    }>(`SELECT source, fulfilment_type, parent_order_id::int FROM orders WHERE id = $1`, [
      resolved.rma.replacement_order_id,
    ]);
    expect(replacement).toEqual({
      source: 'replacement',
      fulfilment_type: 'replacement',
      parent_order_id: parcel.orderId,
    });
    const closed = await dataOf<RmaDetail>(
      support.post(`/rmas/${rma.rma.id}/transitions`, { action: 'close' }),
    );
    expect(closed.rma.status).toBe('closed');
    expect(await eventsOf(deviceId)).toEqual(
      expect.arrayContaining([
        'rma_requested',
        'rma_authorized',
        'returned',
        'rma_routed',
        'rma_resolved',
        'rma_closed',
      ]),
    );
  });

  it('routes a device to repair with a ticket', async () => {
    const { rma, deviceId, parcel } = await authorisedRma();
    await dataOf(sorter.post(`/rmas/${rma.rma.id}/scans`, { code: parcel.imeis[0] }));
    await dataOf(
      sorter.post(`/rmas/${rma.rma.id}/routes`, { device_id: deviceId, route: 'repair' }),
    );
    expect((await deviceOf(deviceId)).status).toBe('in_repair');
    const [ticket] = await t.db.query<{ source: string; reference: string }>(
      `SELECT source, reference FROM repair_tickets WHERE device_id = $1`,
      [deviceId],
    );
    expect(ticket).toEqual({ source: 'rma', reference: rma.rma.number });
  });

  it('lets a rejected RMA go, so the device can be on a new one', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    const opened = await dataOf<RmaDetail>(
      support.post('/rmas', { imei: parcel!.imeis[0], reason: 'customer_return' }),
      201,
    );
    await refusalOf(support.post(`/rmas/${opened.rma.id}/transitions`, { action: 'reject' }), 422);
    const rejected = await dataOf<RmaDetail>(
      support.post(`/rmas/${opened.rma.id}/transitions`, {
        action: 'reject',
        reason: 'Past the return window',
      }),
    );
    expect(rejected.rma.status).toBe('rejected');
    await dataOf(support.post('/rmas', { imei: parcel!.imeis[0], reason: 'defective' }), 201);
  });
});

describe('a supervisor', () => {
  const auditOf = async (id: number, action: string) =>
    t.db.query<{ after: Record<string, unknown> }>(
      `SELECT after FROM audit_events WHERE entity_type = 'RMA' AND entity_id = $1 AND action = $2`,
      [id, action],
    );

  it('clears a mismatch with a note of what was found, once', async () => {
    const { rma } = await authorisedRma();
    const id = rma.rma.id;
    const [stranger] = await shippedLifelineParcels(t, clerk, 1, false);
    await dataOf(sorter.post(`/rmas/${id}/scans`, { code: stranger!.imeis[0], station: 'RMA 2' }));
    // Receiving and customer support see the flag; clearing it is a supervisor's.
    await refusalOf(sorter.post(`/rmas/${id}/mismatch-clearance`, { note: 'Seen' }), 403);
    await refusalOf(support.post(`/rmas/${id}/mismatch-clearance`, { note: 'Seen' }), 403);
    const missing = await refusalOf(
      leader.post(`/rmas/${id}/mismatch-clearance`, { note: '  ' }),
      422,
    );
    expect(missing).toEqual({ note: [expect.stringContaining('Say what was found')] });

    const note = 'The customer sent their other phone: set aside to go back to them';
    const cleared = await dataOf<RmaDetail>(
      leader.post(`/rmas/${id}/mismatch-clearance`, { note }),
    );
    expect(cleared.rma.mismatch_flagged).toBe(false);
    expect(cleared.scans[0]).toMatchObject({ code: stranger!.imeis[0], result: 'mismatch' });
    expect(cleared.events.at(-1)).toMatchObject({
      type: 'mismatch_cleared',
      data: { note, codes: [stranger!.imeis[0]] },
    });
    expect(await auditOf(id, 'RMA.mismatch_cleared')).toEqual([
      { after: expect.objectContaining({ rma: rma.rma.number, note, mismatch_flagged: false }) },
    ]);
    const again = await refusalOf(leader.post(`/rmas/${id}/mismatch-clearance`, { note }), 409);
    expect(again).toContain('no mismatch');
  });

  it('closes a received RMA short: the device that never came back stays with the customer', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false, 2);
    const opened = await dataOf<RmaDetail>(
      support.post('/rmas', { order_number: parcel!.number, reason: 'defective' }),
      201,
    );
    const id = opened.rma.id;
    await dataOf(support.post(`/rmas/${id}/authorize`, {}));
    const [backId, keptId] = parcel!.deviceIds as [number, number];
    const [backImei, keptImei] = parcel!.imeis as [string, string];
    const reason = 'The customer kept the second phone';
    const closeShort = (client: ApiClient, body: object) =>
      client.post(`/rmas/${id}/short-closure`, body);

    // Nothing is short before the parcel is received.
    expect(await refusalOf(closeShort(leader, { reason }), 409)).toContain(
      'cannot be closed short',
    );
    await dataOf(sorter.post(`/rmas/${id}/scans`, { code: backImei }));
    await dataOf(sorter.post(`/rmas/${id}/scans`, { code: '990000862471854' }));

    await refusalOf(closeShort(support, { reason }), 403);
    expect(await refusalOf(closeShort(leader, {}), 422)).toEqual({
      reason: [expect.stringContaining('Say why')],
    });
    // What else was in the parcel is known first, and every device back is routed.
    expect(await refusalOf(closeShort(leader, { reason }), 409)).toContain('mismatch to clear');
    await dataOf(
      leader.post(`/rmas/${id}/mismatch-clearance`, { note: 'A phone of no RMA: set aside' }),
    );
    expect(await refusalOf(closeShort(leader, { reason }), 409)).toContain(backImei);
    const routed = await dataOf<RmaDetail>(
      sorter.post(`/rmas/${id}/routes`, { device_id: backId, route: 'reuse' }),
    );
    expect(routed.rma.status).toBe('received');

    const closed = await dataOf<RmaDetail>(closeShort(leader, { reason }));
    expect(closed.rma.status).toBe('closed');
    expect(closed.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ device_id: backId, not_returned: false, route: 'reuse' }),
        expect.objectContaining({ device_id: keptId, not_returned: true, received_at: null }),
      ]),
    );
    expect(closed.events.at(-1)).toMatchObject({
      type: 'closed_short',
      from_status: 'received',
      to_status: 'closed',
      data: { reason, not_returned: [keptImei] },
    });
    expect(await auditOf(id, 'RMA.closed_short')).toHaveLength(1);
    expect((await deviceOf(keptId)).status).toBe('shipped');
    expect((await deviceOf(backId)).status).toBe('returned');
    expect(await eventsOf(keptId)).toContain('rma_not_returned');
    expect(await eventsOf(backId)).toContain('rma_closed');
    await refusalOf(closeShort(leader, { reason }), 409);
    // The RMA has let its devices go: the phone kept may come back under a new one.
    await dataOf(support.post('/rmas', { imei: keptImei, reason: 'customer_return' }), 201);
  });
});

describe('the reuse queue', () => {
  async function returnedDevice() {
    const { rma, deviceId, parcel } = await authorisedRma();
    await dataOf(sorter.post(`/rmas/${rma.rma.id}/scans`, { code: parcel.imeis[0] }));
    await dataOf(
      sorter.post(`/rmas/${rma.rma.id}/routes`, { device_id: deviceId, route: 'reuse' }),
    );
    return { deviceId, imei: parcel.imeis[0]! };
  }

  it('lists returned devices and approves one into consolidation, counting its reuse', async () => {
    const { deviceId, imei } = await returnedDevice();
    const page = await dataOf<{ items: { id: number; source: string; rma_number: string }[] }>(
      leader.get(`/reuse-queue?search=${imei}`),
    );
    expect(page.items).toEqual([expect.objectContaining({ id: deviceId, source: 'rma' })]);
    await refusalOf(
      leader.post(`/rma-reuse/${deviceId}/decision`, { decision: 'approved', wipe_method: 'NIST' }),
      422,
    );
    const answer = await dataOf<ReuseDecisionAnswer>(
      leader.post(`/rma-reuse/${deviceId}/decision`, {
        decision: 'approved',
        wipe_method: 'NIST 800-88',
        grade: 'B',
      }),
    );
    expect(answer).toMatchObject({ status: 'reuse', reuse_count: 1, blacklist_state: 'clean' });
    expect(await deviceOf(deviceId)).toMatchObject({ status: 'reuse', reuse_count: 1, grade: 'B' });
    expect(await eventsOf(deviceId)).toContain('reuse_approved');
  });

  it('refuses an approval past the reuse limit, and scraps instead', async () => {
    const { deviceId } = await returnedDevice();
    await t.db.query(`UPDATE devices SET reuse_count = 3 WHERE id = $1`, [deviceId]);
    const refused = await refusalOf(
      leader.post(`/rma-reuse/${deviceId}/decision`, {
        decision: 'approved',
        wipe_method: 'NIST 800-88',
        grade: 'A',
      }),
      409,
    );
    expect(refused).toContain('limit');
    const scrapped = await dataOf<ReuseDecisionAnswer>(
      leader.post(`/rma-reuse/${deviceId}/decision`, { decision: 'scrap', wipe_method: 'none' }),
    );
    expect(scrapped.status).toBe('scrapped');
  });

  it('holds a device listed on the blacklist since it left', async () => {
    const { deviceId, imei } = await returnedDevice();
    await t.db.query(
      `INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'internal', 'stolen')`,
      [imei],
    );
    const answer = await dataOf<ReuseDecisionAnswer>(
      leader.post(`/rma-reuse/${deviceId}/decision`, {
        decision: 'approved',
        wipe_method: 'NIST 800-88',
        grade: 'A',
      }),
    );
    expect(answer).toMatchObject({ status: 'hold', blacklist_state: 'blocked' });
  });
});
