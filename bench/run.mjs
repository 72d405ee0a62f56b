// npm run bench: the performance gates of /work/shared/QUALITY.md. Each gate is a ratio to a floor
// measured in the same run (the cheapest form of the same kind of work), because absolute times
// on a shared machine mean little and a busier machine moves the work and its floor together.
//
// 1. HTTP, for each database: two bench servers (bench-server.mjs, child processes), one on a
//    registry of BENCH_DEVICES devices (1,000,000) and one on a tenth of it, loaded by autocannon
//    from this process. Every round measures each floor and the requests gated on it in turns of
//    a second, BENCH_SECONDS each; a gate is the median of its ratios over BENCH_ROUNDS rounds.
// 2. Imports and an export against a raw bulk insert and a memory limit.
// 3. Bundles: a cold load of each page route in Chromium, the gzip size of everything it fetched,
//    and the size of every built JS chunk.
// Each gate prints its figure, floor, ratio, required ratio, margin and verdict; a summary per
// database goes to bench/results/<database>-<time>.json. Exit code 0 when every gate passes.
// `--db pglite` or `--db postgres` measures one database; BENCH_BUNDLES=0 skips the pages.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { constants, cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import bwipjs from 'bwip-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { TEST_ITEMS } from '@inventory/contract';

const HERE = dirname(fileURLToPath(import.meta.url));
const WEB_DIST = resolve(process.env.WEB_DIST || join(HERE, '../apps/web/dist'));
const RESULTS = join(HERE, 'results');
const SECONDS = Number(process.env.BENCH_SECONDS || 4);
const SLICE_SECONDS = 1;
const WARMUP_SECONDS = 1;
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const CONNECTIONS = 10;
/** The registry the gates run on, and the smaller one the scale gates compare it with. */
const DEVICES = Number(process.env.BENCH_DEVICES || 1_000_000);
const SMALL_DEVICES = Math.max(1_000, Math.round(DEVICES / 10));
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
const count = (n) => n.toLocaleString('en-US');

// ---------------------------------------------------------------------------------------------
// What is measured. A target is an autocannon request against one of a bench server's ports
// (`port`); request(server) returns {method, path, headers, body, setupRequest, onResponse}.

/** The device list's filter: the most common model among devices in stock, 50 a page. */
const deviceListPath = (server, cursor) =>
  `/api/v1/devices?model_id=${server.deviceFilter.model_id}&status=${server.deviceFilter.status}` +
  `&sort=imei&limit=50${cursor ? `&cursor=${cursor}` : ''}`;

/**
 * Each scan request takes the next IMEI of the scan invoice's manifest and the next of its open
 * boxes, so every request receives a distinct expected device; an answer other than `added`
 * (the stock ran out, or the scan refused it) is counted and fails the scan gates.
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
 * A request that takes the next unit of its pool (the bench server's stock for it), so that
 * every request does the work once; an answer other than `expected` is counted in
 * server.lineOther and voids the pool's gates. `path` may name the unit's own record, and
 * `headersOf` who sends it (a bearer token by default).
 */
function lineRequest(pool, path, body, expected, headersOf = (server) => bearer(server)) {
  return (server) => {
    server.lineNext ??= {};
    server.lineOther ??= {};
    server.lineNext[pool] ??= 0;
    server.lineOther[pool] ??= 0;
    return {
      method: 'POST',
      ...(typeof path === 'string' && { path }),
      setupRequest: (request) => {
        const i = server.lineNext[pool];
        server.lineNext[pool] += 1;
        return {
          ...request,
          ...(typeof path === 'function' && { path: path(server, i) }),
          headers: { ...headersOf(server, i), 'content-type': 'application/json' },
          body: JSON.stringify(body(server, i)),
        };
      },
      onResponse: (status, answer) => {
        if (status < 300 && !answer.includes(expected)) server.lineOther[pool] += 1;
      },
    };
  };
}

/** A pass at the grading station: every test item passed, wiped, FRP off, grade B. */
const gradingRequest = lineRequest(
  'grading',
  '/api/v1/product-team/worker/tests',
  (server, i) => ({
    device_id: server.gradingDevices[i % server.gradingDevices.length],
    outcome: 'pass',
    items: Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass'])),
    wipe_method: 'factory_reset',
    wipe_certificate: `BENCH-${i}`,
    frp_lock: false,
    battery_health: 90,
    grade: 'B',
    station: 'bench',
  }),
  '"result":"graded"',
);

/**
 * A graded device put into the open box of its kind that the bench server made for its lot; the
 * requests take the lots in turn, as stations each filling their own box.
 */
const consolidationRequest = lineRequest(
  'consolidation',
  '/api/v1/consolidation/placements',
  (server, i) => {
    const scans = server.consolidationScans;
    const lots = scans.length / server.consolidationLot;
    const next =
      (i % lots) * server.consolidationLot + (Math.floor(i / lots) % server.consolidationLot);
    const [code, boxCode] = scans[next];
    return { code, box_code: boxCode, station: 'bench' };
  },
  '"result":"added"',
);

/** A sealed box put away to a bin with room, the bins taken in turn. */
const putawayRequest = lineRequest(
  'putaway',
  '/api/v1/putaway',
  (server, i) => ({
    box_code: server.putawayBoxes[i % server.putawayBoxes.length],
    location_code: server.putawayBins[i % server.putawayBins.length],
  }),
  '"already":false',
);

/**
 * A client carrier's order through its API (decision 0025): a new enrolment each request (its
 * reference, idempotency key, subscriber and service address), the bench listings' SKUs in
 * turn. An answer other than a ready order voids the gate.
 */
const BENCH_RUN = randomBytes(3).toString('hex');
const carrierOrderRef = (i) => `BENCH-${BENCH_RUN}-${i}`;
const carrierOrderRequest = lineRequest(
  'carrierOrder',
  '/api/v1/carrier/orders',
  (server, i) => ({
    external_ref: carrierOrderRef(i),
    program: 'lifeline',
    subscriber: {
      external_id: `ENR-${carrierOrderRef(i)}`,
      first_name: 'Bench',
      last_name: `Subscriber ${i}`,
      phone: '+1 214 555 0100',
      service_address: {
        line1: `${i} Bench ${BENCH_RUN} St`,
        city: 'Dallas',
        state: 'TX',
        zip: '75201',
      },
    },
    items: [{ sku: server.carrierOrder.skus[i % server.carrierOrder.skus.length], qty: 1 }],
  }),
  '"status":"ready"',
  (server, i) => ({ 'x-api-key': server.benchCarrierKey, 'idempotency-key': carrierOrderRef(i) }),
);

