// The servers that bench/run.mjs measures, in a child process of their own so that the load
// generator never shares their event loop. All of them use one database handle, as the app would.
//
// Started by run.mjs with fork(): the database comes from the environment (DATA_DIR or
// DATABASE_URL, read by the app's own loadConfig), the answer goes back over IPC, and the process
// closes everything and exits when run.mjs disconnects (also when run.mjs dies).
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import { buildApp } from '../apps/api/dist/app.js';
import { loadConfig } from '../apps/api/dist/config.js';
import { generateDatabase, imeiSql, MODELS, tacOf } from '../apps/api/dist/db/generate.js';
import { openDatabase } from '../apps/api/dist/db/open.js';
import { CARD_EVENTS } from '../apps/api/dist/modules/devices/devices.store.js';
import { prepareDatabase } from '../apps/api/dist/db/prepare.js';
import { hashPassword } from '../apps/api/dist/modules/session/password-hashing.js';
import {
  addOrderFloors,
  BENCH_CARRIER_KEY,
  benchPriceImport,
  createSellingStock,
} from './selling.mjs';
import { createFulfilmentStock } from './fulfilment.mjs';
import { addSimFloors, benchDetectionImport, createSimStock, signInAgents } from './sim.mjs';

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

const TAC_ROWS = 100_000;
const TAC_MODELS = 500;
const IMPORT_ROWS = 50_000;
const EXPORT_ROWS = 1_000_000;

/**
 * Master data for the TAC gates: 20 brands, 500 models, 30 colours and 100,000 TACs spread over
 * the models (200 each), as set-based statements. Returns a model to filter by.
 */
async function createTacNumbers(db) {
  await db.query(`INSERT INTO brands (name) SELECT 'Brand ' || g FROM generate_series(1, 20) AS g`);
  await db.query(
    `INSERT INTO device_models (brand_id, name, model_numbers, device_type, os, network, storage_gb)
     SELECT b.id, 'Model ' || g, ARRAY['MN' || g], 'phone',
            (ARRAY['android', 'ios'])[g % 2 + 1], '5G', 64
     FROM generate_series(1, $1::int) AS g
     JOIN brands b ON b.name = 'Brand ' || (g % 20 + 1)`,
    [TAC_MODELS],
  );
  await db.query(
    `INSERT INTO colors (name, hex) SELECT 'Colour ' || g, '#00000' || (g % 10)
     FROM generate_series(1, 30) AS g`,
  );
  await db.query(
    `INSERT INTO tac_numbers (tac, model_id, color_id, capacity_gb, source)
     SELECT (35000000 + g)::text, m.id, c.id, 64, 'gsma'
     FROM generate_series(0, $1::int - 1) AS g
     JOIN device_models m ON m.name = 'Model ' || (g % $2::int + 1)
     JOIN colors c ON c.name = 'Colour ' || (g % 30 + 1)`,
    [TAC_ROWS, TAC_MODELS],
  );
  const [model] = await db.query(
    "SELECT m.id, b.name || ' ' || m.name AS label FROM device_models m JOIN brands b ON b.id = m.brand_id WHERE m.name = 'Model 250'",
  );
  return model;
}

/** The rows of the import gate: new TACs of existing models, as a CSV file and as columns. */
async function importRows(db) {
  const models = await db.query(
    "SELECT m.id, b.name || ' ' || m.name AS label FROM device_models m JOIN brands b ON b.id = m.brand_id ORDER BY m.id",
  );
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => ({
    tac: String(60_000_000 + i),
    model: models[i % models.length],
  }));
  const csv = ['TAC,Model,Capacity GB', ...rows.map((r) => `${r.tac},${r.model.label},64`)].join(
    '\n',
  );
  return { rows, csv };
}

const seconds = (start) => (performance.now() - start) / 1000;

/**
 * The app's upload, check and commit of a CSV file through HTTP, as a browser sends them, each
 * timed: the side of an import gate that is measured against a raw bulk insert.
 */
