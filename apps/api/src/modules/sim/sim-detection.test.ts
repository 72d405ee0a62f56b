import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { SimAnomaly, SimDetectionRow, SimDetectionRun } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, dataOf, refusalOf, type ApiClient } from '../../test/api-client.js';
import {
  agentOf,
  iccidOf,
  seedCarrier,
  seedPacks,
  staffOf,
} from '../../test/sim-request-fixtures.js';
import { bearer, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { applyDetectionFile } from './index.js';

/**
 * SIM detection (DOMAIN.md 4.6 /sim/detection): an export uploaded with the carrier's kept
 * mapping is applied to the SIMs by the lifecycle's detection actions, each row's outcome
 * recorded; agents are credited, anomalies listed and resolved, runs re-run, pulled through the
 * batch-file adapter and their differences exported.
 */

const exportsDir = mkdtempSync(join(tmpdir(), 'sim-detection-exports-'));
let t: TestApp;
let coordinator: ApiClient;
let token: string;
let carrierId: number;
let agentId: number;

const HEADER = 'SIM Number,Line Status,MSISDN,Activated On,Device IMEI';
const MAPPING = {
  iccid: 'SIM Number',
  state: 'Line Status',
  mdn: 'MSISDN',
  activation_date: 'Activated On',
  imei: 'Device IMEI',
};

beforeAll(async () => {
  t = await createTestApp({ environment: { SIM_CARRIER_EXPORTS_DIR: exportsDir } });
  await createUser(t.db, {
    userName: 'detect.coordinator',
    password: 'detect-coordinator-1',
    roles: ['SIM Coordinator'],
  });
  token = await login(t.app, 'detect.coordinator', 'detect-coordinator-1');
  coordinator = apiClient(t, token);
  carrierId = await seedCarrier(t.db, 'Detect Wireless');
  agentId = (await agentOf(t, 100)).id;
  await dataOf(coordinator.put(`/sim/detection/mappings/${carrierId}`, MAPPING));
});

afterAll(async () => {
  await t.close();
  rmSync(exportsDir, { recursive: true, force: true });
});

/** Uploads an export's text as the page does (the file is the body). */
const upload = (csv: string, client = carrierId, fileName = 'export.csv') =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1/sim/detection/runs?client_carrier_id=${client}&file_name=${encodeURIComponent(fileName)}`,
    headers: { ...bearer(token), 'content-type': 'text/csv' },
    payload: csv,
  });

/** Polls a run as the page does until it is done or failed. */
async function settled(id: number): Promise<SimDetectionRun> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const run = await dataOf<SimDetectionRun>(coordinator.get(`/sim/detection/runs/${id}`));
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${id} did not finish`);
}

const rowsOf = async (runId: number, outcome?: string) =>
  (
    await dataOf<{ rows: SimDetectionRow[] }>(
      coordinator.get(
        `/sim/detection/runs/${runId}/rows?limit=200${outcome ? `&outcome=${outcome}` : ''}`,
      ),
    )
  ).rows;

const simOf = async (iccid: string) =>
  (
    await t.db.query<{
      id: number;
      status: string;
      ever_active: boolean;
      activated_agent_id: number | null;
      last_detect_state: string | null;
      mdn: string | null;
      activated_at: string | null;
    }>(
      `SELECT id::int AS id, status, ever_active, activated_agent_id::int AS activated_agent_id,
         last_detect_state, mdn, to_char(activated_at, 'YYYY-MM-DD') AS activated_at
       FROM sim_cards WHERE iccid = $1`,
      [iccid],
    )
  )[0]!;

const eventsOf = (simId: number) =>
  t.db.query<{ type: string; from_status: string; to_status: string }>(
    'SELECT type, from_status, to_status FROM sim_events WHERE sim_id = $1 ORDER BY id',
    [simId],
  );

const ledgerOf = (simId: number) =>
  t.db.query<{ entry: string; agent_id: number }>(
    `SELECT entry, agent_id::int AS agent_id FROM agent_sim_ledger WHERE sim_id = $1 ORDER BY id`,
    [simId],
  );