/** A scanned in-stock ICCID allocated to the next of the approved requests, in turn. */
const simAllocationRequest = lineRequest(
  'simAllocation',
  (server, i) =>
    `/api/v1/sim-requests/${server.allocationRequests[i % server.allocationRequests.length]}/scans`,
  (server, i) => ({
    code: server.allocationIccids[i % server.allocationIccids.length],
    station: 'bench',
  }),
  '"result":"allocated"',
);

/** The next of an agent's SIMs recorded as activated, from that agent's phone (session). */
const today = () => new Date().toISOString().slice(0, 10);
const agentOf = (server, i) => server.activationSessions[i % server.activationSessions.length];
const simActivationRequest = lineRequest(
  'simActivation',
  '/api/v1/agent/activations',
  (server, i) => {
    const agent = agentOf(server, i);
    const turn = Math.floor(i / server.activationSessions.length);
    return {
      iccid: agent.iccids[turn % agent.iccids.length],
      enrolment_ref: `BENCH-ENR-${i}`,
      enrolled_on: today(),
    };
  },
  '"result":"recorded"',
  (server, i) => ({ authorization: `Bearer ${agentOf(server, i).token}` }),
);

/** The next assigned one-unit order's reserved IMEI scanned at the prepaid queue's station. */
const pickRequest = lineRequest(
  'pick',
  (server, i) => `/api/v1/fulfilment/picks/${server.pickPool[i % server.pickPool.length].id}/scans`,
  (server, i) => ({
    code: server.pickPool[i % server.pickPool.length].imei,
    station: 'bench',
    queue: 'prepaid',
  }),
  '"result":"picked"',
);

/** The next labelled parcel's tracking number scanned out at the dock. */
const shipScanRequest = lineRequest(
  'shipScan',
  '/api/v1/ship-scans',
  (server, i) => ({ code: server.shipPool[i % server.shipPool.length], station: 'bench' }),
  '"result":"shipped"',
);

/** The daily order report for the year up to today. */
function dailyOrdersPath() {
  const day = (offset) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
  return `/api/v1/orders/daily?from=${day(364)}&to=${day(0)}`;
}

const insertDevice = () => ({ method: 'POST', path: '/device' });
const lookupRequest = (path) => (server) => ({
  method: 'GET',
  headers: bearer(server),
  setupRequest: (request) => ({ ...request, path: path(pick(server.lookupImeis)) }),
});
const signedIn = (path) => (server) => ({ method: 'GET', path, headers: bearer(server) });

