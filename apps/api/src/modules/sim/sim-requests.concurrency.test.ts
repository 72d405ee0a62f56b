import type { AgentSimRequest, SimAllocationAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { agentOf, seedCarrier, seedPacks, staffOf } from '../../test/sim-request-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Coordinators racing over SIMs and caps. On PostgreSQL (TEST_DATABASE_URL) the calls run on
 * concurrent connections; on PGlite one after the other, and the rules hold there too.
 */

let t: TestApp;
let coordinators: ApiClient[];
let carriers: number[];

beforeAll(async () => {
  t = await createTestApp();
  coordinators = [];
  for (let n = 0; n < 2; n += 1) coordinators.push(await staffOf(t, ['SIM Coordinator']));
  carriers = [await seedCarrier(t.db), await seedCarrier(t.db), await seedCarrier(t.db)];
});
afterAll(() => t.close());

const requestOf = async (agent: ApiClient, carrierId: number, qty: number) =>
  dataOf<AgentSimRequest>(
    agent.post('/agent/sim-requests', { client_carrier_id: carrierId, qty, delivery: 'pickup' }),
    201,
  );

describe('two coordinators allocating the same pack to two requests at once', () => {
  it('leave every SIM of the pack with exactly one request; the other hears which', async () => {
    for (let round = 0; round < 5; round += 1) {
      const [pack] = await seedPacks(t.db, carriers[0]!, 1, 10);
      const requests: AgentSimRequest[] = [];
      for (const coordinator of coordinators) {
        const agent = await agentOf(t, 50);
        const made = await requestOf(agent.api, carriers[0]!, 10);
        await dataOf(coordinator.post(`/sim-requests/${made.id}/approval`, { qty_approved: 10 }));
        requests.push(made);
      }
      const answers = await Promise.all(
        coordinators.map((coordinator, n) =>
          dataOf<SimAllocationAnswer>(
            coordinator.post(`/sim-requests/${requests[n]!.id}/scans`, { code: pack!.code }),
          ),
        ),
      );
      expect(answers.map((answer) => answer.result).sort()).toEqual(['allocated', 'other_request']);
      const winner = requests[answers.findIndex((answer) => answer.result === 'allocated')]!;
      const loser = answers.find((answer) => answer.result === 'other_request')!;
      expect(loser.message).toContain(winner.number);
      const holders = await t.db.query<{ sim_request_id: number; status: string; sims: number }>(
        `SELECT sim_request_id::int AS sim_request_id, status, count(*)::int AS sims
         FROM sim_cards WHERE sim_pack_id = $1 GROUP BY 1, 2`,
        [pack!.id],
      );
      expect(holders).toEqual([{ sim_request_id: winner.id, status: 'allocated', sims: 10 }]);
      const [box] = await t.db.query<{ qty_available: number }>(
        `SELECT b.qty_available FROM sim_boxes b JOIN sim_packs p ON p.sim_box_id = b.id
         WHERE p.id = $1`,
        [pack!.id],
      );
      expect(box!.qty_available).toBe(0);
    }
  }, 120_000);
});

describe('two approvals for one agent racing over the cap', () => {
  it('approve at most the cap between them', async () => {
    for (let round = 0; round < 5; round += 1) {
      const agent = await agentOf(t, 30);
      const first = await requestOf(agent.api, carriers[1]!, 20);
      const second = await requestOf(agent.api, carriers[2]!, 10);
      // The cap leaves room for both as asked; approvals would be 20 + 20 if the second grew.
      await t.db.query(`UPDATE sim_requests SET qty_requested = 20 WHERE id = $1`, [second.id]);
      const answers = await Promise.all(
        [first, second].map((made, n) =>
          coordinators[n]!.post(`/sim-requests/${made.id}/approval`, { qty_approved: 20 }),
        ),
      );
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
      const [approved] = await t.db.query<{ total: number }>(
        `SELECT COALESCE(sum(qty_approved), 0)::int AS total FROM sim_requests
         WHERE agent_id = $1 AND status = 'approved'`,
        [agent.id],
      );
      expect(approved!.total).toBe(20);
    }
  }, 120_000);
});
