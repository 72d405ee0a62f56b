// npm run bench: the performance gates of /work/shared/QUALITY.md, each figure a ratio to a
// reference measured in the same run, because absolute times on a shared machine mean little.
//
// 1. HTTP: for each database, R0 (hello-world), R1 (one SELECT by IMEI) and the app's endpoints,
//    served by bench-server.mjs in a child process and loaded with autocannon from this one.
// 2. Bundles: a cold load of each page route in Chromium, the gzip size of everything it fetched,
//    and the size of every built JS chunk.
// Exit code 0 when every gate passes, 1 otherwise. BENCH_SECONDS sets the duration of each run,
// BENCH_ROUNDS how many alternating rounds the HTTP targets get.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { constants, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const WEB_DIST = resolve(process.env.WEB_DIST || join(HERE, '../apps/web/dist'));
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const WARMUP_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = 10;
const POSTGRES_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

const bearer = (server) => ({ authorization: `Bearer ${server.session.token}` });
const pick = (list) => list[Math.floor(Math.random() * list.length)];

/** The same-run references: R0 bounds what Fastify can do, R1 what one query on the database can. */
const R0 = { name: 'R0 hello-world', server: 'r0', request: () => ({ method: 'GET', path: '/' }) };
const R1 = {
  name: 'R1 SELECT by imei',
  server: 'r1',
  // A different existing IMEI per request, so the figure is not one cached row.
  request: (server) => ({
    method: 'GET',
    setupRequest: (request) => ({ ...request, path: `/devices/${pick(server.imeis)}` }),
  }),
};

/**
 * Floors (bench-server.mjs), not gates: the cheapest form of a gated request, without
 * authentication or anything the app adds. A gate below its floor's ratio cannot be met on this
 * machine by any change to the app; the gate's line shows its floor for that reading.
 */
const FLOORS = [
  {
    name: 'F1 INSERT one device row, committed (floor of a scan)',
    key: 'insertFloor',
    server: 'floors',
    request: () => ({ method: 'POST', path: '/device' }),
  },
  {
    name: "F2 SELECT a page of 50 devices' own columns (floor of a device page)",
    key: 'pageFloor',
    server: 'floors',
    request: () => ({ method: 'GET', path: '/devices' }),
  },
];

/** The device list's filter: the most common model among devices in stock, 50 a page. */
const deviceListPath = (server, cursor) =>
  `/api/v1/devices?model_id=${server.deviceFilter.model_id}&status=${server.deviceFilter.status}` +
  `&sort=imei&limit=50${cursor ? `&cursor=${cursor}` : ''}`;

/**
 * Each scan request takes the next IMEI of the scan invoice's manifest and the next of its open
 * boxes, so every request receives a distinct expected device; an answer other than `added`
 * (the stock ran out, or the scan refused it) is counted and fails the gate.
 */
function scanRequest(server) {
  server.scanNext ??= 0;
  server.scanOther ??= 0;
  return {
    method: 'POST',
    headers: { ...bearer(server), 'content-type': 'application/json' },
    setupRequest: (request) => {
      const i = server.scanNext;
      server.scanNext += 1;
      return {
        ...request,
        path: `/api/v1/warehouse-boxes/${server.scanBoxes[i % server.scanBoxes.length]}/scans`,
        body: JSON.stringify({
          code: server.scanImeis[i % server.scanImeis.length],
          station: 'bench',
        }),
      };
    },
    onResponse: (status, body) => {
      if (status === 200 && !body.includes('"result":"added"')) server.scanOther += 1;
    },
  };
}

/**
 * The app's endpoints and their gates: each must serve at least minRatioToR1 x R1's req/s on the
 * same database, and, where maxP99Ms is given, answer 99% of requests within it on the databases
 * it names. Give method and path (sent signed in as admin) or request(server), which returns an
 * autocannon request ({method, path, headers, body, setupRequest}).
 */