/** Every target, by key. R0 and R1 are the references of QUALITY.md; F0 to F3 the floors. */
const TARGETS = {
  r0: { name: 'R0 hello-world', port: 'r0', request: () => ({ method: 'GET', path: '/' }) },
  r1: {
    name: 'R1 SELECT by imei',
    port: 'r1',
    // A different existing IMEI per request, so the figure is not one cached row.
    request: (server) => ({
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: `/devices/${pick(server.imeis)}` }),
    }),
  },
  f0: { name: 'F0 session by token hash', port: 'floors', request: signedIn('/session') },
  f1: { name: 'F1 committed device insert', port: 'floors', request: insertDevice },
  f1Alone: {
    name: 'F1 committed device insert, one at a time',
    port: 'floors',
    connections: 1,
    request: insertDevice,
  },
  f1Orders: {
    name: 'F1 committed order insert',
    port: 'floors',
    request: () => ({ method: 'POST', path: '/order' }),
  },
  f2Orders: {
    name: 'F2 page of 50 order rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/orders' }),
  },
  f1Sims: {
    name: 'F1 committed SIM insert',
    port: 'floors',
    request: () => ({ method: 'POST', path: '/sim' }),
  },
  f2Sims: {
    name: 'F2 page of 50 SIM rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/sims' }),
  },
  f2Devices: {
    name: 'F2 page of 50 device rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/devices' }),
  },
  f2Users: {
    name: 'F2 page of 50 user rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/users' }),
  },
  f2Locations: {
    name: 'F2 page of 50 location rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/locations' }),
  },
  f2InventoryBoxes: {
    name: 'F2 page of 50 inventory box rows',
    port: 'floors',
    request: () => ({ method: 'GET', path: '/inventory-boxes' }),
  },
  f3: {
    name: 'F3 device row and its events',
    port: 'floors',
    request: lookupRequest((imei) => `/devices/${imei}`),
  },
  profile: { name: 'GET /profile', port: 'app', request: signedIn('/api/v1/profile') },
  users: {
    name: 'GET /users (50 of 10,000, filtered, sorted)',
    port: 'app',
    request: signedIn('/api/v1/users?status=active&type=staff&sort=name&order=asc&limit=50'),
  },
  tacNumbers: {
    name: 'GET /tac-numbers (50 of 100,000, by model)',
    port: 'app',
    request: (server) =>
      signedIn(`/api/v1/tac-numbers?model_id=${server.tacModel.id}&active=true&sort=tac&limit=50`)(
        server,
      ),
  },
  tacNumbersUnkept: {
    // What a list costs when its answer is not kept (decision 0010): a different model, order
    // and page size each request, far more combinations than a list keeps. Not gated.
    name: 'GET /tac-numbers (a new filter each request)',
    port: 'app',
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
  lookup: {
    name: 'GET /devices/lookup by IMEI',
    port: 'app',
    request: lookupRequest((imei) => `/api/v1/devices/lookup?code=${imei}`),
  },
  scan: { name: 'POST /warehouse-boxes/:id/scans', port: 'app', request: scanRequest },
  grading: {
    name: 'POST /product-team/worker/tests (grade)',
    port: 'app',
    request: gradingRequest,
  },
  consolidation: {
    name: 'POST /consolidation/placements',
    port: 'app',
    request: consolidationRequest,
  },
  putaway: { name: 'POST /putaway', port: 'app', request: putawayRequest },
  pick: { name: 'POST /fulfilment/picks/:id/scans (pick)', port: 'app', request: pickRequest },
  shipScan: { name: 'POST /ship-scans (scan-to-ship)', port: 'app', request: shipScanRequest },
  devicesFirst: {
    name: 'GET /devices first page of 50',
    port: 'app',
    request: (server) => signedIn(deviceListPath(server))(server),
  },
  devicesLast: {
    name: 'GET /devices last page of 50',
    port: 'app',
    request: (server) => signedIn(deviceListPath(server, 'last'))(server),
  },
  locationsFirst: {
    name: 'GET /locations first page of 50',
    port: 'app',
    request: signedIn('/api/v1/locations?sort=code&order=asc&limit=50'),
  },
  locationsLast: {
    name: 'GET /locations last page of 50',
    port: 'app',
    request: signedIn('/api/v1/locations?sort=code&order=asc&limit=50&cursor=last'),
  },
  inventoryBoxesFirst: {
    name: 'GET /inventory-boxes first page of 50',
    port: 'app',
    request: signedIn('/api/v1/inventory-boxes?sort=code&order=desc&limit=50'),
  },
  inventoryBoxesLast: {
    name: 'GET /inventory-boxes last page of 50',
    port: 'app',
    request: signedIn('/api/v1/inventory-boxes?sort=code&order=desc&limit=50&cursor=last'),
  },
  carrierOrder: {
    name: 'POST /carrier/orders (validate, reserve, idempotent)',
    port: 'app',
    request: carrierOrderRequest,
  },
  ordersFirst: {
    name: 'GET /orders first page of 50',
    port: 'app',
    request: signedIn('/api/v1/orders?sort=created_at&order=desc&limit=50'),
  },
  ordersLast: {
    name: 'GET /orders last page of 50',
    port: 'app',
    request: signedIn('/api/v1/orders?sort=created_at&order=desc&limit=50&cursor=last'),
  },
  dailyOrders: {
    name: 'GET /orders/daily (a year)',
    port: 'app',
    request: (server) => signedIn(dailyOrdersPath())(server),
  },
  simAllocation: {
    name: 'POST /sim-requests/:id/scans (allocate an ICCID)',
    port: 'app',
    request: simAllocationRequest,
  },
  simActivation: {
    name: 'POST /agent/activations (an agent records one)',
    port: 'app',
    request: simActivationRequest,
  },
  simsFirst: {
    name: 'GET /sims first page of 50',
    port: 'app',
    request: signedIn('/api/v1/sims?sort=received&order=desc&limit=50'),
  },
  simsLast: {
    name: 'GET /sims last page of 50',
    port: 'app',
    request: signedIn('/api/v1/sims?sort=received&order=desc&limit=50&cursor=last'),
  },
  simDashboard: {
    name: 'GET /sim/dashboard',
    port: 'app',
    request: signedIn('/api/v1/sim/dashboard'),
  },
  warehouseDashboard: {
    name: 'GET /warehouse/dashboard',
    port: 'app',
    request: signedIn('/api/v1/warehouse/dashboard'),
  },
  fulfilmentDashboard: {
    name: 'GET /warehouse/dashboard-fulfill',
    port: 'app',
    request: signedIn('/api/v1/warehouse/dashboard-fulfill'),
  },
  accessoryDashboard: {
    name: 'GET /accessory-stock/dashboard',
    port: 'app',
    request: signedIn('/api/v1/accessory-stock/dashboard'),
  },
  login: {
    name: 'POST /login, one at a time',
    port: 'app',
    // One after another: the p50 is the latency a person sees.
    connections: 1,
    request: (server) => ({
      method: 'POST',
      path: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(server.login),
    }),
  },
};

/** On the smaller registry, for the scale gates: the requests whose cost could grow with it. */
const SMALL = ['lookup', 'scan', 'devicesFirst'];
/** The dashboards, flat with scale: their p95 on the large registry against the small one's. */
const FLAT = [
  'warehouseDashboard',
  'fulfilmentDashboard',
  'accessoryDashboard',
  'dailyOrders',
  'simDashboard',
];
const small = (key) => `${key}@small`;

/**
 * One round: groups of a floor and the requests gated on it, measured in turns (measureGroup),
 * with the same requests on the small registry beside those on the large one.
 */
const ROUND = [
  ['r0', 'r1', 'tacNumbers', 'tacNumbersUnkept'],
  ['f0', 'profile'],
  ['f2Users', 'users'],
  ['f3', 'lookup', small('lookup')],
  ['f1', 'scan', small('scan'), 'grading', 'consolidation', 'putaway', 'pick', 'shipScan'],
  ['f2Devices', 'devicesFirst', 'devicesLast', small('devicesFirst')],
  ['f2Locations', 'locationsFirst', 'locationsLast'],
  ['f2InventoryBoxes', 'inventoryBoxesFirst', 'inventoryBoxesLast'],
  ['f1Orders', 'carrierOrder'],
  ['f2Orders', 'ordersFirst', 'ordersLast'],
  ['f1Sims', 'simAllocation', 'simActivation'],
  ['f2Sims', 'simsFirst', 'simsLast'],
  FLAT.flatMap((key) => [key, small(key)]),
  ['f1Alone', 'login'],
];
const MEASURED = ROUND.flat();

/**
 * QUALITY.md's bound for the same work in a harder place: a list's last page against its first,
 * a request at a million devices against the same at a tenth of them.
 */
const WITHIN = 1.3;

/**
 * The gates of issue 14 on a same-run floor: req/s at least `atLeast` times the floor's, or a
 * latency (`stat`) at most `atMost` times the floor's. The floor of a scale gate is the same
 * request on the registry a tenth the size.
 */
