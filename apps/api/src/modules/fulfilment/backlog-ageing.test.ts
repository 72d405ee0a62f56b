import type { BacklogOrderRow, OrderDetail } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { alertAgeingBacklog } from './backlog-ageing.js';
import { placeOrder, seedBox, seedShop, signedIn, type Shop } from './fulfilment.test-support.js';

/**
 * Backlog ageing alerts: each threshold of `order_settings.backlog_alert_hours` that an order's
 * current hold passes is alerted once, on its timeline and in the backlog list; a new hold starts
 * again.
 */

let t: TestApp;
let shop: Shop;
let cs: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  cs = (await signedIn(t, 'age.cs', ['Customer Support', 'Fulfilment Manager'])).client;
});
afterAll(() => t.close());

/** Puts an order on hold (intake may have held it already) and dates the hold `hours` back. */
async function heldFor(id: number, hours: number) {
  const order = await dataOf<OrderDetail>(cs.get(`/orders/${id}/detail`));
  if (order.status !== 'on_hold') {
    await dataOf<OrderDetail>(cs.post(`/orders/${id}/hold`, { reason: 'fraud_review' }));
  }
  await t.db.query(
    `UPDATE order_events SET at = now() - make_interval(hours => $2)
     WHERE id = (SELECT max(id) FROM order_events WHERE order_id = $1 AND type = 'held')`,
    [id, hours],
  );
}

const backlog = async (query = '') =>
  (await dataOf<{ items: BacklogOrderRow[] }>(cs.get(`/fulfilment-backlog?limit=100${query}`)))
    .items;

describe('backlog ageing', () => {
  it('alerts each threshold a hold passed once, on the timeline and in the list', async () => {
    const old = await placeOrder(cs, shop);
    const fresh = await placeOrder(cs, shop);
    await heldFor(old.id, 50);
    await heldFor(fresh.id, 2);

    expect(await alertAgeingBacklog(t.db)).toBe(1);
    expect(await alertAgeingBacklog(t.db)).toBe(0);

    const rows = await backlog();
    expect(rows.find((row) => row.id === old.id)).toMatchObject({
      alert_hours: 48,
      alert_level: 2,
    });
    expect(rows.find((row) => row.id === fresh.id)).toMatchObject({
      alert_hours: null,
      alert_level: 0,
    });
    expect((await backlog('&alerted=true')).map((row) => row.id)).toContain(old.id);
    expect((await backlog('&alerted=true')).map((row) => row.id)).not.toContain(fresh.id);
    expect((await backlog('&alerted=false')).map((row) => row.id)).toContain(fresh.id);

    const events = await t.db.query<{ data: { hours: number } }>(
      "SELECT data FROM order_events WHERE order_id = $1 AND type = 'backlog_ageing'",
      [old.id],
    );
    expect(events).toEqual([{ data: { hours: 48 } }]);
  });

  it('starts again with a new hold, at the thresholds of the setting', async () => {
    await t.db.query("UPDATE order_settings SET backlog_alert_hours = '{4,8}'");
    try {
      const order = await placeOrder(cs, shop);
      await heldFor(order.id, 5);
      await alertAgeingBacklog(t.db);
      expect((await backlog()).find((row) => row.id === order.id)).toMatchObject({
        alert_hours: 4,
        alert_level: 1,
      });
      // Stock arrives: released, the order is ready; held again, its new hold starts at zero.
      await seedBox(t.db, shop, 1);
      await dataOf<OrderDetail>(cs.post(`/orders/${order.id}/release`, {}));
      await heldFor(order.id, 1);
      await alertAgeingBacklog(t.db);
      expect((await backlog()).find((row) => row.id === order.id)).toMatchObject({
        alert_hours: null,
        alert_level: 0,
      });
    } finally {
      await t.db.query("UPDATE order_settings SET backlog_alert_hours = '{24,48,72}'");
    }
  });
});