const ENDPOINTS = [
  {
    name: 'GET /api/v1/profile',
    key: 'profile',
    method: 'GET',
    path: '/api/v1/profile',
    minRatioToR1: 0.8,
  },
  {
    name: 'GET /api/v1/users (50 of 10,000, filtered, sorted)',
    method: 'GET',
    path: '/api/v1/users?status=active&type=staff&sort=name&order=asc&pageSize=50',
    minRatioToR1: 0.6,
  },
  {
    name: 'GET /api/v1/tac-numbers (50 of 100,000, filtered by model)',
    minRatioToR1: 0.6,
    request: (server) => ({
      method: 'GET',
      path: `/api/v1/tac-numbers?model_id=${server.tacModel.id}&active=true&sort=tac&limit=50`,
      headers: bearer(server),
    }),
  },
  {
    // Not a gate: what a list costs when its answer is not kept (decision 0010), a different
    // model, order and page size each request, far more combinations than a list keeps.
    name: 'GET /api/v1/tac-numbers (a new filter each request: answers not kept)',
    minRatioToR1: null,
    request: (server) => ({
      method: 'GET',
      headers: bearer(server),
      setupRequest: (request) => ({
        ...request,
        path:
          `/api/v1/tac-numbers?model_id=${pick(server.tacModelIds)}&active=true&sort=tac` +
          `&order=${pick(['asc', 'desc'])}&limit=${40 + Math.floor(Math.random() * 21)}`,
      }),
    }),
  },
  {
    name: 'GET /api/v1/devices/lookup (by IMEI)',
    minRatioToR1: 0.5,
    // A session check alone: what any signed-in request costs before it reads a device.
    floor: 'profile',
    maxP99Ms: { PostgreSQL: 10 },
    request: (server) => ({
      method: 'GET',
      headers: bearer(server),
      setupRequest: (request) => ({
        ...request,
        path: `/api/v1/devices/lookup?code=${pick(server.lookupImeis)}`,
      }),
    }),
  },
  {
    name: 'POST /api/v1/warehouse-boxes/:id/scans (a distinct expected IMEI each)',
    minRatioToR1: 0.5,
    floor: 'insertFloor',
    request: scanRequest,
  },
  {
    name: 'GET /api/v1/devices (first 50, by model and status)',
    key: 'devicesFirst',
    minRatioToR1: 0.6,
    floor: 'pageFloor',
    request: (server) => ({ method: 'GET', path: deviceListPath(server), headers: bearer(server) }),
  },
  {
    name: 'GET /api/v1/devices (last 50, by model and status)',
    key: 'devicesLast',
    minRatioToR1: 0.6,
    floor: 'pageFloor',
    request: (server) => ({
      method: 'GET',
      path: deviceListPath(server, 'last'),
      headers: bearer(server),
    }),
  },
];

/** The keyset's last page within this fraction of the first page's req/s (noise allowed for). */
const LAST_PAGE_MIN_RATIO_TO_FIRST = 0.8;

/** An import may take at most this many times a raw bulk insert of the same rows (R3, R5). */
const IMPORT_MAX_RATIO = 3;
/** An export of a million rows may grow the server's resident memory by at most this. */
const EXPORT_MAX_RSS_GROWTH_MB = 100;

/** Sign-in latency is bound by the password hash: its p50 may exceed one hash by this much. */
const LOGIN_MAX_OVER_HASH_MS = 5;

/** Page routes loaded cold in Chromium; signedIn routes start with the session in localStorage. */
const ROUTES = [
  { name: '/login', path: '/login', signedIn: false, maxKiB: 230 },
  { name: 'shell /', path: '/', signedIn: true, maxKiB: 300 },
];
/** Vite's own unit (1 kB = 1000 bytes), so the figure matches its chunkSizeWarningLimit. */
const MAX_CHUNK_BYTES = 500_000;

/** Each gate's outcome, printed again at the end and turned into the exit code. */
const gates = [];
function gate(name, pass, detail) {
  gates.push({ name, pass });
  console.log(`  gate ${pass ? 'PASS' : 'FAIL'}  ${name}: ${detail}`);
}