const GATES = [
  { name: 'GET /profile req/s vs F0', figure: 'profile', floor: 'f0', atLeast: 0.8 },
  { name: 'users list req/s vs F2 (users)', figure: 'users', floor: 'f2Users', atLeast: 0.6 },
  { name: 'device lookup req/s vs F3', figure: 'lookup', floor: 'f3', atLeast: 0.5 },
  { name: 'receiving scan req/s vs F1', figure: 'scan', floor: 'f1', atLeast: 0.5 },
  {
    name: 'receiving scan p99 at 10 stations vs F1 p99',
    figure: 'scan',
    floor: 'f1',
    stat: 'p99',
    atMost: 3,
  },
  {
    name: 'device list first page req/s vs F2 (devices)',
    figure: 'devicesFirst',
    floor: 'f2Devices',
    atLeast: 0.6,
  },
  {
    name: 'device list last page req/s vs F2 (devices)',
    figure: 'devicesLast',
    floor: 'f2Devices',
    atLeast: 0.6,
  },
  {
    name: 'device list last page req/s vs its first (keyset)',
    figure: 'devicesLast',
    floor: 'devicesFirst',
    atLeast: 1 / WITHIN,
  },
  // Issues 15 and 18: the production line's stations, the pick station and the dock, on the same
  // floor as receiving's scan.
  ...[
    ['grading', 'grading scan'],
    ['consolidation', 'consolidation scan'],
    ['putaway', 'putaway scan'],
    ['pick', 'pick scan'],
    ['shipScan', 'scan-to-ship'],
  ].flatMap(([key, name]) => [
    { name: `${name} req/s vs F1`, figure: key, floor: 'f1', atLeast: 0.4 },
    {
      name: `${name} p99 at 10 stations vs F1 p99`,
      figure: key,
      floor: 'f1',
      stat: 'p99',
      atMost: 3,
    },
  ]),
  // Issue 15: the location list, on its own table.
  {
    name: 'location list first page req/s vs F2 (locations)',
    figure: 'locationsFirst',
    floor: 'f2Locations',
    atLeast: 0.6,
  },
  {
    name: 'location list last page req/s vs its first (keyset)',
    figure: 'locationsLast',
    floor: 'locationsFirst',
    atLeast: 1 / WITHIN,
  },
  // Issue 15: the inventory box list, on its own table.
  {
    name: 'inventory box list first page req/s vs F2 (inventory boxes)',
    figure: 'inventoryBoxesFirst',
    floor: 'f2InventoryBoxes',
    atLeast: 0.6,
  },
  {
    name: 'inventory box list last page req/s vs its first (keyset)',
    figure: 'inventoryBoxesLast',
    floor: 'inventoryBoxesFirst',
    atLeast: 1 / WITHIN,
  },
  // Issue 16: orders, on the orders table's floors (the registry has as many orders as devices).
  {
    name: 'carrier order creation req/s vs F1 (orders)',
    figure: 'carrierOrder',
    floor: 'f1Orders',
    atLeast: 0.3,
  },
  {
    name: 'carrier order creation p99 at 10 clients vs F1 (orders) p99',
    figure: 'carrierOrder',
    floor: 'f1Orders',
    stat: 'p99',
    atMost: 3,
  },
  {
    name: 'order list first page req/s vs F2 (orders)',
    figure: 'ordersFirst',
    floor: 'f2Orders',
    atLeast: 0.6,
  },
  {
    name: 'order list last page req/s vs its first (keyset)',
    figure: 'ordersLast',
    floor: 'ordersFirst',
    atLeast: 1 / WITHIN,
  },
  // Issue 17: SIM stations and the SIM list, on the SIM table's floors (two SIMs per device).
  ...[
    ['simAllocation', 'SIM allocation scan'],
    ['simActivation', 'agent activation'],
  ].flatMap(([key, name]) => [
    { name: `${name} req/s vs F1 (SIMs)`, figure: key, floor: 'f1Sims', atLeast: 0.4 },
    {
      name: `${name} p99 at 10 stations vs F1 (SIMs) p99`,
      figure: key,
      floor: 'f1Sims',
      stat: 'p99',
      atMost: 3,
    },
  ]),
  {
    name: 'SIM list first page req/s vs F2 (SIMs)',
    figure: 'simsFirst',
    floor: 'f2Sims',
    atLeast: 0.6,
  },
  {
    name: 'SIM list last page req/s vs its first (keyset)',
    figure: 'simsLast',
    floor: 'simsFirst',
    atLeast: 1 / WITHIN,
  },
  ...FLAT.map((key) => ({
    name: `${TARGETS[key].name} p95 at ${count(DEVICES)} vs ${count(SMALL_DEVICES)} devices (as many orders, twice the SIMs)`,
    figure: key,
    floor: small(key),
    stat: 'p95',
    atMost: WITHIN,
  })),
  ...SMALL.map((key) => ({
    name: `${TARGETS[key].name} req/s at ${count(DEVICES)} vs ${count(SMALL_DEVICES)} devices`,
    figure: key,
    floor: small(key),
    atLeast: 1 / WITHIN,
  })),
  // Master data, answered from kept lists (decision 0010): still held to R1, as before.
  { name: 'TAC list req/s vs R1', figure: 'tacNumbers', floor: 'r1', atLeast: 0.6 },
];

/** Sign-in: its p50 at most one hash (R4) plus twice a committed insert's p50, one at a time. */
const LOGIN_INSERTS = 2;
/** An import may take at most this many times a raw bulk insert of the same rows (B). */
const IMPORT_MAX_RATIO = 3;
/** An export of a million rows may grow the server's resident memory by at most this. */
const EXPORT_MAX_RSS_GROWTH_MB = 100;

/** Page routes loaded cold in Chromium; signedIn routes start with the session in localStorage. */
const ROUTES = [
  { name: '/login', path: '/login', signedIn: false, maxKiB: 230 },
  { name: 'shell /', path: '/', signedIn: true, maxKiB: 300 },
];
/** Vite's own unit (1 kB = 1000 bytes), so the figure matches its chunkSizeWarningLimit. */
const MAX_CHUNK_BYTES = 500_000;

// ---------------------------------------------------------------------------------------------
// Verdicts.

/** Every gate's outcome, printed again at the end, written to the summaries, and the exit code. */
const gates = [];

