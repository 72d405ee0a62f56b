import type { InventoryBox, VendorTransfer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { consolidationScan, grade, place, receiveDevices } from '../../test/inventory-fixtures.js';
import type { Catalogue } from '../../test/receiving-fixtures.js';
import { bodyOf, type TestApp } from '../../test/test-app.js';

/**
 * Devices leaving their inventory boxes for their vendor while a consolidation station fills the
 * same boxes. On PostgreSQL (TEST_DATABASE_URL) the requests run on concurrent connections of the
 * pool; on PGlite one at a time. Either way every box counts exactly the devices it holds.
 */

let t: TestApp;
let admin: ApiClient;
let catalogue: Catalogue;
let imeis: string[];
let left: InventoryBox;
let right: InventoryBox;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  ({ catalogue, imeis } = await receiveDevices(t, admin, 24));
  await grade(t, imeis, { grade: 'A', colorId: catalogue.colors.black });
  left = (await consolidationScan(admin, imeis[0]!)).box!;
  await t.db.query('UPDATE inventory_boxes SET max_qty = 50 WHERE id = $1', [left.id]);
  const [twin] = await t.db.query<{ id: number; code: string }>(
    `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, carrier_lock, max_qty)
     SELECT model_id, color_id, capacity_gb, grade, carrier_lock, 50 FROM inventory_boxes
     WHERE id = $1 RETURNING id, code`,
    [left.id],
  );
  // A second open box of the same kind, as another station would have.
  right = { ...left, id: twin!.id, code: twin!.code };
  for (const imei of imeis.slice(0, 6))
    expect((await place(admin, imei, left.code)).result).toBe('added');
  for (const imei of imeis.slice(6, 10))
    expect((await place(admin, imei, right.code)).result).toBe('added');
});
afterAll(() => t.close());

/** A packed return of these devices, ready to ship. */
async function packedReturn(codes: string[]): Promise<number> {
  const created = await admin.post('/vendor-transfers', {
    vendor_id: catalogue.vendors.acme,
    reason: 'other',
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = bodyOf<VendorTransfer>(created).data;
  expect((await admin.post(`/vendor-transfers/${id}/devices`, { codes })).statusCode).toBe(200);
  expect((await admin.post(`/vendor-transfers/${id}/pack`, {})).statusCode).toBe(200);
  return id;
}

const ship = (id: number) =>
  admin.post(`/vendor-transfers/${id}/ship`, { carrier: 'UPS', tracking: `1Z-${id}` });

/** Every box's count against the devices it holds. */
const counts = () =>
  t.db.query<{ code: string; qty: number; held: number }>(
    `SELECT b.code, b.qty, (SELECT count(*)::int FROM devices d WHERE d.inventory_box_id = b.id) AS held
     FROM inventory_boxes b ORDER BY b.id`,
  );
const expectCounted = async () => {
  for (const box of await counts()) expect(box.qty, box.code).toBe(box.held);
};

describe('a return shipping while a station fills the same box', () => {
  it('takes its device out and counts the box right, whichever comes first', async () => {
    for (let n = 0; n < 3; n++) {
      const leaving = await packedReturn([imeis[n]!]);
      const [shipped, added] = await Promise.all([
        ship(leaving),
        place(admin, imeis[10 + n]!, left.code),
      ]);
      expect(shipped.statusCode, shipped.body).toBe(200);
      expect(added.result).toBe('added');
    }
    await expectCounted();
    expect((await counts()).find((box) => box.code === left.code)!.qty).toBe(6);
  });

  it('of the very device being boxed: it ends with its vendor, in no box', async () => {
    for (const imei of imeis.slice(13, 17)) {
      const leaving = await packedReturn([imei]);
      const [shipped, placed] = await Promise.all([ship(leaving), place(admin, imei, left.code)]);
      expect(shipped.statusCode, shipped.body).toBe(200);
      // Boxed first and then taken out, or shipped first and refused at the box.
      expect(['added', 'not_ready']).toContain(placed.result);
      const [device] = await t.db.query<{ status: string; inventory_box_id: number | null }>(
        'SELECT status, inventory_box_id FROM devices WHERE imei = $1',
        [imei],
      );
      expect(device).toEqual({ status: 'rtv', inventory_box_id: null });
    }
    await expectCounted();
  });
});

describe('two returns leaving the same two boxes at once', () => {
  it('both ship: the boxes are taken in one order', async () => {
    const [a1, a2] = [imeis[3]!, imeis[4]!];
    const [b1, b2] = [imeis[6]!, imeis[7]!];
    const first = await packedReturn([a1, b2]);
    const second = await packedReturn([b1, a2]);
    const answers = await Promise.all([ship(first), ship(second)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    await expectCounted();
    const after = await counts();
    expect(after.find((box) => box.code === left.code)!.qty).toBe(4);
    expect(after.find((box) => box.code === right.code)!.qty).toBe(2);
  });
});
