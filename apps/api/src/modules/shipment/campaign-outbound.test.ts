import type {
  Campaign,
  LabelBatch,
  LabelQueue,
  LabelStepAnswer,
  Parcel,
  ShipScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient, signedInClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { seedFulfilledOrders, type FulfilledOrder } from './shipment.test-support.js';

/**
 * A campaign's labels and scan-out (DOMAIN.md 4.15): the label desk and the dock scoped to one
 * campaign show and take its orders only, and the campaigns they work for come with their
 * progress for the shipping clerk.
 */

let t: TestApp;
let clerk: ApiClient;
let nobody: ApiClient;
let spring: Campaign['id'];
let autumn: Campaign['id'];
let springOrders: FulfilledOrder[];
let autumnOrders: FulfilledOrder[];
let otherOrders: FulfilledOrder[];

const signedIn = (userName: string, roles: string[]) => signedInClient(t, userName, roles);

/** A campaign of the orders' carrier holding them (as a campaign file's commit leaves them). */
async function campaignOf(name: string, orders: readonly FulfilledOrder[]): Promise<number> {
  const ids = orders.map((order) => order.orderId);
  const [campaign] = await t.db.query<{ id: number }>(
    `INSERT INTO campaigns (name, client_carrier_id, program, fulfilment_type, channel, order_count)
     SELECT $1, o.client_carrier_id, 'lifeline', 'new_lifeline', 'campaign', $3
     FROM orders o WHERE o.id = $2 RETURNING id::int AS id`,
    [name, ids[0], ids.length],
  );
  await t.db.query(
    `UPDATE orders SET source = 'campaign', campaign_id = $2 WHERE id = ANY ($1::bigint[])`,
    [ids, campaign!.id],
  );
  return campaign!.id;
}

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedIn('clerk', ['Shipping Clerk']);
  nobody = await signedIn('maker', ['Production Worker']);
  springOrders = await seedFulfilledOrders(t.db, { count: 2 });
  autumnOrders = await seedFulfilledOrders(t.db, { count: 1 });
  otherOrders = await seedFulfilledOrders(t.db, { count: 1 });
  spring = await campaignOf('Spring Lifeline', springOrders);
  autumn = await campaignOf('Autumn Lifeline', autumnOrders);
});
afterAll(() => t.close());

const queueOf = (campaignId?: number) =>
  dataOf<LabelQueue>(
    clerk.get(`/label-queue${campaignId === undefined ? '' : `?campaign_id=${campaignId}`}`),
  );

const queuedIds = (queue: LabelQueue) =>
  queue.groups.flatMap((group) => group.orders.map((order) => order.order_id)).sort();

const idsOf = (orders: readonly FulfilledOrder[]) => orders.map((order) => order.orderId).sort();

const outbound = () => dataOf<Campaign[]>(clerk.get('/campaigns/outbound'));

const progressOf = async (id: number) => (await outbound()).find((c) => c.id === id)!.progress;

async function labelStep(orderIds: number[], campaignId?: number) {
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  return dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, {
      order_ids: orderIds,
      ...(campaignId !== undefined && { campaign_id: campaignId }),
    }),
  );
}

const statusOf = async (table: 'orders' | 'packages', id: number) =>
  (await t.db.query<{ status: string }>(`SELECT status FROM ${table} WHERE id = $1`, [id]))[0]!
    .status;