const fixed = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const percent = (value) =>
  Number.isFinite(value) ? `${value >= 0 ? '+' : ''}${(value * 100).toFixed(0)}%` : String(value);

/**
 * Records and prints a gate: `figure` against `floor` (both in `unit`), their `ratio` (given when
 * it is a median of per-round ratios), the ratio required (atLeast or atMost) and the margin, how
 * far the ratio may move before the verdict flips. `invalid` names what voids the reading.
 */
function verdict({ database, name, unit, figure, floor, ratio, atLeast, atMost, invalid, detail }) {
  const value = ratio ?? figure / floor;
  const margin = atLeast !== undefined ? value / atLeast - 1 : atMost / value - 1;
  // A figure of 0 under an upper bound has an unbounded margin; NaN (no reading) fails.
  const pass = !invalid && margin >= 0;
  const required = atLeast !== undefined ? `>= ${fixed(atLeast)}` : `<= ${fixed(atMost)}`;
  const digits = unit === 'req/s' ? 0 : unit === 'ms' ? 3 : 1;
  const label = database ? `${database} ${name}` : name;
  gates.push({
    database: database ?? null,
    name,
    unit,
    figure,
    floor,
    ratio: value,
    required: atLeast !== undefined ? { atLeast } : { atMost },
    margin,
    pass,
    ...(invalid && { invalid }),
    ...(detail && { detail }),
  });
  console.log(
    `  ${pass ? 'PASS' : 'FAIL'}  ${label}: ${fixed(figure, digits)} vs ${fixed(floor, digits)} ` +
      `${unit}, ratio ${fixed(value)} (required ${required}), margin ${percent(margin)}` +
      `${invalid ? `; INVALID: ${invalid}` : ''}${detail ? `; ${detail}` : ''}`,
  );
}

/** A bound that is a fixed limit rather than a floor (sizes, memory). */
const withinLimit = ({ limit, ...gate }) => verdict({ ...gate, floor: limit, atMost: 1 });

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

/** `--db pglite` or `--db postgres` (repeated or comma-separated) measures those only. */
const DATABASES = [
  { name: 'PGlite', flag: 'pglite', provide: withPglite },
  { name: 'PostgreSQL', flag: 'postgres', provide: withPostgres },
];
function chosenDatabases() {
  const { values } = parseArgs({ options: { db: { type: 'string', multiple: true } } });
  const asked = (values.db ?? []).flatMap((value) => value.toLowerCase().split(','));
  const unknown = asked.filter((flag) => !DATABASES.some((database) => database.flag === flag));
  if (unknown.length > 0) throw new Error(`--db ${unknown.join(', ')}: give pglite or postgres`);
  return DATABASES.filter(({ flag }) => asked.length === 0 || asked.includes(flag));
}

// ---------------------------------------------------------------------------------------------
// The bench server child process.

function serverReady(child) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('bench server not ready after an hour')),
      // Generating the registry of a million devices comes first: minutes on PGlite, more than
      // half an hour when the machine's neighbours leave it a fraction of a core.
      60 * 60_000,
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

/** Starts a bench server on the database that env names, with a registry of `devices`. */
function startBenchServer(env, devices) {
  const child = fork(join(HERE, 'bench-server.mjs'), {
    env: { ...process.env, ...env, WEB_DIST, BENCH_REGISTRY_DEVICES: String(devices) },
  });
  return { child, ready: serverReady(child) };
}

/** Runs use(server) against a bench server, then stops it. */
function withBenchServer(env, devices, use) {
  const { child, ready } = startBenchServer(env, devices);
  return holding(child, stopServer, async () => use({ ...(await ready), child }));
}

// ---------------------------------------------------------------------------------------------
// HTTP throughput and latency.

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

/** One autocannon run of `seconds`: each response's latency in ms, the time taken, failures. */
async function load(target, server, seconds) {
  const latencies = [];
  const start = performance.now();
  const run = autocannon({
    url: `http://127.0.0.1:${server.ports[target.port]}`,
    connections: target.connections ?? CONNECTIONS,
    duration: seconds,
    requests: [target.request(server)],
  });
  // autocannon's histogram keeps whole milliseconds; these latencies are well under one.
  run.on('response', (_client, _status, _bytes, milliseconds) => latencies.push(milliseconds));
  const result = await run;
  return {
    latencies,
    seconds: (performance.now() - start) / 1000,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The targets of a group measured in turns of SLICE_SECONDS, SECONDS each in all, after a
 * warm-up each: a neighbour that loads the machine for a few seconds loads a gate and its floor
 * alike. Gives each key's req/s, p50 and p99 latency in ms and failed requests.
 */
async function measureGroup(keys, serverOf) {
  const targetOf = (key) => TARGETS[key.replace(/@small$/, '')];
  for (const key of keys) {
    process.stderr.write(`  measuring ${targetName(key)} ...\n`);
    await load(targetOf(key), serverOf(key), WARMUP_SECONDS);
  }
  const runs = Object.fromEntries(keys.map((key) => [key, []]));
  for (let slice = 0; slice < SECONDS / SLICE_SECONDS; slice += 1) {
    for (const key of keys) runs[key].push(await load(targetOf(key), serverOf(key), SLICE_SECONDS));
  }
  return Object.fromEntries(
    keys.map((key) => {
      const sorted = Float64Array.from(runs[key].flatMap((run) => run.latencies)).sort();
      const seconds = runs[key].reduce((total, run) => total + run.seconds, 0);
      return [
        key,
        {
          rps: sorted.length / seconds,
          p50: percentile(sorted, 0.5),
          p95: percentile(sorted, 0.95),
          p99: percentile(sorted, 0.99),
          failures: runs[key].reduce((total, run) => total + run.failures, 0),
        },
      ];
    }),
  );
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Asks a bench server for a one-off measurement and waits for its answer. */
function ask(server, command) {
  return new Promise((resolve, reject) => {
    server.child.once('message', (answer) =>
      answer.error ? reject(new Error(answer.error)) : resolve(answer),
    );
    server.child.send(command);
  });
}

function printTable(header, rows) {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i].length)));
  const line = (row) =>
    row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log(`  ${line(header)}`);
  for (const row of rows) console.log(`  ${line(row)}`);
}

