import { createHmac } from 'node:crypto';
import type {
  CancelRequest,
  LabelBatch,
  LabelStepAnswer,
  PackageRow,
  ParcelTracking,
  TrackingRefreshAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import {
  apiClient,
  dataOf,
  refusalOf,
  signedInClient,
  type ApiClient,
} from '../../test/api-client.js';
import { createUser, login, type TestApp } from '../../test/test-app.js';
import { pdfPages } from '../../test/pdf-text.js';
import { CarrierUnavailable } from './carrier-adapter.js';
import { easyPostCarrier } from './easypost-carrier.js';
import { easyPostTestApp, WEBHOOK_SECRET, type EasyPostStandIn } from './easypost.test-support.js';
import { seedFulfilledOrders, type FulfilledOrder } from './shipment.test-support.js';
import { shippedParcels } from './tracking.test-support.js';
import { EASYPOST_SIGNATURE_REFUSED } from './tracking.routes.js';

const WEBHOOK = '/api/v1/parcel-shipments/tracking-webhooks/easypost';

let standIn: EasyPostStandIn;
let t: TestApp;
let clerk: ApiClient;

beforeAll(async () => {
  ({ t, standIn } = await easyPostTestApp());
  await createUser(t.db, {
    userName: 'clerk',
    password: 'clerk-password-1',
    roles: ['Shipping Clerk'],
  });
  clerk = apiClient(t, await login(t.app, 'clerk', 'clerk-password-1'));
});
afterAll(() => t.close());

const newBatch = (format: 'pdf' | 'zpl' = 'pdf') =>
  dataOf<LabelBatch>(clerk.post('/label-batches', { format }), 201);

const labelStep = (batchId: number, orders: readonly FulfilledOrder[]) =>
  clerk.post(`/label-batches/${batchId}/labels`, { order_ids: orders.map((o) => o.orderId) });

const shipmentOfOrder = (order: FulfilledOrder, generation = 0) =>
  [...standIn.shipments.values()].find(
    (shipment) => shipment.reference === `${order.orderId}-${generation}`,
  );

/** An EasyPost Event as its webhook posts it, signed under `secret`. */
function webhookPost(event: unknown, secret: string | null = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = secret && createHmac('sha256', secret).update(payload).digest('hex');
  return t.app.inject({
    method: 'POST',
    url: WEBHOOK,
    headers: {
      'content-type': 'application/json',
      ...(signature && { 'x-hmac-signature': `hmac-sha256-hex=${signature}` }),
    },
    payload,
  });
}

describe('the EasyPost adapter', () => {
  it('needs its API key to be chosen', () => {
    expect(() => loadConfig({ CARRIER_ADAPTER: 'easypost' })).toThrow(ConfigError);
    expect(loadConfig({}).carrier).toEqual({ adapter: 'offline' });
  });

  it("buys a label at the service's rate and prints EasyPost's own label file", async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, devices: 2 });
    const batch = await newBatch();
    const answer = await dataOf<LabelStepAnswer>(labelStep(batch.id, [order!]));
    expect(answer.results[0]).toMatchObject({ result: 'created' });
    const parcel = answer.results[0]!.package!;
    const shipment = shipmentOfOrder(order!)!;
    expect(shipment.tracking_code).toBe(parcel.tracking_number);
    expect(shipment).toMatchObject({
      // Two devices of 180 g and 170 g of packaging: 530 g, 18.7 oz.
      parcel: { weight: 18.7 },
      selected_rate: { carrier: 'USPS', service: 'GroundAdvantage' },
      options: { label_format: 'PDF', print_custom_1: order!.number },
      to_address: { street1: '12 Elm St', city: 'Houston', state: 'TX', zip: '77002' },
    });
    expect(parcel).toMatchObject({ carrier: 'usps', service: 'usps_ground_advantage' });
    const [kept] = await t.db.query<{ carrier_ref: string; format: string }>(
      'SELECT carrier_ref, format FROM package_carrier_labels WHERE package_id = $1',
      [parcel.id],
    );
    expect(kept).toEqual({ carrier_ref: shipment.id, format: 'pdf' });

    const printed = await clerk.download(`/label-batches/${batch.id}/print`, { copies: 2 });
    expect(printed.statusCode).toBe(200);
    const pages = await pdfPages(printed.rawPayload);
    expect(pages.map((page) => page.text)).toEqual([
      [`EASYPOST TEST LABEL ${parcel.tracking_number}`],
      [`EASYPOST TEST LABEL ${parcel.tracking_number}`],
    ]);
    expect(
      await refusalOf(clerk.post(`/packages/${parcel.id}/label`, { format: 'zpl' }), 409),
    ).toBe(`Label ${parcel.tracking_number} is the carrier's own PDF file: print it as PDF.`);
  });

  it('prints a ZPL batch as the carrier made it', async () => {
    const [order] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'overnight' });
    const batch = await newBatch('zpl');
    const answer = await dataOf<LabelStepAnswer>(labelStep(batch.id, [order!]));
    const parcel = answer.results[0]!.package!;
    expect(parcel).toMatchObject({ carrier: 'ups', service: 'ups_next_day_air' });
    expect(parcel.tracking_number).toMatch(/^1Z/);
    const printed = await clerk.download(`/packages/${parcel.id}/label`, { format: 'zpl' });
    expect(printed.body).toBe(
      `^XA^FO50,50^A0N,40,40^FDEASYPOST TEST LABEL^FS^FO50,120^BCN,200,Y,N,N^FD${parcel.tracking_number}^FS^XZ\n`,
    );
  });

  it('never buys a second label when a failed step is retried', async () => {
    const orders = await seedFulfilledOrders(t.db, { count: 2 });
    const batch = await newBatch();
    const before = standIn.purchases();
    // The first order's label is bought; EasyPost fails buying the second's.
    standIn.failNext('POST /v2/shipments/:id/buy', 503, 1);
    const failed = await refusalOf(labelStep(batch.id, orders), 502);
    expect(failed).toMatch(
      /^EasyPost did not answer when asked for the label of order .* \(HTTP 503\); try again\.$/,
    );
    expect(standIn.purchases()).toBe(before + 1);
    const [none] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM packages WHERE order_id = ANY ($1::bigint[])',
      [orders.map((order) => order.orderId)],
    );
    expect(none!.n).toBe(0);
    const firstBought = shipmentOfOrder(orders[0]!)!.tracking_code;

    const retried = await dataOf<LabelStepAnswer>(labelStep(batch.id, orders));
    expect(retried.results.map((result) => result.result)).toEqual(['created', 'created']);
    expect(retried.results[0]!.package!.tracking_number).toBe(firstBought);
    expect(standIn.purchases()).toBe(before + 2);
    expect(
      [...standIn.shipments.values()].filter((shipment) =>
        orders.some((order) => shipment.reference === `${order.orderId}-0`),
      ),
    ).toHaveLength(2);
  });

  it("refuses, by order, what EasyPost refuses, in EasyPost's words, and labels the rest", async () => {
    const [badAddress, good] = await seedFulfilledOrders(t.db, { count: 2 });
    const [hawaii] = await seedFulfilledOrders(t.db, { count: 1, shipMethod: 'overnight' });
    await t.db.query("UPDATE order_ship_to SET zip = '00000' WHERE order_id = $1", [
      badAddress!.orderId,
    ]);
    await t.db.query("UPDATE order_ship_to SET state = 'HI', zip = '96813' WHERE order_id = $1", [
      hawaii!.orderId,
    ]);
    const batch = await newBatch();
    const answer = await dataOf<LabelStepAnswer>(
      labelStep(batch.id, [badAddress!, good!, hawaii!]),
    );
    expect(answer.results.map((result) => [result.result, result.message])).toEqual([
      [
        'refused',
        `EasyPost refused the shipment of order ${badAddress!.number}: Unable to verify address.; address: Address not found`,
      ],
      ['created', expect.stringMatching(/^Label \d+ created\.$/)],
      ['refused', `EasyPost has no UPS Next Day Air rate for order ${hawaii!.number}.`],
    ]);
    const statuses = await t.db.query<{ status: string }>(
      'SELECT status FROM orders WHERE id = ANY ($1::bigint[]) ORDER BY id',
      [[badAddress!.orderId, good!.orderId, hawaii!.orderId]],
    );
    expect(statuses.map((row) => row.status)).toEqual(['fulfilled', 'labeled', 'fulfilled']);
  });

  it('voids a label by refunding its shipment, a refund asked for already included', async () => {
    const [first, second] = await seedFulfilledOrders(t.db, { count: 2 });
    const batch = await newBatch();
    const answer = await dataOf<LabelStepAnswer>(labelStep(batch.id, [first!, second!]));
    const [one, two] = answer.results.map((result) => result.package!);
    const voided = await dataOf<PackageRow>(clerk.post(`/packages/${one!.id}/void`, {}));
    expect(voided).toMatchObject({ status: 'voided', order_status: 'fulfilled' });
    expect(shipmentOfOrder(first!)!.refund_status).toBe('submitted');
    // Refunded in EasyPost's dashboard before the desk voided it: EasyPost refuses a second
    // refund, and the void goes through.
    shipmentOfOrder(second!)!.refund_status = 'submitted';
    expect(await dataOf<PackageRow>(clerk.post(`/packages/${two!.id}/void`, {}))).toMatchObject({
      status: 'voided',
    });
    // Labelled again: a new shipment under the label's next key.
    const again = await dataOf<LabelStepAnswer>(labelStep(batch.id, [first!]));
    expect(again.results[0]!.package!.tracking_number).toBe(
      shipmentOfOrder(first!, 1)!.tracking_code,
    );
  });

  it("tracks parcels by EasyPost's trackers, normalised, and by its signed webhook", async () => {
    const [order, other] = await seedFulfilledOrders(t.db, { count: 2 });
    const batch = await newBatch();
    const answer = await dataOf<LabelStepAnswer>(labelStep(batch.id, [order!, other!]));
    const [parcel, second] = answer.results.map((result) => result.package!);
    for (const shipped of [parcel!, second!]) {
      await dataOf(clerk.post('/ship-scans', { code: shipped.tracking_number, station: 'Dock 1' }));
    }
    const hour = 3_600_000;
    const start = Date.now() - 30 * hour;
    standIn.scan(
      parcel!.tracking_number,
      'in_transit',
      'Accepted at USPS Origin Facility',
      new Date(start),
    );
    standIn.scan(
      parcel!.tracking_number,
      'in_transit',
      'Out for Delivery',
      new Date(start + 20 * hour),
    );
    const refreshed = await dataOf<TrackingRefreshAnswer>(
      clerk.post('/parcel-shipments/tracking-refreshes', { package_ids: [parcel!.id, second!.id] }),
    );
    expect(refreshed).toEqual({ asked: 2, recorded: 2, moved: 1 });
    const tracking = await dataOf<ParcelTracking>(
      clerk.get(`/parcel-shipments/${parcel!.id}/tracking`),
    );
    expect(tracking.shipment).toMatchObject({
      status: 'out_for_delivery',
      tracking_status: 'out_for_delivery',
      last_event_location: 'DALLAS, TX 75247',
    });
    expect(tracking.events.map((event) => [event.status, event.source])).toEqual([
      ['out_for_delivery', 'adapter'],
      ['in_transit', 'adapter'],
    ]);

    // Delivered, as EasyPost's webhook says.
    standIn.scan(
      parcel!.tracking_number,
      'delivered',
      'Delivered, In/At Mailbox',
      new Date(start + 26 * hour),
    );
    const [tracker] = [...standIn.trackers.values()].filter(
      (found) => found.tracking_code === parcel!.tracking_number,
    );
    const event = { object: 'Event', id: 'evt_1', description: 'tracker.updated', result: tracker };
    expect(await refusalOf(webhookPost(event, 'another secret'), 401)).toBe(
      EASYPOST_SIGNATURE_REFUSED,
    );
    expect(await refusalOf(webhookPost(event, null), 401)).toBe(EASYPOST_SIGNATURE_REFUSED);
    expect(await dataOf<TrackingRefreshAnswer>(webhookPost(event))).toEqual({
      asked: 1,
      recorded: 1,
      moved: 1,
    });
    // EasyPost sends an Event again when it was not sure we took it: the parcel delivered is no
    // longer on its way, and nothing is recorded twice.
    expect(await dataOf<TrackingRefreshAnswer>(webhookPost(event))).toEqual({
      asked: 0,
      recorded: 0,
      moved: 0,
    });
    const delivered = await dataOf<ParcelTracking>(
      clerk.get(`/parcel-shipments/${parcel!.id}/tracking`),
    );
    expect(delivered.shipment).toMatchObject({ status: 'delivered', order_status: 'delivered' });
    expect(delivered.events[0]).toMatchObject({ status: 'delivered', source: 'webhook' });

    // Other Events are taken and passed over; a tracker's must carry one.
    expect(
      await dataOf<TrackingRefreshAnswer>(
        webhookPost({ object: 'Event', description: 'batch.updated', result: { object: 'Batch' } }),
      ),
    ).toEqual({ asked: 0, recorded: 0, moved: 0 });
    const refused = await webhookPost({
      description: 'tracker.updated',
      result: { object: 'Batch' },
    });
    expect(refused.statusCode).toBe(422);
  });

  it("opens an RMA for a shipped order's cancellation, as EasyPost intercepts no parcel", async () => {
    const support = await signedInClient(t, 'support', ['Customer Support']);
    const manager = await signedInClient(t, 'manager', ['Fulfilment Manager']);
    const [parcel] = await shippedParcels(t, clerk, 1);
    const request = await dataOf<CancelRequest>(
      support.post('/cancel-requests', {
        order_number: parcel!.orderNumber,
        requester: 'customer',
        reason: 'Ordered twice',
      }),
      201,
    );
    const decided = await dataOf<CancelRequest>(
      manager.post(`/cancel-requests/${request.id}/approval`, {}),
    );
    expect(decided).toMatchObject({ status: 'return_required', stage: 'shipped' });
    expect(decided.rma_number).toMatch(/^RMA-/);
    const [rma] = await t.db.query<{ reason: string; devices: number; shipped: number }>(
      `SELECT r.reason, count(l.id)::int AS devices,
         (SELECT count(*)::int FROM order_lines ol JOIN order_line_units u ON u.order_line_id = ol.id
          WHERE ol.order_id = r.order_id AND u.device_id IS NOT NULL) AS shipped
       FROM rmas r JOIN rma_lines l ON l.rma_id = r.id WHERE r.id = $1 GROUP BY r.id`,
      [decided.rma_id],
    );
    expect(rma).toMatchObject({ reason: 'cancelled_after_shipping' });
    expect(rma!.devices).toBe(rma!.shipped);
  });

  it('says which setting is wrong when EasyPost refuses the API key', async () => {
    const carrier = easyPostCarrier({ apiKey: 'EZTK_wrong', baseUrl: standIn.baseUrl });
    const refused = carrier.track([
      { carrier: 'usps', trackingNumber: '9400100000000000000000', shippedAt: new Date() },
    ]);
    await expect(refused).rejects.toBeInstanceOf(CarrierUnavailable);
    await expect(refused).rejects.toMatchObject({
      statusCode: 502,
      message:
        'EasyPost refused the API key when asked for the trackers of 9400100000000000000000: set a valid EASYPOST_API_KEY.',
    });
  });
});
