import type {
  OrderAssignmentResult,
  OrderDetail,
  Substitution,
  SubstitutionBacklogLine,
  SubstitutionRule,
  SubstitutionRun,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { placeOrder, seedBox, seedShop, signedIn, type Shop } from './fulfilment.test-support.js';
import { lifelineRule, substituteVariant } from './substitutions.test-support.js';

/**
 * Substitutions (DOMAIN.md 4.14 /fulfill/substitute, 5.2 step 4a): the no-stock backlog with the
 * substitutes its rule allows and their stock; proposals, approval and rejection; a manager's
 * batch applied at once; the customer's price never rising; the line keeping what was ordered;
 * the order ready again through its lifecycle; the client carrier's notices; the rules' table.
 */

let t: TestApp;
let cs: ApiClient;
let manager: { id: number; client: ApiClient };
let picker: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  cs = (await signedIn(t, 'sub.cs', ['Customer Support'])).client;
  manager = await signedIn(t, 'sub.fm', ['Fulfilment Manager']);
  picker = await signedIn(t, 'sub.fw', ['Fulfilment Worker']);
});
afterAll(() => t.close());

const detail = (id: number) => dataOf<OrderDetail>(manager.client.get(`/orders/${id}/detail`));
const backlog = (shop: Shop) =>
  dataOf<SubstitutionBacklogLine[]>(
    manager.client.get(`/substitutions/backlog?client_carrier_id=${shop.carrierId}`),
  );

/** A shop whose black phone has no stock, a red one with two in stock, orders of the black. */
async function noStockOrders(count: number) {
  const shop = await seedShop(t.db);
  const red = await substituteVariant(t.db, shop);
  await seedBox(t.db, shop, 2, { colorId: shop.redId });
  const orders = [];
  for (let n = 0; n < count; n += 1) {
    const order = await placeOrder(cs, shop);
    expect(order.status).toBe('on_hold');
    expect(order.hold_reason).toBe('no_stock');
    orders.push(order);
  }
  return { shop, red, orders };
}

describe('the no-stock backlog', () => {
  it('lists the lines with the substitutes the rule allows and their stock, none without a rule', async () => {
    const { shop, red, orders } = await noStockOrders(1);
    const [before] = await backlog(shop);
    expect(before).toMatchObject({ order_id: orders[0]!.id, rule_id: null, candidates: [] });
    await lifelineRule(t.db, shop);
    const [line] = await backlog(shop);
    expect(line).toMatchObject({ variant_id: shop.variantId, qty: 1, available: 0 });
    expect(line!.candidates).toEqual([
      expect.objectContaining({ variant_id: red.id, available: 2, price_cents: 0, price_ok: true }),
    ]);
    // Dearer than the customer's price: still shown, marked as one that may not be chosen.
    await t.db.query('UPDATE pts_listings SET price_cents = 2500 WHERE variant_id = $1', [red.id]);
    const [dearer] = await backlog(shop);
    expect(dearer!.candidates[0]).toMatchObject({ price_cents: 2500, price_ok: false });
  });

  it('is the substitute right: others are refused', async () => {
    await refusalOf(cs.get('/substitutions/backlog'), 403);
  });
});

