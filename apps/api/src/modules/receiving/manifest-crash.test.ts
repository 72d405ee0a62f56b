import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { imeiOf } from '../../test/receiving-fixtures.js';
import {
  children,
  freePort,
  startServer,
  waitForHealth,
  type ServerProcess,
} from '../../test/server-process.js';

/**
 * kill -9 in the middle of committing a 100,000-row manifest, then a restart: nothing of the
 * import is there, and the same import commits whole afterwards. On the embedded database by
 * default; on PostgreSQL when TEST_DATABASE_URL is set, where the kill waits until the rows are
 * being written.
 */

const ROWS = 100_000;
const dataDir = mkdtempSync(join(tmpdir(), 'inventory-crash-'));
let database: { url: string; drop: () => Promise<void> } | null = null;

afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  await database?.drop();
});

/** A database of its own on the test server, or PGlite on disk under dataDir. */
async function storage(): Promise<Record<string, string>> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { DATA_DIR: dataDir };
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'inventory_test_'}crash_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  database = {
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
  return { DATABASE_URL: database.url };
}

type Session = { base: string; token: string };

async function call<T>(
  session: Session,
  method: string,
  path: string,
  body?: unknown,
  type = 'application/json',
) {
  const response = await fetch(`${session.base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${session.token}`,
      ...(body !== undefined && { 'content-type': type }),
    },
    body:
      body === undefined
        ? undefined
        : type === 'application/json'
          ? JSON.stringify(body)
          : (body as string),
  });
  const answer = (await response.json()) as { data: T; message: unknown };
  if (!response.ok) {
    throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer.message)}`);
  }
  return answer.data;
}

/** The administrator's own password, set at the first start. */
const ADMIN_PASSWORD = 'crash-test-keeper-1';

async function boot(
  environment: Record<string, string>,
): Promise<{ server: ServerProcess; session: Session }> {
  const port = await freePort();
  const server = startServer({ ...environment, PORT: String(port), HOST: '127.0.0.1' });
  await waitForHealth(port);
  const base = `http://127.0.0.1:${port}`;
  const signIn = async (password: string) => {
    const response = await fetch(`${base}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_name: 'admin', password }),
    });
    return response.ok ? ((await response.json()) as { data: { token: string } }).data.token : null;
  };
  let token = await signIn(ADMIN_PASSWORD);
  if (token === null) {
    // The first start: the first administrator sets a password before anything else works.
    const first = { base, token: (await signIn('admin'))! };
    await call(first, 'POST', '/profile/password', {
      new_password: ADMIN_PASSWORD,
      new_password_confirm: ADMIN_PASSWORD,
    });
    token = await signIn(ADMIN_PASSWORD);
  }
  return { server, session: { base, token: token! } };
}

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
    const environment = await storage();
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
    if (database) await writingStarts(database.url);
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
