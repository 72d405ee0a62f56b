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
import { hashPassword } from '../apps/api/dist/modules/session/password-hashing.js';

const HOST = '127.0.0.1';
const REFERENCE_ROWS = 10_000;
const FIRST_ADMIN = { user_name: 'admin', password: 'admin' };
const BENCH_PASSWORD = 'bench-password-1';
const STAFF_USERS = 10_000;
const HASH_SAMPLES = 15;

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

/**
 * 10,000 users for the user list: names, types and statuses spread as on a big site, each with one
 * of the seeded roles. One set-based statement each; all share one password hash.
 */
async function createStaffUsers(db) {
  const [{ password_hash: passwordHash }] = await db.query(
    "SELECT password_hash FROM users WHERE user_name = 'admin'",
  );
  await db.query(
    `INSERT INTO users (user_name, name, email, type, status, password_hash, first_login)
     SELECT 'user' || g, 'Staff member ' || lpad(((g * 7919) % $1)::text, 5, '0'),
            'user' || g || '@example.com',
            CASE WHEN g % 10 = 0 THEN 'agent' ELSE 'staff' END,
            CASE WHEN g % 17 = 0 THEN 'disabled' ELSE 'active' END, $2, 0
     FROM generate_series(1, $1::int) AS g`,
    [STAFF_USERS, passwordHash],
  );
  await db.query(
    `INSERT INTO user_roles (user_id, role_id)
     SELECT u.id, r.id FROM users u
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n, count(*) OVER () AS total FROM roles)
       r ON r.n = u.id % r.total
     WHERE u.user_name LIKE 'user%'`,
  );
}

/** R4: the median time of one password hash at the app's parameters, in ms. */
async function passwordHashMs() {
  const times = [];
  for (let i = 0; i < HASH_SAMPLES; i += 1) {
    const start = performance.now();
    await hashPassword(`sample-password-${i}`);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(HASH_SAMPLES / 2)];
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
  await createStaffUsers(db);
  // Statistics for the rows just added, as PostgreSQL's autovacuum and the app's start on
  // PGlite (prepareDatabase) give a database in use.
  await db.exec('ANALYZE');
  const hashMs = await passwordHashMs();

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
  process.send({
    ports,
    imeis,
    session,
    hashMs,
    login: { user_name: FIRST_ADMIN.user_name, password: BENCH_PASSWORD },
  });
}

main().catch((error) => {
  process.stderr.write(`bench server: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
