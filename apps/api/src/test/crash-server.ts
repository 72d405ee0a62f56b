import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { freePort, startServer, waitForHealth, type ServerProcess } from './server-process.js';

/*
 * What a test that kills the server (kill -9) and starts it again needs: storage that outlives the
 * process, a signed-in administrator on each start, and calls over real HTTP.
 */

/** A database of its own on the test server (TEST_DATABASE_URL), or PGlite on disk in dataDir. */
export type CrashStorage = {
  readonly environment: Record<string, string>;
  /** The PostgreSQL database's URL; null on PGlite. */
  readonly url: string | null;
  drop(): Promise<void>;
};

export async function crashStorage(dataDir: string, label: string): Promise<CrashStorage> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return { environment: { DATA_DIR: dataDir }, url: null, drop: async () => {} };
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'inventory_test_'}${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    environment: { DATABASE_URL: url.toString() },
    url: url.toString(),
    drop: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export type ServerSession = { base: string; token: string };

/** Calls the running server as the session; throws with the status and message on an error. */
export async function callServer<T>(
  session: ServerSession,
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

/** Starts the server on the storage and signs the administrator in (first start included). */
export async function bootServer(
  environment: Record<string, string>,
): Promise<{ server: ServerProcess; session: ServerSession }> {
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
    await callServer(first, 'POST', '/profile/password', {
      new_password: ADMIN_PASSWORD,
      new_password_confirm: ADMIN_PASSWORD,
    });
    token = await signIn(ADMIN_PASSWORD);
  }
  return { server, session: { base, token: token! } };
}