const targetName = (key) =>
  key.endsWith('@small')
    ? `${TARGETS[key.slice(0, -'@small'.length)].name} (${count(SMALL_DEVICES)} devices)`
    : TARGETS[key].name;

/**
 * Every group of ROUND, in ROUNDS rounds, on the large registry's server (and the small one's
 * for the scale targets); R4, one password hash, asked of the server in each round. Returns the
 * rounds: for each, the measurement of every key, and hashMs.
 */
async function measureRounds(large, smallServer) {
  const serverOf = (key) => (key.endsWith('@small') ? smallServer : large);
  const rounds = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    process.stderr.write(`  round ${round + 1} of ${ROUNDS}\n`);
    const results = {};
    for (const group of ROUND) Object.assign(results, await measureGroup(group, serverOf));
    results.hashMs = (await ask(large, 'hash')).hashMs;
    rounds.push(results);
  }
  return rounds;
}

/** The median of each measurement over the rounds, and the failed requests of all of them. */
function printMedians(database, rounds) {
  console.log(`\n${database} (median of ${ROUNDS} rounds of ${SECONDS} s each):`);
  const of = (key, stat) => median(rounds.map((results) => results[key][stat]));
  printTable(
    ['target', 'req/s', 'p50 ms', 'p99 ms', 'failures'],
    MEASURED.map((key) => [
      targetName(key),
      count(Math.round(of(key, 'rps'))),
      fixed(of(key, 'p50'), 3),
      fixed(of(key, 'p99'), 3),
      String(rounds.reduce((total, results) => total + results[key].failures, 0)),
    ]),
  );
}

/** The gates on the rounds' measurements: each ratio the median of its per-round ratios. */
function judgeHttp(database, rounds, large, smallServer) {
  console.log('');
  const failed = (key) => rounds.some((results) => results[key].failures > 0);
  const scansFailed = (server) => (server.scanOther ?? 0) > 0;
  const lineFailed = (key) => (large.lineOther?.[key] ?? 0) > 0;
  for (const gate of GATES) {
    const stat = gate.stat ?? 'rps';
    const perRound = rounds.map(
      (results) => results[gate.figure][stat] / results[gate.floor][stat],
    );
    const voided = [gate.figure, gate.floor].filter(failed).map(targetName);
    const scan = [gate.figure, gate.floor].some((key) => key.startsWith('scan'));
    verdict({
      database,
      name: gate.name,
      unit: stat === 'rps' ? 'req/s' : 'ms',
      figure: median(rounds.map((results) => results[gate.figure][stat])),
      floor: median(rounds.map((results) => results[gate.floor][stat])),
      ratio: median(perRound),
      atLeast: gate.atLeast,
      atMost: gate.atMost,
      invalid:
        voided.length > 0
          ? `failed requests in ${voided.join(', ')}`
          : scan && (scansFailed(large) || scansFailed(smallServer))
            ? 'a scan was not added'
            : lineFailed(gate.figure)
              ? `${large.lineOther[gate.figure]} answers were not the expected one`
              : undefined,
      detail: `rounds ${perRound.map((value) => fixed(value)).join(', ')}`,
    });
  }

  // Sign-in: one hash (R4) and LOGIN_INSERTS committed inserts (F1, one at a time) per round.
  const loginBound = (results) => results.hashMs + LOGIN_INSERTS * results.f1Alone.p50;
  const perRound = rounds.map((results) => results.login.p50 / loginBound(results));
  verdict({
    database,
    name: `sign-in p50 vs one hash + ${LOGIN_INSERTS} x F1 p50 (one at a time)`,
    unit: 'ms',
    figure: median(rounds.map((results) => results.login.p50)),
    floor: median(rounds.map(loginBound)),
    ratio: median(perRound),
    atMost: 1,
    invalid: failed('login') || failed('f1Alone') ? 'failed requests' : undefined,
    detail:
      `hash ${fixed(median(rounds.map((results) => results.hashMs)), 3)} ms, F1 p50 ` +
      `${fixed(median(rounds.map((results) => results.f1Alone.p50)), 3)} ms; ` +
      `rounds ${perRound.map((value) => fixed(value)).join(', ')}`,
  });

  for (const [server, devices] of [
    [large, DEVICES],
    [smallServer, SMALL_DEVICES],
  ]) {
    const scans = server.scanNext ?? 0;
    console.log(
      `  (${count(devices)} devices: ${count(scans)} scans of ${count(server.scanImeis.length)} ` +
        `expected IMEIs into ${server.scanBoxes.length} boxes, ${server.scanOther ?? 0} not added)`,
    );
  }
  const pools = {
    grading: large.gradingDevices,
    consolidation: large.consolidationScans,
    putaway: large.putawayBoxes,
    carrierOrder: [],
    simAllocation: large.allocationIccids ?? [],
    simActivation: (large.activationSessions ?? []).flatMap((agent) => agent.iccids),
  };
  console.log(
    `  (stations: ${Object.entries(pools)
      .map(
        ([key, pool]) =>
          `${key} ${count(large.lineNext?.[key] ?? 0)} of ${count(pool.length)}, ` +
          `${large.lineOther?.[key] ?? 0} unexpected`,
      )
      .join('; ')})`,
  );
}

/** 100,000 manifest IMEIs through upload, check and commit, against a raw bulk insert (B). */
async function benchManifestImport(database, server) {
  process.stderr.write('  measuring the import of a 100,000-IMEI manifest ...\n');
  const { import: result } = await ask(server, 'manifest-import');
  reportImport(database, `import commit of ${count(result.rows)} manifest IMEIs`, result);
  return result;
}

/** 100,000 government-plan prices through upload, check and commit, against a raw insert (B). */
async function benchPriceImport(database, server) {
  process.stderr.write('  measuring the import of 100,000 plan prices ...\n');
  const { import: result } = await ask(server, 'price-import');
  reportImport(database, `import commit of ${count(result.rows)} plan prices`, result);
  return result;
}

