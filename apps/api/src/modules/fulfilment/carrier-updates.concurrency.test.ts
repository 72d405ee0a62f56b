import type { CarrierUpdateFile, PickOrder, PickScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { placeOrder, seedBox, seedShop, seedSims, signedIn } from './fulfilment.test-support.js';

/**
 * Two answer files for the same pairing committed at once (on PostgreSQL with TEST_DATABASE_URL,
 * on concurrent connections; on PGlite one after the other): the update is settled once, with
 * one answer on the order's timeline, whichever commit comes second.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('two answer imports for one pairing at once', () => {
  it('settle it once', async () => {
    const shop = await seedShop(t.db);
    await seedBox(t.db, shop, 1);
    const [iccid] = await seedSims(t.db, shop.carrierId, 1);
    const cs = (await signedIn(t, 'race.cu.cs', ['Customer Support', 'Fulfilment Manager'])).client;
    const picker = await signedIn(t, 'race.cu.fw', ['Fulfilment Worker']);
    const order = await placeOrder(cs, shop, { fulfilment_type: 'ota' });
    await dataOf(
      cs.post('/fulfilment/assignments', { assignee_id: picker.id, order_ids: [order.id] }),
    );
    const picked = await dataOf<PickOrder>(
      picker.client.get(`/fulfilment/picks/lookup?number=${order.number}&queue=ota`),
    );
    for (const code of [picked.units[0]!.imei!, iccid!]) {
      await dataOf<PickScanAnswer>(
        picker.client.post(`/fulfilment/picks/${order.id}/scans`, { code, queue: 'ota' }),
      );
    }
    await dataOf<CarrierUpdateFile>(
      picker.client.post('/carrier-updates/exports', {
        client_carrier_id: shop.carrierId,
        kind: 'pairing',
      }),
      201,
    );
    // Two people import the carrier's answer file (ok in one, failed in the other), both checked.
    const first = await picker.client.uploadAndCheck(
      'carrier-answers',
      'first.csv',
      `Order,Result\n${order.number},ok\n`,
    );
    const second = await cs.uploadAndCheck(
      'carrier-answers',
      'second.csv',
      `Order,Result,Message\n${order.number},failed,Late\n`,
    );
    expect(first.check.batch.error_count + second.check.batch.error_count).toBe(0);

    const commits = await Promise.all([
      picker.client.commitImport('carrier-answers', first.id),
      cs.commitImport('carrier-answers', second.id),
    ]);
    // The second to commit finds the update answered: nothing written (a 422 when its check
    // inside the transaction saw the answer, an import that settled nothing when it did not).
    for (const commit of commits) expect([200, 422]).toContain(commit.statusCode);
    const events = await t.db.query<{ type: string }>(
      `SELECT type FROM order_events WHERE order_id = $1 AND type IN
         ('carrier_update_ok', 'carrier_update_failed')`,
      [order.id],
    );
    expect(events).toHaveLength(1);
    const [update] = await t.db.query<{ status: string }>(
      'SELECT status FROM carrier_updates WHERE order_id = $1',
      [order.id],
    );
    expect(update!.status).toBe(events[0]!.type === 'carrier_update_ok' ? 'ok' : 'failed');
  });
});