/** Releases still held: run on Ctrl-C or SIGTERM so no database or temp dir is left behind. */
const held = new Set();
async function holding(resource, release, use) {
  // Idempotent, because the signal handler and the normal path may both reach it.
  const releaseOnce = async () => {
    if (held.delete(releaseOnce)) await release(resource);
  };
  held.add(releaseOnce);
  try {
    return await use(resource);
  } finally {
    await releaseOnce();
  }
}
async function interrupt(signal) {
  console.error(`\n${signal}: cleaning up`);
  for (const release of [...held].reverse()) await release().catch(() => {});
  // The shell convention for death by a signal: 128 + its number.
  process.exit(128 + constants.signals[signal]);
}
process.once('SIGINT', interrupt);
process.once('SIGTERM', interrupt);

// ---------------------------------------------------------------------------------------------
// Databases: each calls use(env) with the environment that points the bench server at a fresh,
// empty database, and removes that database afterwards.

/** PGlite in a new temp directory. */
async function withPglite(use) {
  const dataDir = await mkdtemp(join(tmpdir(), 'inventory-bench-'));
  return holding(
    dataDir,
    (dir) => rm(dir, { recursive: true, force: true }),
    (dir) => use({ DATA_DIR: dir, DATABASE_URL: '' }),
  );
}

/** A new database on the local PostgreSQL server; skipped when the server is unreachable. */
async function withPostgres(use) {
  const admin = new pg.Client({
    connectionString: POSTGRES_ADMIN_URL,
    connectionTimeoutMillis: 5000,
  });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`PostgreSQL unreachable at ${POSTGRES_ADMIN_URL} (${error.message}): skipped`);
    return;
  }
  const name = `inventory_bench_${randomBytes(4).toString('hex')}`;
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    // FORCE: a connection the killed server left open must not keep the database alive.
    const drop = () => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    return await holding(name, drop, () => use({ DATABASE_URL: url.href }));
  } finally {
    await admin.end();
  }
}

/** BENCH_DATABASES=PostgreSQL (or PGlite) measures one of them only. */
const DATABASES = [
  { name: 'PGlite', provide: withPglite },
  { name: 'PostgreSQL', provide: withPostgres },
].filter(
  ({ name }) =>
    !process.env.BENCH_DATABASES ||
    process.env.BENCH_DATABASES.toLowerCase().split(',').includes(name.toLowerCase()),
);

// ---------------------------------------------------------------------------------------------
// The bench server child process.

function serverReady(child) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('bench server not ready after 30 minutes')),
      // Generating the registry of a million devices comes first (minutes on PGlite).
      30 * 60_000,
    );
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench server exited with code ${code} before it was ready`));
    });
  });
}

async function stopServer(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  // The server closes itself when its IPC channel goes; SIGKILL only if it hangs.
  if (child.connected) child.disconnect();
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs use(server) against a bench server on the database that env names, then stops it. */
function withBenchServer(env, use) {
  const child = fork(join(HERE, 'bench-server.mjs'), {
    env: { ...process.env, ...env, WEB_DIST },
  });
  return holding(child, stopServer, async () => use({ ...(await serverReady(child)), child }));
}

// ---------------------------------------------------------------------------------------------
// HTTP throughput and latency.

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** One autocannon run after a warm-up: req/s, p50/p99 latency in ms and the count of failures. */
async function measure(target, server) {
  const request = target.request
    ? target.request(server)
    : { method: target.method, path: target.path, headers: bearer(server) };
  process.stderr.write(`  measuring ${target.name} ...\n`);
  const latencies = [];
  const connections = target.connections ?? CONNECTIONS;
  const run = autocannon({
    url: `http://127.0.0.1:${server.ports[target.server]}`,
    connections,
    duration: SECONDS,
    warmup: { connections, duration: WARMUP_SECONDS },
    requests: [request],
  });
  // autocannon's histogram keeps whole milliseconds; these latencies are well under one.
  run.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
  const result = await run;
  const sorted = Float64Array.from(latencies).sort();
  return {
    name: target.name,
    rps: result.requests.average,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

const ratio = (value, reference) => `${(value / reference).toFixed(2)}x`;
const ms = (value) => (value === undefined ? '-' : value.toFixed(3));

function printTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(`  ${line(header)}`);
  for (const row of rows) console.log(`  ${line(row)}`);
}

