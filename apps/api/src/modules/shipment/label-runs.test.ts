import type { LabelBatch, LabelRunProgress } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { jobsOf } from '../../toolkit/jobs.js';
import { runLabelBatch, runLabelStep } from './label-runs.js';
import { seedFulfilledOrders } from './shipment.test-support.js';

/**
 * Label batches as a job (decision 0047): the desk gives a batch its orders and the job labels
 * them in steps of 25, recording each order's result; a run stopped mid-way and run again
 * finishes with one label per order; the progress says what is done.
 */

let t: TestApp;
let clerk: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'runs.clerk', ['Shipping Clerk']);
});
afterAll(() => t.close());

const newBatch = () => dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
const startRun = (batchId: number, orderIds: number[]) =>
  dataOf<LabelRunProgress>(
    clerk.post(`/label-batches/${batchId}/runs`, { order_ids: orderIds }),
    202,
  );
const progress = (batchId: number) =>
  dataOf<LabelRunProgress>(clerk.get(`/label-batches/${batchId}/run`));
const labelsOf = async (orderIds: number[]) =>
  (
    await t.db.query<{ order_id: number; labels: number }>(
      `SELECT order_id::int AS order_id, count(*)::int AS labels FROM packages
       WHERE order_id = ANY ($1::bigint[]) GROUP BY order_id ORDER BY order_id`,
      [orderIds],
    )
  ).map((row) => row.labels);

describe('a label batch run by its job', () => {
  it('waits, then labels every order in steps, in the order given, with the progress', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 30 });
    const ids = orders.map((order) => order.orderId);
    const batch = await newBatch();
    const started = await startRun(batch.id, ids);
    expect(started).toMatchObject({ requested: 30, done: 0, error: null });
    expect(started.results.map((row) => row.result)).toEqual(Array(30).fill('waiting'));

    // The first step takes 25, in the order given.
    expect(await runLabelStep(t.db, t.config.carrier, batch.id)).toBe(25);
    const half = await progress(batch.id);
    expect(half.done).toBe(25);
    expect(half.results.slice(0, 25).every((row) => row.result === 'created')).toBe(true);
    expect(half.results.slice(25).every((row) => row.result === 'waiting')).toBe(true);

    await runLabelBatch(t.db, t.config.carrier, batch.id);
    const done = await progress(batch.id);
    expect(done).toMatchObject({ requested: 30, done: 30, batch: { labels: 30 } });
    expect(done.results.map((row) => row.order_id)).toEqual(ids);
    expect(done.results[0]!.package).toMatchObject({ status: 'label_created' });
    expect(await labelsOf(ids)).toEqual(Array(30).fill(1));
  });

  it('run again after a stop, or given the same orders again, never makes a second label', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 3 });
    const ids = orders.map((order) => order.orderId);
    const batch = await newBatch();
    await startRun(batch.id, ids);
    // A run that stopped after its step had committed: the next run takes what is left.
    await runLabelStep(t.db, t.config.carrier, batch.id);
    await runLabelBatch(t.db, t.config.carrier, batch.id);
    await startRun(batch.id, ids);
    await runLabelBatch(t.db, t.config.carrier, batch.id);
    const answer = await progress(batch.id);
    expect(answer.results.map((row) => row.result)).toEqual(['created', 'created', 'created']);
    expect(await labelsOf(ids)).toEqual([1, 1, 1]);
  });

  it('run twice at once (two app servers), makes one label per order', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 60 });
    const ids = orders.map((order) => order.orderId);
    const batch = await newBatch();
    await startRun(batch.id, ids);
    // On PostgreSQL the two runs take different steps (SKIP LOCKED); on PGlite one after the other.
    await Promise.all([
      runLabelBatch(t.db, t.config.carrier, batch.id),
      runLabelBatch(t.db, t.config.carrier, batch.id),
    ]);
    expect(await labelsOf(ids)).toEqual(Array(60).fill(1));
    expect((await progress(batch.id)).done).toBe(60);
  });

  it('records why an order was refused; given again, it is tried again', async () => {
    const [freight] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'freight' });
    const batch = await newBatch();
    await startRun(batch.id, [freight!.orderId]);
    await runLabelBatch(t.db, t.config.carrier, batch.id);
    expect((await progress(batch.id)).results[0]).toMatchObject({
      result: 'refused',
      message: expect.stringContaining('takes no parcel label') as string,
    });
    await t.db.query("UPDATE orders SET ship_method = 'ground' WHERE id = $1", [freight!.orderId]);
    expect((await startRun(batch.id, [freight!.orderId])).results[0]!.result).toBe('waiting');
    await runLabelBatch(t.db, t.config.carrier, batch.id);
    expect((await progress(batch.id)).results[0]!.result).toBe('created');
  });

  it('is worked by the app’s job once the desk gives it orders', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 2 });
    const ids = orders.map((order) => order.orderId);
    const batch = await newBatch();
    const jobs = jobsOf(t.app)!;
    await jobs.start({ pollingIntervalSeconds: 0.5 });
    try {
      await startRun(batch.id, ids);
      const deadline = Date.now() + 20_000;
      let answer = await progress(batch.id);
      while (answer.done < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = await progress(batch.id);
      }
      expect(answer).toMatchObject({ requested: 2, done: 2, error: null });
    } finally {
      await jobs.stop();
    }
  });

  it('refuses unknown orders and batches (404), and another desk (403)', async () => {
    const batch = await newBatch();
    await refusalOf(clerk.post(`/label-batches/${batch.id}/runs`, { order_ids: [99999999] }), 404);
    await refusalOf(clerk.post('/label-batches/99999999/runs', { order_ids: [1] }), 404);
    await refusalOf(clerk.post(`/label-batches/${batch.id}/runs`, { order_ids: [] }), 422);
    const picker = await signedInClient(t, 'runs.picker', ['Production Worker']);
    await refusalOf(picker.get(`/label-batches/${batch.id}/run`), 403);
  });
});
