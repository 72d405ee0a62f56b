import type { AgentActivationAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { createCarrier, iccidOf, seedSims, signedIn } from './agent-portal.test-support.js';

/**
 * The same agent recording the same ICCID from two phones at the same moment. On PostgreSQL
 * (TEST_DATABASE_URL) the two requests run on their own connections and meet at the SIM's row
 * lock; on PGlite they take turns. Either way: exactly one assignment and one "already recorded".
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('one activation recorded from two phones at once', () => {
  it('assigns the SIM once and answers the other "already recorded"', async () => {
    const carrierId = await createCarrier(t.db, 'Race Wireless');
    const agent = await signedIn(t, 'race.agent', ['agent'], 'agent');
    const serials = Array.from({ length: 8 }, (_, index) => 500 + index);
    const [row] = await t.db.query<{ today: string }>(
      'SELECT order_business_day(now())::text AS today',
    );
    await seedSims(t.db, { carrierId, serials, agentId: agent.id });
    for (const serial of serials) {
      const body = {
        iccid: iccidOf(serial),
        enrolment_ref: `RACE-${serial}`,
        enrolled_on: row!.today,
      };
      const answers = await Promise.all(
        [1, 2].map(() => agent.client.post('/agent/activations', body)),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
      const results = answers
        .map((answer) => answer.json<{ data: AgentActivationAnswer }>().data.result)
        .sort();
      expect(results).toEqual(['already_recorded', 'recorded']);
    }
    const [counts] = await t.db.query<{ events: number; ledger: number; assigned: number }>(
      `SELECT
         (SELECT count(*)::int FROM sim_events e JOIN sim_cards c ON c.id = e.sim_id
          WHERE c.iccid = ANY ($1::text[]) AND e.type = 'assigned') AS events,
         (SELECT count(*)::int FROM agent_sim_ledger l JOIN sim_cards c ON c.id = l.sim_id
          WHERE c.iccid = ANY ($1::text[]) AND l.entry = 'assigned') AS ledger,
         (SELECT sum(sims)::int FROM sim_agent_counts
          WHERE agent_id = $2 AND status = 'assigned') AS assigned`,
      [serials.map(iccidOf), agent.id],
    );
    expect(counts).toEqual({ events: 8, ledger: 8, assigned: 8 });
  });
});