function printHttpTable(results, r0, r1) {
  printTable(
    ['target', 'req/s', 'xR1', 'xR0', 'p50 ms', 'xR1', 'p99 ms', 'xR1', 'failures'],
    results.map((r) => [
      r.name,
      Math.round(r.rps).toLocaleString('en-US'),
      ratio(r.rps, r1.rps),
      ratio(r.rps, r0.rps),
      ms(r.p50),
      ratio(r.p50, r1.p50),
      ms(r.p99),
      ratio(r.p99, r1.p99),
      String(r.failures),
    ]),
  );
}

/** Sign-ins one after another (connections: 1): the p50 is the latency a person sees. */
async function benchLogin(database, server) {
  const result = await measure(
    {
      name: 'POST /api/v1/login',
      server: 'app',
      connections: 1,
      request: () => ({
        method: 'POST',
        path: '/api/v1/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(server.login),
      }),
    },
    server,
  );
  console.log(
    `  ${result.name}: p50 ${ms(result.p50)} ms, p99 ${ms(result.p99)} ms; ` +
      `R4 one password hash: ${ms(server.hashMs)} ms`,
  );
  gate(
    `${database} login p50 <= hash time + ${LOGIN_MAX_OVER_HASH_MS} ms`,
    result.failures === 0 && result.p50 <= server.hashMs + LOGIN_MAX_OVER_HASH_MS,
    `${ms(result.p50)} ms vs ${ms(server.hashMs)} + ${LOGIN_MAX_OVER_HASH_MS} ms`,
  );
}

/** Asks the bench server for a one-off measurement and waits for its answer. */
function ask(server, command) {
  return new Promise((resolve, reject) => {
    server.child.once('message', (answer) =>
      answer.error ? reject(new Error(answer.error)) : resolve(answer),
    );
    server.child.send(command);
  });
}

/** 100,000 manifest IMEIs through upload, check and commit, against a raw bulk insert (R3). */
async function benchManifestImport(database, server) {
  process.stderr.write('  measuring the import of a 100,000-IMEI manifest ...\n');
  const { import: result } = await ask(server, 'manifest-import');
  const flow = result.uploadSeconds + result.checkSeconds + result.commitSeconds;
  console.log(
    `  import of a ${result.rows.toLocaleString('en-US')}-IMEI manifest: upload ` +
      `${result.uploadSeconds.toFixed(2)} s, check ${result.checkSeconds.toFixed(2)} s, commit ` +
      `${result.commitSeconds.toFixed(2)} s (all three ${ratio(flow, result.rawSeconds)}); R3 raw ` +
      `bulk insert ${result.rawSeconds.toFixed(2)} s; ${result.created} created, ${result.errors} errors`,
  );
  gate(
    `${database} import commit of 100,000 manifest IMEIs <= ${IMPORT_MAX_RATIO} x raw bulk insert`,
    result.errors === 0 &&
      result.created === result.rows &&
      result.commitSeconds <= IMPORT_MAX_RATIO * result.rawSeconds,
    `${ratio(result.commitSeconds, result.rawSeconds)} (commit re-checks every row, creates the ` +
      'invoices and lines, then writes)',
  );
}

