import type { Substitution, SubstitutionRun } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { placeOrder, seedBox, seedShop, signedIn } from './fulfilment.test-support.js';
import { lifelineRule, roleWith, substituteVariant } from './substitutions.test-support.js';

/**
 * Substitutions and support orders from two sessions at once: on PostgreSQL (TEST_DATABASE_URL)
 * on concurrent connections, on PGlite one after the other. The same substitution applied or
 * approved twice applies once; two support orders of the same item for one subscriber: one is
 * refused as a duplicate.
 */

let t: TestApp;
let cs: ApiClient;
let managers: ApiClient[];
let leads: ApiClient[];

beforeAll(async () => {
  t = await createTestApp();
  await roleWith(t.db, 'Race Support Lead', ['order.management', 'order.support-create']);
  cs = (await signedIn(t, 'subrace.cs', ['Customer Support'])).client;
  managers = [
    (await signedIn(t, 'subrace.fm1', ['Fulfilment Manager'])).client,
    (await signedIn(t, 'subrace.fm2', ['Fulfilment Manager'])).client,
  ];
  leads = [
    (await signedIn(t, 'subrace.cs1', ['Race Support Lead'])).client,
    (await signedIn(t, 'subrace.cs2', ['Race Support Lead'])).client,
  ];
});
afterAll(() => t.close());

/** Two no-stock orders of the black phone, a red one with stock, the Lifeline rule. */
async function twoNoStockOrders() {
  const shop = await seedShop(t.db);
  const red = await substituteVariant(t.db, shop);
  await seedBox(t.db, shop, 4, { colorId: shop.redId });
  await lifelineRule(t.db, shop);
  const orders = [(await placeOrder(cs, shop)).id, (await placeOrder(cs, shop)).id];
  return { shop, red, orders };
}

const appliedOnce = async (orders: number[], runs: SubstitutionRun[]) => {
  expect(runs.flatMap((run) => run.done.map((order) => order.id)).sort()).toEqual(
    [...orders].sort(),
  );
  const rows = await t.db.query<{ order_id: number; n: number }>(
    `SELECT order_id::int AS order_id, count(*)::int AS n FROM order_substitutions
     WHERE order_id = ANY ($1::bigint[]) AND status = 'applied' GROUP BY order_id`,
    [orders],
  );
  expect(rows.map((row) => row.n)).toEqual([1, 1]);
  const events = await t.db.query(
    `SELECT 1 FROM order_events WHERE order_id = ANY ($1::bigint[]) AND type = 'substituted'`,
    [orders],
  );
  expect(events).toHaveLength(2);
};

describe('the same substitution from two sessions at once', () => {
  it('applied to the same batch twice: applied once', async () => {
    const { shop, red, orders } = await twoNoStockOrders();
    const body = { from_variant_id: shop.variantId, to_variant_id: red.id, order_ids: orders };
    const runs = await Promise.all(
      managers.map((manager) =>
        dataOf<SubstitutionRun>(manager.post('/substitutions/applications', body)),
      ),
    );
    await appliedOnce(orders, runs);
  });

  it('approved twice: applied once', async () => {
    const { shop, red, orders } = await twoNoStockOrders();
    await dataOf(
      managers[0]!.post('/substitutions/proposals', {
        from_variant_id: shop.variantId,
        to_variant_id: red.id,
        order_ids: orders,
      }),
    );
    const ids = (await dataOf<Substitution[]>(managers[0]!.get('/substitutions/proposals')))
      .filter((proposal) => orders.includes(proposal.order_id))
      .map((proposal) => proposal.id);
    const runs = await Promise.all(
      managers.map((manager) =>
        dataOf<SubstitutionRun>(
          manager.post('/substitutions/approvals', { substitution_ids: [...ids].reverse() }),
        ),
      ),
    );
    await appliedOnce(orders, runs);
  });
});

describe('two support orders of the same item for one subscriber at once', () => {
  it('create one; the other is refused as a duplicate', async () => {
    const shop = await seedShop(t.db);
    const first = await placeOrder(cs, shop);
    const [facts] = await t.db.query<{ subscriber_id: number; charger: number }>(
      `SELECT o.subscriber_id::int AS subscriber_id,
         (SELECT v.id::int FROM product_variants v JOIN products p ON p.id = v.product_id
          WHERE p.kind = 'accessory' ORDER BY v.id DESC LIMIT 1) AS charger
       FROM orders o WHERE o.id = $1`,
      [first.id],
    );
    const body = {
      subscriber_id: facts!.subscriber_id,
      reason: 'missing_item',
      ship_method: 'ground',
      items: [{ variant_id: facts!.charger, qty: 1 }],
    };
    const answers = await Promise.all(leads.map((lead) => lead.post('/support-orders', body)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
  });
});