describe('a carrier export applied to the SIMs', () => {
  let sims: Record<string, string>;
  let runId: number;
  const unknownIccid = iccidOf(99_999_999_001);

  beforeAll(async () => {
    const [pack] = await seedPacks(t.db, carrierId, 1, 7);
    const [withAgent, wasActive, stillActive, inStock, paired, stockInactive, repeated] = pack!
      .iccids as [string, string, string, string, string, string, string];
    sims = { withAgent, wasActive, stillActive, inStock, paired, stockInactive, repeated };
    await t.db.query(
      `UPDATE sim_cards SET status = 'with_agent', agent_id = $2, sim_pack_id = NULL
       WHERE iccid = ANY ($1::text[])`,
      [[withAgent, paired, repeated], agentId],
    );
    await t.db.query(
      `UPDATE sim_cards SET status = 'active', ever_active = true, last_detect_state = 'active',
         agent_id = $2, activated_agent_id = $2, mdn = '2145550000', sim_pack_id = NULL
       WHERE iccid = ANY ($1::text[])`,
      [[wasActive, stillActive], agentId],
    );
    await t.db.query(`UPDATE sim_cards SET paired_imei = '356938035643809' WHERE iccid = $1`, [
      paired,
    ]);
    const csv = [
      HEADER,
      `${withAgent},Active,(214) 555-0101,2026-11-02,`,
      `${wasActive},Deactivated,,,`,
      `${stillActive},active,2145550000,,`,
      `${inStock},ACTIVE,,11/03/2026,`,
      `${paired},Active,,,356938035643817`,
      `${stockInactive},inactive,,,`,
      `${repeated},suspended,,,`,
      `${unknownIccid},active,,,`,
      `8901260123,active,,,`,
      `${repeated},active,,,`,
      `${withAgent.slice(0, -1)}${(Number(withAgent.at(-1)) + 1) % 10},active,,,`,
      `${stillActive},sleeping,,,`,
    ].join('\r\n');
    const uploaded = await dataOf<SimDetectionRun>(upload(csv), 201);
    expect(uploaded.source).toBe('file');
    expect(uploaded.client_carrier).toBe('Detect Wireless');
    const run = await settled(uploaded.id);
    runId = run.id;
    expect(run).toMatchObject({
      status: 'done',
      rows_total: 12,
      rows_loaded: 12,
      matched: 7,
      newly_active: 3,
      unknown: 1,
      anomalies: 2,
      run_by: 'detect.coordinator',
    });
  });

  it('moves an agent’s SIM seen active to active and credits the agent once', async () => {
    const sim = await simOf(sims.withAgent!);
    expect(sim).toMatchObject({
      status: 'active',
      ever_active: true,
      activated_agent_id: agentId,
      last_detect_state: 'active',
      mdn: '2145550101',
      activated_at: '2026-11-02',
    });
    expect(await eventsOf(sim.id)).toEqual([
      { type: 'detected_active', from_status: 'with_agent', to_status: 'active' },
    ]);
    expect(await ledgerOf(sim.id)).toEqual([{ entry: 'activated', agent_id: agentId }]);
  });

  it('records every outcome on its row', async () => {
    const rows = await rowsOf(runId);
    const outcome = (line: number) => rows.find((row) => row.line === line)!.outcome;
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
    expect(outcome(2)).toBe('newly_active');
    expect(outcome(3)).toBe('changed'); // active → inactive
    expect(outcome(4)).toBe('unchanged');
    expect(outcome(5)).toBe('anomaly'); // active while in stock
    expect(outcome(6)).toBe('anomaly'); // IMEI differs from the paired one
    expect(outcome(7)).toBe('changed'); // first seen, in stock, no move
    expect(outcome(8)).toBe('invalid'); // a later line has the ICCID
    expect(outcome(9)).toBe('unknown');
    expect(outcome(10)).toBe('invalid');
    expect(outcome(11)).toBe('newly_active'); // the later line wins
    expect(outcome(12)).toBe('invalid'); // check digit
    expect(outcome(13)).toBe('invalid'); // state
    expect(rows.find((row) => row.line === 8)!.problem).toMatch(/later line/);
    expect(rows.find((row) => row.line === 13)!.problem).toMatch(/"sleeping"/);
    expect((await rowsOf(runId, 'differences')).map((row) => row.line)).toEqual([
      2, 3, 5, 6, 7, 9, 11,
    ]);
    expect((await rowsOf(runId, 'anomaly')).map((row) => row.line)).toEqual([5, 6]);
  });

  it('moves states only by the lifecycle’s detection actions', async () => {
    const wasActive = await simOf(sims.wasActive!);
    expect(wasActive.status).toBe('inactive');
    expect(await eventsOf(wasActive.id)).toEqual([
      { type: 'detected_inactive', from_status: 'active', to_status: 'inactive' },
    ]);
    expect(await eventsOf((await simOf(sims.stillActive!)).id)).toEqual([]);
    // In stock: detectActive does not start there; it stays in stock, known to have been active.
    const inStock = await simOf(sims.inStock!);
    expect(inStock).toMatchObject({ status: 'in_stock', ever_active: true });
    expect(await eventsOf(inStock.id)).toEqual([]);
    const stockInactive = await simOf(sims.stockInactive!);
    expect(stockInactive).toMatchObject({ status: 'in_stock', last_detect_state: 'inactive' });
    expect((await simOf(sims.repeated!)).status).toBe('active');
  });

  it('lists the anomalies and resolves one with a note', async () => {
    const open = (
      await dataOf<{ rows: SimAnomaly[] }>(coordinator.get('/sim/detection/anomalies'))
    ).rows.filter((anomaly) => anomaly.run_id === runId);
    expect(open.map((anomaly) => [anomaly.iccid, anomaly.kind]).sort()).toEqual(
      [
        [sims.inStock, 'active_in_stock'],
        [sims.paired, 'imei_mismatch'],
      ].sort(),
    );
    const mismatch = open.find((anomaly) => anomaly.kind === 'imei_mismatch')!;
    expect(mismatch.detail).toBe('IMEI seen 356938035643817, paired with 356938035643809.');
    expect(mismatch.ota_order).toBe(false);
    const url = `/sim/detection/anomalies/${mismatch.id}/resolve`;
    expect(await coordinator.fieldErrors('POST', url, { resolution: '  ' })).toHaveProperty(
      'resolution',
    );
    const resolved = await dataOf<SimAnomaly>(
      coordinator.post(url, { resolution: 'Subscriber swapped phones; carrier notified.' }),
    );
    expect(resolved).toMatchObject({ status: 'resolved', resolved_by: expect.any(String) });
    expect(await refusalOf(coordinator.post(url, { resolution: 'again' }), 409)).toMatch(
      /already resolved/,
    );
    expect(
      await refusalOf(
        coordinator.post('/sim/detection/anomalies/999999/resolve', { resolution: 'x' }),
        404,
      ),
    ).toMatch(/does not exist/);
  });

  it('re-runs a run as a new run without crediting or moving anything twice', async () => {
    const rerun = await dataOf<SimDetectionRun>(
      coordinator.post(`/sim/detection/runs/${runId}/rerun`),
      201,
    );
    expect(rerun.rerun_of).toBe(runId);
    const done = await settled(rerun.id);
    expect(done).toMatchObject({ status: 'done', rows_total: 12, matched: 7, newly_active: 0 });
    const withAgent = await simOf(sims.withAgent!);
    expect(await eventsOf(withAgent.id)).toHaveLength(1);
    expect(await ledgerOf(withAgent.id)).toHaveLength(1);
    const outcomes = await rowsOf(rerun.id);
    expect(outcomes.find((row) => row.line === 2)!.outcome).toBe('unchanged');
    // The in-stock anomaly is still open: not listed twice.
    const open = (
      await dataOf<{ rows: SimAnomaly[] }>(coordinator.get('/sim/detection/anomalies?limit=200'))
    ).rows.filter((anomaly) => anomaly.iccid === sims.inStock);
    expect(open).toHaveLength(1);
    const running = await dataOf<SimDetectionRun>(
      coordinator.post(`/sim/detection/runs/${rerun.id}/rerun`),
      201,
    );
    await settled(running.id);
  });

  it('exports the differences with the toolkit’s download', async () => {
    const file = await coordinator.download(`/sim/detection/runs/${runId}/exports`, {
      format: 'csv',
    });
    expect(file.statusCode).toBe(200);
    const lines = file.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Line,ICCID,State,MDN,Activation date,IMEI seen,Outcome');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      '2',
      '3',
      '5',
      '6',
      '7',
      '9',
      '11',
    ]);
    expect(lines[1]).toBe(`2,${sims.withAgent},active,2145550101,2026-11-02,,newly_active`);
  });

  it('applies a file from a stream for scripts and the benchmark', async () => {
    const [pack] = await seedPacks(t.db, carrierId, 1, 2);
    const [first, second] = pack!.iccids as [string, string];
    await t.db.query(
      `UPDATE sim_cards SET status = 'with_agent', agent_id = $2, sim_pack_id = NULL
       WHERE iccid = ANY ($1::text[])`,
      [[first, second], agentId],
    );
    const run = await applyDetectionFile(
      t.db,
      { userId: null, userName: 'bench', roles: [], permissions: [], roleKeys: [] },
      {
        clientCarrierId: carrierId,
        fileName: 'bench.csv',
        stream: Readable.from([`${HEADER}\n${first},active,,,\n`, `${second},suspended,,,\n`]),
        columns: MAPPING,
      },
    );
    expect(run).toMatchObject({ status: 'done', matched: 2, newly_active: 1, run_by: 'bench' });
    // with_agent is no state detectSuspended starts from: the SIM stays with the agent.
    expect((await simOf(second)).status).toBe('with_agent');
  });
});

