import type { LabelBatch, LabelStepAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';
import { easyPostTestApp, type EasyPostStandIn } from './easypost.test-support.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/**
 * Two label desks at once over the same orders, buying from EasyPost (its stand-in). On
 * PostgreSQL (TEST_DATABASE_URL) the steps meet on concurrent connections: the orders are locked
 * before the labels are bought, so the second step waits, finds each order labelled and buys
 * nothing: EasyPost sells one label per order.
 */

let t: TestApp;
let standIn: EasyPostStandIn;
let desks: ApiClient[];

beforeAll(async () => {
  ({ t, standIn } = await easyPostTestApp());
  desks = [];
  for (const userName of ['desk-a', 'desk-b']) {
    const password = `${userName}-password-1`;
    await createUser(t.db, { userName, password, roles: ['Shipping Clerk'] });
    desks.push(apiClient(t, await login(t.app, userName, password)));
  }
});
afterAll(() => t.close());

describe('two label desks at once, buying from EasyPost', () => {
  it('buy one label per order: the other step answers it', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 4 });
    const ids = orders.map((order) => order.orderId);
    const before = standIn.purchases();
    const batches = await Promise.all(
      desks.map((desk) => dataOf<LabelBatch>(desk.post('/label-batches', { format: 'pdf' }), 201)),
    );
    const answers = await Promise.all(
      desks.map((desk, n) =>
        dataOf<LabelStepAnswer>(
          desk.post(`/label-batches/${batches[n]!.id}/labels`, { order_ids: ids }),
        ),
      ),
    );
    for (const id of ids) {
      const results = answers.map((answer) => answer.results.find((r) => r.order_id === id)!);
      expect(results.map((result) => result.result).sort()).toEqual([
        'already_labelled',
        'created',
      ]);
    }
    expect(standIn.purchases()).toBe(before + ids.length);
  });
});