describe('the campaign label desk', () => {
  it('lists the campaign’s fulfilled orders only; the whole desk lists all', async () => {
    expect(queuedIds(await queueOf(spring))).toEqual(idsOf(springOrders));
    expect(queuedIds(await queueOf(autumn))).toEqual(idsOf(autumnOrders));
    expect(queuedIds(await queueOf())).toEqual(
      idsOf([...springOrders, ...autumnOrders, ...otherOrders]),
    );
  });

  it('answers 404 for an unknown campaign and 422 for a bad id', async () => {
    expect(await refusalOf(clerk.get('/label-queue?campaign_id=999999'), 404)).toBe(
      'There is no campaign 999999.',
    );
    await refusalOf(clerk.get('/label-queue?campaign_id=abc'), 422);
  });

  it('refuses, in a campaign’s scope, an order of another campaign or of none', async () => {
    const [autumnOrder] = autumnOrders;
    const [otherOrder] = otherOrders;
    const answer = await labelStep([autumnOrder!.orderId, otherOrder!.orderId], spring);
    expect(answer.results.map((result) => [result.result, result.message])).toEqual([
      [
        'refused',
        `Order ${autumnOrder!.number} is not of campaign Spring Lifeline: label it at its own desk.`,
      ],
      [
        'refused',
        `Order ${otherOrder!.number} is not of campaign Spring Lifeline: label it at its own desk.`,
      ],
    ]);
    expect(await statusOf('orders', autumnOrder!.orderId)).toBe('fulfilled');
  });

  it('labels the campaign’s orders, and its progress counts them', async () => {
    expect(await progressOf(spring)).toMatchObject({ orders: 2, picked: 2, labeled: 0 });
    const answer = await labelStep(idsOf(springOrders), spring);
    expect(answer.results.map((result) => result.result)).toEqual(['created', 'created']);
    expect(await queueOf(spring)).toEqual({ groups: [], without_parcel: 0 });
    expect(await progressOf(spring)).toMatchObject({ orders: 2, labeled: 2, scanned: 0 });
  });

  it('is the shipping clerk’s', async () => {
    await refusalOf(nobody.get(`/label-queue?campaign_id=${spring}`), 403);
    await refusalOf(nobody.get('/campaigns/outbound'), 403);
  });
});

describe('the campaign scan-out', () => {
  let autumnTracking: string;
  let springTracking: string[];

  beforeAll(async () => {
    const autumnLabel = await labelStep(idsOf(autumnOrders), autumn);
    autumnTracking = autumnLabel.results[0]!.package!.tracking_number;
    const packages = await t.db.query<{ tracking_number: string }>(
      `SELECT tracking_number FROM packages WHERE order_id = ANY ($1::bigint[]) ORDER BY id`,
      [idsOf(springOrders)],
    );
    springTracking = packages.map((row) => row.tracking_number);
  });

  const scan = (code: string, campaignId?: number) =>
    dataOf<ShipScanAnswer>(
      clerk.post('/ship-scans', {
        code,
        station: 'Dock 2',
        ...(campaignId !== undefined && { campaign_id: campaignId }),
      }),
    );

  it('shows a parcel of another campaign as such, and ships nothing', async () => {
    const words = `Order ${autumnOrders[0]!.number} is not of campaign Spring Lifeline: put parcel ${autumnTracking} aside for its own scan-out.`;
    expect(
      await refusalOf(
        clerk.get(`/ship-scans/parcel?code=${autumnTracking}&campaign_id=${spring}`),
        409,
      ),
    ).toBe(words);
    const answer = await scan(autumnTracking, spring);
    expect(answer).toMatchObject({ result: 'other_campaign', message: words });
    expect(answer.parcel?.package.status).toBe('label_created');
    expect(await statusOf('orders', autumnOrders[0]!.orderId)).toBe('labeled');
  });

  it('looks up and ships the campaign’s parcels; the progress reaches every order', async () => {
    const parcel = await dataOf<Parcel>(
      clerk.get(`/ship-scans/parcel?code=${springTracking[0]}&campaign_id=${spring}`),
    );
    expect(parcel.package.order_number).toBe(springOrders[0]!.number);
    for (const tracking of springTracking) {
      expect((await scan(tracking, spring)).result).toBe('shipped');
    }
    expect(await progressOf(spring)).toMatchObject({ orders: 2, labeled: 2, scanned: 2 });
    // The same parcel at the whole dock, or again in its campaign: already shipped.
    expect((await scan(springTracking[0]!, spring)).result).toBe('already_shipped');
  });

  it('answers 404 for an unknown campaign', async () => {
    await refusalOf(clerk.post('/ship-scans', { code: autumnTracking, campaign_id: 999999 }), 404);
    expect(await statusOf('orders', autumnOrders[0]!.orderId)).toBe('labeled');
  });
});

describe('the campaigns the desk and the dock work for', () => {
  it('are the open ones and the closed ones with orders still to ship', async () => {
    const admin = await signedIn('fm', ['Fulfilment Manager']);
    expect((await outbound()).map((c) => c.name)).toEqual(['Autumn Lifeline', 'Spring Lifeline']);
    await dataOf(admin.post(`/campaigns/${spring}/close`, {}));
    await dataOf(admin.post(`/campaigns/${autumn}/close`, {}));
    // Spring is shipped whole: closed, it is done; autumn's parcel is still to go.
    expect((await outbound()).map((c) => c.name)).toEqual(['Autumn Lifeline']);
  });
});
