import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  CarrierUpdate,
  CarrierUpdateBoard,
  CarrierUpdateFile,
  FulfilmentOrderRow,
  ImportBatch,
  LabelBatch,
  LabelQueue,
  LabelStepAnswer,
  OrderDetail,
  PickOrder,
  PickScanAnswer,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createTestApp, type TestApp } from '../../test/test-app.js';
import { jobsOf } from '../../toolkit/jobs.js';
import { sweepFailedUpdates } from './carrier-updates.service.js';
import {
  placeOrder,
  seedBox,
  seedShop,
  seedSims,
  signedIn,
  type Shop,
} from './fulfilment.test-support.js';

/**
 * The queues of their own and the carrier updates (DOMAIN.md 4.14): the station scoped to its
 * queue, an OTA order's pairing opened at its last pick and the label refused until the carrier's
 * OK, the batch file's export and the answer file's import, retry and re-pair, the HTTP endpoint
 * (a stand-in on a free port), the sweep of failures too old, a prepaid line's MDN, an existing
 * customer's device change.
 */

let t: TestApp;
let shop: Shop;
let cs: ApiClient;
let manager: { id: number; client: ApiClient };
let picker: { id: number; client: ApiClient };
let clerk: ApiClient;
let vendorManager: ApiClient;

beforeAll(async () => {
  t = await createTestApp();
  shop = await seedShop(t.db);
  cs = (await signedIn(t, 'cu.cs', ['Customer Support', 'Fulfilment Manager'])).client;
  manager = await signedIn(t, 'cu.fm', ['Fulfilment Manager']);
  picker = await signedIn(t, 'cu.fw', ['Fulfilment Worker']);
  clerk = (await signedIn(t, 'cu.sh', ['Shipping Clerk'])).client;
  vendorManager = (await signedIn(t, 'cu.vm', ['Invoice Management'])).client;
});
afterAll(() => t.close());

type Type = 'ota' | 'prepaid' | 'existing_customer' | 'replacement';

/** A ready order of the type, one unit in stock, assigned to the picker. */
async function assigned(type: Type, onShop = shop, simSwap = false) {
  const { imeis } = await seedBox(t.db, onShop, 1);
  const [iccid] = await seedSims(t.db, onShop.carrierId, 1);
  const order = await placeOrder(cs, onShop, {
    fulfilment_type: type,
    program: type === 'prepaid' ? 'prepaid' : 'lifeline',
    lines: [{ listing_id: onShop.listingId, qty: 1 }],
    ...(simSwap && { sim_swap: true }),
  });
  expect(order.status).toBe('ready');
  await dataOf(
    manager.client.post('/fulfilment/assignments', {
      assignee_id: picker.id,
      order_ids: [order.id],
    }),
  );
  const picked = await dataOf<PickOrder>(
    picker.client.get(`/fulfilment/picks/lookup?number=${order.number}&queue=${type}`),
  );
  return {
    id: order.id,
    number: order.number,
    imei: picked.units[0]!.imei ?? imeis[0]!,
    iccid: iccid!,
  };
}

const scan = (id: number, code: string, queue: Type) =>
  dataOf<PickScanAnswer>(picker.client.post(`/fulfilment/picks/${id}/scans`, { code, queue }));

/** An OTA order picked (device and SIM) at the OTA station: fulfilled, its pairing pending. */
async function pickedOta(onShop = shop) {
  const order = await assigned('ota', onShop);
  await scan(order.id, order.imei, 'ota');
  const paired = await scan(order.id, order.iccid, 'ota');
  expect(paired.order.status).toBe('fulfilled');
  return { ...order, update: paired.order.carrier_update! };
}

const updateOf = async (id: number) =>
  (
    await t.db.query<{
      status: string;
      attempts: number;
      message: string | null;
      delivery: string;
    }>('SELECT status, attempts, message, delivery FROM carrier_updates WHERE id = $1', [id])
  )[0]!;

const board = (kind: 'pairing' | 'device_change' = 'pairing') =>
  dataOf<CarrierUpdateBoard>(picker.client.get(`/carrier-updates?kind=${kind}`));

const exportFile = (carrierId = shop.carrierId, kind = 'pairing') =>
  dataOf<CarrierUpdateFile>(
    picker.client.post('/carrier-updates/exports', { client_carrier_id: carrierId, kind }),
    201,
  );