describe('the column mapping kept per carrier', () => {
  it('is kept, read back, and required before an upload', async () => {
    const other = await seedCarrier(t.db, 'Unmapped Mobile');
    const empty = await dataOf<{ columns: unknown }>(
      coordinator.get(`/sim/detection/mappings/${other}`),
    );
    expect(empty.columns).toBeNull();
    const refused = await upload(`${HEADER}\n`, other);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toHaveProperty('client_carrier_id');
    expect(
      await coordinator.fieldErrors('PUT', `/sim/detection/mappings/${other}`, { iccid: 'ICCID' }),
    ).toHaveProperty('state');
    const kept = await dataOf<{ columns: Record<string, string | null> }>(
      coordinator.put(`/sim/detection/mappings/${other}`, { iccid: 'ICCID', state: 'Status' }),
    );
    expect(kept.columns).toEqual({
      iccid: 'ICCID',
      state: 'Status',
      mdn: null,
      activation_date: null,
      imei: null,
    });
    expect((await coordinator.get('/sim/detection/mappings/999999')).statusCode).toBe(404);
  });

  it('refuses a file without the mapped columns, an empty file and a workbook', async () => {
    const missing = await upload('ICCID,Status\n8901260000000000018,active\n');
    expect(missing.statusCode).toBe(422);
    expect(missing.json().message.file[0]).toMatch(/no column "SIM Number"/);
    expect((await upload('')).statusCode).toBe(422);
    const workbook = await upload('PK\u0003\u0004rest');
    expect(workbook.statusCode).toBe(422);
  });
});