/** A carrier's activation export of a million rows applied, against raw SQL of the same (B). */
async function benchDetectionImport(database, server) {
  process.stderr.write('  measuring a detection import ...\n');
  const { detection: result } = await ask(server, 'detection-import');
  verdict({
    database,
    name: `detection import of ${count(result.rows)} rows vs raw bulk SQL of the same states`,
    unit: 's',
    figure: result.appSeconds,
    floor: result.rawSeconds,
    atMost: IMPORT_MAX_RATIO,
    invalid:
      result.status !== 'done' || result.matched !== result.rows
        ? `run ${result.status}, ${result.matched} of ${result.rows} matched`
        : undefined,
    detail: "streamed CSV, loaded, then applied with the timeline and the agents' credit",
  });
  return result;
}

/** 50,000 TAC rows through upload, check and commit, against a raw bulk insert of them (B). */
async function benchImport(database, server) {
  process.stderr.write('  measuring the import of 50,000 TACs ...\n');
  const { import: result } = await ask(server, 'import');
  reportImport(database, 'import commit of 50,000 TACs', { rows: 50_000, ...result });
  return result;
}

function reportImport(database, name, result) {
  verdict({
    database,
    name: `${name} vs raw bulk insert`,
    unit: 's',
    figure: result.commitSeconds,
    floor: result.rawSeconds,
    atMost: IMPORT_MAX_RATIO,
    invalid:
      result.created !== result.rows ? `${result.created} created of ${result.rows}` : undefined,
    detail:
      `upload ${fixed(result.uploadSeconds)} s, check ${fixed(result.checkSeconds)} s ` +
      '(commit re-checks every row, then writes)',
  });
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
  const result = {
    rows: lines - 1,
    megabytes: bytes / 1024 / 1024,
    seconds: (performance.now() - start) / 1000,
    rssBeforeMb: before / 1024 / 1024,
    growthMb,
  };
  withinLimit({
    database,
    name: 'export of 1,000,000 TACs: peak growth of server RSS',
    unit: 'MB',
    figure: growthMb,
    limit: EXPORT_MAX_RSS_GROWTH_MB,
    invalid: result.rows === 1_000_000 ? undefined : `${count(result.rows)} rows`,
    detail:
      `${fixed(result.megabytes, 1)} MB of CSV in ${fixed(result.seconds, 1)} s, ` +
      `RSS ${fixed(result.rssBeforeMb, 0)} MB before`,
  });
  return result;
}

/** The label print: at most this many times pdf-lib and bwip-js alone (issue 18). */
const LABEL_PRINT_MAX_RATIO = 3;
/** ... with the server's resident memory growing by less than this. */
const LABEL_PRINT_MAX_RSS_GROWTH_MB = 100;

/**
 * The floor of the label print: the PDF and barcode libraries alone writing as many 4×6 pages in
 * this process, each with its tracking number as a Code128 barcode (bwip-js, embedded as a PNG),
 * a title and eight lines of text (pdf-lib), saved as one PDF.
 */
async function librariesWritingLabels(trackingNumbers) {
  const started = performance.now();
  const pdf = await PDFDocument.create();
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (const tracking of trackingNumbers) {
    const page = pdf.addPage([288, 432]);
    page.drawText('USPS GROUND ADVANTAGE', { x: 18, y: 392, size: 22, font: bold });
    const png = await bwipjs.toBuffer({ bcid: 'code128', text: tracking, scale: 2, height: 20 });
    const image = await pdf.embedPng(png);
    page.drawImage(image, { x: 18, y: 290, width: 252, height: 90 });
    page.drawText(tracking, { x: 18, y: 276, size: 12, font: regular });
    for (let line = 0; line < 8; line += 1) {
      page.drawText(`Line ${line + 1} of the label: name, street, city, state and ZIP`, {
        x: 18,
        y: 250 - line * 17,
        size: 12,
        font: regular,
      });
    }
  }
  const bytes = await pdf.save();
  return { seconds: (performance.now() - started) / 1000, bytes: bytes.length };
}

/**
 * The label print (issue 18): a batch of 1,000 offline labels downloaded as one PDF (the print
 * request and its download link), the server's memory sampled, against the libraries alone.
 */
