import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { imeiOf } from '../../test/receiving-fixtures.js';
import {
  bootServer as boot,
  callServer as call,
  crashStorage,
  type CrashStorage,
  type ServerSession as Session,
} from '../../test/crash-server.js';
import { children } from '../../test/server-process.js';

/**
 * kill -9 in the middle of committing a 100,000-row manifest, then a restart: nothing of the
 * import is there, and the same import commits whole afterwards. On the embedded database by
 * default; on PostgreSQL when TEST_DATABASE_URL is set, where the kill waits until the rows are
 * being written.
 */

const ROWS = 100_000;
const dataDir = mkdtempSync(join(tmpdir(), 'inventory-crash-'));
let storage: CrashStorage | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await storage?.drop();
});

/** How much of the import is in the database, read straight from it. */
async function written(session: Session) {
  const invoices = await call<{ items: unknown[] }>(session, 'GET', '/purchase-invoices');
  const imeis = await call<{ total: number; capped: boolean }>(
    session,
    'GET',
    '/invoice-imeis/count',
  );
  return { invoices: invoices.items.length, imeis: imeis.capped ? Infinity : imeis.total };
}

/** Resolves once PostgreSQL runs the statement that writes the manifest's rows. */
async function writingStarts(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        "SELECT 1 FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%INSERT INTO invoice_imeis AS ii%'",
      );
      if (rows.length > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

describe('a manifest import killed mid-commit', () => {
  it('leaves nothing behind, and commits whole on the next try', async () => {
    storage = await crashStorage(dataDir, 'crash');
    const { environment } = storage;
    let { server, session } = await boot(environment);
    await call(session, 'POST', '/vendors', { name: 'Crash Test Vendor', type: 'supplier' });
    await call(session, 'POST', '/models', {
      brand: 'Crash',
      name: 'Phone',
      device_type: 'phone',
      os: 'android',
      network: '5G',
    });
    const csv = [
      'Vendor,Invoice no,IMEI,Model,Unit cost',
      ...Array.from({ length: ROWS }, (_, i) =>
        [`Crash Test Vendor`, `CR-${i % 10}`, imeiOf('35999000', i), 'Crash Phone', '12.50'].join(
          ',',
        ),
      ),
    ].join('\n');
    const batch = await call<{ id: number }>(
      session,
      'POST',
      '/invoice-imeis/imports?fileName=crash.csv',
      csv,
      'text/csv',
    );
    const checkStart = performance.now();
    const check = await call<{ errors: unknown[]; willCreate: number }>(
      session,
      'POST',
      `/invoice-imeis/imports/${batch.id}/check`,
      {},
    );
    const checkMs = performance.now() - checkStart;
    expect(check).toMatchObject({ errors: [], willCreate: ROWS });

    const commit = call(session, 'POST', `/invoice-imeis/imports/${batch.id}/commit`).catch(
      (error: unknown) => error,
    );
    // The commit checks every row again, then writes: kill it once the writing has begun.
    if (storage.url) await writingStarts(storage.url);
    else await new Promise((resolve) => setTimeout(resolve, checkMs * 1.2));
    server.child.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    // The answer never came: the connection died with the process.
    expect(String(await commit)).toMatch(/fetch failed|other side closed|socket/i);

    ({ server, session } = await boot(environment));
    expect(await written(session)).toEqual({ invoices: 0, imeis: 0 });
    const [history] = await call<{ status: string }[]>(session, 'GET', '/invoice-imeis/imports');
    expect(history).toMatchObject({ status: 'checked' });

    const committed = await call<{ status: string; created_count: number }>(
      session,
      'POST',
      `/invoice-imeis/imports/${batch.id}/commit`,
    );
    expect(committed).toMatchObject({ status: 'committed', created_count: ROWS });
    expect(await written(session)).toEqual({ invoices: 10, imeis: Infinity });
    server.child.kill('SIGTERM');
    await server.exited;
  }, 300_000);
});