/** 50,000 TAC rows through upload, check and commit, against a raw bulk insert of them (R5). */
async function benchImport(database, server) {
  process.stderr.write('  measuring the import of 50,000 TACs ...\n');
  const { import: result } = await ask(server, 'import');
  const flow = result.uploadSeconds + result.checkSeconds + result.commitSeconds;
  console.log(
    `  import of 50,000 TACs: upload ${result.uploadSeconds.toFixed(2)} s, check ` +
      `${result.checkSeconds.toFixed(2)} s, commit ${result.commitSeconds.toFixed(2)} s ` +
      `(all three ${ratio(flow, result.rawSeconds)}); R5 raw bulk insert ` +
      `${result.rawSeconds.toFixed(2)} s; ${result.created} created, ${result.errors} errors`,
  );
  gate(
    `${database} import commit of 50,000 TACs <= ${IMPORT_MAX_RATIO} x raw bulk insert`,
    result.errors === 0 &&
      result.created === 50_000 &&
      result.commitSeconds <= IMPORT_MAX_RATIO * result.rawSeconds,
    `${ratio(result.commitSeconds, result.rawSeconds)} (commit re-checks every row, then writes)`,
  );
}

const rssOf = async (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;

/** A million TACs exported as CSV through a download link, the server's memory sampled. */
async function benchExport(database, server) {
  process.stderr.write('  growing the TAC table to 1,000,000 rows ...\n');
  await ask(server, 'grow');
  const base = `http://127.0.0.1:${server.ports.app}`;
  const link = await fetch(`${base}/api/v1/tac-numbers/exports`, {
    method: 'POST',
    headers: { ...bearer(server), 'content-type': 'application/json' },
    body: JSON.stringify({ format: 'csv' }),
  }).then((response) => response.json());
  const before = await rssOf(server.child.pid);
  let peak = before;
  const sampler = setInterval(() => {
    rssOf(server.child.pid).then(
      (rss) => (peak = Math.max(peak, rss)),
      () => {},
    );
  }, 50);
  const start = performance.now();
  let bytes = 0;
  let lines = 0;
  try {
    const response = await fetch(`${base}${link.data.url}`);
    for await (const chunk of response.body) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const growthMb = (peak - before) / 1024 / 1024;
  console.log(
    `  export of ${(lines - 1).toLocaleString('en-US')} TACs as CSV: ` +
      `${(bytes / 1024 / 1024).toFixed(1)} MB in ${((performance.now() - start) / 1000).toFixed(1)} s; ` +
      `server RSS ${(before / 1024 / 1024).toFixed(0)} MB before, peak growth ${growthMb.toFixed(1)} MB`,
  );
  gate(
    `${database} export of 1,000,000 rows: peak RSS growth < ${EXPORT_MAX_RSS_GROWTH_MB} MB`,
    lines - 1 === 1_000_000 && growthMb < EXPORT_MAX_RSS_GROWTH_MB,
    `${growthMb.toFixed(1)} MB, ${(lines - 1).toLocaleString('en-US')} rows`,
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The machine's neighbours come and go, so the targets are measured in alternating rounds and
 * each endpoint is gated on the median of its per-round ratio to the R1 of the same round.
 */
async function benchHttp(database, server) {
  const endpoints = ENDPOINTS.map((endpoint) => ({ ...endpoint, server: 'app' }));
  const targets = [R0, R1, ...FLOORS, ...endpoints];
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const results = [];
    for (const target of targets) results.push(await measure(target, server));
    rounds.push(results);
  }
  // The table shows the round whose R1 is the median, as one coherent snapshot.
  const r1Index = 1;
  const byR1 = [...rounds].sort((a, b) => a[r1Index].rps - b[r1Index].rps);
  const shown = byR1[Math.floor(byR1.length / 2)];
  console.log(`\n${database} (${ROUNDS} rounds of ${SECONDS} s; the median-R1 round shown):`);
  printHttpTable(shown, shown[0], shown[1]);
  const failures = rounds.flat().reduce((total, result) => total + result.failures, 0);
  const at = (key) => targets.findIndex((target) => target.key === key);
  const medianRatio = (index, toIndex = r1Index) =>
    median(rounds.map((results) => results[index].rps / results[toIndex].rps));
  for (const floor of FLOORS) {
    console.log(`  (${floor.name}: median ${medianRatio(at(floor.key)).toFixed(2)}x R1, a floor)`);
  }
  endpoints.forEach((endpoint) => {
    const index = targets.indexOf(endpoint);
    const perRound = rounds.map((results) => results[index].rps / results[r1Index].rps);
    const value = median(perRound);
    if (endpoint.minRatioToR1 === null) {
      console.log(`  (${endpoint.name}: median ${value.toFixed(2)}x R1, not gated)`);
      return;
    }
    const floor = endpoint.floor
      ? `; its floor ${targets[at(endpoint.floor)].name}: ${medianRatio(at(endpoint.floor)).toFixed(2)}x`
      : '';
    gate(
      `${database} ${endpoint.name} >= ${endpoint.minRatioToR1} x R1`,
      failures === 0 && value >= endpoint.minRatioToR1,
      failures > 0
        ? 'failed requests make this run invalid'
        : `median ${value.toFixed(2)}x (rounds: ${perRound.map((r) => r.toFixed(2)).join(', ')})${floor}`,
    );
    const maxP99 = endpoint.maxP99Ms?.[database];
    const p99s = rounds.map((results) => results[index].p99);
    if (maxP99 !== undefined) {
      gate(
        `${database} ${endpoint.name} p99 <= ${maxP99} ms`,
        failures === 0 && median(p99s) <= maxP99,
        `median ${ms(median(p99s))} ms (rounds: ${p99s.map(ms).join(', ')})`,
      );
    } else if (endpoint.maxP99Ms) {
      console.log(
        `  (${endpoint.name} p99: median ${ms(median(p99s))} ms, not gated on ${database})`,
      );
    }
  });
  const scans = server.scanNext ?? 0;
  gate(
    `${database} every scan received a distinct expected IMEI`,
    (server.scanOther ?? 0) === 0 && scans <= server.scanImeis.length,
    `${scans.toLocaleString('en-US')} scans of ${server.scanImeis.length.toLocaleString('en-US')} ` +
      `expected IMEIs into ${server.scanBoxes.length} boxes; ${server.scanOther ?? 0} not added`,
  );
  const lastToFirst = medianRatio(at('devicesLast'), at('devicesFirst'));
  gate(
    `${database} device list: last page >= ${LAST_PAGE_MIN_RATIO_TO_FIRST} x first page`,
    failures === 0 && lastToFirst >= LAST_PAGE_MIN_RATIO_TO_FIRST,
    `median ${lastToFirst.toFixed(2)}x; ${server.deviceFilter.matching.toLocaleString('en-US')} ` +
      'devices match the filter',
  );
}

// ---------------------------------------------------------------------------------------------
// Bundle sizes.

const kib = (bytes) => (bytes / 1024).toFixed(1);

/** localStorage as the web app keeps it after a sign-in (spec section 3, browser storage). */
const storageOf = (session) => [
  ['token', session.token],
  ['type', session.type],
  ['user_name', session.user_name],
  ['userInfoId', String(session.userInfoId)],
  ['userInfo', JSON.stringify(session.userInfo)],
];

/** gzip -9 of the decoded body, whatever encoding the server chose, so builds compare alike. */
async function gzipSizeOf(response) {
  // Redirects have no body to read.
  const body = await response.body().catch(() => Buffer.alloc(0));
  return body.length === 0 ? 0 : gzipSync(body, { level: 9 }).length;
}

/** Loads a route in a fresh context (cold cache) until the network is idle; sizes every response. */
async function loadRoute(browser, baseUrl, route, session) {
  const context = await browser.newContext();
  try {
    if (route.signedIn) {
      await context.addInitScript((entries) => {
        for (const [key, value] of entries) localStorage.setItem(key, value);
      }, storageOf(session));
    }
    const page = await context.newPage();
    const sizes = [];
    page.on('response', (response) =>
      sizes.push(gzipSizeOf(response).then((gzip) => ({ url: response.url(), gzip }))),
    );
    await page.goto(`${baseUrl}${route.path}`, { waitUntil: 'networkidle' });
    return { landedOn: new URL(page.url()).pathname, responses: await Promise.all(sizes) };
  } finally {
    await context.close();
  }
}

async function benchRoutes(server) {
  const baseUrl = `http://127.0.0.1:${server.ports.app}`;
  const browser = await chromium.launch(CHROMIUM);
  try {
    for (const route of ROUTES) {
      const { landedOn, responses } = await loadRoute(browser, baseUrl, route, server.session);
      const total = responses.reduce((sum, response) => sum + response.gzip, 0);
      console.log(`\n  ${route.name}: ${responses.length} responses, landed on ${landedOn}`);
      for (const { url, gzip } of responses.sort((a, b) => b.gzip - a.gzip)) {
        console.log(`    ${kib(gzip).padStart(7)} KiB  ${url.replace(baseUrl, '')}`);
      }
      // A signed-in route that ends on the login page measured the wrong thing.
      const signedOut = route.signedIn && landedOn === '/login';
      gate(
        `${route.name} <= ${route.maxKiB} KiB gzip`,
        !signedOut && total <= route.maxKiB * 1024,
        signedOut ? 'the session was not accepted' : `${kib(total)} KiB`,
      );
    }
  } finally {
    await browser.close();
  }
}

async function benchChunks() {
  const assets = join(WEB_DIST, 'assets');
  const chunks = [];
  for (const name of (await readdir(assets)).filter((file) => file.endsWith('.js'))) {
    chunks.push({ name, bytes: (await stat(join(assets, name))).size });
  }
  console.log(`\n  JS chunks in ${assets} (minified):`);
  for (const { name, bytes } of chunks.sort((a, b) => b.bytes - a.bytes)) {
    const flag = bytes > MAX_CHUNK_BYTES ? '  OVER 500 kB' : '';
    console.log(`    ${(bytes / 1000).toFixed(1).padStart(8)} kB  ${name}${flag}`);
  }
  const over = chunks.filter((chunk) => chunk.bytes > MAX_CHUNK_BYTES);
  gate('no JS chunk over 500 kB', over.length === 0, `${over.length} of ${chunks.length} over`);
}

async function benchBundles() {
  console.log('\nBundles (gzip -9 of each body fetched by a cold load, until network idle):');
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    gate('web app built', false, `no ${WEB_DIST}/index.html: run npm run build -w @inventory/web`);
    return;
  }
  await withPglite((env) => withBenchServer(env, benchRoutes));
  await benchChunks();
}

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!(SECONDS > 0)) throw new Error(`BENCH_SECONDS must be a positive number of seconds`);
  console.log(
    `HTTP: autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${SECONDS} s ` +
      `per target, on 127.0.0.1; Node ${process.version}, ${cpus().length} cores.\n` +
      'The app logs at level warn (info would log every request and dominate the cost); ' +
      'R0 and R1 do not log.',
  );
  for (const { name, provide } of DATABASES) {
    await provide((env) =>
      withBenchServer(env, async (server) => {
        const g = server.generated;
        console.log(
          `\n${name}: db:generate wrote ${g.devices.toLocaleString('en-US')} devices, ` +
            `${g.invoices.toLocaleString('en-US')} invoices, ${g.invoiceImeis.toLocaleString('en-US')} ` +
            `manifest IMEIs, ${g.warehouseBoxes.toLocaleString('en-US')} boxes and ` +
            `${g.deviceEvents.toLocaleString('en-US')} events in ${g.seconds.toFixed(0)} s (vacuumed)`,
        );
        await benchHttp(name, server);
        await benchLogin(name, server);
        await benchImport(name, server);
        await benchManifestImport(name, server);
        await benchExport(name, server);
      }),
    );
  }
  // BENCH_BUNDLES=0 skips the page loads (while working on the API's figures).
  if (process.env.BENCH_BUNDLES !== '0') await benchBundles();

  const failed = gates.filter((g) => !g.pass);
  console.log(`\n${gates.length - failed.length} of ${gates.length} gates pass.`);
  for (const { name } of failed) console.log(`  FAIL ${name}`);
  return failed.length === 0;
}

// exitCode, not exit(): a signal handler still cleaning up must get to finish.
main().then(
  (pass) => {
    process.exitCode = pass ? 0 : 1;
  },
  (error) => {
    console.error(`bench: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  },
);
