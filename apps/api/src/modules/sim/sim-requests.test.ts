import type {
  AgentReceiveAnswer,
  AgentSimRequest,
  AgentSimRequestDetail,
  AgentSimRequestOverview,
  SimAllocationAnswer,
  SimRequestDetail,
  SimRequestRow,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import {
  agentOf,
  iccidOf,
  seedAgentHistory,
  seedCarrier,
  seedPacks,
  staffOf,
  type SeededPack,
} from '../../test/sim-request-fixtures.js';
import { createRole, createTestApp, type TestApp } from '../../test/test-app.js';

let t: TestApp;
let coordinator: ApiClient;
let manager: ApiClient;
let carrier: number;
let otherCarrier: number;

beforeAll(async () => {
  t = await createTestApp();
  coordinator = await staffOf(t, ['SIM Coordinator']);
  await createRole(t.db, 'SIM manager', [
    'sim-requests.index',
    'sim-requests.approve',
    'sim-requests.approve-low-rate',
  ]);
  manager = await staffOf(t, ['SIM manager']);
  carrier = await seedCarrier(t.db);
  otherCarrier = await seedCarrier(t.db);
});
afterAll(() => t.close());

const request = (agent: ApiClient, qty: number, carrierId = carrier) =>
  dataOf<AgentSimRequest>(
    agent.post('/agent/sim-requests', {
      client_carrier_id: carrierId,
      qty,
      delivery: 'ship',
      ship_to: '12 Main St, Austin, TX 78701',
    }),
    201,
  );
const approve = (id: number, qty: number, by = coordinator) =>
  dataOf<SimRequestDetail>(by.post(`/sim-requests/${id}/approval`, { qty_approved: qty }));
/** A 422's messages by field. */
const errorsOf = async (answer: Promise<unknown>) => (await answer) as Record<string, string[]>;

const scan = (id: number, code: string) =>
  dataOf<SimAllocationAnswer>(coordinator.post(`/sim-requests/${id}/scans`, { code }));

describe('an agent requesting SIMs', () => {
  it('asks within the cap, one open request per carrier, and sees the figures', async () => {
    const agent = await agentOf(t, 50);
    const made = await request(agent.api, 30);
    expect(made).toMatchObject({ status: 'submitted', qty_requested: 30, delivery: 'ship' });
    expect(made.number).toMatch(/^SR-\d{6}$/);

    const again = await refusalOf(
      agent.api.post('/agent/sim-requests', {
        client_carrier_id: carrier,
        qty: 5,
        delivery: 'pickup',
      }),
      409,
    );
    expect(again).toMatch(/open request for .* already \(SR-\d+, submitted\)/);

    // 30 asked for already: 25 more of another carrier would pass the cap of 50.
    const over = await errorsOf(
      agent.api.fieldErrors('POST', '/agent/sim-requests', {
        client_carrier_id: otherCarrier,
        qty: 25,
        delivery: 'pickup',
      }),
    );
    expect(over['qty']).toEqual([
      'You hold 0 SIMs and 30 are in open requests; your cap is 50: you may request at most 20.',
    ]);
    const overview = await dataOf<AgentSimRequestOverview>(agent.api.get('/agent/sim-requests'));
    expect(overview).toMatchObject({ sim_cap: 50, on_hand: 0, committed: 30, available: 20 });
    expect(overview.requests.map((one) => one.number)).toEqual([made.number]);
    expect(overview.carriers.map((one) => one.id)).toEqual(
      expect.arrayContaining([carrier, otherCarrier]),
    );
  });

  it('needs an address to ship, a cap set, and cancels only its own submitted request', async () => {
    const agent = await agentOf(t, 20);
    const noAddress = await errorsOf(
      agent.api.fieldErrors('POST', '/agent/sim-requests', {
        client_carrier_id: carrier,
        qty: 5,
        delivery: 'ship',
      }),
    );
    expect(noAddress['ship_to']).toEqual(['Enter the address to ship to, or choose pickup.']);
    const uncapped = await agentOf(t, null);
    const noCap = await errorsOf(
      uncapped.api.fieldErrors('POST', '/agent/sim-requests', {
        client_carrier_id: carrier,
        qty: 5,
        delivery: 'pickup',
      }),
    );
    expect(noCap['qty']![0]).toMatch(/cap is not set/);

    const made = await request(agent.api, 5);
    const stranger = await agentOf(t, 20);
    await refusalOf(stranger.api.post(`/agent/sim-requests/${made.id}/cancellation`, {}), 404);
    await refusalOf(stranger.api.get(`/agent/sim-shipments/${made.id}`), 404);
    // Agents never reach the staff queue.
    await refusalOf(agent.api.get('/sim-requests'), 403);
    await refusalOf(agent.api.post(`/sim-requests/${made.id}/approval`, { qty_approved: 1 }), 403);

    const cancelled = await dataOf<AgentSimRequest>(
      agent.api.post(`/agent/sim-requests/${made.id}/cancellation`, { reason: 'Enough for now' }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', reason: 'Enough for now' });
    // Cancelled, the carrier is free again.
    await request(agent.api, 5);
  });
});

describe('approving', () => {
  it('reduces the quantity, never past what was requested nor the cap with other requests', async () => {
    const agent = await agentOf(t, 40);
    const first = await request(agent.api, 30);
    const second = await request(agent.api, 10, otherCarrier);
    const tooMany = await errorsOf(
      coordinator.fieldErrors('POST', `/sim-requests/${first.id}/approval`, {
        qty_approved: 31,
      }),
    );
    expect(tooMany['qty_approved']).toEqual(['At most the 30 SIMs requested can be approved.']);

    await approve(second.id, 10);
    // 10 committed elsewhere: 30 more would make 40 + the SIMs on hand.
    await seedHeld(agent.id, 5);
    const capped = await errorsOf(
      coordinator.fieldErrors('POST', `/sim-requests/${first.id}/approval`, {
        qty_approved: 30,
      }),
    );
    expect(capped['qty_approved']).toEqual([
      expect.stringMatching(/has 5 on hand and 10 in other requests; the cap is 40: at most 25/),
    ]);
    const approved = await approve(first.id, 25);
    expect(approved).toMatchObject({
      status: 'approved',
      qty_approved: 25,
      rate_override: false,
      agent_on_hand: 5,
      agent_committed: 10,
      agent_sim_cap: 40,
    });
    expect(approved.approved_by_name).toBeTruthy();
    expect(approved.events[0]).toMatchObject({ type: 'approved', to_status: 'approved' });
    await refusalOf(
      coordinator.post(`/sim-requests/${first.id}/approval`, { qty_approved: 1 }),
      409,
    );
  });

  it('leaves a low activation rate to a manager, and records the override', async () => {
    const agent = await agentOf(t, 100);
    await seedAgentHistory(t.db, agent.id, carrier, 30, 3);
    const made = await request(agent.api, 10);
    const list = await dataOf<{ items: SimRequestRow[] }>(
      coordinator.get(`/sim-requests?agent_id=${agent.id}`),
    );
    expect(list.items[0]).toMatchObject({
      agent_activated: 3,
      agent_received: 30,
      agent_activation_rate: 0.1,
    });
    const refused = await refusalOf(
      coordinator.post(`/sim-requests/${made.id}/approval`, { qty_approved: 10 }),
      403,
    );
    expect(refused).toMatch(/activation rate is 10% \(3 activated of 30 received\), under 20%/);
    const approved = await approve(made.id, 10, manager);
    expect(approved).toMatchObject({ status: 'approved', rate_override: true, low_rate: true });
  });

  it('rejects with a reason', async () => {
    const agent = await agentOf(t, 10);
    const made = await request(agent.api, 5);
    const noReason = await errorsOf(
      coordinator.fieldErrors('POST', `/sim-requests/${made.id}/rejection`, {
        reason: ' ',
      }),
    );
    expect(noReason['reason']).toBeDefined();
    const rejected = await dataOf<SimRequestDetail>(
      coordinator.post(`/sim-requests/${made.id}/rejection`, { reason: 'Territory closed' }),
    );
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'Territory closed' });
    const filtered = await dataOf<{ items: SimRequestRow[] }>(
      coordinator.get(`/sim-requests?status=rejected&agent_id=${agent.id}`),
    );
    expect(filtered.items.map((row) => row.id)).toEqual([made.id]);
  });
});

/** `count` SIMs the agent holds (with the agent), received by hand. */
async function seedHeld(agentId: number, count: number) {
  const [pack] = await seedPacks(t.db, carrier, 1, count);
  await t.db.query(
    `UPDATE sim_cards SET status = 'with_agent', agent_id = $2 WHERE sim_pack_id = $1`,
    [pack!.id, agentId],
  );
}

describe('allocating, packing, printing and shipping', () => {
  let agent: { id: number; api: ApiClient };
  let made: AgentSimRequest;
  let packs: SeededPack[];

  beforeAll(async () => {
    agent = await agentOf(t, 40);
    made = await request(agent.api, 25);
    packs = await seedPacks(t.db, carrier, 3, 10);
  });

  it('refuses scans before approval', async () => {
    const refused = await refusalOf(
      coordinator.post(`/sim-requests/${made.id}/scans`, { code: packs[0]!.code }),
      409,
    );
    expect(refused).toMatch(/submitted: only an approved request takes SIMs/);
    await approve(made.id, 25);
  });

  it('allocates a pack, answers a repeat as done, and never past the approved quantity', async () => {
    const first = await scan(made.id, packs[0]!.code);
    expect(first).toMatchObject({ result: 'allocated', qty_allocated: 10, qty_approved: 25 });
    expect(first.added).toHaveLength(10);
    const repeat = await scan(made.id, packs[0]!.code.toLowerCase());
    expect(repeat).toMatchObject({ result: 'already_allocated', qty_allocated: 10 });
    expect((await scan(made.id, packs[0]!.iccids[3]!)).result).toBe('already_allocated');
    await scan(made.id, packs[1]!.code);
    const tooBig = await scan(made.id, packs[2]!.code);
    expect(tooBig).toMatchObject({ result: 'over_approved', qty_allocated: 20 });
    expect(tooBig.message).toMatch(/10 SIMs in stock but SR-\d+ takes 5 more/);
    for (const iccid of packs[2]!.iccids.slice(0, 5)) {
      expect((await scan(made.id, iccid)).result).toBe('allocated');
    }
    const full = await scan(made.id, packs[2]!.iccids[5]!);
    expect(full).toMatchObject({ result: 'over_approved', qty_allocated: 25 });
  });

  it('refuses SIMs not in stock, of another carrier or request, unknown or mistyped', async () => {
    const [foreign] = await seedPacks(t.db, otherCarrier, 1, 2);
    expect((await scan(made.id, foreign!.iccids[0]!)).result).toBe('wrong_carrier');
    const bad = await scan(made.id, '8901260123');
    expect(bad.result).toBe('invalid');
    expect((await scan(made.id, iccidOf(99_999_999_999))).result).toBe('unknown');
    expect((await scan(made.id, 'SP-999999999')).result).toBe('unknown');

    const otherAgent = await agentOf(t, 40);
    const other = await request(otherAgent.api, 5);
    await approve(other.id, 5);
    const taken = await scan(other.id, packs[0]!.iccids[0]!);
    expect(taken.result).toBe('other_request');
    expect(taken.message).toContain(made.number);
  });

  it('takes a SIM off, packs when allocated = approved, unpacks and packs again', async () => {
    const off = await dataOf<SimRequestDetail>(
      coordinator.post(`/sim-requests/${made.id}/unallocations`, { iccid: packs[2]!.iccids[0] }),
    );
    expect(off.qty_allocated).toBe(24);
    const [back] = await t.db.query<{ status: string; sim_request_id: number | null }>(
      `SELECT status, sim_request_id FROM sim_cards WHERE iccid = $1`,
      [packs[2]!.iccids[0]],
    );
    expect(back).toEqual({ status: 'in_stock', sim_request_id: null });
    const short = await refusalOf(coordinator.post(`/sim-requests/${made.id}/pack`, {}), 409);
    expect(short).toMatch(/24 of 25 SIMs allocated/);
    await scan(made.id, packs[2]!.iccids[0]!);
    const packed = await dataOf<SimRequestDetail>(
      coordinator.post(`/sim-requests/${made.id}/pack`, {}),
    );
    expect(packed.status).toBe('packed');
    const locked = await refusalOf(
      coordinator.post(`/sim-requests/${made.id}/scans`, { code: packs[2]!.iccids[6] }),
      409,
    );
    expect(locked).toMatch(/packed: open it again/);
    await dataOf(coordinator.post(`/sim-requests/${made.id}/unpack`, {}));
    await dataOf(coordinator.post(`/sim-requests/${made.id}/pack`, {}));
  });

  it('prints the packing slip and the label', async () => {
    const slip = await coordinator.download(`/sim-requests/${made.id}/packing-slip`, {});
    expect(slip.statusCode).toBe(200);
    expect(slip.headers['content-type']).toMatch(/pdf/);
    const label = await coordinator.download(`/sim-requests/${made.id}/label`, { format: 'zpl' });
    expect(label.statusCode).toBe(200);
    expect(label.body).toContain(made.number);
  });

  it('ships: the SIMs go in transit; the agent receives them and reports what is missing', async () => {
    const shipped = await dataOf<SimRequestDetail>(
      coordinator.post(`/sim-requests/${made.id}/shipment`, { tracking_number: '1Z999' }),
    );
    expect(shipped).toMatchObject({ status: 'shipped', tracking_number: '1Z999' });
    expect(new Set(shipped.sims.map((sim) => sim.status))).toEqual(new Set(['in_transit']));

    const incoming = await dataOf<AgentSimRequest[]>(agent.api.get('/agent/sim-shipments'));
    expect(incoming.map((one) => one.id)).toEqual([made.id]);
    const path = `/agent/sim-shipments/${made.id}/scans`;
    const received = await dataOf<AgentReceiveAnswer>(
      agent.api.post(path, { code: packs[0]!.code }),
    );
    expect(received).toMatchObject({ result: 'received', qty_scanned: 10, qty_shipped: 25 });
    const repeat = await dataOf<AgentReceiveAnswer>(agent.api.post(path, { code: packs[0]!.code }));
    expect(repeat.result).toBe('already_received');
    await dataOf(agent.api.post(path, { code: packs[1]!.code }));
    for (const iccid of packs[2]!.iccids.slice(0, 4)) {
      expect((await dataOf<AgentReceiveAnswer>(agent.api.post(path, { code: iccid }))).result).toBe(
        'received',
      );
    }
    // A SIM still in stock is no SIM of the agent's.
    const stranger = await dataOf<AgentReceiveAnswer>(
      agent.api.post(path, { code: packs[2]!.iccids[9] }),
    );
    expect(stranger.result).toBe('not_yours');
    // Another agent reaches neither the shipment nor its scans.
    const other = await agentOf(t, 10);
    await refusalOf(other.api.post(path, { code: packs[2]!.iccids[4] }), 404);

    const [held] = await t.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM sim_cards WHERE agent_id = $1 AND status = 'with_agent'`,
      [agent.id],
    );
    expect(held!.count).toBe(24);
    const done = await dataOf<AgentSimRequestDetail>(
      agent.api.post(`/agent/sim-shipments/${made.id}/receipt`, {}),
    );
    expect(done).toMatchObject({ status: 'received', qty_received: 24, qty_missing: 1 });
    const staffView = await dataOf<SimRequestDetail>(
      coordinator.get(`/sim-requests/${made.id}/detail`),
    );
    expect(staffView.missing_iccids).toEqual([packs[2]!.iccids[4]]);
    expect(staffView.events[0]).toMatchObject({ type: 'missing_reported' });
    const [ledger] = await t.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM agent_sim_ledger
       WHERE agent_id = $1 AND entry = 'received' AND sim_request_id = $2`,
      [agent.id, made.id],
    );
    expect(ledger!.count).toBe(24);
    await refusalOf(agent.api.post(`/agent/sim-shipments/${made.id}/receipt`, {}), 409);
  });

  it('hands a pickup over without a tracking number', async () => {
    const pickupAgent = await agentOf(t, 10);
    const made = await dataOf<AgentSimRequest>(
      pickupAgent.api.post('/agent/sim-requests', {
        client_carrier_id: carrier,
        qty: 2,
        delivery: 'pickup',
      }),
      201,
    );
    await approve(made.id, 2);
    const [pack] = await seedPacks(t.db, carrier, 1, 2);
    await scan(made.id, pack!.code);
    await dataOf(coordinator.post(`/sim-requests/${made.id}/pack`, {}));
    const refused = await errorsOf(
      coordinator.fieldErrors('POST', `/sim-requests/${made.id}/shipment`, {
        tracking_number: '1Z1',
      }),
    );
    expect(refused['tracking_number']).toBeDefined();
    const handed = await dataOf<SimRequestDetail>(
      coordinator.post(`/sim-requests/${made.id}/shipment`, {}),
    );
    expect(handed).toMatchObject({ status: 'shipped', tracking_number: null, delivery: 'pickup' });
  });
});
