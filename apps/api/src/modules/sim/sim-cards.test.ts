import type { SimBoxRow, SimCardRow, SimTransferAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { agent, attIccids, carrier, countOf, signedIn } from './sim-stock.test-support.js';

/**
 * The SIM list (`/sim`): filters and keyset pages, marking defective or lost with a reason
 * (through the SIM lifecycle), and transfers between agents (cap, holder, both ledgers).
 */

let t: TestApp;
let coordinator: ApiClient;
let clerk: ApiClient;
let carrierId: number;
let otherCarrierId: number;
let box: SimBoxRow;
let iccids: string[];
let ann: number;
let bob: number;
let cat: number;
let gone: number;

type Page = { items: SimCardRow[]; nextCursor: string | null };

const simIdsOf = async (list: readonly string[]) =>
  (
    await t.db.query<{ id: number }>(
      'SELECT id::int AS id FROM sim_cards WHERE iccid = ANY ($1::text[]) ORDER BY iccid',
      [list],
    )
  ).map((row) => row.id);

/** Hands SIMs to an agent as a received shipment would have. */
const handTo = (agentId: number, list: readonly string[]) =>
  t.db.query(
    `UPDATE sim_cards SET status = 'with_agent', agent_id = $2 WHERE iccid = ANY ($1::text[])`,
    [list, agentId],
  );

beforeAll(async () => {
  t = await createTestApp();
  carrierId = await carrier(t, 'AirTalk Wireless');
  otherCarrierId = await carrier(t, 'Other Wireless');
  coordinator = await signedIn(t, 'sc', ['SIM Coordinator']);
  // Sorting: sim.index without sim.transfer.
  clerk = await signedIn(t, 'ws', ['Warehouse Sorting']);
  iccids = attIccids(890141020000000000n, 40);
  box = await dataOf<SimBoxRow>(
    coordinator.post('/sim-boxes', {
      client_carrier_id: carrierId,
      qty: 40,
      iccid_first: iccids[0],
      iccid_last: iccids[39],
    }),
    201,
  );
  const other = attIccids(890141020000100000n, 5);
  await dataOf(
    coordinator.post('/sim-boxes', {
      client_carrier_id: otherCarrierId,
      qty: 5,
      iccid_first: other[0],
      iccid_last: other[4],
    }),
    201,
  );
  ann = await agent(t, 'ann', 12);
  bob = await agent(t, 'bob', 6);
  cat = await agent(t, 'cat', null);
  gone = await agent(t, 'gone', null, false);
  await handTo(ann, iccids.slice(0, 10));
  await handTo(bob, iccids.slice(10, 14));
}, 120_000);
afterAll(() => t.close());

describe('the list', () => {
  it('pages newest first with a cursor, and by ICCID', async () => {
    const first = await dataOf<Page>(coordinator.get('/sims?limit=20'));
    expect(first.items).toHaveLength(20);
    const second = await dataOf<Page>(
      coordinator.get(`/sims?limit=20&cursor=${encodeURIComponent(first.nextCursor!)}`),
    );
    const third = await dataOf<Page>(
      coordinator.get(`/sims?limit=20&cursor=${encodeURIComponent(second.nextCursor!)}`),
    );
    const ids = [...first.items, ...second.items, ...third.items].map((sim) => sim.id);
    expect(ids).toHaveLength(45);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const byIccid = await dataOf<Page>(coordinator.get('/sims?sort=iccid&order=asc&limit=3'));
    expect(byIccid.items.map((sim) => sim.iccid)).toEqual(iccids.slice(0, 3));
  });

  it('filters by status, carrier, agent and box, and finds an ICCID', async () => {
    const withAnn = await dataOf<Page>(coordinator.get(`/sims?agent_id=${ann}&limit=50`));
    expect(withAnn.items).toHaveLength(10);
    expect(withAnn.items[0]).toMatchObject({
      agent_name: 'Name of ann',
      status: 'with_agent',
      box_code: box.code,
      client_carrier: 'AirTalk Wireless',
      issuer: 'AT&T',
    });
    const inStock = await dataOf<{ total: number }>(
      coordinator.get(`/sims/count?status=in_stock&client_carrier_id=${carrierId}`),
    );
    expect(inStock.total).toBe(26);
    const other = await dataOf<{ total: number }>(
      coordinator.get(`/sims/count?client_carrier_id=${otherCarrierId}`),
    );
    expect(other.total).toBe(5);
    const ofBox = await dataOf<{ total: number }>(coordinator.get(`/sims/count?box_id=${box.id}`));
    expect(ofBox.total).toBe(40);
    const found = await dataOf<Page>(coordinator.get(`/sims?search=${iccids[7]}`));
    expect(found.items.map((sim) => sim.iccid)).toEqual([iccids[7]]);
    const started = await dataOf<Page>(coordinator.get(`/sims?search=${iccids[7]!.slice(0, 17)}`));
    expect(started.items.length).toBeGreaterThan(1);
  });

  it('exports what matches', async () => {
    const file = await coordinator.download('/sims/exports', { format: 'csv', agent_id: bob });
    expect(file.statusCode).toBe(200);
    expect(file.body.trim().split('\n')).toHaveLength(5);
  });
});

describe('marking a SIM defective or lost', () => {
  it('needs a reason, keeps it and moves the box count', async () => {
    const [id] = await simIdsOf([iccids[30]!]);
    expect(
      await coordinator.fieldErrors('POST', `/sims/${id}/status`, {
        action: 'markLost',
        reason: ' ',
      }),
    ).toEqual({ reason: ['Say why.'] });
    const lost = await dataOf<SimCardRow>(
      coordinator.post(`/sims/${id}/status`, { action: 'markLost', reason: 'Dropped at the dock' }),
    );
    expect(lost).toMatchObject({ status: 'lost', status_reason: 'Dropped at the dock' });
    const [after] = await t.db.query<{ qty_available: number }>(
      'SELECT qty_available FROM sim_boxes WHERE id = $1',
      [box.id],
    );
    expect(after!.qty_available).toBe(box.qty_available - 1);
    expect(
      await refusalOf(
        coordinator.post(`/sims/${id}/status`, { action: 'markDefective', reason: 'Bent' }),
        409,
      ),
    ).toMatch(/lost/);
  });

  it("writes the agent's ledger when the agent held it", async () => {
    const [id] = await simIdsOf([iccids[13]!]);
    await dataOf(
      coordinator.post(`/sims/${id}/status`, { action: 'markDefective', reason: 'No signal' }),
    );
    expect(
      await countOf(
        t,
        "SELECT count(*)::int AS n FROM agent_sim_ledger WHERE sim_id = $1 AND agent_id = $2 AND entry = 'defective'",
        [id, bob],
      ),
    ).toBe(1);
  });
});

describe('transferring SIMs between agents', () => {
  const transfer = (body: Record<string, unknown>, as = coordinator) =>
    as.post('/sims/transfers', body);

  it("moves the giving agent's SIMs, on both ledgers and each SIM's timeline", async () => {
    const ids = await simIdsOf(iccids.slice(0, 3));
    const answer = await dataOf<SimTransferAnswer>(
      transfer({ from_agent_id: ann, to_agent_id: bob, sim_ids: ids }),
    );
    expect(answer).toEqual({
      transferred: 3,
      from_agent: 'Name of ann',
      to_agent: 'Name of bob',
      to_on_hand: 6,
      to_cap: 6,
    } satisfies SimTransferAnswer);
  });

  it("refuses past the receiving agent's cap", async () => {
    const ids = await simIdsOf(iccids.slice(3, 5));
    const message = await refusalOf(
      transfer({ from_agent_id: ann, to_agent_id: bob, sim_ids: ids }),
      409,
    );
    expect(message).toMatch(/cap of 6/);
  });

  it('refuses SIMs the giving agent does not hold, moving none', async () => {
    const ids = await simIdsOf([iccids[5]!, iccids[20]!]);
    const message = await refusalOf(
      transfer({ from_agent_id: ann, to_agent_id: cat, sim_ids: ids }),
      409,
    );
    expect(message).toMatch(new RegExp(`^${iccids[20]} is not with Name of ann`));
    expect(
      await countOf(t, 'SELECT count(*)::int AS n FROM sim_cards WHERE agent_id = $1', [cat]),
    ).toBe(0);
  });

  it('refuses an inactive agent or the same agent, and those without sim.transfer', async () => {
    const ids = await simIdsOf([iccids[6]!]);
    expect(
      await coordinator.fieldErrors('POST', '/sims/transfers', {
        from_agent_id: ann,
        to_agent_id: gone,
        sim_ids: ids,
      }),
    ).toEqual({ to_agent_id: ['Name of gone is not active: choose an active agent.'] });
    expect(
      await coordinator.fieldErrors('POST', '/sims/transfers', {
        from_agent_id: ann,
        to_agent_id: ann,
        sim_ids: ids,
      }),
    ).toEqual({ to_agent_id: ['Choose another agent than the giving one.'] });
    await refusalOf(transfer({ from_agent_id: ann, to_agent_id: cat, sim_ids: ids }, clerk), 403);
  });

  it('records the transfer on both ledgers with the counterpart', async () => {
    const ledger = await t.db.query<{
      agent_id: number;
      entry: string;
      counterpart_agent_id: number;
    }>(
      `SELECT agent_id::int AS agent_id, entry, counterpart_agent_id::int AS counterpart_agent_id
       FROM agent_sim_ledger WHERE entry LIKE 'transfer_%' ORDER BY id`,
    );
    expect(ledger).toHaveLength(6);
    expect(
      ledger
        .filter((row) => row.entry === 'transfer_out')
        .every((row) => row.agent_id === ann && row.counterpart_agent_id === bob),
    ).toBe(true);
    expect(
      ledger
        .filter((row) => row.entry === 'transfer_in')
        .every((row) => row.agent_id === bob && row.counterpart_agent_id === ann),
    ).toBe(true);
    expect(
      await countOf(t, "SELECT count(*)::int AS n FROM sim_events WHERE type = 'transferred'"),
    ).toBe(3);
  });
});
