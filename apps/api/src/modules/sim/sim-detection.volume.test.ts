import { luhnCheckDigit, type SimDetectionRun } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { agentOf, seedCarrier } from '../../test/sim-request-fixtures.js';
import { bearer, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';

/**
 * A carrier export of 100,000 rows uploaded, streamed in batches and applied set-based on the
 * embedded database. Sized for two cores: every row is read and loaded, 30,000 of them match
 * SIMs (a SIM update costs its indexes and the dashboard's kept counts), the rest are ICCIDs we
 * never had. About 10 s on an idle two-core machine; the time is printed.
 */

const ROWS = 100_000;
const AGENT_SIMS = 20_000;
const ACTIVE_SIMS = 5_000;
const STOCK_SIMS = 5_000;
const KNOWN = AGENT_SIMS + ACTIVE_SIMS + STOCK_SIMS;

let t: TestApp;
let coordinator: ApiClient;
let token: string;
let carrierId: number;

const iccidOf = (serial: number) => {
  const body = `8901410${String(serial).padStart(11, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
};

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, {
    userName: 'volume.coordinator',
    password: 'volume-coordinator-1',
    roles: ['SIM Coordinator'],
  });
  token = await login(t.app, 'volume.coordinator', 'volume-coordinator-1');
  coordinator = apiClient(t, token);
  carrierId = await seedCarrier(t.db, 'Volume Wireless');
  const agentId = (await agentOf(t, null)).id;
  const [box] = await t.db.query<{ id: number }>(
    `INSERT INTO sim_boxes (code, client_carrier_id, received_by_range, iccid_first, iccid_last,
                            qty, qty_available)
     VALUES ('SB-' || lpad(nextval('sim_box_numbers')::text, 6, '0'), $1, true, $2, $3, $4, $5)
     RETURNING id::int AS id`,
    [carrierId, iccidOf(1), iccidOf(KNOWN), KNOWN, STOCK_SIMS],
  );
  // The first with the agent, then active ones credited to the agent, then some in stock.
  await t.db.query(
    `INSERT INTO sim_cards (iccid, client_carrier_id, sim_box_id, status, agent_id, ever_active,
                            activated_agent_id)
     SELECT u.iccid, $2, $3,
       CASE WHEN u.n <= $4 THEN 'with_agent' WHEN u.n <= $5 THEN 'active' ELSE 'in_stock' END,
       CASE WHEN u.n <= $5 THEN $6::bigint END, u.n > $4 AND u.n <= $5,
       CASE WHEN u.n > $4 AND u.n <= $5 THEN $6::bigint END
     FROM unnest($1::text[]) WITH ORDINALITY AS u (iccid, n)`,
    [
      Array.from({ length: KNOWN }, (_, index) => iccidOf(index + 1)),
      carrierId,
      box!.id,
      AGENT_SIMS,
      AGENT_SIMS + ACTIVE_SIMS,
      agentId,
    ],
  );
  await dataOf(
    coordinator.put(`/sim/detection/mappings/${carrierId}`, { iccid: 'ICCID', state: 'Status' }),
  );
}, 300_000);

afterAll(() => t.close());

describe('a 100,000-row carrier export', () => {
  it('is loaded in batches with its progress and applied set-based', async () => {
    const lines = ['ICCID,Status'];
    for (let n = 1; n <= ROWS; n += 1) {
      lines.push(`${iccidOf(n)},${n <= AGENT_SIMS ? 'active' : 'inactive'}`);
    }
    const started = performance.now();
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/sim/detection/runs?client_carrier_id=${carrierId}&file_name=volume.csv`,
      headers: { ...bearer(token), 'content-type': 'text/csv' },
      payload: `${lines.join('\n')}\n`,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const { id, rows_total } = uploaded.json<{ data: SimDetectionRun }>().data;
    expect(rows_total).toBe(ROWS);
    let run: SimDetectionRun;
    do {
      await new Promise((resolve) => setTimeout(resolve, 200));
      run = await dataOf<SimDetectionRun>(coordinator.get(`/sim/detection/runs/${id}`));
    } while (run.status === 'loading' || run.status === 'applying');
    const seconds = (performance.now() - started) / 1000;
    expect(run).toMatchObject({
      status: 'done',
      rows_loaded: ROWS,
      matched: KNOWN,
      newly_active: AGENT_SIMS,
      unknown: ROWS - KNOWN,
      anomalies: 0,
    });
    const [counts] = await t.db.query<{ events: number; ledger: number; active: number }>(
      `SELECT (SELECT count(*)::int FROM sim_events) AS events,
         (SELECT count(*)::int FROM agent_sim_ledger WHERE entry = 'activated') AS ledger,
         (SELECT count(*)::int FROM sim_cards WHERE status = 'active') AS active`,
    );
    // Those with the agent went active, credited once; the active ones went inactive.
    expect(counts).toEqual({
      events: AGENT_SIMS + ACTIVE_SIMS,
      ledger: AGENT_SIMS,
      active: AGENT_SIMS,
    });
    console.warn(`100,000-row detection upload to done: ${seconds.toFixed(1)} s`);
  }, 600_000);
});