/** The carrier's answer file, uploaded, checked and committed. */
async function importAnswers(csv: string) {
  const { id, check } = await picker.client.uploadAndCheck('carrier-answers', 'answers.csv', csv);
  const committed = await picker.client.commitImport('carrier-answers', id);
  return { id, check, committed };
}

async function labelStep(orderId: number) {
  const batch = await dataOf<LabelBatch>(clerk.post('/label-batches', { format: 'pdf' }), 201);
  return dataOf<LabelStepAnswer>(
    clerk.post(`/label-batches/${batch.id}/labels`, { order_ids: [orderId] }),
  );
}

describe('the queues', () => {
  it("lists each queue's orders only and refuses an order of another queue, naming its queue", async () => {
    const prepaid = await assigned('prepaid');
    const ota = await assigned('ota');
    const otaPicks = await dataOf<PickOrder[]>(picker.client.get('/fulfilment/picks?queue=ota'));
    expect(otaPicks.map((order) => order.number)).toContain(ota.number);
    expect(otaPicks.map((order) => order.number)).not.toContain(prepaid.number);
    const standard = await dataOf<PickOrder[]>(picker.client.get('/fulfilment/picks'));
    expect(standard.map((order) => order.number)).not.toContain(ota.number);

    expect(
      await refusalOf(
        picker.client.get(`/fulfilment/picks/lookup?number=${prepaid.number}&queue=ota`),
        409,
      ),
    ).toBe(`${prepaid.number} is an order of Prepaid, not of OTA orders: pick it there.`);
    expect(
      await refusalOf(
        picker.client.post(`/fulfilment/picks/${prepaid.id}/scans`, {
          code: prepaid.imei,
          queue: 'ota',
        }),
        409,
      ),
    ).toMatch(/is an order of Prepaid/);
    // Scanned at its own station, it is picked.
    expect((await scan(prepaid.id, prepaid.imei, 'prepaid')).result).toBe('picked');
  });

  it('keeps the OTA queue to those who hold order.OTA-processing', async () => {
    await t.db.query(`INSERT INTO roles (name) VALUES ('Queue picker')`);
    await t.db.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT r.id, p.id FROM roles r, permissions p
       WHERE r.name = 'Queue picker' AND p.name = 'order.fulfill-processing'`,
    );
    const narrow = await signedIn(t, 'cu.narrow', ['Queue picker']);
    expect(await refusalOf(narrow.client.get('/fulfilment/picks?queue=ota'), 403)).toMatch(
      /order\.OTA-processing/,
    );
    await dataOf(narrow.client.get('/fulfilment/picks?queue=prepaid'));
  });

  it('shows a replacement its original order', async () => {
    const original = await assigned('ota');
    const replacement = await assigned('replacement');
    await t.db.query('UPDATE orders SET parent_order_id = $2 WHERE id = $1', [
      replacement.id,
      original.id,
    ]);
    const order = await dataOf<PickOrder>(
      picker.client.get(`/fulfilment/picks/lookup?number=${replacement.number}&queue=replacement`),
    );
    expect(order).toMatchObject({ queue: 'replacement', parent_number: original.number });
  });
});

describe('an OTA pairing by batch file', () => {
  it('is opened when the last unit is picked, and the label waits for its OK', async () => {
    const order = await assigned('ota');
    const device = await scan(order.id, order.imei, 'ota');
    expect(device.order.carrier_update).toBeNull();
    const paired = await scan(order.id, order.iccid, 'ota');
    expect(paired.order).toMatchObject({
      status: 'fulfilled',
      carrier_update: { kind: 'pairing', status: 'pending', attempts: 0 },
      label_blocker: 'The carrier pairing is not sent to the carrier yet.',
    });
    const [row] = await t.db.query<{ payload: unknown; delivery: string }>(
      'SELECT payload, delivery FROM carrier_updates WHERE order_id = $1',
      [order.id],
    );
    expect(row).toEqual({
      payload: { units: [{ imei: order.imei, iccid: order.iccid }] },
      delivery: 'batch_file',
    });

    const step = await labelStep(order.id);
    expect(step.results[0]).toMatchObject({
      result: 'refused',
      message: `Order ${order.number} is not labelled yet: The carrier pairing is not sent to the carrier yet.`,
    });
    const queue = await dataOf<LabelQueue>(clerk.get('/label-queue'));
    const waiting = queue.groups
      .flatMap((group) => group.orders)
      .find((row2) => row2.order_id === order.id);
    expect(waiting?.waiting).toBe('The carrier pairing is not sent to the carrier yet.');
  });

  it('exports pending pairings as a file and submits them; an answer ok lets the label through', async () => {
    const carrierShop = await seedShop(t.db);
    const order = await pickedOta(carrierShop);
    const file = await exportFile(carrierShop.carrierId);
    expect(file.updates).toBe(1);
    expect(await updateOf(order.update.id)).toMatchObject({ status: 'submitted', attempts: 1 });
    const csv = await t.app.inject({ method: 'GET', url: file.download.url });
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('Order,IMEI,ICCID,Kind');
    expect(csv.body).toContain(`${order.number},${order.imei},${order.iccid},pairing`);
    // Nothing left to export.
    expect(
      await refusalOf(
        picker.client.post('/carrier-updates/exports', {
          client_carrier_id: carrierShop.carrierId,
          kind: 'pairing',
        }),
        409,
      ),
    ).toMatch(/No pairing of .* waits to be exported/);
    expect((await labelStep(order.id)).results[0]!.result).toBe('refused');

    const answered = await importAnswers(`Order,Result,Message\n${order.number},OK,Paired\n`);
    expect(answered.check).toMatchObject({ willCreate: 0, willUpdate: 1 });
    expect(bodyOf<ImportBatch>(answered.committed).data.updated_count).toBe(1);
    expect(await updateOf(order.update.id)).toMatchObject({ status: 'ok', message: 'Paired' });
    expect((await labelStep(order.id)).results[0]).toMatchObject({ result: 'created' });
  });

  it('an answer failed is retried: pending for the next file, a second attempt', async () => {
    const carrierShop = await seedShop(t.db);
    const order = await pickedOta(carrierShop);
    await exportFile(carrierShop.carrierId);
    // The answer names the order by its device's IMEI.
    await importAnswers(`IMEI,Result,Message\n${order.imei},failed,ICCID not provisioned\n`);
    expect(await updateOf(order.update.id)).toMatchObject({
      status: 'failed',
      message: 'ICCID not provisioned',
    });
    expect((await labelStep(order.id)).results[0]!.message).toMatch(
      /failed: ICCID not provisioned/,
    );
    const failed = (await board()).updates.find((update) => update.id === order.update.id);
    expect(failed).toMatchObject({ status: 'failed', order_status: 'fulfilled' });

    const retried = await dataOf<CarrierUpdate>(
      picker.client.post(`/carrier-updates/${order.update.id}/retry`, {}),
    );
    expect(retried).toMatchObject({ status: 'pending', delivery: 'batch_file', attempts: 1 });
    // Only a failed update is retried.
    expect(
      await refusalOf(picker.client.post(`/carrier-updates/${order.update.id}/retry`, {}), 409),
    ).toMatch(/Only the failed latest update/);
    await exportFile(carrierShop.carrierId);
    expect(await updateOf(order.update.id)).toMatchObject({ status: 'submitted', attempts: 2 });
  });

  it('refuses answers for updates not waiting for one, row by row', async () => {
    const order = await pickedOta(await seedShop(t.db));
    const uploaded = await picker.client.uploadAndCheck(
      'carrier-answers',
      'early.csv',
      `Order,Result\n${order.number},ok\nSO-9999999,ok\n,failed\n${order.number},maybe\n`,
    );
    expect(uploaded.check.errors.map((error) => [error.row, error.message])).toEqual([
      [2, `${order.number}'s update is not exported yet: it takes no answer now.`],
      [3, 'There is no order SO-9999999.'],
      [4, 'Write the order, or the IMEI of its device.'],
      [5, 'Write ok or failed.'],
    ]);
  });

  it('re-pairs a failed pairing with another SIM: a new pairing once the new ICCID is scanned', async () => {
    const carrierShop = await seedShop(t.db);
    const order = await pickedOta(carrierShop);
    await exportFile(carrierShop.carrierId);
    await importAnswers(`Order,Result,Message\n${order.number},failed,SIM damaged\n`);
    const row = await dataOf<FulfilmentOrderRow>(
      picker.client.post(`/carrier-updates/${order.update.id}/re-pair`, {}),
    );
    expect(row.status).toBe('in_progress');
    const [sim] = await t.db.query<{ status: string }>(
      'SELECT status FROM sim_cards WHERE iccid = $1',
      [order.iccid],
    );
    expect(sim!.status).toBe('in_stock');
    const lookup = await dataOf<PickOrder>(
      picker.client.get(`/fulfilment/picks/lookup?number=${order.number}&queue=ota`),
    );
    expect(lookup.units[0]).toMatchObject({ status: 'picked', imei: order.imei, iccid: null });

    const [another] = await seedSims(t.db, carrierShop.carrierId, 1);
    const paired = await scan(order.id, another!, 'ota');
    expect(paired.order).toMatchObject({
      status: 'fulfilled',
      carrier_update: { status: 'pending', attempts: 0 },
    });
    expect(paired.order.carrier_update!.id).not.toBe(order.update.id);
    expect(await updateOf(order.update.id)).toMatchObject({ status: 'failed' });
  });

  it('cancels the open pairing when the order is unpicked', async () => {
    const order = await pickedOta();
    await dataOf(manager.client.post(`/fulfilment/orders/${order.id}/unpick`, {}));
    expect((await updateOf(order.update.id)).status).toBe('cancelled');
  });

  it('sends an order whose pairing failed longer than the setting to the backlog', async () => {
    const carrierShop = await seedShop(t.db);
    const order = await pickedOta(carrierShop);
    await exportFile(carrierShop.carrierId);
    await importAnswers(`Order,Result,Message\n${order.number},failed,No such ICCID\n`);
    expect(await sweepFailedUpdates(t.db)).toBe(0);
    await t.db.query(
      `UPDATE carrier_updates SET answered_at = now() - interval '25 hours' WHERE id = $1`,
      [order.update.id],
    );
    expect(await sweepFailedUpdates(t.db)).toBe(1);
    const detail = await dataOf<OrderDetail>(cs.get(`/orders/${order.id}/detail`));
    expect(detail).toMatchObject({
      status: 'on_hold',
      hold_reason: 'pairing_failed',
      hold_note: 'The carrier pairing failed: No such ICCID',
    });
    const [device] = await t.db.query<{ status: string }>(
      'SELECT status FROM devices WHERE identifier = $1',
      [order.imei],
    );
    expect(device!.status).toBe('in_stock');
    expect(await sweepFailedUpdates(t.db)).toBe(0);
  });
});