async function benchLabelPrint(database, server) {
  const batch = server.labelPrint;
  if (!batch) return null;
  process.stderr.write(`  printing ${count(batch.trackingNumbers.length)} labels as one PDF ...\n`);
  const base = `http://127.0.0.1:${server.ports.app}`;
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
  let head = '';
  try {
    const link = await fetch(`${base}/api/v1/label-batches/${batch.batchId}/print`, {
      method: 'POST',
      headers: { ...bearer(server), 'content-type': 'application/json' },
      body: JSON.stringify({ format: 'pdf' }),
    }).then((response) => response.json());
    const response = await fetch(`${base}${link.data.url}`);
    for await (const chunk of response.body) {
      if (bytes === 0) head = Buffer.from(chunk.subarray(0, 5)).toString('latin1');
      bytes += chunk.length;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - start) / 1000;
  const floor = await librariesWritingLabels(batch.trackingNumbers);
  const growthMb = (peak - before) / 1024 / 1024;
  const invalid = head === '%PDF-' ? undefined : 'the download is not a PDF';
  verdict({
    database,
    name: `${count(batch.trackingNumbers.length)} offline labels as one PDF vs pdf-lib and bwip-js alone`,
    unit: 's',
    figure: seconds,
    floor: floor.seconds,
    atMost: LABEL_PRINT_MAX_RATIO,
    invalid,
    detail: `${fixed(bytes / 1024 / 1024, 1)} MB against the libraries' ${fixed(floor.bytes / 1024 / 1024, 1)} MB`,
  });
  withinLimit({
    database,
    name: `${count(batch.trackingNumbers.length)} labels as one PDF: peak growth of server RSS`,
    unit: 'MB',
    figure: growthMb,
    limit: LABEL_PRINT_MAX_RSS_GROWTH_MB,
    invalid,
    detail: `RSS ${fixed(before / 1024 / 1024, 0)} MB before`,
  });
  return { seconds, floorSeconds: floor.seconds, megabytes: bytes / 1024 / 1024, growthMb };
}

/** At most this many times one raw statement reserving the same units (issue 18). */
const AUTO_ASSIGN_MAX_RATIO = 5;

/**
 * Auto-assignment at setup (bench/fulfilment.mjs): the ready orders assigned in the page's
 * batches through the API, against one raw statement reserving their units (rolled back).
 */
function judgeAutoAssign(database, server) {
  const result = server.autoAssign;
  if (!result) return;
  verdict({
    database,
    name: `auto-assigning ${count(result.orders)} ready orders vs one raw statement reserving their units`,
    unit: 's',
    figure: result.appSeconds,
    floor: result.rawSeconds,
    atMost: AUTO_ASSIGN_MAX_RATIO,
    invalid:
      result.units !== result.rawUnits
        ? `${count(result.units)} units reserved by the app, ${count(result.rawUnits)} by the raw statement`
        : undefined,
    detail: `${count(result.assigned)} assigned, ${count(result.held)} held for stock, ${count(result.units)} units`,
  });
}

/** Writes a database's summary for quoting figures later: bench/results/<database>-<time>.json. */
async function writeSummary(name, summary) {
  await mkdir(RESULTS, { recursive: true });
  const file = join(RESULTS, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`  summary: ${file}`);
}

/** Both bench servers of a database, started together (each generates its own registry). */
function withServerPair(provide, use) {
  return provide((largeEnv) =>
    provide((smallEnv) => {
      const large = startBenchServer({ ...largeEnv, BENCH_LINE_STOCK: '1' }, DEVICES);
      const smaller = startBenchServer(smallEnv, SMALL_DEVICES);
      return holding(large.child, stopServer, () =>
        holding(smaller.child, stopServer, async () => {
          const [largeServer, smallServer] = await Promise.all([large.ready, smaller.ready]);
          return use(
            { ...largeServer, child: large.child },
            { ...smallServer, child: smaller.child },
          );
        }),
      );
    }),
  );
}

async function benchDatabase({ name, flag, provide }) {
  const started = Date.now();
  const gatesBefore = gates.length;
  const summary = await withServerPair(provide, async (large, smallServer) => {
    for (const [server, devices] of [
      [large, DEVICES],
      [smallServer, SMALL_DEVICES],
    ]) {
      const g = server.generated;
      console.log(
        `\n${name}: db:generate wrote ${count(g.devices)} devices, ${count(g.invoices)} invoices, ` +
          `${count(g.invoiceImeis)} manifest IMEIs, ${count(g.warehouseBoxes)} boxes and ` +
          `${count(g.deviceEvents)} events in ${g.seconds.toFixed(0)} s (vacuumed; asked ${count(devices)})`,
      );
    }
    const rounds = await measureRounds(large, smallServer);
    printMedians(name, rounds);
    judgeHttp(name, rounds, large, smallServer);
    judgeAutoAssign(name, large);
    return {
      generated: { large: large.generated, small: smallServer.generated },
      rounds,
      autoAssign: large.autoAssign,
      imports: {
        tacNumbers: await benchImport(name, large),
        manifest: await benchManifestImport(name, large),
        planPrices: await benchPriceImport(name, large),
        simDetection: await benchDetectionImport(name, large),
      },
      export: await benchExport(name, large),
      labelPrint: await benchLabelPrint(name, large),
    };
  });
  if (!summary) return;
  await writeSummary(flag, {
    database: name,
    started: new Date(started).toISOString(),
    minutes: (Date.now() - started) / 60_000,
    settings: {
      seconds: SECONDS,
      warmupSeconds: WARMUP_SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      devices: DEVICES,
      smallDevices: SMALL_DEVICES,
      cores: cpus().length,
      node: process.version,
    },
    targets: Object.fromEntries(MEASURED.map((key) => [key, targetName(key)])),
    gates: gates.slice(gatesBefore),
    ...summary,
  });
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
      withinLimit({
        name: `cold load of ${route.name}, gzip`,
        unit: 'KiB',
        figure: total / 1024,
        limit: route.maxKiB,
        invalid: signedOut ? 'the session was not accepted' : undefined,
        detail: `${responses.length} responses`,
      });
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
  withinLimit({
    name: 'largest JS chunk',
    unit: 'kB',
    figure: Math.max(...chunks.map((chunk) => chunk.bytes)) / 1000,
    limit: MAX_CHUNK_BYTES / 1000,
    detail: `${over.length} of ${chunks.length} chunks over`,
  });
}

async function benchBundles() {
  console.log('\nBundles (gzip -9 of each body fetched by a cold load, until network idle):');
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    withinLimit({
      name: 'web app built',
      unit: 'files',
      figure: 0,
      limit: 1,
      invalid: `no ${WEB_DIST}/index.html: run npm run build -w @inventory/web`,
    });
    return;
  }
  // The pages need a signed-in app, not a registry: a small one starts in seconds.
  await withPglite((env) => withBenchServer(env, 1_000, benchRoutes));
  await benchChunks();
}

// ---------------------------------------------------------------------------------------------

// ---------------------------------------------------------------------------------------------

async function main() {
  if (!(SECONDS > 0)) throw new Error(`BENCH_SECONDS must be a positive number of seconds`);
  const databases = chosenDatabases();
  console.log(
    `HTTP: autocannon, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${SECONDS} s ` +
      `per target in turns of ${SLICE_SECONDS} s with its floor, ${ROUNDS} rounds, on 127.0.0.1; ` +
      `Node ${process.version}, ${cpus().length} cores.\n` +
      'The app logs at level warn (info would log every request and dominate the cost); ' +
      'references and floors do not log.',
  );
  for (const database of databases) await benchDatabase(database);
  // BENCH_BUNDLES=0 skips the page loads (while working on the API's figures).
  if (process.env.BENCH_BUNDLES !== '0') {
    const gatesBefore = gates.length;
    await benchBundles();
    await writeSummary('bundles', { gates: gates.slice(gatesBefore) });
  }

  const failed = gates.filter((g) => !g.pass);
  console.log(`\n${gates.length - failed.length} of ${gates.length} gates pass.`);
  for (const { database, name } of failed) console.log(`  FAIL ${database ?? ''} ${name}`);
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