describe('a manager applying a substitute to a batch', () => {
  it('makes the orders ready with the new variant, keeping what was ordered, and reserves it', async () => {
    const { shop, red, orders } = await noStockOrders(2);
    await lifelineRule(t.db, shop, { notifyClient: true });
    const run = await dataOf<SubstitutionRun>(
      manager.client.post('/substitutions/applications', {
        from_variant_id: shop.variantId,
        to_variant_id: red.id,
        order_ids: orders.map((order) => order.id),
      }),
    );
    expect(run.done.map((order) => order.id)).toEqual(orders.map((order) => order.id));
    const order = await detail(orders[0]!.id);
    expect(order.status).toBe('ready');
    expect(order.hold_reason).toBeNull();
    expect(order.lines[0]).toMatchObject({ sellable_id: red.id, sku: red.sku });
    expect(order.events.map((event) => event.type)).toContain('substituted');
    const [line] = await t.db.query<{ from: number }>(
      'SELECT substituted_from_variant_id::int AS from FROM order_lines WHERE id = $1',
      [order.lines[0]!.id],
    );
    expect(line!.from).toBe(shop.variantId);
    const audit = await t.db.query(
      `SELECT 1 FROM audit_events WHERE action = 'order.substituted' AND entity_id = $1`,
      [order.id],
    );
    expect(audit).toHaveLength(1);

    // The same batch again applies nothing twice.
    const again = await dataOf<SubstitutionRun>(
      manager.client.post('/substitutions/applications', {
        from_variant_id: shop.variantId,
        to_variant_id: red.id,
        order_ids: [orders[0]!.id],
      }),
    );
    expect(again).toMatchObject({ done: [], skipped: [{ id: orders[0]!.id }] });

    // Assignment reserves the red phones, and the units say what was ordered.
    const assigned = await dataOf<OrderAssignmentResult>(
      manager.client.post('/fulfilment/assignments', {
        assignee_id: picker.id,
        order_ids: orders.map((o) => o.id),
      }),
    );
    expect(assigned.assigned).toHaveLength(2);
    const [ordered] = await t.db.query<{ sku: string }>(
      'SELECT sku FROM product_variants WHERE id = $1',
      [shop.variantId],
    );
    expect((await detail(orders[0]!.id)).units[0]!.substituted_from).toBe(ordered!.sku);

    // The client carrier wants to hear of them: listed until recorded as told.
    const notices = await dataOf<Substitution[]>(manager.client.get('/substitutions/notices'));
    const ours = notices.filter((notice) => orders.some((o) => o.id === notice.order_id));
    expect(ours).toHaveLength(2);
    await dataOf(
      manager.client.post('/substitutions/notices', {
        substitution_ids: ours.map((notice) => notice.id),
      }),
    );
    const after = await dataOf<Substitution[]>(manager.client.get('/substitutions/notices'));
    expect(after.filter((notice) => orders.some((o) => o.id === notice.order_id))).toEqual([]);
  });

  it('refuses a substitute the rule does not allow, a dearer one, and more than the stock', async () => {
    const { shop, red, orders } = await noStockOrders(3);
    const batch = (to: number) =>
      manager.client.post('/substitutions/applications', {
        from_variant_id: shop.variantId,
        to_variant_id: to,
        order_ids: orders.map((order) => order.id),
      });
    const refused = async (to: number) => JSON.stringify(await refusalOf(batch(to), 422));
    expect(await refused(red.id)).toMatch(/has no substitution rule/);
    await lifelineRule(t.db, shop);
    // A lower grade is not allowed by a rule of grade at least.
    const lower = await substituteVariant(t.db, shop, { grade: 'C' });
    expect(await refused(lower.id)).toMatch(/does not allow/);
    const dear = await substituteVariant(t.db, shop, { priceCents: 1000, grade: 'A+' });
    expect(await refused(dear.id)).toMatch(/price would rise: .* is \$10\.00/);
    expect(await refusalOf(batch(red.id), 409)).toMatch(/Only 2 of .* in stock: the batch needs 3/);
    expect((await detail(orders[0]!.id)).status).toBe('on_hold');
  });
});

describe('a proposal', () => {
  it('waits for a manager, who rejects it to the backlog or approves it to ready', async () => {
    const { shop, red, orders } = await noStockOrders(1);
    await lifelineRule(t.db, shop);
    const id = orders[0]!.id;
    const propose = () =>
      dataOf<SubstitutionRun>(
        manager.client.post('/substitutions/proposals', {
          from_variant_id: shop.variantId,
          to_variant_id: red.id,
          order_ids: [id],
          note: 'Red instead of black',
        }),
      );
    await propose();
    expect((await detail(id)).status).toBe('substitution_pending');
    const proposalOf = async () =>
      (await dataOf<Substitution[]>(manager.client.get('/substitutions/proposals'))).find(
        (proposal) => proposal.order_id === id,
      )!;
    const first = await proposalOf();
    expect(first).toMatchObject({ to_sku: red.sku, note: 'Red instead of black' });
    await dataOf(
      manager.client.post('/substitutions/rejections', {
        substitution_ids: [first.id],
        reason: 'The customer wants black',
      }),
    );
    const rejected = await detail(id);
    expect(rejected).toMatchObject({ status: 'on_hold', hold_reason: 'no_stock' });

    await propose();
    const second = await proposalOf();
    const run = await dataOf<SubstitutionRun>(
      manager.client.post('/substitutions/approvals', { substitution_ids: [second.id] }),
    );
    expect(run.done).toEqual([{ id, number: orders[0]!.number }]);
    expect((await detail(id)).status).toBe('ready');
    // Approving it again from another session applies nothing twice.
    const again = await dataOf<SubstitutionRun>(
      manager.client.post('/substitutions/approvals', { substitution_ids: [second.id] }),
    );
    expect(again.done).toEqual([]);
  });
});

describe('the rules', () => {
  it('are kept per client carrier and programme with their allowed variants by SKU', async () => {
    const shop = await seedShop(t.db);
    const red = await substituteVariant(t.db, shop);
    const rule = await dataOf<SubstitutionRule>(
      manager.client.post('/substitution-rules', {
        client_carrier_id: shop.carrierId,
        program: 'tribal',
        allowed_skus: [red.sku.toLowerCase()],
        notify_client: true,
      }),
      201,
    );
    expect(rule).toMatchObject({ program: 'tribal', allowed_skus: [red.sku], same_os: true });
    const unknown = await manager.client.post('/substitution-rules', {
      client_carrier_id: shop.carrierId,
      program: 'lifeline',
      allowed_skus: ['NO-SUCH-SKU'],
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message.allowed_skus[0]).toMatch(/NO-SUCH-SKU/);
    const twice = await manager.client.post('/substitution-rules', {
      client_carrier_id: shop.carrierId,
      program: 'tribal',
    });
    expect(twice.statusCode).toBe(422);
    // Reading them is the substitution right; writing them a manager's.
    const reader = await signedIn(t, 'sub.reader', ['Customer Support']);
    await refusalOf(reader.client.get('/substitution-rules'), 403);
  });
});
