import type { SimReturnDetail, SimReturnScanAnswer } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, type ApiClient } from '../../test/api-client.js';
import { agentOf, seedCarrier, seedPacks, staffOf } from '../../test/sim-request-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Two stations receiving the same ICCID into the same return at once. On PostgreSQL
 * (TEST_DATABASE_URL) the scans meet on concurrent connections; the return's row lock makes them
 * take turns, so one SIM is returned once and the other station hears "already received".
 */

let t: TestApp;
let stations: [ApiClient, ApiClient];
let agent: { id: number; api: ApiClient };

beforeAll(async () => {
  t = await createTestApp();
  stations = [await staffOf(t, ['SIM Coordinator']), await staffOf(t, ['SIM Coordinator'])];
  agent = await agentOf(t, 100);
});
afterAll(() => t.close());

describe('two stations scanning the same ICCID into one return at once', () => {
  it('return it once: one "returned" step, the other answered "already received"', async () => {
    const carrierId = await seedCarrier(t.db);
    const [pack] = await seedPacks(t.db, carrierId, 1, 20);
    const iccids = pack!.iccids;
    await t.db.query(
      `UPDATE sim_cards SET status = 'with_agent', agent_id = $2, sim_pack_id = NULL
       WHERE iccid = ANY ($1::text[])`,
      [iccids, agent.id],
    );
    await t.db.query(
      `UPDATE sim_boxes SET qty_available = 0, status = 'depleted'
      WHERE id = (SELECT sim_box_id FROM sim_cards WHERE iccid = $1)`,
      [iccids[0]],
    );
    const created = await dataOf<SimReturnDetail>(
      agent.api.post('/agent/sim-returns', { reason: 'unused', iccids }),
      201,
    );
    const id = created.return.id;

    const answers = await Promise.all(
      iccids.flatMap((code) =>
        stations.map((station, n) =>
          dataOf<SimReturnScanAnswer>(
            station.post(`/sim-returns/${id}/scans`, { code, station: `Returns ${n + 1}` }),
          ),
        ),
      ),
    );
    for (const iccid of iccids) {
      const results = answers.filter((answer) => answer.code === iccid).map((a) => a.result);
      expect(results.sort()).toEqual(['already_received', 'returned']);
    }
    const [counts] = await t.db.query<{ steps: number; returned: number; qty_received: number }>(
      `SELECT
         (SELECT count(*)::int FROM sim_events e JOIN sim_cards c ON c.id = e.sim_id
          WHERE c.iccid = ANY ($1::text[]) AND e.type = 'returned') AS steps,
         (SELECT count(*)::int FROM sim_cards WHERE iccid = ANY ($1::text[])
          AND status = 'returned' AND sim_return_id = $2) AS returned,
         (SELECT qty_received FROM sim_returns WHERE id = $2) AS qty_received`,
      [iccids, id],
    );
    expect(counts).toEqual({ steps: 20, returned: 20, qty_received: 20 });
    const ledger = await t.db.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM agent_sim_ledger WHERE sim_return_id = $1`,
      [id],
    );
    expect(ledger[0]!.count).toBe(20);
  }, 120_000);
});
