import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { luhnCheckDigit, type SimDetectionRun } from '@inventory/contract';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  bootServer,
  callServer,
  crashStorage,
  type CrashStorage,
  type ServerSession,
} from '../../test/crash-server.js';
import { children } from '../../test/server-process.js';

/**
 * A detection import whose server is killed (kill -9) while it loads the export: the server that
 * starts again resumes the run after its last kept line and applies it once, so no row, SIM
 * event, ledger entry or anomaly is doubled, and the same file uploaded again credits nothing
 * twice. On the embedded database by default; on PostgreSQL when TEST_DATABASE_URL is set, where
 * the test also reads the timeline and ledger tables themselves.
 */

const dataDir = mkdtempSync(join(tmpdir(), 'inventory-detection-crash-'));
let storage: CrashStorage | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await storage?.drop();
});

const KNOWN = 200;
const UNKNOWN = 50_000;

const iccidOf = (serial: number) => {
  const body = `8901260${String(serial).padStart(11, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
};

/** The carrier, its mapping and a box of KNOWN SIMs in stock; the export's text. */
async function setUp(session: ServerSession): Promise<{ carrierId: number; csv: string }> {
  const carrier = await callServer<{ id: number }>(session, 'POST', '/vendors', {
    name: 'Crash Detect Wireless',
    type: 'carrier-client',
  });
  await callServer(session, 'POST', '/sim-boxes', {
    client_carrier_id: carrier.id,
    qty: KNOWN,
    iccid_first: iccidOf(1),
    iccid_last: iccidOf(KNOWN),
  });
  await callServer(session, 'PUT', `/sim/detection/mappings/${carrier.id}`, {
    iccid: 'ICCID',
    state: 'Status',
  });
  const lines = ['ICCID,Status'];
  for (let n = 1; n <= KNOWN + UNKNOWN; n += 1) lines.push(`${iccidOf(n)},active`);
  return { carrierId: carrier.id, csv: `${lines.join('\n')}\n` };
}

const upload = (session: ServerSession, carrierId: number, csv: string) =>
  callServer<SimDetectionRun>(
    session,
    'POST',
    `/sim/detection/runs?client_carrier_id=${carrierId}&file_name=crash.csv`,
    csv,
    'text/csv',
  );

async function settled(session: ServerSession, id: number): Promise<SimDetectionRun> {
  for (let attempt = 0; attempt < 2400; attempt += 1) {
    const run = await callServer<SimDetectionRun>(session, 'GET', `/sim/detection/runs/${id}`);
    if (run.status === 'done' || run.status === 'failed') return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${id} did not finish`);
}

async function openAnomalies(session: ServerSession): Promise<number> {
  let count = 0;
  let before: number | null = null;
  do {
    const page: { rows: unknown[]; next: number | null } = await callServer(
      session,
      'GET',
      `/sim/detection/anomalies?limit=200${before ? `&before=${before}` : ''}`,
    );
    count += page.rows.length;
    before = page.next;
  } while (before !== null);
  return count;
}

/*
 * On PostgreSQL only: PGlite runs one statement at a time, so the test's reads of the run's
 * progress wait behind the loader's batches and the kill cannot be placed between them; the
 * run is done before the first read answers. The resumption and the single apply are the same
 * code on both databases.
 */
describe.runIf(process.env.TEST_DATABASE_URL)(
  'a detection import whose server is killed while it loads',
  () => {
    it('resumes after the restart and applies each row once', async () => {
      storage = await crashStorage(dataDir, 'detection_crash');
      let { server, session } = await bootServer(storage.environment);
      const { carrierId, csv } = await setUp(session);
      if (storage.url) {
        // On PostgreSQL half the SIMs are with an agent, so the run moves them and credits them.
        const client = new pg.Client({ connectionString: storage.url });
        await client.connect();
        await client.query(
          `UPDATE sim_cards SET status = 'with_agent',
           agent_id = (SELECT id FROM users WHERE user_name = 'admin')
         WHERE id IN (SELECT id FROM sim_cards ORDER BY id LIMIT $1)`,
          [KNOWN / 2],
        );
        await client.end();
      }

      const started = await upload(session, carrierId, csv);
      expect(started.status).toBe('loading');
      // Killed once some batches are kept and before the run is applied.
      let seen = started;
      while (seen.rows_loaded === 0 && seen.status === 'loading') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        seen = await callServer<SimDetectionRun>(
          session,
          'GET',
          `/sim/detection/runs/${started.id}`,
        );
      }
      server.child.kill('SIGKILL');
      expect((await server.exited).signal).toBe('SIGKILL');
      expect(seen.status).not.toBe('done');

      ({ server, session } = await bootServer(storage.environment));
      const run = await settled(session, started.id);
      expect(run).toMatchObject({
        status: 'done',
        rows_total: KNOWN + UNKNOWN,
        rows_loaded: KNOWN + UNKNOWN,
        matched: KNOWN,
        // SIMs active while still in stock are anomalies, not activations.
        newly_active: storage.url ? KNOWN / 2 : 0,
        unknown: UNKNOWN,
        anomalies: storage.url ? KNOWN / 2 : KNOWN,
      });
      expect(await openAnomalies(session)).toBe(storage.url ? KNOWN / 2 : KNOWN);
      const audits = await callServer<{ total: number }>(
        session,
        'GET',
        `/audit-events/count?action=sim-detection.applied&entity_id=${started.id}`,
      );
      expect(audits.total).toBe(1);

      // The same export again: nothing newly active, no anomaly listed twice.
      const again = await settled(session, (await upload(session, carrierId, csv)).id);
      expect(again).toMatchObject({ status: 'done', matched: KNOWN, newly_active: 0 });
      expect(await openAnomalies(session)).toBe(storage.url ? KNOWN / 2 : KNOWN);

      if (storage.url) {
        const client = new pg.Client({ connectionString: storage.url });
        await client.connect();
        const { rows } = await client.query<{ rows: number; events: number; ledger: number }>(
          `SELECT (SELECT count(*)::int FROM sim_detection_rows WHERE run_id = $1) AS rows,
           (SELECT count(*)::int FROM sim_events WHERE type = 'detected_active') AS events,
           (SELECT count(*)::int FROM agent_sim_ledger WHERE entry = 'activated') AS ledger`,
          [started.id],
        );
        await client.end();
        expect(rows[0]).toEqual({ rows: KNOWN + UNKNOWN, events: KNOWN / 2, ledger: KNOWN / 2 });
      }
      server.child.kill('SIGTERM');
      await server.exited;
    }, 600_000);
  },
);