async function timeAppImport(appPort, token, resource, fileName, csv) {
  const call = async (method, path, body, headers = {}) => {
    const response = await fetch(`http://${HOST}:${appPort}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...headers },
      body,
    });
    const answer = await response.json();
    if (!response.ok)
      throw new Error(`${path}: ${response.status} ${JSON.stringify(answer.message)}`);
    return answer.data;
  };
  let start = performance.now();
  const batch = await call('POST', `/${resource}/imports?fileName=${fileName}`, csv, {
    'content-type': 'application/octet-stream',
  });
  const uploadSeconds = seconds(start);
  start = performance.now();
  const check = await call('POST', `/${resource}/imports/${batch.id}/check`, '{}', {
    'content-type': 'application/json',
  });
  const checkSeconds = seconds(start);
  // A file the check refuses would time the refusal, not the import.
  if (check.errors.length > 0) {
    throw new Error(`${resource}: the check found errors: ${JSON.stringify(check.errors[0])}`);
  }
  start = performance.now();
  const committed = await call('POST', `/${resource}/imports/${batch.id}/commit`);
  const commitSeconds = seconds(start);
  return {
    uploadSeconds,
    checkSeconds,
    commitSeconds,
    created: committed.created_count,
  };
}

/**
 * R5 against the app's import: a raw bulk insert of the same 50,000 TAC rows (one statement),
 * removed again, then the app's upload, check and commit of the same rows as a CSV file.
 */
async function benchImport(db, appPort, token) {
  const { rows, csv } = await importRows(db);
  const clear = () => db.query("DELETE FROM tac_numbers WHERE tac LIKE '6%'");
  const start = performance.now();
  await db.query(
    `INSERT INTO tac_numbers (tac, model_id, capacity_gb, source)
     SELECT tac, model_id, 64, 'import' FROM unnest($1::text[], $2::bigint[]) AS r(tac, model_id)`,
    [rows.map((r) => r.tac), rows.map((r) => r.model.id)],
  );
  const rawSeconds = seconds(start);
  await clear();
  const app = await timeAppImport(appPort, token, 'tac-numbers', 'tacs.csv', csv);
  await clear();
  return { rows: rows.length, rawSeconds, ...app };
}

/** Grows the TAC table to a million rows for the export gate. */
async function growTacNumbers(db) {
  const [{ n }] = await db.query('SELECT count(*)::int AS n FROM tac_numbers');
  await db.query(
    `INSERT INTO tac_numbers (tac, model_id, capacity_gb, source)
     SELECT (70000000 + g)::text, (SELECT min(id) FROM device_models) + g % $2::int, 64, 'gsma'
     FROM generate_series(1, $1::int) AS g`,
    [EXPORT_ROWS - n, TAC_MODELS],
  );
}

// ---------------------------------------------------------------------------------------------
// Receiving: the device registry of db:generate, and fresh stock for the scan and import gates.

/** The registry's size, chosen by run.mjs (a million, and a tenth of it for the scale gates). */
const REGISTRY_DEVICES = Number(process.env.BENCH_REGISTRY_DEVICES || 1_000_000);
const LOOKUP_SAMPLE = 10_000;
/** IMEIs expected on the scan gate's invoice: more than the fastest run can scan. */
const SCAN_IMEIS = Number(process.env.BENCH_SCAN_IMEIS || 200_000);
/** Open boxes the scans are spread over, as many stations each scan into their own. */
const SCAN_BOXES = 50;
const MANIFEST_ROWS = 100_000;
const MANIFEST_INVOICES = 10;

/**
 * The generated registry (apps/api/src/db/generate.ts), vacuumed so that PostgreSQL's autovacuum
 * does not start in the middle of a measurement; a sample of its IMEIs for the lookup gate, and
 * the most common model and status for the list gate.
 */
async function createRegistry(db) {
  const start = performance.now();
  const devices = REGISTRY_DEVICES;
  // As many orders as devices and twice the SIMs (issues 16 and 17: a million orders and two
  // million SIMs against a tenth of them).
  const summary = await db.transaction((tx) =>
    generateDatabase(tx, { devices, seed: 1, orders: devices }),
  );
  await db.exec(
    'VACUUM ANALYZE devices, invoice_imeis, device_events, warehouse_boxes, orders, order_lines, ' +
      'sim_cards, sim_events, agent_sim_ledger',
  );
  const lookupImeis = (
    await db.query(
      `SELECT imei FROM devices WHERE id % $1::int = 0 ORDER BY id LIMIT ${LOOKUP_SAMPLE}`,
      [Math.max(1, Math.floor(devices / LOOKUP_SAMPLE))],
    )
  ).map((row) => row.imei);
  const [deviceFilter] = await db.query(
    `SELECT model_id, status FROM devices WHERE status = 'in_stock'
     GROUP BY model_id, status ORDER BY count(*) DESC, model_id LIMIT 1`,
  );
  const [{ n: matching }] = await db.query(
    'SELECT count(*)::int AS n FROM devices WHERE model_id = $1 AND status = $2',
    [deviceFilter.model_id, deviceFilter.status],
  );
  return {
    lookupImeis,
    deviceFilter: { ...deviceFilter, matching },
    generated: { ...summary, seconds: seconds(start) },
  };
}

/**
 * Fresh IMEIs (TAC slot 5, never generated), serials from..from+count-1; row `s` is of the model
 * `model` (SQL over s) counts from the first generated one.
 */
const freshImeis = (from, count, model = 's') => `SELECT s, ${imeiSql(
  `(${tacOf(0, 5)}::bigint + ((${model}) % ${MODELS}) * 6) * 1000000 + ${from} + s`,
)} AS imei, ${tacOf(0, 5)} + ((${model}) % ${MODELS}) * 6 AS tac
  FROM generate_series(0, ${count - 1}) AS s`;

/**
 * The scan gate's stock: an invoice receiving SCAN_IMEIS expected IMEIs (its manifest) and
 * SCAN_BOXES open boxes on it. Each request of the gate scans the next IMEI into the next box.
 */
async function createScanStock(db) {
  const [vendor] = await db.query(
    "SELECT id FROM vendors WHERE name LIKE 'Vendor %' ORDER BY id LIMIT 1",
  );
  const [invoice] = await db.query(
    `INSERT INTO purchase_invoices (vendor_id, invoice_no, status, has_manifest)
     VALUES ($1, 'BENCH-SCAN', 'receiving', true) RETURNING id`,
    [vendor.id],
  );
  await db.query(
    `INSERT INTO invoice_imeis (invoice_id, imei, model_id, tac_model_id, condition, grade,
       unit_cost_cents)
     SELECT $1, f.imei, t.model_id, t.model_id, 'used', 'B', 5000
     FROM (${freshImeis(0, SCAN_IMEIS)}) f JOIN tac_numbers t ON t.tac = f.tac::text`,
    [invoice.id],
  );
  const boxes = await db.query(
    `INSERT INTO warehouse_boxes (invoice_id, vendor_label)
     SELECT $1, 'BENCH ' || g FROM generate_series(1, $2::int) AS g RETURNING id`,
    [invoice.id, SCAN_BOXES],
  );
  await db.exec('ANALYZE invoice_imeis');
  const imeis = (
    await db.query('SELECT imei FROM invoice_imeis WHERE invoice_id = $1 ORDER BY id', [invoice.id])
  ).map((row) => row.imei);
  const [{ model_id: modelId }] = await db.query(
    'SELECT model_id FROM invoice_imeis WHERE invoice_id = $1 LIMIT 1',
    [invoice.id],
  );
  return {
    scanInvoice: { id: invoice.id, vendor_id: vendor.id, model_id: modelId },
    scanBoxes: boxes.map((box) => box.id),
    scanImeis: imeis,
  };
}

// ---------------------------------------------------------------------------------------------
// The production line (issue 15): devices in the bench admin's grading queue, graded devices
// each with an open inventory box of its kind waiting, and sealed boxes with bins to put them in.
// Fresh serials apart from the scan stock's (0..) and the manifest import's (500,000..).

/** Graded devices of one kind in a row, and the room of the open box that waits for them. */
const LOT = 50;
/** Devices to grade, and graded devices to consolidate (whole lots): more than a run takes. */
const LINE_DEVICES = LOT * Math.round(Number(process.env.BENCH_LINE_DEVICES || 50_000) / LOT);
/** Sealed boxes waiting for putaway, each of DEVICES_PER_SEALED_BOX devices. */
const SEALED_BOXES = Number(process.env.BENCH_SEALED_BOXES || 20_000);
const DEVICES_PER_SEALED_BOX = 5;
/** Boxes a bench bin takes: the sealed boxes fill every bin, one box at a time per request. */
const BIN_CAPACITY = 4;
const SERIALS = { grading: 200_000, consolidation: 300_000, sealed: 600_000 };

/** Devices of the line (`status`, a model per LOT or per box) on their own invoice, with their ids. */
async function insertLineDevices(
  db,
  { invoice, vendor, admin, status, from, count, model, extra },
) {
  return db.query(
    `INSERT INTO devices (imei, tac, model_id, color_id, capacity_gb, condition, grade, status,
       blacklist_state, blacklist_checked_at, invoice_id, vendor_id, unit_cost_cents, received_at,
       received_by, frp_lock, battery_health, ${Object.keys(extra).join(', ')})
     SELECT f.imei, t.tac, t.model_id, (SELECT min(id) FROM colors), 128, 'used',
       ${status === 'in_production' ? 'NULL' : "'B'"}, '${status}', 'clean', now(), $1, $2, 5000,
       now(), $3, false, 90, ${Object.values(extra).join(', ')}
     FROM (${freshImeis(from, count, model)}) f JOIN tac_numbers t ON t.tac = f.tac::text
     ORDER BY f.s RETURNING id, imei`,
    [invoice, vendor, admin],
  );
}

/**
 * What the grading, consolidation and putaway gates take, one distinct unit per request: the
 * admin's production queue (devices in production on a product request), graded devices in
 * lots of LOT with an open box per lot, and sealed boxes of in-stock devices with active bins.
 */
async function createLineStock(db) {
  const [{ id: admin }] = await db.query('SELECT id FROM users WHERE user_name = $1', [
    FIRST_ADMIN.user_name,
  ]);
  const [vendor] = await db.query(
    "SELECT id FROM vendors WHERE name LIKE 'Vendor %' ORDER BY id LIMIT 1",
  );
  const [invoice] = await db.query(
    `INSERT INTO purchase_invoices (vendor_id, invoice_no, status, has_manifest)
     VALUES ($1, 'BENCH-LINE', 'receiving', false) RETURNING id`,
    [vendor.id],
  );
  const [box] = await db.query(
    `INSERT INTO warehouse_boxes (invoice_id, vendor_label, status)
     VALUES ($1, 'BENCH LINE', 'in_production') RETURNING id`,
    [invoice.id],
  );
  const line = { invoice: invoice.id, vendor: vendor.id, admin };

  const grading = await insertLineDevices(db, {
    ...line,
    status: 'in_production',
    from: SERIALS.grading,
    count: LINE_DEVICES,
    model: 's',
    extra: { warehouse_box_id: box.id },
  });
  const [request] = await db.query(
    `INSERT INTO product_requests (model_id, qty, status, approved_at, created_by)
     SELECT model_id, $1, 'in_progress', now(), $2 FROM devices WHERE id = $3 RETURNING id`,
    [LINE_DEVICES, admin, grading[0].id],
  );
  await db.query(
    'INSERT INTO product_request_boxes (product_request_id, warehouse_box_id) VALUES ($1, $2)',
    [request.id, box.id],
  );
  await db.query(
    `INSERT INTO production_assignments (device_id, worker_id, product_request_id, warehouse_box_id)
     SELECT id, $1, $2, $3 FROM devices WHERE warehouse_box_id = $3 AND status = 'in_production'`,
    [admin, request.id, box.id],
  );

  const graded = await insertLineDevices(db, {
    ...line,
    status: 'graded',
    from: SERIALS.consolidation,
    count: LINE_DEVICES,
    model: `s / ${LOT}`,
    extra: {
      warehouse_box_id: box.id,
      wipe_method: "'factory_reset'",
      wipe_certificate: "'BENCH'",
      wiped_at: 'now()',
      graded_at: 'now()',
    },
  });
  const lotBoxes = await db.query(
    `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, max_qty, created_by)
     SELECT d.model_id, d.color_id, 128, 'B', ${LOT}, $2
     FROM unnest($1::bigint[]) WITH ORDINALITY AS lot (device_id, n)
     JOIN devices d ON d.id = lot.device_id ORDER BY lot.n RETURNING id, code`,
    [graded.filter((_, i) => i % LOT === 0).map((device) => device.id), admin],
  );
  const lotCodes = lotBoxes.sort((a, b) => a.id - b.id).map((row) => row.code);

  const sealed = await db.query(
    `INSERT INTO inventory_boxes (model_id, color_id, capacity_gb, grade, max_qty, qty, status,
       sealed_at, sealed_by, created_by)
     SELECT t.model_id, (SELECT min(id) FROM colors), 128, 'B', ${DEVICES_PER_SEALED_BOX},
       ${DEVICES_PER_SEALED_BOX}, 'sealed', now(), $1, $1
     FROM generate_series(0, $2::int - 1) AS k
     JOIN tac_numbers t ON t.tac = (${tacOf(0, 5)} + (k % ${MODELS}) * 6)::text
     ORDER BY k RETURNING id, code`,
    [admin, SEALED_BOXES],
  );
  sealed.sort((a, b) => a.id - b.id);
  await insertLineDevices(db, {
    ...line,
    status: 'in_stock',
    from: SERIALS.sealed,
    count: SEALED_BOXES * DEVICES_PER_SEALED_BOX,
    model: `s / ${DEVICES_PER_SEALED_BOX}`,
    extra: {
      inventory_box_id: `${sealed[0].id} + f.s / ${DEVICES_PER_SEALED_BOX}`,
      wipe_method: "'factory_reset'",
      wipe_certificate: "'BENCH'",
      wiped_at: 'now()',
      graded_at: 'now()',
    },
  });
  const [zone] = await db.query(
    `INSERT INTO locations (code, kind, name, active) VALUES ('BENCH', 'zone', 'Bench putaway', true)
     RETURNING id`,
  );
  const bins = await db.query(
    `INSERT INTO locations (code, kind, parent_id, capacity_boxes, active)
     SELECT 'BENCH-' || lpad(g::text, 5, '0'), 'bin', $1, ${BIN_CAPACITY}, true
     FROM generate_series(1, $2::int) AS g ORDER BY g RETURNING code`,
    [zone.id, Math.ceil(SEALED_BOXES / BIN_CAPACITY)],
  );
  await db.exec('ANALYZE devices, inventory_boxes, locations, production_assignments');
  return {
    gradingDevices: grading.map((device) => Number(device.id)),
    consolidationScans: graded.map((device, i) => [device.imei, lotCodes[Math.floor(i / LOT)]]),
    consolidationLot: LOT,
    putawayBoxes: sealed.map((row) => row.code),
    putawayBins: bins.map((row) => row.code).sort(),
  };
}

/** The manifest import gate's rows: fresh IMEIs on MANIFEST_INVOICES invoices of one vendor. */
async function manifestRows(db) {
  const [vendor] = await db.query(
    "SELECT id, name FROM vendors WHERE name LIKE 'Vendor %' ORDER BY id DESC LIMIT 1",
  );
  const rows = await db.query(
    `SELECT f.imei, t.model_id, b.name || ' ' || m.name AS model
     FROM (${freshImeis(500_000, MANIFEST_ROWS)}) f
     JOIN tac_numbers t ON t.tac = f.tac::text
     JOIN device_models m ON m.id = t.model_id JOIN brands b ON b.id = m.brand_id`,
  );
  const invoiceOf = (i) => `BENCH-IMPORT-${(i % MANIFEST_INVOICES) + 1}`;
  const csv = [
    'Vendor,Invoice no,Invoice date,IMEI,Model,Grade,Unit cost',
    ...rows.map(
      (row, i) => `${vendor.name},${invoiceOf(i)},2026-11-02,${row.imei},${row.model},B,45.00`,
    ),
  ].join('\n');
  return { vendor, rows, csv, invoiceOf };
}

/**
 * R3 against the app's manifest import: a raw bulk insert of the same 100,000 IMEI rows into
 * invoice_imeis (one statement, on invoices that exist), removed again, then the app's upload,
 * check and commit of them as a CSV file (which also creates the invoices and their lines).
 */
async function benchManifestImport(db, appPort, token) {
  const { vendor, rows, csv, invoiceOf } = await manifestRows(db);
  // Manifest rows, then lines, then invoices: what the raw insert or the import created.
  const clear = async () => {
    const ours = "SELECT id FROM purchase_invoices WHERE invoice_no LIKE 'BENCH-IMPORT-%'";
    await db.query(`DELETE FROM invoice_imeis WHERE invoice_id IN (${ours})`);
    await db.query(`DELETE FROM invoice_lines WHERE invoice_id IN (${ours})`);
    await db.query("DELETE FROM purchase_invoices WHERE invoice_no LIKE 'BENCH-IMPORT-%'");
  };
  const invoices = await db.query(
    `INSERT INTO purchase_invoices (vendor_id, invoice_no, has_manifest)
     SELECT $1, 'BENCH-IMPORT-' || g, true FROM generate_series(1, $2::int) AS g
     RETURNING id, invoice_no`,
    [vendor.id, MANIFEST_INVOICES],
  );
  const invoiceId = new Map(invoices.map((row) => [row.invoice_no, row.id]));
  const start = performance.now();
  await db.query(
    `INSERT INTO invoice_imeis (invoice_id, imei, model_id, tac_model_id, condition, grade,
       unit_cost_cents)
     SELECT invoice_id, imei, model_id, model_id, 'used', 'B', 4500
     FROM unnest($1::bigint[], $2::text[], $3::bigint[]) AS r (invoice_id, imei, model_id)`,
    [
      rows.map((_, i) => invoiceId.get(invoiceOf(i))),
      rows.map((r) => r.imei),
      rows.map((r) => r.model_id),
    ],
  );
  const rawSeconds = seconds(start);
  await clear();
  const app = await timeAppImport(appPort, token, 'invoice-imeis', 'manifest.csv', csv);
  await clear();
  return {
    rows: MANIFEST_ROWS,
    rawSeconds,
    ...app,
  };
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

/**
 * Floors (QUALITY.md): the cheapest possible form of each kind of gated work, through the app's
 * own Db layer, without names, events, checks or logging. A gate is a ratio to its floor, measured
 * in the same run, so a busier machine moves both alike.
 *
 * - F0 `GET /session`: looks the bearer token's session up by its hash (the sessions table's
 *   unique index) and answers: what any signed-in request costs before its own work.
 * - F1 `POST /device`: inserts one device row (a fresh IMEI each time, on the scan gate's invoice
 *   and boxes, into all the registry's indexes) and commits it: the least a scan into a box writes.
 * - F2 `GET /devices`, `GET /users` and `GET /locations`: the list gates' pages of 50 by the same
 *   filter, order and index, the table's own columns only (no names, no cursor, no count).
 * - F3 `GET /devices/:imei`: the raw reads behind a lookup, the device's row by its IMEI and then
 *   its newest events (as many as a card carries), own columns only.
 */
function buildFloorEndpoints(db, { scanInvoice, scanBoxes, deviceFilter }) {
  const server = Fastify({ logger: false });
  const text = { type: 'string' };
  const id = { type: 'integer' };
  const nullable = (type) => ({ type: [type, 'null'] });
  const page = (row) => ({
    response: { 200: { type: 'object', properties: { data: { type: 'array', items: row } } } },
  });

  server.get(
    '/session',
    { schema: { response: { 200: { type: 'object', properties: { user_id: id } } } } },
    async (request, reply) => {
      const token = request.headers.authorization?.slice('Bearer '.length) ?? '';
      const [session] = await db.query(
        'SELECT user_id FROM sessions WHERE token_hash = $1 AND revoked_at IS NULL',
        [createHash('sha256').update(token).digest('hex')],
      );
      return session ?? reply.code(401).send();
    },
  );

  // Far from the generated IMEIs and the scan stock's, and unique per request.
  let nextImei = 990_000_000_000_000;
  server.post('/device', async () => {
    nextImei += 1;
    const [row] = await db.query(
      `INSERT INTO devices (imei, tac, model_id, status, warehouse_box_id, invoice_id, vendor_id)
       VALUES ($1, left($1, 8), $2, 'received', $3, $4, $5) RETURNING id`,
      [
        String(nextImei),
        scanInvoice.model_id,
        scanBoxes[nextImei % scanBoxes.length],
        scanInvoice.id,
        scanInvoice.vendor_id,
      ],
    );
    return row;
  });

  const location = {
    type: 'object',
    properties: {
      id,
      code: text,
      kind: text,
      parent_id: nullable('integer'),
      zone_id: id,
      name: nullable('string'),
      quarantine: { type: 'boolean' },
      capacity_boxes: nullable('integer'),
      active: { type: 'boolean' },
      next_audit_due: nullable('string'),
      updated_at: text,
    },
  };
  server.get('/locations', { schema: page(location) }, async () => ({
    data: await db.query(
      `SELECT id, code, kind, parent_id, zone_id, name, quarantine, capacity_boxes, active,
         next_audit_due::text, updated_at::text
       FROM locations ORDER BY code, id LIMIT 50`,
    ),
  }));

  const inventoryBox = {
    type: 'object',
    properties: {
      id,
      code: text,
      model_id: id,
      color_id: nullable('integer'),
      capacity_gb: nullable('integer'),
      grade: text,
      carrier_lock: nullable('string'),
      qty: { type: 'integer' },
      max_qty: { type: 'integer' },
      status: text,
      location_id: nullable('integer'),
      sealed_at: nullable('string'),
    },
  };
  server.get('/inventory-boxes', { schema: page(inventoryBox) }, async () => ({
    data: await db.query(
      `SELECT id, code, model_id, color_id, capacity_gb, grade, carrier_lock, qty, max_qty, status,
         location_id, sealed_at::text
       FROM inventory_boxes ORDER BY code DESC, id DESC LIMIT 50`,
    ),
  }));

  const DEVICE_COLUMNS = `id, imei, imei2, identifier, model_id, color_id, capacity_gb, grade,
    status, warehouse_box_id, invoice_id, vendor_id, received_at`;
  const device = {
    type: 'object',
    properties: {
      id,
      imei: nullable('string'),
      imei2: nullable('string'),
      identifier: text,
      model_id: id,
      color_id: nullable('integer'),
      capacity_gb: nullable('integer'),
      grade: nullable('string'),
      status: text,
      warehouse_box_id: nullable('integer'),
      invoice_id: nullable('integer'),
      vendor_id: nullable('integer'),
      received_at: text,
    },
  };
  server.get('/devices', { schema: page(device) }, async () => ({
    data: await db.query(
      `SELECT ${DEVICE_COLUMNS} FROM devices WHERE model_id = $1 AND status = $2
       ORDER BY identifier, id LIMIT 50`,
      [deviceFilter.model_id, deviceFilter.status],
    ),
  }));

  const user = {
    type: 'object',
    properties: {
      id,
      user_name: text,
      name: text,
      email: nullable('string'),
      phone: nullable('string'),
      type: text,
      status: text,
      rep_id: nullable('string'),
      territory: nullable('string'),
      sim_cap: nullable('integer'),
      device_cap: nullable('integer'),
      first_login: id,
      last_login_at: nullable('string'),
      created_at: text,
    },
  };
  server.get('/users', { schema: page(user) }, async () => ({
    data: await db.query(
      `SELECT id, user_name, name, email, phone, type, status, rep_id, territory, sim_cap,
         device_cap, first_login, last_login_at, created_at
       FROM users WHERE status = 'active' AND type = 'staff' ORDER BY lower(name), id LIMIT 50`,
    ),
  }));

  const event = {
    type: 'object',
    properties: {
      id,
      at: text,
      actor_name: nullable('string'),
      type: text,
      from_status: nullable('string'),
      to_status: nullable('string'),
      container: nullable('string'),
      ref_type: nullable('string'),
      ref_id: nullable('integer'),
      station: nullable('string'),
      data: {},
    },
  };
  server.get(
    '/devices/:imei',
    {
      schema: {
        response: {
          200: {
            type: 'object',
            properties: { device, events: { type: 'array', items: event } },
          },
        },
      },
    },
    async (request, reply) => {
      const [found] = await db.query(`SELECT ${DEVICE_COLUMNS} FROM devices WHERE imei = $1`, [
        request.params.imei,
      ]);
      if (!found) return reply.code(404).send();
      const events = await db.query(
        `SELECT id, at, actor_name, type, from_status, to_status, container, ref_type, ref_id,
           station, data
         FROM device_events WHERE device_id = $1 ORDER BY id DESC LIMIT ${CARD_EVENTS}`,
        [found.id],
      );
      return { device: found, events };
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
  const tacModel = await createTacNumbers(db);
  const tacModelIds = (
    await db.query("SELECT id FROM device_models WHERE name LIKE 'Model %' ORDER BY id")
  ).map((row) => row.id);
  const registry = await createRegistry(db);
  const scanStock = await createScanStock(db);
  const sellingStock = await createSellingStock(db);
  const simStock = await createSimStock(db);
  // The line's gates run on the large registry only: the small one answers the scale gates.
  const lineStock = process.env.BENCH_LINE_STOCK === '1' ? await createLineStock(db) : {};
  // Statistics for the rows just added, as PostgreSQL's autovacuum and the app's start on
  // PGlite (prepareDatabase) give a database in use.
  await db.exec('ANALYZE');

  const helloWorld = buildHelloWorld();
  const reference = buildReferenceEndpoint(db);
  const floors = buildFloorEndpoints(db, { ...scanStock, ...registry });
  addOrderFloors(floors, db, sellingStock);
  addSimFloors(floors, db, simStock);
  const ports = {
    r0: await listen(helloWorld),
    r1: await listen(reference),
    floors: await listen(floors),
    app: await listen(app),
  };
  const session = await logIn(ports.app);
  const agentSessions = await signInAgents(post, ports.app, simStock);
  // The fulfilment gates, like the line's, on the large registry only (made through the API).
  const fulfilmentStock =
    process.env.BENCH_LINE_STOCK === '1'
      ? await createFulfilmentStock(db, ports.app, session, {
          carrierKey: BENCH_CARRIER_KEY,
          // The carrier order gate's variants keep their stock: orders of a variant whose units
          // the assignment reserved would go on hold (no stock) and void that gate.
          excludeSkus: sellingStock.carrierOrder.skus,
        })
      : {};
  // The warehouse dashboards' figures as the refresher keeps them once the server listens.
  await post(ports.app, '/warehouse/dashboard/refresh', {}, session.token);
  await post(ports.app, '/warehouse/dashboard-fulfill/refresh', {}, session.token);

  // Heavier one-off measurements, asked for by run.mjs after the HTTP runs.
  process.on('message', async (message) => {
    try {
      // R4 in every round, beside the sign-ins it bounds.
      if (message === 'hash') process.send({ hashMs: await passwordHashMs() });
      if (message === 'import')
        process.send({ import: await benchImport(db, ports.app, session.token) });
      if (message === 'price-import') {
        const result = await benchPriceImport(db, timeAppImport, ports.app, session.token);
        process.send({ import: result });
      }
      if (message === 'detection-import')
        process.send({ detection: await benchDetectionImport(db) });
      if (message === 'manifest-import')
        process.send({ import: await benchManifestImport(db, ports.app, session.token) });
      if (message === 'grow') {
        await growTacNumbers(db);
        await db.exec('ANALYZE tac_numbers');
        process.send({ grown: EXPORT_ROWS });
      }
    } catch (error) {
      process.send({ error: error instanceof Error ? error.message : String(error) });
    }
  });

  process.once('disconnect', async () => {
    await Promise.allSettled([helloWorld.close(), reference.close(), floors.close()]);
    // Last, because closing the app also closes the database that R1 shares.
    await app.close();
    process.exit(0);
  });
  process.send({
    ports,
    imeis,
    session,
    tacModel,
    tacModelIds,
    ...registry,
    ...scanStock,
    ...lineStock,
    ...sellingStock,
    ...simStock,
    ...agentSessions,
    ...fulfilmentStock,
    benchCarrierKey: BENCH_CARRIER_KEY,
    login: { user_name: FIRST_ADMIN.user_name, password: BENCH_PASSWORD },
  });
}

main().catch((error) => {
  process.stderr.write(`bench server: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
