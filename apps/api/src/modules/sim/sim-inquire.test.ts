import type { SimBoxRow, SimPack, SimStory } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { agent, attIccids, carrier, iccidOf, signedIn } from './sim-stock.test-support.js';

/** The SIM lookup (`/sim/inquire`): a SIM's steps, each with what it concerns. */

let t: TestApp;
let coordinator: ApiClient;
let iccids: string[];
let box: SimBoxRow;
let pack: SimPack;
let ann: number;
let bob: number;

beforeAll(async () => {
  t = await createTestApp();
  const carrierId = await carrier(t, 'AirTalk Wireless');
  coordinator = await signedIn(t, 'sc', ['SIM Coordinator']);
  iccids = attIccids(890141030000000000n, 10);
  box = await dataOf<SimBoxRow>(
    coordinator.post('/sim-boxes', {
      client_carrier_id: carrierId,
      qty: 10,
      iccid_first: iccids[0],
      iccid_last: iccids[9],
    }),
    201,
  );
  [pack] = (
    await dataOf<{ packs: SimPack[] }>(coordinator.post(`/sim-boxes/${box.id}/split`, { size: 10 }))
  ).packs as [SimPack];
  ann = await agent(t, 'ann', null);
  bob = await agent(t, 'bob', null);
  await t.db.query("UPDATE sim_cards SET status = 'with_agent', agent_id = $2 WHERE iccid = $1", [
    iccids[0],
    ann,
  ]);
  const [sim] = await t.db.query<{ id: number }>(
    'SELECT id::int AS id FROM sim_cards WHERE iccid = $1',
    [iccids[0]],
  );
  await dataOf(
    coordinator.post('/sims/transfers', {
      from_agent_id: ann,
      to_agent_id: bob,
      sim_ids: [sim!.id],
    }),
  );
  await dataOf(
    coordinator.post(`/sims/${sim!.id}/status`, { action: 'markLost', reason: 'Stolen car' }),
  );
}, 120_000);
afterAll(() => t.close());

const inquire = (iccid: string) => coordinator.post('/sim-inquiries', { iccid });

describe('the SIM lookup', () => {
  it('tells the story step by step with what each step concerns', async () => {
    const story = await dataOf<SimStory>(inquire(` ${iccids[0]} `));
    expect(story.sim).toMatchObject({
      iccid: iccids[0],
      status: 'lost',
      agent_name: 'Name of bob',
    });
    expect(
      story.steps.map((step) => [
        step.type,
        step.to_status,
        step.links.map((link) => `${link.kind}:${link.label}`),
      ]),
    ).toEqual([
      ['received', 'in_stock', [`box:${box.code}`]],
      ['split', null, [`box:${box.code}`, `pack:${pack.code}`]],
      ['transferred', null, ['agent:Name of ann', 'agent:Name of bob']],
      ['marked_lost', 'lost', []],
    ]);
    expect(story.steps.at(-1)!.reason).toBe('Stolen car');
    expect(story.anomalies).toEqual([]);
  });

  it('says when no SIM has the ICCID, and why a scan is no ICCID', async () => {
    const unknown = iccidOf(890141039999999999n);
    expect(await refusalOf(inquire(unknown), 404)).toBe(`No SIM has ICCID ${unknown}.`);
    expect(await coordinator.fieldErrors('POST', '/sim-inquiries', { iccid: '12345' })).toEqual({
      iccid: ['An ICCID has 19 or 20 digits, not 5.'],
    });
  });

  it('is for those who hold sim.inquire', async () => {
    const worker = await signedIn(t, 'pw', ['Production Worker']);
    await refusalOf(worker.post('/sim-inquiries', { iccid: iccids[1] }), 403);
  });
});
