import type {
  OrderAssignmentResult,
  OrderDetail,
  PickScanAnswer,
  SupportOrderInput,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { placeOrder, seedBox, seedShop, signedIn, type Shop } from './fulfilment.test-support.js';

/**
 * A line naming the device it should ship (`order_lines.requested_device_id`, migration 0078: a
 * reship of the unit that came back): the assignment reserves that device before anything else
 * when it is available, whatever its box's age and the order's urgency; when it is not, the line
 * takes a matching device as any other and the order's timeline says so.
 */

let t: TestApp;
let cs: ApiClient;
let manager: ApiClient;
let picker: { id: number; client: ApiClient };

beforeAll(async () => {
  t = await createTestApp();
  cs = (await signedIn(t, 'req.cs', ['Customer Support', 'Fulfilment Manager'])).client;
  manager = (await signedIn(t, 'req.fm', ['Fulfilment Manager'])).client;
  picker = await signedIn(t, 'req.fw', ['Fulfilment Worker']);
});
afterAll(() => t.close());

const assign = (orderIds: number[]) =>
  dataOf<OrderAssignmentResult>(
    manager.post('/fulfilment/assignments', { assignee_id: picker.id, order_ids: orderIds }),
  );
const detail = (id: number) => dataOf<OrderDetail>(cs.get(`/orders/${id}/detail`));
const imeisOf = async (id: number) =>
  (await detail(id)).units
    .filter((unit) => unit.status === 'allocated' || unit.status === 'picked')
    .map((unit) => unit.imei)
    .sort();

/** An order whose (first) line names the device. */
async function orderNaming(
  shop: Shop,
  imei: string,
  overrides: Partial<SupportOrderInput> = {},
): Promise<number> {
  const order = await placeOrder(cs, shop, overrides);
  await t.db.query(
    `UPDATE order_lines SET requested_device_id = (SELECT id FROM devices WHERE imei = $2)
     WHERE order_id = $1`,
    [order.id, imei],
  );
  return order.id;
}

const statusOf = async (imei: string) =>
  (await t.db.query<{ status: string }>('SELECT status FROM devices WHERE imei = $1', [imei]))[0]!
    .status;

const unavailableNotes = async (orderId: number) =>
  (await detail(orderId)).events
    .filter((event) => event.type === 'requested_unit_unavailable')
    .map((event) => event.data?.imei);

describe('a line naming its device', () => {
  it('gets it before a more urgent order of the batch would by box age, and the pick takes it', async () => {
    const shop = await seedShop(t.db);
    const older = await seedBox(t.db, shop, 2, { sealedDaysAgo: 30 });
    const newer = await seedBox(t.db, shop, 2, { sealedDaysAgo: 2 });
    const named = older.imeis[0]!;
    // Placed first, so more urgent: oldest box first, it would take the named device.
    const general = await placeOrder(cs, shop);
    const naming = await orderNaming(shop, named, {
      lines: [{ listing_id: shop.listingId, qty: 2 }],
    });

    const result = await assign([general.id, naming]);
    expect(result.assigned.map((order) => order.id).sort()).toEqual([general.id, naming].sort());
    expect(result.units_reserved).toBe(3);
    expect(await imeisOf(general.id)).toEqual([older.imeis[1]]);
    expect(await imeisOf(naming)).toEqual([named, newer.imeis[0]].sort());
    expect(await statusOf(named)).toBe('reserved');
    expect(await unavailableNotes(naming)).toEqual([]);

    const answer = await dataOf<PickScanAnswer>(
      picker.client.post(`/fulfilment/picks/${naming}/scans`, { code: named, station: 'P1' }),
    );
    expect(answer.result).toBe('picked');
    const units = (await detail(naming)).units;
    expect(units.find((unit) => unit.imei === named)?.status).toBe('picked');
  });

  it('falls back to a matching device when its own is not available, and says so', async () => {
    const shop = await seedShop(t.db);
    const stock = await seedBox(t.db, shop, 6, { sealedDaysAgo: 10 });
    const [returned, held, taken, red] = [
      (await seedBox(t.db, shop, 1)).imeis[0]!,
      (await seedBox(t.db, shop, 1)).imeis[0]!,
      stock.imeis[0]!,
      (await seedBox(t.db, shop, 1, { colorId: shop.redId })).imeis[0]!,
    ];
    // Still on its way back (out of any box), held for an activation lock, reserved for another
    // order already, and of another colour than the line's variant.
    await t.db.query(
      `UPDATE devices SET status = 'returned', inventory_box_id = NULL WHERE imei = $1`,
      [returned],
    );
    await t.db.query(`UPDATE devices SET status = 'hold', hold_reason = 'frp' WHERE imei = $1`, [
      held,
    ]);
    const first = await placeOrder(cs, shop);
    await assign([first.id]);
    expect(await imeisOf(first.id)).toEqual([taken]);

    const orders = [];
    for (const imei of [returned, held, taken, red]) orders.push(await orderNaming(shop, imei));
    const result = await assign(orders);
    expect(result.assigned.map((order) => order.id).sort()).toEqual([...orders].sort());
    const shipped = (await Promise.all(orders.map(imeisOf))).flat();
    expect(shipped.sort()).toEqual(stock.imeis.slice(1, 5).sort());
    for (const [n, imei] of [returned, held, taken, red].entries()) {
      expect(await unavailableNotes(orders[n]!)).toEqual([imei]);
    }
    expect(await statusOf(returned)).toBe('returned');
    expect(await statusOf(held)).toBe('hold');
    expect(await statusOf(red)).toBe('in_stock');
    // The order's notes on its timeline say which unit it named.
    const [event] = (await detail(orders[0]!)).events.filter(
      (e) => e.type === 'requested_unit_unavailable',
    );
    expect(event?.data?.note).toContain(`${returned} was not available at assignment`);
  });

  it('named by two orders, goes to the more urgent one', async () => {
    const shop = await seedShop(t.db);
    const box = await seedBox(t.db, shop, 3);
    const named = box.imeis[2]!;
    const normal = await orderNaming(shop, named);
    const urgent = await orderNaming(shop, named, { priority: 'urgent' });
    await assign([normal, urgent]);
    expect(await imeisOf(urgent)).toEqual([named]);
    expect(await imeisOf(normal)).toEqual([box.imeis[0]]);
    expect(await unavailableNotes(normal)).toEqual([named]);
  });

  it('of an order short of stock is not kept: another order of the batch may take it', async () => {
    const shop = await seedShop(t.db);
    const box = await seedBox(t.db, shop, 4);
    const named = box.imeis[1]!;
    const short = await orderNaming(shop, named, {
      lines: [{ listing_id: shop.listingId, qty: 3 }],
      priority: 'urgent',
    });
    const other = await placeOrder(cs, shop);
    // Two devices taken away after intake: three units wanted, two devices left. The order
    // keeps nothing, its named device neither.
    await t.db.query(
      `UPDATE devices SET status = 'rtv', inventory_box_id = NULL WHERE imei = ANY ($1::text[])`,
      [box.imeis.slice(2)],
    );
    const result = await assign([short, other.id]);
    expect(result.held.map((order) => order.id)).toEqual([short]);
    expect(result.assigned.map((order) => order.id)).toEqual([other.id]);
    expect(await imeisOf(short)).toEqual([]);
    expect(await imeisOf(other.id)).toEqual([box.imeis[0]]);
    expect(await statusOf(named)).toBe('in_stock');
  });

  it('keeps the named device reserved when the picker swaps in another match', async () => {
    const shop = await seedShop(t.db);
    const older = await seedBox(t.db, shop, 2, { sealedDaysAgo: 40 });
    const spare = await seedBox(t.db, shop, 1, { sealedDaysAgo: 1 });
    // The named device is reserved first, so its unit comes first: a swap by unit order takes it.
    const named = older.imeis[1]!;
    const naming = await orderNaming(shop, named, {
      lines: [{ listing_id: shop.listingId, qty: 2 }],
    });
    await assign([naming]);
    expect(await imeisOf(naming)).toEqual([...older.imeis].sort());

    const swapped = await dataOf<PickScanAnswer>(
      picker.client.post(`/fulfilment/picks/${naming}/scans`, {
        code: spare.imeis[0],
        station: 'P1',
      }),
    );
    expect(swapped.result).toBe('swapped');
    expect(await imeisOf(naming)).toEqual([named, spare.imeis[0]!].sort());
    expect(await statusOf(older.imeis[0]!)).toBe('in_stock');
    expect(await statusOf(named)).toBe('reserved');
  });

  it('picks an order’s own reserved device after another of its units lost its device to the blacklist', async () => {
    const shop = await seedShop(t.db);
    const box = await seedBox(t.db, shop, 2, { sealedDaysAgo: 50 });
    const order = await placeOrder(cs, shop, { lines: [{ listing_id: shop.listingId, qty: 2 }] });
    await assign([order.id]);
    const [listed, own] = box.imeis as [string, string];
    await t.db.query(
      `INSERT INTO blacklist_entries (imei, source, reason) VALUES ($1, 'carrier', 'stolen')`,
      [listed],
    );
    const scanOf = (code: string) =>
      dataOf<PickScanAnswer>(
        picker.client.post(`/fulfilment/picks/${order.id}/scans`, { code, station: 'P1' }),
      );
    expect((await scanOf(listed)).result).toBe('blacklisted');
    // The unit left without a device must not stand in front of the one holding the scanned device.
    expect((await scanOf(own)).result).toBe('picked');
    expect(await statusOf(own)).toBe('picked');
  });
});
