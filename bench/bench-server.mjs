// The servers that bench/run.mjs measures, in a child process of their own so that the load
// generator never shares their event loop. All of them use one database handle, as the app would.
//
// Started by run.mjs with fork(): the database comes from the environment (DATA_DIR or
// DATABASE_URL, read by the app's own loadConfig), the answer goes back over IPC, and the process
// closes everything and exits when run.mjs disconnects (also when run.mjs dies).
import Fastify from 'fastify';
import { buildApp } from '../apps/api/dist/app.js';
import { loadConfig } from '../apps/api/dist/config.js';
import { openDatabase } from '../apps/api/dist/db/open.js';
import { prepareDatabase } from '../apps/api/dist/db/prepare.js';

const HOST = '127.0.0.1';
const REFERENCE_ROWS = 10_000;
const FIRST_ADMIN = { user_name: 'admin', password: 'admin' };
const BENCH_PASSWORD = 'bench-password-1';

/** R0: the cheapest Fastify answer, with a response schema as every real endpoint has. */
function buildHelloWorld() {
  const server = Fastify({ logger: false });
  const schema = {
    response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } },
  };
  server.get('/', { schema }, async () => ({ hello: 'world' }));
  return server;
}

/** Fills the table R1 reads and returns its keys, so the client asks only for existing IMEIs. */
async function createReferenceDevices(db) {
  await db.exec(
    'CREATE TABLE bench_reference_devices (imei text PRIMARY KEY, model text, status text)',
  );
  // One set-based statement, as QUALITY.md asks of bulk work; 15-digit keys like real IMEIs.
  await db.query(
    `INSERT INTO bench_reference_devices (imei, model, status)
     SELECT (350000000000000 + g)::text, 'Model ' || (g % 50),
            (ARRAY['in_stock', 'assigned', 'sold'])[g % 3 + 1]
     FROM generate_series(1, $1::int) AS g`,
    [REFERENCE_ROWS],
  );
  const rows = await db.query('SELECT imei FROM bench_reference_devices');
  return rows.map((row) => row.imei);
}

/** R1: one parameterised primary-key SELECT through the app's own Db layer, no auth, no logging. */
function buildReferenceEndpoint(db) {
  const server = Fastify({ logger: false });
  const device = {
    type: 'object',
    properties: { imei: { type: 'string' }, model: { type: 'string' }, status: { type: 'string' } },
  };
  server.get(
    '/devices/:imei',
    { schema: { response: { 200: device } } },
    async (request, reply) => {
      const [row] = await db.query(
        'SELECT imei, model, status FROM bench_reference_devices WHERE imei = $1',
        [request.params.imei],
      );
      // Never expected: run.mjs counts any non-2xx answer as a failed measurement.
      return row ?? reply.code(404).send();
    },
  );
  return server;
}

async function listen(server) {
  await server.listen({ host: HOST, port: 0 });
  return server.server.address().port;
}

async function post(appPort, path, body, token) {
  const response = await fetch(`http://${HOST}:${appPort}/api/v1${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token && { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok)
    throw new Error(`${path} failed: ${response.status} ${JSON.stringify(answer.message)}`);
  return answer.data;
}

/**
 * Signs in through HTTP as a browser would, after setting the first admin's own password, so the
 * shell is measured as staff use it every day (not with the first-login drawer open).
 */
async function logIn(appPort) {
  const first = await post(appPort, '/login', FIRST_ADMIN);
  await post(
    appPort,
    '/profile/password',
    { new_password: BENCH_PASSWORD, new_password_confirm: BENCH_PASSWORD },
    first.token,
  );
  return post(appPort, '/login', { user_name: FIRST_ADMIN.user_name, password: BENCH_PASSWORD });
}

async function main() {
  const config = loadConfig(process.env);
  const db = await openDatabase(config.database);
  // Level warn: the per-request info lines would otherwise be most of what the bench measures.
  const app = await buildApp(config, db, { logger: { level: 'warn' } });
  await prepareDatabase(db, app.log);
  const imeis = await createReferenceDevices(db);

  const helloWorld = buildHelloWorld();
  const reference = buildReferenceEndpoint(db);
  const ports = {
    r0: await listen(helloWorld),
    r1: await listen(reference),
    app: await listen(app),
  };
  const session = await logIn(ports.app);

  process.once('disconnect', async () => {
    await Promise.allSettled([helloWorld.close(), reference.close()]);
    // Last, because closing the app also closes the database that R1 shares.
    await app.close();
    process.exit(0);
  });
  process.send({ ports, imeis, session });
}

main().catch((error) => {
  process.stderr.write(`bench server: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
