import type { SimReturnDetail, SimReturnScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { pdfPages } from '../../test/pdf-text.js';
import {
  agentOf,
  iccidOf,
  seedCarrier,
  seedPacks,
  staffOf,
} from '../../test/sim-request-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * SIM returns (DOMAIN.md 4.6 /sim/return, 7 "Returns"): an agent returns their own SIMs, the
 * warehouse receives them by scanning and disposes of each; the rules the server keeps.
 */

let t: TestApp;
let staff: ApiClient;
let carrierId: number;
let agent: { id: number; api: ApiClient };
let other: { id: number; api: ApiClient };

/**
 * Hands `count` SIMs of a fresh box to the agent (as a shipment received would), the first
 * `active` of them seen active by a detection on 2026-03-14. SQL set-up: the allocation and
 * detection are other areas' endpoints, tested there.
 */
async function simsOf(db: Db, agentId: number, count: number, active = 0): Promise<string[]> {
  const [pack] = await seedPacks(db, carrierId, 1, count);
  const iccids = pack!.iccids;
  await db.query(
    `UPDATE sim_cards SET status = 'with_agent', agent_id = $2, sim_pack_id = NULL
     WHERE iccid = ANY ($1::text[])`,
    [iccids, agentId],
  );
  await db.query(
    `UPDATE sim_cards SET status = 'active', ever_active = true,
       activated_at = '2026-03-14T10:00:00Z', last_detected_at = '2026-03-15T10:00:00Z'
     WHERE iccid = ANY ($1::text[])`,
    [iccids.slice(0, active)],
  );
  await db.query(
    `UPDATE sim_boxes SET qty_available = 0, status = 'depleted'
     WHERE id = (SELECT sim_box_id FROM sim_cards WHERE iccid = $1)`,
    [iccids[0]],
  );
  return iccids;
}

const simRow = async (iccid: string) =>
  (
    await t.db.query<{
      status: string;
      agent_id: number | null;
      sim_return_id: number | null;
      qty_available: number;
    }>(
      `SELECT c.status, c.agent_id::int AS agent_id, c.sim_return_id::int AS sim_return_id,
         b.qty_available
       FROM sim_cards c JOIN sim_boxes b ON b.id = c.sim_box_id WHERE c.iccid = $1`,
      [iccid],
    )
  )[0]!;

const scan = (id: number, code: string, station = 'Returns 1') =>
  dataOf<SimReturnScanAnswer>(staff.post(`/sim-returns/${id}/scans`, { code, station }));

/** The field messages of a write the API must refuse with a 422. */
const errorsOf = async (api: ApiClient, url: string, body: unknown) =>
  (await api.fieldErrors('POST', url, body)) as Record<string, string[]>;

const lineOf = (detail: SimReturnDetail, iccid: string) =>
  detail.lines.find((line) => line.iccid === iccid)!;

beforeAll(async () => {
  t = await createTestApp();
  staff = await staffOf(t, ['SIM Coordinator']);
  carrierId = await seedCarrier(t.db);
  agent = await agentOf(t, 100);
  other = await agentOf(t, 100);
});
afterAll(() => t.close());

describe('an agent returning SIMs from the portal', () => {
  it('lists their returnable SIMs, returns them with a reason, and tracks the return', async () => {
    const iccids = await simsOf(t.db, agent.id, 3, 1);
    const returnable = await dataOf<{ iccid: string; ever_active: boolean }[]>(
      agent.api.get('/agent/sim-returns/returnable-sims'),
    );
    expect(returnable.map((sim) => sim.iccid)).toEqual(expect.arrayContaining(iccids));
    expect(returnable.find((sim) => sim.iccid === iccids[0])!.ever_active).toBe(true);

    const created = await dataOf<SimReturnDetail>(
      agent.api.post('/agent/sim-returns', { reason: 'unused', iccids: iccids.slice(0, 2) }),
      201,
    );
    expect(created.return).toMatchObject({
      source: 'agent',
      agent_id: agent.id,
      status: 'open',
      qty_expected: 2,
      qty_received: 0,
    });
    expect(created.return.number).toMatch(/^SRT-\d{6}$/);
    expect(created.lines.every((line) => line.expected && line.received_at === null)).toBe(true);

    // Listed on an open return, they are no longer offered, and cannot be listed twice.
    const after = await dataOf<{ iccid: string }[]>(
      agent.api.get('/agent/sim-returns/returnable-sims'),
    );
    expect(after.map((sim) => sim.iccid)).toEqual([iccids[2]]);
    const twice = await errorsOf(agent.api, '/agent/sim-returns', {
      reason: 'unused',
      iccids: [iccids[0]],
    });
    expect(twice.iccids).toEqual([`${iccids[0]} is on return ${created.return.number} already.`]);

    const mine = await dataOf<{ number: string }[]>(agent.api.get('/agent/sim-returns'));
    expect(mine.map((row) => row.number)).toContain(created.return.number);
    const label = await agent.api.download(`/agent/sim-returns/${created.return.id}/label`, {});
    expect(label.statusCode).toBe(200);
    expect(label.headers['content-type']).toBe('application/pdf');
    const [page] = await pdfPages(label.rawPayload);
    expect(page!.text).toContain(created.return.number);
  });

  it("refuses SIMs that are not the agent's own (422), and a bad ICCID", async () => {
    const [theirs] = await simsOf(t.db, other.id, 1);
    const unknown = iccidOf(999_000_000 + Math.floor(Math.random() * 1e6));
    const errors = await errorsOf(agent.api, '/agent/sim-returns', {
      reason: 'defective',
      iccids: [theirs, unknown],
    });
    expect(errors.iccids).toEqual([
      `${theirs} is not one of your SIMs.`,
      `${unknown} is not one of your SIMs.`,
    ]);
    const bad = await errorsOf(agent.api, '/agent/sim-returns', {
      reason: 'unused',
      iccids: ['8901260000000000001'],
    });
    expect(bad['iccids.0']).toEqual(["The ICCID's check digit is wrong: rescan it."]);
    const none = await errorsOf(agent.api, '/agent/sim-returns', {
      reason: 'unused',
      iccids: [],
    });
    expect(none.iccids).toEqual(['Choose the SIMs to return.']);
  });

  it("answers another agent's return as one that does not exist (404)", async () => {
    const iccids = await simsOf(t.db, other.id, 1);
    const theirs = await dataOf<SimReturnDetail>(
      other.api.post('/agent/sim-returns', { reason: 'unused', iccids }),
      201,
    );
    const id = theirs.return.id;
    expect((await agent.api.get(`/agent/sim-returns/${id}`)).statusCode).toBe(404);
    expect((await agent.api.post(`/agent/sim-returns/${id}/cancel`)).statusCode).toBe(404);
    expect((await agent.api.post(`/agent/sim-returns/${id}/label`, {})).statusCode).toBe(404);
    const list = await dataOf<{ id: number }[]>(agent.api.get('/agent/sim-returns'));
    expect(list.map((row) => row.id)).not.toContain(id);
    // Agents never reach the staff endpoints.
    expect((await agent.api.get(`/sim-returns/${id}/detail`)).statusCode).toBe(403);
    expect((await agent.api.post(`/sim-returns/${id}/scans`, { code: iccids[0] })).statusCode).toBe(
      403,
    );
    // Their own, open, they may cancel.
    const cancelled = await dataOf<SimReturnDetail>(
      other.api.post(`/agent/sim-returns/${id}/cancel`),
    );
    expect(cancelled.return.status).toBe('cancelled');
  });
});

describe('receiving a return by scanning', () => {
  it("returns the agent's SIMs, answers a repeat as already received and flags the rest", async () => {
    const iccids = await simsOf(t.db, agent.id, 3);
    const [theirs] = await simsOf(t.db, other.id, 1);
    const [inStock] = (await seedPacks(t.db, carrierId, 1, 1))[0]!.iccids;
    const unknown = iccidOf(998_000_000 + Math.floor(Math.random() * 1e6));
    const created = await dataOf<SimReturnDetail>(
      agent.api.post('/agent/sim-returns', { reason: 'unused', iccids: iccids.slice(0, 2) }),
      201,
    );
    const id = created.return.id;

    const first = await scan(id, iccids[0]!);
    expect(first).toMatchObject({ result: 'returned', message: `${iccids[0]} is returned.` });
    expect(first.return).toMatchObject({ status: 'receiving', qty_received: 1, qty_expected: 2 });
    expect(first.line).toMatchObject({ sim_status: 'returned', station: 'Returns 1' });
    expect(await simRow(iccids[0]!)).toMatchObject({ status: 'returned', sim_return_id: id });

    const again = await scan(id, iccids[0]!);
    expect(again.result).toBe('already_received');
    expect(again.message).toBe(`${iccids[0]} was received already.`);
    expect(again.return.qty_received).toBe(1);

    // One of the agent's SIMs not listed on the return is still theirs: returned.
    const unlisted = await scan(id, iccids[2]!);
    expect(unlisted.result).toBe('returned');
    expect(unlisted.message).toContain('It was not listed on the return.');

    const notTheirs = await scan(id, theirs!);
    expect(notTheirs.result).toBe('not_agents');
    expect(notTheirs.line.flag).toBe('not_agents');
    expect(await simRow(theirs!)).toMatchObject({ status: 'with_agent', agent_id: other.id });

    const stranger = await scan(id, unknown);
    expect(stranger).toMatchObject({ result: 'unknown', line: { flag: 'unknown', sim_id: null } });

    const stocked = await scan(id, inStock!);
    expect(stocked.result).toBe('not_returnable');
    expect(stocked.message).toContain('in stock: it cannot be received as returned');
    expect((await simRow(inStock!)).status).toBe('in_stock');

    const flaggedAgain = await scan(id, theirs!);
    expect(flaggedAgain.result).toBe('already_received');
    expect(flaggedAgain.return).toMatchObject({ qty_received: 2, qty_flagged: 3 });

    const refused = await errorsOf(staff, `/sim-returns/${id}/scans`, {
      code: '8901260000000000001',
    });
    expect(refused.code).toEqual(["The ICCID's check digit is wrong: rescan it."]);

    // The agent's ledger and the SIM's timeline name the return.
    const ledger = await t.db.query<{ entry: string; sim_return_id: number }>(
      `SELECT entry, sim_return_id::int AS sim_return_id FROM agent_sim_ledger
       WHERE sim_id = (SELECT id FROM sim_cards WHERE iccid = $1) ORDER BY id`,
      [iccids[0]],
    );
    expect(ledger).toEqual([{ entry: 'returned', sim_return_id: id }]);
    const events = await t.db.query<{ type: string; data: { sim_return: string } }>(
      `SELECT type, data FROM sim_events
       WHERE sim_id = (SELECT id FROM sim_cards WHERE iccid = $1) ORDER BY id`,
      [iccids[0]],
    );
    expect(events.map((event) => event.type)).toEqual(['returned']);
    expect(events[0]!.data.sim_return).toBe(created.return.number);

    // The agent sees their return receiving; the list finds it by an ICCID scanned into it.
    const seen = await dataOf<SimReturnDetail>(agent.api.get(`/agent/sim-returns/${id}`));
    expect(seen.return.status).toBe('receiving');
    const page = await dataOf<{ items: { id: number }[] }>(
      staff.get(`/sim-returns?search=${unknown}&status=receiving`),
    );
    expect(page.items.map((row) => row.id)).toEqual([id]);
  });
});

describe('dispositions', () => {
  it('restocks an unused SIM, refuses to restock one ever active, destroys it, and closes', async () => {
    const iccids = await simsOf(t.db, agent.id, 3, 1);
    const [active, unused, spare] = iccids as [string, string, string];
    const created = await dataOf<SimReturnDetail>(
      agent.api.post('/agent/sim-returns', { reason: 'unused', iccids }),
      201,
    );
    const id = created.return.id;
    for (const iccid of iccids) expect((await scan(id, iccid)).result).toBe('returned');
    let detail = await dataOf<SimReturnDetail>(staff.get(`/sim-returns/${id}/detail`));

    const restockActive = await refusalOf(
      staff.post(`/sim-returns/${id}/lines/${lineOf(detail, active).id}/disposition`, {
        disposition: 'restock',
      }),
      409,
    );
    expect(restockActive).toBe(
      `${active} was active on 2026-03-14: a SIM ever detected active is never restocked. ` +
        'Destroy it or send it to the carrier.',
    );
    expect((await simRow(active)).status).toBe('returned');

    const closing = await refusalOf(staff.post(`/sim-returns/${id}/close`), 409);
    expect(closing).toContain('3 SIMs of');

    const before = (await simRow(unused)).qty_available;
    detail = await dataOf<SimReturnDetail>(
      staff.post(`/sim-returns/${id}/lines/${lineOf(detail, unused).id}/disposition`, {
        disposition: 'restock',
      }),
    );
    expect(lineOf(detail, unused)).toMatchObject({
      disposition: 'restock',
      sim_status: 'in_stock',
    });
    expect(await simRow(unused)).toMatchObject({
      status: 'in_stock',
      agent_id: null,
      sim_return_id: null,
      qty_available: before + 1,
    });
    const twice = await refusalOf(
      staff.post(`/sim-returns/${id}/lines/${lineOf(detail, unused).id}/disposition`, {
        disposition: 'destroy',
      }),
      409,
    );
    expect(twice).toBe(`${unused} has its disposition already: restocked.`);

    const noReason = await errorsOf(
      staff,
      `/sim-returns/${id}/lines/${lineOf(detail, spare).id}/disposition`,
      { disposition: 'defective_to_carrier' },
    );
    expect(noReason.reason).toEqual(['Say why you be marked defective.']);
    detail = await dataOf<SimReturnDetail>(
      staff.post(`/sim-returns/${id}/lines/${lineOf(detail, spare).id}/disposition`, {
        disposition: 'defective_to_carrier',
        reason: 'No network registration',
      }),
    );
    expect(lineOf(detail, spare).sim_status).toBe('defective');

    detail = await dataOf<SimReturnDetail>(
      staff.post(`/sim-returns/${id}/lines/${lineOf(detail, active).id}/disposition`, {
        disposition: 'destroy',
      }),
    );
    expect(lineOf(detail, active)).toMatchObject({
      disposition: 'destroy',
      sim_status: 'destroyed',
    });
    expect(detail.return.qty_disposed).toBe(3);

    const closed = await dataOf<SimReturnDetail>(staff.post(`/sim-returns/${id}/close`));
    expect(closed.return.status).toBe('closed');
    expect(closed.return.closed_at).not.toBeNull();
    expect((await staff.post(`/sim-returns/${id}/scans`, { code: spare })).statusCode).toBe(409);
  });

  it('disposes of every SIM waiting at once: unused restocked, the active ones destroyed', async () => {
    const iccids = await simsOf(t.db, agent.id, 6, 1);
    const created = await dataOf<SimReturnDetail>(
      agent.api.post('/agent/sim-returns', { reason: 'unused', iccids }),
      201,
    );
    const id = created.return.id;
    for (const iccid of iccids) await scan(id, iccid);

    // A restock for the ever-active SIMs is not even a choice.
    const errors = await errorsOf(staff, `/sim-returns/${id}/dispositions`, {
      never_active: 'restock',
      ever_active: 'restock',
    });
    expect(errors.ever_active).toBeDefined();
    const detail = await dataOf<SimReturnDetail>(
      staff.post(`/sim-returns/${id}/dispositions`, {
        never_active: 'restock',
        ever_active: 'destroy',
      }),
    );
    expect(detail.lines.map((line) => line.sim_status).sort()).toEqual([
      'destroyed',
      'in_stock',
      'in_stock',
      'in_stock',
      'in_stock',
      'in_stock',
    ]);
    expect(detail.return.qty_disposed).toBe(6);
    expect(
      (await dataOf<SimReturnDetail>(staff.post(`/sim-returns/${id}/close`))).return.status,
    ).toBe('closed');
  });
});

describe('staff returns', () => {
  it('create one for an agent, list it, print its label, and cancel it while nothing is scanned', async () => {
    const iccids = await simsOf(t.db, agent.id, 2);
    const [theirs] = await simsOf(t.db, other.id, 1);
    const wrong = await errorsOf(staff, '/sim-returns', {
      source: 'agent',
      agent_id: agent.id,
      reason: 'damaged',
      iccids: [theirs],
    });
    expect(wrong.iccids).toEqual([`${theirs} is not ${await agentName(agent.id)}'s SIM.`]);
    expect(
      (await errorsOf(staff, '/sim-returns', { source: 'agent', reason: 'unused' })).agent_id,
    ).toEqual(['Choose the agent whose SIMs come back.']);

    const created = await dataOf<SimReturnDetail>(
      staff.post('/sim-returns', {
        source: 'agent',
        agent_id: agent.id,
        reason: 'damaged',
        note: 'Water damage',
        iccids,
      }),
      201,
    );
    expect(created.return).toMatchObject({
      qty_expected: 2,
      note: 'Water damage',
      reason: 'damaged',
    });
    const options = await dataOf<{ id: number }[]>(staff.get('/sim-returns/agent-options'));
    expect(options.map((option) => option.id)).toContain(agent.id);
    const page = await dataOf<{ items: { number: string }[] }>(
      staff.get(`/sim-returns?agent_id=${agent.id}&reason=damaged`),
    );
    expect(page.items.map((row) => row.number)).toContain(created.return.number);
    const label = await staff.download(`/sim-returns/${created.return.id}/label`, {});
    expect(label.statusCode).toBe(200);
    const [printed] = await pdfPages(label.rawPayload);
    expect(printed!.text).toContain('Reason: damaged');

    const cancelled = await dataOf<SimReturnDetail>(
      staff.post(`/sim-returns/${created.return.id}/cancel`, { reason: 'Agent kept them' }),
    );
    expect(cancelled.return.status).toBe('cancelled');
    // Cancelled, its SIMs may go on another return.
    await dataOf(agent.api.post('/agent/sim-returns', { reason: 'unused', iccids }), 201);
  });

  it('an RMA return names no agent: any returnable SIM is received; cancel is refused once scanned', async () => {
    const [shipped] = (await seedPacks(t.db, carrierId, 1, 1))[0]!.iccids;
    await t.db.query(
      `UPDATE sim_cards SET status = 'active', ever_active = true,
         order_id = NULL, sim_request_id = NULL WHERE iccid = $1`,
      [shipped],
    );
    await t.db.query(
      `UPDATE sim_boxes SET qty_available = 0, status = 'depleted'
       WHERE id = (SELECT sim_box_id FROM sim_cards WHERE iccid = $1)`,
      [shipped],
    );
    const created = await dataOf<SimReturnDetail>(
      staff.post('/sim-returns', { source: 'rma', reason: 'defective' }),
      201,
    );
    expect(created.return).toMatchObject({ agent_id: null, qty_expected: 0 });
    expect((await scan(created.return.id, shipped!)).result).toBe('returned');
    const refused = await refusalOf(
      staff.post(`/sim-returns/${created.return.id}/cancel`, {}),
      409,
    );
    expect(refused).toBe('A SIM return that is receiving cannot be cancelled.');
  });
});

async function agentName(id: number): Promise<string> {
  const [row] = await t.db.query<{ name: string }>('SELECT name FROM users WHERE id = $1', [id]);
  return row!.name;
}