describe('a pull through the carrier’s batch-file adapter', () => {
  it('asks about a range and records what the export says, not found for the rest', async () => {
    const [pack] = await seedPacks(t.db, carrierId, 1, 3);
    const iccids = pack!.iccids as [string, string, string];
    const missingFolder = await coordinator.post('/sim/detection/pulls', {
      client_carrier_id: carrierId,
      iccids: [iccids[0]],
    });
    expect(missingFolder.statusCode).toBe(422);
    mkdirSync(join(exportsDir, String(carrierId)), { recursive: true });
    writeFileSync(
      join(exportsDir, String(carrierId), '2026-11-01.csv'),
      `${HEADER}\n${iccids[0]},inactive,,,\n${iccids[1]},active,,,\n`,
    );
    writeFileSync(
      join(exportsDir, String(carrierId), '2026-11-02.csv'),
      `${HEADER}\n${iccids[0]},active,2145550199,,\n`,
    );
    const pulled = await dataOf<SimDetectionRun>(
      coordinator.post('/sim/detection/pulls', {
        client_carrier_id: carrierId,
        first: iccids[0],
        last: iccids[2],
      }),
      201,
    );
    expect(pulled).toMatchObject({ source: 'api', rows_total: 3 });
    const run = await settled(pulled.id);
    expect(run).toMatchObject({ status: 'done', matched: 3, anomalies: 2 });
    const rows = await rowsOf(run.id);
    expect(rows.map((row) => [row.iccid, row.state, row.mdn])).toEqual([
      [iccids[0], 'active', '2145550199'],
      [iccids[1], 'active', null],
      [iccids[2], 'not_found', null],
    ]);
    expect((await simOf(iccids[2])).last_detect_state).toBe('not_found');
  });

  it('refuses a bad list or range with the field', async () => {
    const errors = await coordinator.fieldErrors('POST', '/sim/detection/pulls', {
      client_carrier_id: carrierId,
      iccids: ['123'],
      first: iccidOf(5),
      last: iccidOf(1),
    });
    expect(Object.keys(errors as object).sort()).toEqual(['iccids.0', 'last']);
    expect(
      await coordinator.fieldErrors('POST', '/sim/detection/pulls', {
        client_carrier_id: carrierId,
      }),
    ).toHaveProperty('iccids');
  });
});

describe('who may run detection', () => {
  it('needs sim.detection_oss', async () => {
    const agent = await agentOf(t, 10);
    expect((await agent.api.get('/sim/detection/runs')).statusCode).toBe(403);
    const unassigned = await staffOf(t, []);
    expect((await unassigned.get('/sim/detection/anomalies')).statusCode).toBe(403);
  });

  it('pages the runs newest first', async () => {
    const first = await dataOf<{ rows: SimDetectionRun[]; next: number | null }>(
      coordinator.get('/sim/detection/runs?limit=2'),
    );
    expect(first.rows).toHaveLength(2);
    expect(first.next).toBe(first.rows[1]!.id);
    const second = await dataOf<{ rows: SimDetectionRun[] }>(
      coordinator.get(`/sim/detection/runs?limit=2&before=${first.next}`),
    );
    expect(second.rows[0]!.id).toBeLessThan(first.next!);
  });
});