describe("a carrier's HTTP endpoint", () => {
  let server: Server;
  let url: string;
  const received: { auth: string | undefined; body: { order: string; units: unknown[] } }[] = [];
  /** The stand-in's answer to an order: refused (422) or failed/ok by what the test sets. */
  const answers = new Map<string, { status: number; body: unknown }>();

  const bodyText = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    server = createServer((request, response) => {
      void bodyText(request).then((text) => {
        const body = JSON.parse(text) as { order: string; units: unknown[] };
        received.push({ auth: request.headers.authorization, body });
        const answer = answers.get(body.order) ?? { status: 200, body: { result: 'ok' } };
        response.writeHead(answer.status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pairings`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settled = async (id: number) => {
    for (let tries = 0; tries < 80; tries += 1) {
      const update = await updateOf(id);
      if (update.status === 'ok' || update.status === 'failed') return update;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return updateOf(id);
  };

  it('posts each pairing with the key from a job and reads the answer: ok, or refused', async () => {
    const httpShop = await seedShop(t.db);
    await dataOf(
      vendorManager.put(`/client-carrier-links/${httpShop.carrierId}`, {
        update_url: url,
        update_key: 'secret-key-1',
        device_change_ack: true,
        pre_activation: false,
      }),
    );
    const link = await dataOf<{ has_key: boolean; update_url: string }>(
      vendorManager.get(`/client-carrier-links/${httpShop.carrierId}`),
    );
    expect(link).toMatchObject({ has_key: true, update_url: url });
    expect(JSON.stringify(link)).not.toContain('secret-key-1');

    const good = await pickedOta(httpShop);
    const refused = await pickedOta(httpShop);
    answers.set(refused.number, { status: 422, body: { message: 'IMEI not on the whitelist' } });
    expect((await updateOf(good.update.id)).delivery).toBe('http');

    const jobs = jobsOf(t.app)!;
    await jobs.start({ pollingIntervalSeconds: 0.5 });
    try {
      expect(await settled(good.update.id)).toMatchObject({ status: 'ok', attempts: 1 });
      expect(await settled(refused.update.id)).toMatchObject({
        status: 'failed',
        message: 'Refused (422): IMEI not on the whitelist',
      });
      const sent = received.find((request) => request.body.order === good.number);
      expect(sent).toEqual({
        auth: 'Bearer secret-key-1',
        body: expect.objectContaining({
          order: good.number,
          kind: 'pairing',
          units: [{ imei: good.imei, iccid: good.iccid }],
        }) as unknown,
      });
      // Retried, the next answer is ok.
      answers.delete(refused.number);
      await dataOf(picker.client.post(`/carrier-updates/${refused.update.id}/retry`, {}));
      expect(await settled(refused.update.id)).toMatchObject({ status: 'ok', attempts: 2 });
    } finally {
      await jobs.stop();
    }
    expect((await labelStep(good.id)).results[0]!.result).toBe('created');
  });
});

describe('prepaid and existing customers', () => {
  it('waits for the MDN of a line we pre-activate before the label', async () => {
    const prepaidShop = await seedShop(t.db);
    await dataOf(
      vendorManager.put(`/client-carrier-links/${prepaidShop.carrierId}`, {
        update_url: null,
        device_change_ack: true,
        pre_activation: true,
      }),
    );
    const order = await assigned('prepaid', prepaidShop);
    const picked = await scan(order.id, order.imei, 'prepaid');
    expect(picked.order).toMatchObject({
      status: 'fulfilled',
      pre_activation: true,
      mdn: null,
      carrier_update: null,
      label_blocker: "The pre-activated line's MDN is not recorded yet.",
    });
    expect((await labelStep(order.id)).results[0]!.result).toBe('refused');
    expect(
      (
        await picker.client.fieldErrors('POST', `/fulfilment/picks/${order.id}/mdn`, {
          mdn: '555-01',
        })
      ).mdn,
    ).toEqual(['Write the MDN as its ten digits.']);
    const recorded = await dataOf<PickOrder>(
      picker.client.post(`/fulfilment/picks/${order.id}/mdn`, { mdn: '(713) 555-0142' }),
    );
    expect(recorded).toMatchObject({ mdn: '7135550142', label_blocker: null });
    expect((await labelStep(order.id)).results[0]!.result).toBe('created');
  });

  it("reports an existing customer's device change, unless the carrier does not acknowledge them", async () => {
    const order = await assigned('existing_customer');
    const picked = await scan(order.id, order.imei, 'existing_customer');
    expect(picked.order.units[0]!.sim_required).toBe(false);
    expect(picked.order.carrier_update).toMatchObject({ kind: 'device_change', status: 'pending' });
    const [row] = await t.db.query<{ payload: unknown }>(
      'SELECT payload FROM carrier_updates WHERE order_id = $1',
      [order.id],
    );
    expect(row!.payload).toEqual({ units: [{ imei: order.imei, iccid: null }] });
    expect((await board('device_change')).updates.map((update) => update.order_number)).toContain(
      order.number,
    );

    // A SIM swap ships a SIM too: its ICCID goes with the device change.
    const swap = await assigned('existing_customer', shop, true);
    const device = await scan(swap.id, swap.imei, 'existing_customer');
    expect(device.order).toMatchObject({ status: 'in_progress', sim_swap: true });
    const swapped = await scan(swap.id, swap.iccid, 'existing_customer');
    expect(swapped.order.status).toBe('fulfilled');
    const [swapRow] = await t.db.query<{ payload: unknown }>(
      'SELECT payload FROM carrier_updates WHERE order_id = $1',
      [swap.id],
    );
    expect(swapRow!.payload).toEqual({ units: [{ imei: swap.imei, iccid: swap.iccid }] });
    expect(
      (
        await cs.fieldErrors('POST', '/orders', {
          client_carrier_id: shop.carrierId,
          program: 'lifeline',
          fulfilment_type: 'new_lifeline',
          sim_swap: true,
          first_name: 'Pat',
          last_name: 'Swap',
          service_address: { line1: '9 Swap St', city: 'Houston', state: 'TX', zip: '77002' },
          lines: [{ listing_id: shop.listingId, qty: 1 }],
        })
      ).sim_swap,
    ).toEqual(["Only an existing customer's device change swaps the SIM."]);

    const quietShop = await seedShop(t.db);
    await dataOf(
      vendorManager.put(`/client-carrier-links/${quietShop.carrierId}`, {
        update_url: null,
        device_change_ack: false,
        pre_activation: false,
      }),
    );
    const quiet = await assigned('existing_customer', quietShop);
    const done = await scan(quiet.id, quiet.imei, 'existing_customer');
    expect(done.order).toMatchObject({ carrier_update: null, label_blocker: null });
    expect((await labelStep(quiet.id)).results[0]!.result).toBe('created');
  });
});
