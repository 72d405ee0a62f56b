import { generateSubstitutions } from '../modules/fulfilment/index.js';
import { generateInventory } from '../modules/inventory/index.js';
import { generateLocations } from '../modules/locations/index.js';
import { generateOrders } from '../modules/order/index.js';
import { generateProduction } from '../modules/production/index.js';
import { generateCatalogue } from '../modules/pts/index.js';
import { generateRepair } from '../modules/repair/index.js';
import { generateRetailers } from '../modules/retail/index.js';
import { generateClaims } from '../modules/claim/generate-claims.js';
import { generateCancelRequests } from '../modules/reship/generate-cancel-requests.js';
import { generateReships, generateSecondReships } from '../modules/reship/generate-reships.js';
import { generateRmas } from '../modules/rma/index.js';
import {
  generatePackages,
  generateTracking,
  generateUnits,
  generatorUser,
} from '../modules/shipment/index.js';
import { generateSims, type GenerateSimsSummary } from '../modules/sim/generate-sims.js';
import { generateStock } from '../modules/stock/index.js';
import { generateTradeIns } from '../modules/trade-in/generate-trade-ins.js';
import { generateUnpacks } from '../modules/unpack/generate-unpacks.js';
import { generateWholesale } from '../modules/wholesale/index.js';
import type { Queryable } from './db.js';
import { withLuhnSql } from './generate-sql.js';

/**
 * A realistic receiving database for trying the app by hand and for `npm run bench`: master data
 * (brands, models, colours, TACs, vendors), purchase invoices with their lines and IMEI manifests,
 * warehouse boxes, devices with their events, and blacklist entries. Every table is written by a
 * few set-based statements (INSERT ... SELECT FROM generate_series), the IMEIs' Luhn check digits
 * computed in SQL, so a million devices cost seconds on PostgreSQL, not a round trip each.
 *
 * Deterministic: the same options give the same rows (ids, IMEIs, statuses); timestamps are
 * offsets from `anchor`. Ids are computed, not drawn from the sequences (OVERRIDING SYSTEM VALUE,
 * counted from each table's current maximum), and the sequences are moved past them at the end,
 * so the app's own inserts carry on after the generated rows.
 *
 * The story of the data, oldest invoice first: most invoices are closed (their devices left their
 * boxes for production, stock and sales, their manifests are settled), then reconciled ones (a
 * missing IMEI each, undecided), received ones (boxes closed), ones still receiving (the last box
 * open, manifest IMEIs still expected) and, newest, expected ones (a manifest, nothing scanned).
 * About 1 device in 500 is of another model than its manifest row claims, 1 in 500 was not on the
 * manifest, and 1 in 400 of those still in receiving is held because its IMEI is blacklisted.
 *
 * IMEIs: TAC (8 digits) + serial (6 digits) + Luhn digit. Each model has TACS_PER_MODEL TACs,
 * 86000000 + 6 x model index + slot. Device g (0-based) has serial g mod 1,000,000 on a TAC of slot
 * g div 1,000,000, so IMEIs are unique up to 4,000,000 devices. Slot 4 holds the manifest IMEIs
 * that have no device (expected, missing) and blacklisted IMEIs never received; slot 5 is never
 * used here: tests and the bench take fresh stock from it (`freshImei`).
 */

export type GenerateOptions = {
  /** Devices in the registry (at most 4,000,000). */
  devices: number;
  /** Purchase invoices; by default one per 100 devices, at most 10,000 and at least 5. */
  invoices?: number;
  /** Changes which models, statuses and discrepancies each row gets. */
  seed?: number;
  /** The newest invoice's creation time; by default today at 00:00 UTC. */
  anchor?: Date;
  /** Orders over the year before the anchor; by default one per device. */
  orders?: number;
  /** RMAs over the year; by default 3 in 100 devices delivered on an order (`RMA_SHARE`). */
  rmas?: number;
  /** Retailers buying wholesale; by default 200. */
  retailers?: number;
  /** SIM cards over the year, in boxes of 500; by default two per device. */
  sims?: number;
  /** Field agents the SIMs go out to; by default 500. */
  agents?: number;
  /** Told each step as it ends, with its duration. */
  progress?: (step: string, seconds: number) => void;
};

export type GenerateSummary = {
  devices: number;
  invoices: number;
  invoiceLines: number;
  invoiceImeis: number;
  warehouseBoxes: number;
  deviceEvents: number;
  blacklistEntries: number;
  models: number;
  tacs: number;
  vendors: number;
  productRequests: number;
  locations: number;
  stockMoves: number;
  inventoryBoxes: number;
  products: number;
  variants: number;
  listings: number;
  retailers: number;
  subscribers: number;
  orders: number;
  substitutionRules: number;
  substitutions: number;
  supportOrders: number;
  packages: number;
  units: number;
  unpacks: number;
  claims: number;
  rmas: number;
  cancelRequests: number;
  reships: number;
  /** The child orders of the reships approved. */
  reshipOrders: number;
  tradeIns: number;
  sims: number;
  simBoxes: number;
  agents: number;
  simRequests: number;
  simReturns: number;
  detectionRuns: number;
  seconds: number;
};

export const MODELS = 300;
export const TACS_PER_MODEL = 6;
const TAC_BASE = 86_000_000;
const BRANDS = [
  'Apple',
  'Samsung',
  'Motorola',
  'Google',
  'OnePlus',
  'LG',
  'Nokia',
  'Xiaomi',
  'TCL',
  'Sony',
  'Huawei',
  'ZTE',
];
const COLORS = [
  'Black',
  'White',
  'Silver',
  'Gold',
  'Blue',
  'Red',
  'Green',
  'Purple',
  'Graphite',
  'Midnight',
  'Starlight',
  'Pink',
];
const VENDORS = 40;
const LINES_PER_INVOICE = 4;
const BOX_SIZE = 50;
/** Manifest IMEIs still expected on each invoice that is receiving. */
const EXPECTED_PER_RECEIVING = 20;
const MAX_DEVICES = 4_000_000;
/**
 * Slot-4 serials: expected manifests from 0, still-expected rows from 600,000, missing from
 * 700,000, phones traded in from 800,000 (never devices of ours until accepted), blacklist from
 * 900,000.
 */
const SERIAL = {
  expected: 0,
  receiving: 600_000,
  missing: 700_000,
  tradeIn: 800_000,
  blacklist: 900_000,
};

/** The TAC of a model (0-based index) and slot, as a number. */
export const tacOf = (model: number, slot: number) => TAC_BASE + model * TACS_PER_MODEL + slot;

/** SQL for the 15-digit IMEI of a 14-digit payload given as a bigint expression. */
export const imeiSql = (payload: string): string => withLuhnSql(payload, 14);

/** An integer hash of a row number: spreads statuses and discrepancies without randomness. */
const hashSql = (g: string, seed: number) =>
  `((${g})::bigint * 2654435761 + ${seed * 97_531 + 12_345}) % 2147483647`;

const int = (name: string, value: number, min: number, max: number) => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}.`);
  }
  return value;
};

async function maxId(db: Queryable, table: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `SELECT COALESCE(max(id), 0)::bigint AS id FROM ${table}`,
  );
  return Number(row?.id ?? 0);
}

/** Moves a table's identity sequence past the ids written here. */
const resync = (db: Queryable, table: string) =>
  db.exec(
    `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT COALESCE(max(id), 0) + 1 FROM ${table}), false)`,
  );

/** The tables that get a million rows: loaded without their indexes and foreign keys. */
const BULK_TABLES = ['devices', 'invoice_imeis', 'device_events'];

/**
 * Runs `load` with the bulk tables' secondary indexes and foreign keys dropped, then builds the
 * indexes once (a sort each, instead of a million insertions into each) and checks each foreign
 * key in one join. Primary keys stay. Run it in a transaction: a failure then drops nothing.
 */
async function withoutIndexes(
  db: Queryable,
  step: (name: string, work: () => Promise<unknown>) => Promise<void>,
  load: () => Promise<void>,
) {
  const keys = await db.query<{ tbl: string; name: string; def: string }>(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def
     FROM pg_constraint WHERE contype = 'f' AND conrelid::regclass::text = ANY ($1::text[])
     ORDER BY conrelid::regclass::text, conname`,
    [BULK_TABLES],
  );
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = ANY ($1::text[])
       AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u', 'x'))
     ORDER BY tablename, indexname`,
    [BULK_TABLES],
  );
  for (const key of keys) await db.exec(`ALTER TABLE ${key.tbl} DROP CONSTRAINT "${key.name}"`);
  for (const index of indexes) await db.exec(`DROP INDEX "${index.name}"`);
  await load();
  await step('indexes', async () => {
    for (const index of indexes) await db.exec(index.def);
  });
  await step('foreign keys', async () => {
    for (const key of keys) {
      await db.exec(`ALTER TABLE ${key.tbl} ADD CONSTRAINT "${key.name}" ${key.def}`);
    }
  });
}

/** The invoices' states by age, oldest first: how many of each for `invoices`. */
export function invoiceStates(invoices: number) {
  const expected = Math.max(1, Math.round(invoices * 0.005));
  const receiving = Math.max(1, Math.round(invoices * 0.035));
  const received = Math.max(1, Math.round(invoices * 0.03));
  const reconciled = Math.max(1, Math.round(invoices * 0.03));
  const closed = invoices - expected - receiving - received - reconciled;
  if (closed < 1) throw new RangeError('Give at least 5 invoices.');
  return { closed, reconciled, received, receiving, expected };
}

/**
 * Fills the database. It must be migrated and seeded (`prepareDatabase`) and hold no devices or
 * invoices yet; master data of other names may be there.
 */
export async function generateDatabase(
  db: Queryable,
  options: GenerateOptions,
): Promise<GenerateSummary> {
  const started = performance.now();
  const N = int('devices', options.devices, 1, MAX_DEVICES);
  const I = int(
    'invoices',
    options.invoices ?? Math.min(10_000, Math.max(5, Math.round(N / 100))),
    5,
    100_000,
  );
  const seed = int('seed', options.seed ?? 1, 0, 1_000_000);
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  if (Number.isNaN(anchorDate.getTime())) throw new RangeError('anchor must be a date.');
  const anchor = `'${anchorDate.toISOString()}'::timestamptz`;
  const step = async (name: string, work: () => Promise<unknown>) => {
    const start = performance.now();
    await work();
    options.progress?.(name, (performance.now() - start) / 1000);
  };
  const run = (name: string, sql: string) => step(name, () => db.exec(sql));

  const [existing] = await db.query<{ n: number }>(
    'SELECT (SELECT count(*) FROM devices) + (SELECT count(*) FROM purchase_invoices) AS n',
  );
  if (Number(existing?.n) > 0) {
    throw new Error('The database has devices or invoices already: generate into a new one.');
  }

  const states = invoiceStates(I);
  const active = I - states.expected;
  if (N < active) throw new RangeError(`Give at least ${active} devices for ${I} invoices.`);
  // Invoices 0 .. active-1 have devices, `per` each (the last ones fewer); k >= active are expected.
  const per = Math.ceil(N / active);
  const boxesPerInvoice = Math.ceil(per / BOX_SIZE);
  if (
    states.expected * per > SERIAL.receiving ||
    states.receiving * EXPECTED_PER_RECEIVING > 100_000
  ) {
    throw new RangeError('Too many expected manifest IMEIs: give more invoices.');
  }
  const firstReconciled = states.closed;
  const firstReceived = firstReconciled + states.reconciled;
  const firstReceiving = firstReceived + states.received;
  const statusOf = (k: string) => `CASE WHEN ${k} < ${firstReconciled} THEN 'closed'
    WHEN ${k} < ${firstReceived} THEN 'reconciled' WHEN ${k} < ${firstReceiving} THEN 'received'
    WHEN ${k} < ${active} THEN 'receiving' ELSE 'expected' END`;

  const base = {
    brand: await maxId(db, 'brands'),
    model: await maxId(db, 'device_models'),
    color: await maxId(db, 'colors'),
    vendor: await maxId(db, 'vendors'),
    tac: await maxId(db, 'tac_numbers'),
    invoice: await maxId(db, 'purchase_invoices'),
    line: await maxId(db, 'invoice_lines'),
    box: await maxId(db, 'warehouse_boxes'),
    device: await maxId(db, 'devices'),
    imei: await maxId(db, 'invoice_imeis'),
    event: await maxId(db, 'device_events'),
    blacklist: await maxId(db, 'blacklist_entries'),
  };
  const [admin] = await db.query<{ id: number }>('SELECT min(id) AS id FROM users');
  const actor = admin?.id ?? 'NULL';
  const [boxCodes] = await db.query<{ n: number }>(
    "SELECT COALESCE(max(substring(code FROM 4)::bigint), 0) AS n FROM warehouse_boxes WHERE code ~ '^WB-[0-9]+$'",
  );
  const boxCodeBase = Math.max(Number(boxCodes?.n ?? 0), base.box);

  // ---- Master data: brands, models, colours, vendors, TACs.
  await run(
    'brands',
    `INSERT INTO brands (id, name) OVERRIDING SYSTEM VALUE
     SELECT ${base.brand} + o, n FROM unnest(ARRAY['${BRANDS.join("','")}']) WITH ORDINALITY AS b (n, o)
     WHERE NOT EXISTS (SELECT 1 FROM brands x WHERE lower(x.name) = lower(b.n))`,
  );
  // Model m (0-based) is of brand m mod 12: "Samsung Series 13 Pro" and the like.
  await run(
    'device_models',
    `INSERT INTO device_models (id, brand_id, name, model_numbers, device_type, os, network,
       storage_gb, esim, dual_sim)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.model} + m + 1, b.id,
       'Series ' || (m / ${BRANDS.length} + 1) || (ARRAY['', ' Plus', ' Pro', ' Max', ' Lite'])[m % 5 + 1],
       ARRAY['GM-' || lpad(m::text, 4, '0')],
       CASE WHEN m % 10 = 9 THEN 'tablet' ELSE 'phone' END,
       CASE WHEN m % ${BRANDS.length} = 0 THEN 'ios' ELSE 'android' END,
       (ARRAY['4G', '5G', '5G'])[m % 3 + 1], (ARRAY[64, 128, 256, 512])[m % 4 + 1],
       m % 3 = 0, m % 2 = 0
     FROM generate_series(0, ${MODELS - 1}) AS m
     JOIN brands b ON lower(b.name) = lower((ARRAY['${BRANDS.join("','")}'])[m % ${BRANDS.length} + 1])`,
  );
  await run(
    'colors',
    `INSERT INTO colors (id, name) OVERRIDING SYSTEM VALUE
     SELECT ${base.color} + o, n FROM unnest(ARRAY['${COLORS.join("','")}']) WITH ORDINALITY AS c (n, o)
     WHERE NOT EXISTS (SELECT 1 FROM colors x WHERE lower(x.name) = lower(c.n))`,
  );
  const colorIds = await db.query<{ id: number }>(
    `SELECT id FROM colors WHERE lower(name) = ANY (ARRAY['${COLORS.join("','").toLowerCase()}']) ORDER BY id`,
  );
  const colorArray = `ARRAY[${colorIds.map((c) => c.id).join(',')}]::bigint[]`;
  await run(
    'vendors',
    `INSERT INTO vendors (id, name, type, contact_name, email, terms) OVERRIDING SYSTEM VALUE
     SELECT ${base.vendor} + v + 1, 'Vendor ' || lpad((v + 1)::text, 3, '0') || ' Wholesale',
       (ARRAY['supplier', 'recycler', 'carrier-client'])[v % 3 + 1], 'Buyer ' || (v + 1),
       'buyer' || (v + 1) || '@vendor.example', 'Net 30'
     FROM generate_series(0, ${VENDORS - 1}) AS v`,
  );
  await run(
    'tac_numbers',
    `INSERT INTO tac_numbers (id, tac, model_id, color_id, capacity_gb, source)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.tac} + t + 1, (${TAC_BASE} + t)::text, ${base.model} + t / ${TACS_PER_MODEL} + 1,
       (${colorArray})[(t / ${TACS_PER_MODEL} + t % ${TACS_PER_MODEL}) % ${colorIds.length} + 1],
       (ARRAY[64, 128, 256, 512])[(t / ${TACS_PER_MODEL}) % 4 + 1], 'gsma'
     FROM generate_series(0, ${MODELS * TACS_PER_MODEL - 1}) AS t`,
  );

  // ---- Invoices and their lines. Invoice k (0-based) is created `age` before the anchor.
  const createdAt = (k: string) => `${anchor} - interval '730 days' * (${I} - ${k}) / ${I}`;
  const vendorOf = (k: string) => `${base.vendor} + (${k} * 7 + ${seed}) % ${VENDORS} + 1`;
  // Line j of invoice k: its model (0-based), grade and unit cost.
  const lineModel = (k: string, j: string) =>
    `((${k}) * 31 + (${j}) * 7 + ${seed * 13}) % ${MODELS}`;
  await run(
    'purchase_invoices',
    `INSERT INTO purchase_invoices (id, vendor_id, invoice_no, invoice_date, currency, status,
       has_manifest, reconciled_at, reconciled_by, closed_at, closed_by, created_at, updated_at,
       created_by, updated_by)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.invoice} + k + 1, ${vendorOf('k')}, 'PI-' || lpad((k + 1)::text, 6, '0'),
       (${createdAt('k')})::date, 'USD', ${statusOf('k')}, true,
       CASE WHEN k < ${firstReceived} THEN ${createdAt('k')} + interval '15 days' END,
       CASE WHEN k < ${firstReceived} THEN ${actor} END,
       CASE WHEN k < ${firstReconciled} THEN ${createdAt('k')} + interval '20 days' END,
       CASE WHEN k < ${firstReconciled} THEN ${actor} END,
       ${createdAt('k')}, ${createdAt('k')}, ${actor}, ${actor}
     FROM generate_series(0, ${I - 1}) AS k`,
  );
  await run(
    'invoice_lines',
    `INSERT INTO invoice_lines (id, invoice_id, model_id, capacity_gb, condition, grade, qty,
       unit_cost_cents, created_at)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.line} + k * ${LINES_PER_INVOICE} + j + 1, ${base.invoice} + k + 1,
       ${base.model} + ${lineModel('k', 'j')} + 1, (ARRAY[64, 128, 256, 512])[${lineModel('k', 'j')} % 4 + 1],
       'used', (ARRAY['A', 'B', 'C', 'A+'])[j + 1], 1,
       4000 + (${lineModel('k', 'j')} * 37 % 200) * 100, ${createdAt('k')}
     FROM generate_series(0, ${I - 1}) AS k, generate_series(0, ${LINES_PER_INVOICE - 1}) AS j`,
  );

  // ---- Boxes: 50 devices each, in the order they were scanned.
  const countOf = (k: string) => `GREATEST(0, LEAST(${per}, ${N} - (${k}) * ${per}))`;
  await run(
    'warehouse_boxes',
    `INSERT INTO warehouse_boxes (id, code, invoice_id, vendor_label, qty_expected, qty_scanned,
       status, staging_location, closed_at, closed_by, staged_at, created_at, updated_at,
       created_by, updated_by)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.box} + k * ${boxesPerInvoice} + b + 1,
       'WB-' || lpad((${boxCodeBase} + k * ${boxesPerInvoice} + b + 1)::text, 6, '0'),
       ${base.invoice} + k + 1, 'CARTON ' || (b + 1) || '/' || nb,
       CASE WHEN open THEN NULL ELSE qty END, qty,
       CASE WHEN k < ${firstReconciled} THEN 'emptied' WHEN open THEN 'receiving'
         WHEN k < ${firstReceived} AND b % 2 = 0 THEN 'staged' ELSE 'received' END,
       CASE WHEN k >= ${firstReconciled} AND k < ${firstReceived} AND b % 2 = 0
         THEN 'STG-' || lpad((k % 20 + 1)::text, 2, '0') END,
       CASE WHEN NOT open THEN ${createdAt('k')} + interval '2 days' END,
       CASE WHEN NOT open THEN ${actor} END,
       CASE WHEN k < ${firstReceived} AND b % 2 = 0 THEN ${createdAt('k')} + interval '3 days' END,
       ${createdAt('k')} + interval '1 day', ${createdAt('k')} + interval '2 days', ${actor}, ${actor}
     FROM (SELECT k, b, nb, LEAST(${BOX_SIZE}, cnt - b * ${BOX_SIZE}) AS qty,
             k >= ${firstReceiving} AND b = nb - 1 AS open
           FROM (SELECT k, ${countOf('k')} AS cnt,
                   (${countOf('k')} + ${BOX_SIZE - 1}) / ${BOX_SIZE} AS nb
                 FROM generate_series(0, ${active - 1}) AS k) i,
           LATERAL generate_series(0, nb - 1) AS b) boxes`,
  );

  // Index builds sort in memory (PostgreSQL's default is 64 MB); LOCAL: for this transaction.
  await db.exec("SET LOCAL maintenance_work_mem = '256MB'");
  await withoutIndexes(db, step, async () => {
    // ---- Devices, one row per device g; the same expressions give their manifest rows.
    const h = hashSql('g', seed);
    const deviceSource = `
    SELECT g, k, p, j, b, h, kind, line_model, actual_model,
      ${imeiSql(`(${TAC_BASE}::bigint + actual_model * ${TACS_PER_MODEL} + g / 1000000) * 1000000 + g % 1000000`)} AS imei,
      (${TAC_BASE} + actual_model * ${TACS_PER_MODEL} + g / 1000000)::text AS tac,
      k < ${firstReconciled} AS settled
    FROM (SELECT g, k, p, j, b, h, kind, line_model,
            CASE WHEN kind = 'mismatch' THEN ${lineModel('k', `(j + 1) % ${LINES_PER_INVOICE}`)}
              ELSE line_model END AS actual_model
          FROM (SELECT g, k, p, p % ${LINES_PER_INVOICE} AS j, p / ${BOX_SIZE} AS b, h,
                  ${lineModel('k', `p % ${LINES_PER_INVOICE}`)} AS line_model,
                  CASE WHEN h % 500 = 7 THEN 'mismatch' WHEN h % 500 = 11 THEN 'unexpected'
                    WHEN h % 400 = 3 AND k >= ${firstReconciled} THEN 'held' ELSE 'plain' END AS kind
                FROM (SELECT g, g / ${per} AS k, g % ${per} AS p, ${h} AS h
                      FROM generate_series(0, ${N - 1}) AS g) a) b) c`;
    const receivedAt = `${createdAt('k')} + interval '1 day' + p * interval '20 seconds'`;
    // Devices of closed invoices have moved on; the rest are in their box.
    // (Statuses that need a record of a later area, such as an order or a return, are left out.)
    const downstream = `(ARRAY['in_stock', 'in_stock', 'in_stock', 'in_stock', 'in_stock', 'in_stock',
    'in_stock', 'in_stock', 'shipped', 'shipped', 'shipped', 'shipped', 'shipped', 'shipped',
    'delivered', 'delivered', 'delivered', 'delivered', 'graded', 'graded', 'in_production',
    'in_production', 'in_repair', 'repaired', 'failed_qc', 'scrapped', 'parts', 'reuse', 'graded',
    'in_stock'])[h / 1000 % 30 + 1]`;
    await run(
      'devices',
      `INSERT INTO devices (id, imei, tac, model_id, color_id, capacity_gb, condition, grade, status,
       hold_reason, status_before_hold, blacklist_state, blacklist_checked_at, warehouse_box_id,
       invoice_id, vendor_id, unit_cost_cents, received_at, received_by, created_at, updated_at)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.device} + g + 1, imei, tac, ${base.model} + actual_model + 1,
       (${colorArray})[(actual_model + g / 1000000) % ${colorIds.length} + 1],
       (ARRAY[64, 128, 256, 512])[actual_model % 4 + 1], 'used', (ARRAY['A', 'B', 'C', 'A+'])[j + 1],
       CASE WHEN settled THEN ${downstream} WHEN kind = 'held' THEN 'hold' ELSE 'received' END,
       CASE WHEN NOT settled AND kind = 'held' THEN 'blacklist' END,
       CASE WHEN NOT settled AND kind = 'held' THEN 'received' END,
       CASE WHEN NOT settled AND kind = 'held' THEN 'blocked' WHEN settled THEN 'clean' ELSE 'unknown' END,
       CASE WHEN settled OR kind = 'held' THEN ${receivedAt} END,
       CASE WHEN NOT settled THEN ${base.box} + k * ${boxesPerInvoice} + b + 1 END,
       ${base.invoice} + k + 1, ${vendorOf('k')}, 4000 + (line_model * 37 % 200) * 100,
       ${receivedAt}, ${actor}, ${receivedAt},
       CASE WHEN settled THEN ${receivedAt} + interval '3 days' ELSE ${receivedAt} END
     FROM (${deviceSource}) d`,
    );

    // ---- Manifest rows of the devices, then those without one: expected, still expected, missing.
    const line = (k: string, j: string) =>
      `${base.line} + (${k}) * ${LINES_PER_INVOICE} + (${j}) + 1`;
    await run(
      'invoice_imeis',
      `INSERT INTO invoice_imeis (id, invoice_id, line_id, imei, model_id, tac_model_id,
       capacity_gb, condition, grade, unit_cost_cents, match_status, from_manifest, device_id,
       decision, decided_at, decided_by, open, created_at, updated_at, created_by, updated_by)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.imei} + g + 1, ${base.invoice} + k + 1,
       CASE WHEN kind <> 'unexpected' THEN ${line('k', 'j')} END, imei,
       CASE WHEN kind <> 'unexpected' THEN ${base.model} + line_model + 1 END,
       ${base.model} + actual_model + 1, (ARRAY[64, 128, 256, 512])[line_model % 4 + 1], 'used',
       (ARRAY['A', 'B', 'C', 'A+'])[j + 1], 4000 + (line_model * 37 % 200) * 100,
       CASE WHEN kind = 'unexpected' THEN 'unexpected' ELSE 'received' END,
       kind <> 'unexpected', ${base.device} + g + 1,
       CASE WHEN settled AND kind IN ('mismatch', 'unexpected') THEN 'accepted' END,
       CASE WHEN settled AND kind IN ('mismatch', 'unexpected') THEN ${createdAt('k')} + interval '18 days' END,
       CASE WHEN settled AND kind IN ('mismatch', 'unexpected') THEN ${actor} END,
       NOT settled, ${createdAt('k')}, ${receivedAt}, ${actor}, ${actor}
     FROM (${deviceSource}) d`,
    );
    // Rows r of invoice k that have no device; `serial` is unique among them (TAC slot 4).
    const pending = `
    SELECT k, r, r % ${LINES_PER_INVOICE} AS j, serial, state,
      ${lineModel('k', `r % ${LINES_PER_INVOICE}`)} AS model
    FROM (
      SELECT k, r, ${SERIAL.expected} + (k - ${active}) * ${per} + r AS serial, 'expected' AS state
      FROM generate_series(${active}, ${I - 1}) AS k, generate_series(0, ${per - 1}) AS r
      UNION ALL
      SELECT k, r, ${SERIAL.receiving} + (k - ${firstReceiving}) * ${EXPECTED_PER_RECEIVING} + r, 'expected'
      FROM generate_series(${firstReceiving}, ${active - 1}) AS k,
        generate_series(0, ${EXPECTED_PER_RECEIVING - 1}) AS r
      UNION ALL
      SELECT k, 0, ${SERIAL.missing} + k, 'missing' FROM generate_series(0, ${firstReceived - 1}) AS k
      WHERE k % 3 = 0 OR k >= ${firstReconciled}) p`;
    await run(
      'invoice_imeis',
      `INSERT INTO invoice_imeis (id, invoice_id, line_id, imei, model_id, tac_model_id,
       capacity_gb, condition, grade, unit_cost_cents, match_status, decision, decided_at,
       decided_by, open, created_at, updated_at, created_by, updated_by)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.imei} + ${N} + row_number() OVER (ORDER BY k, r), ${base.invoice} + k + 1,
       ${line('k', 'j')},
       ${imeiSql(`(${TAC_BASE}::bigint + model * ${TACS_PER_MODEL} + 4) * 1000000 + serial`)},
       ${base.model} + model + 1, ${base.model} + model + 1,
       (ARRAY[64, 128, 256, 512])[model % 4 + 1], 'used', (ARRAY['A', 'B', 'C', 'A+'])[j + 1],
       4000 + (model * 37 % 200) * 100, state,
       CASE WHEN k < ${firstReconciled} THEN 'vendor_credit' END,
       CASE WHEN k < ${firstReconciled} THEN ${createdAt('k')} + interval '18 days' END,
       CASE WHEN k < ${firstReconciled} THEN ${actor} END,
       k >= ${firstReconciled}, ${createdAt('k')}, ${createdAt('k')}, ${actor}, ${actor}
     FROM (${pending}) p`,
    );
    // A line is as long as the manifest rows listed on it.
    await run(
      'invoice_lines update',
      `UPDATE invoice_lines l SET qty = n.imeis
     FROM (SELECT line_id, count(*)::int AS imeis FROM invoice_imeis
           WHERE from_manifest AND line_id > ${base.line} GROUP BY line_id) n
     WHERE l.id = n.line_id`,
    );
    await run(
      'purchase_invoices update',
      `UPDATE purchase_invoices i SET total_cents = t.total
     FROM (SELECT invoice_id, sum(qty * unit_cost_cents) AS total FROM invoice_lines
           WHERE invoice_id > ${base.invoice} GROUP BY invoice_id) t
     WHERE i.id = t.invoice_id`,
    );

    // ---- Device events: received for every device, then its last move (held or downstream).
    await run(
      'device_events',
      `INSERT INTO device_events (id, device_id, at, actor_id, actor_name, type, from_status,
       to_status, container, ref_type, ref_id, station, data)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.event} + g * 2 + 1, ${base.device} + g + 1, ${receivedAt}, ${actor}, 'admin',
       'received', NULL, 'received',
       'WB-' || lpad((${boxCodeBase} + k * ${boxesPerInvoice} + b + 1)::text, 6, '0'),
       'purchase_invoice', ${base.invoice} + k + 1, 'dock-' || (k % 4 + 1),
       jsonb_build_object('result', CASE kind WHEN 'mismatch' THEN 'model_mismatch'
         WHEN 'unexpected' THEN 'unexpected' WHEN 'held' THEN 'blacklisted' ELSE 'added' END,
         'invoice_no', 'PI-' || lpad((k + 1)::text, 6, '0'))
     FROM (${deviceSource}) d`,
    );
    await run(
      'device_events',
      `INSERT INTO device_events (id, device_id, at, actor_id, actor_name, type, from_status,
       to_status, container, ref_type, ref_id, station, data)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.event} + (d.id - ${base.device}) * 2,
       d.id, d.updated_at, ${actor}, 'admin',
       CASE WHEN d.status = 'hold' THEN 'held' ELSE 'status_changed' END,
       'received', d.status, NULL, NULL, NULL, NULL,
       CASE WHEN d.status = 'hold' THEN jsonb_build_object('reason', 'blacklist') END
     FROM devices d WHERE d.id > ${base.device} AND d.status <> 'received'`,
    );

    // ---- Blacklist: the held devices' open entries, cleared entries of devices sold since, and
    // listed IMEIs never received.
    await run(
      'blacklist_entries',
      `INSERT INTO blacklist_entries (id, imei, source, reason, reference, flagged_at, cleared_at,
       cleared_by, clear_evidence, created_at, updated_at, created_by, updated_by)
     OVERRIDING SYSTEM VALUE
     SELECT ${base.blacklist} + row_number() OVER (ORDER BY n, imei), imei, source, reason,
       'REF-' || n, at, cleared, CASE WHEN cleared IS NOT NULL THEN ${actor} END,
       CASE WHEN cleared IS NOT NULL THEN 'Carrier release letter' END, at, at, ${actor}, ${actor}
     FROM (
       SELECT 0 AS n, d.imei, 'gsma' AS source,
         (ARRAY['lost', 'stolen', 'unpaid', 'fraud'])[d.id % 4 + 1] AS reason,
         d.received_at - interval '1 day' AS at, NULL::timestamptz AS cleared
       FROM devices d WHERE d.id > ${base.device} AND d.hold_reason = 'blacklist'
       UNION ALL
       SELECT 1, d.imei, 'carrier', 'unpaid', d.received_at, d.received_at + interval '2 days'
       FROM devices d WHERE d.id > ${base.device} AND d.status = 'in_stock' AND d.id % 400 = 5
       UNION ALL
       SELECT 2, ${imeiSql(`(${TAC_BASE}::bigint + (s % ${MODELS}) * ${TACS_PER_MODEL} + 4) * 1000000 + ${SERIAL.blacklist} + s`)},
         'gsma', (ARRAY['lost', 'stolen'])[s % 2 + 1], ${anchor} - s * interval '1 hour', NULL
       FROM generate_series(0, ${Math.max(1, Math.floor(N / 1000)) - 1}) AS s) e`,
    );
  });

  for (const table of [
    'brands',
    'device_models',
    'colors',
    'vendors',
    'tac_numbers',
    'purchase_invoices',
    'invoice_lines',
    'warehouse_boxes',
    'devices',
    'invoice_imeis',
    'device_events',
    'blacklist_entries',
  ]) {
    await resync(db, table);
  }
  await run(
    'box codes',
    `SELECT setval('warehouse_box_codes', GREATEST(1, (SELECT COALESCE(max(substring(code FROM 4)::bigint), 0) FROM warehouse_boxes WHERE code ~ '^WB-[0-9]+$')))`,
  );
  // Production under way on some staged boxes, the warehouse's locations, the counted stock in
  // its bins and the devices in stock in inventory boxes.
  let productRequests = 0;
  let locations = 0;
  let stockMoves = 0;
  await step('production', async () => {
    ({ requests: productRequests } = await generateProduction(db));
  });
  await step('locations', async () => {
    ({ locations } = await generateLocations(db, { anchor: anchorDate }));
  });
  await step('counted stock', async () => {
    ({ moves: stockMoves } = await generateStock(db, { anchor: anchorDate }));
  });
  // The devices in stock, packed by their attributes into inventory boxes, most put away.
  let inventoryBoxes = 0;
  await step('inventory boxes', async () => {
    ({ boxes: inventoryBoxes } = await generateInventory(db));
  });
  // What is sold and to whom: a catalogue listed from the stock, retailers, a year of orders.
  let catalogue = { products: 0, variants: 0, listings: 0 };
  await step('catalogue', async () => {
    catalogue = await generateCatalogue(db);
  });
  let retailers = 0;
  await step('retailers', async () => {
    retailers = await generateRetailers(db, int('retailers', options.retailers ?? 200, 1, 100_000));
  });
  let orders = { orders: 0, subscribers: 0 };
  await step('orders', async () => {
    orders = await generateOrders(db, {
      orders: int('orders', options.orders ?? N, 0, 10_000_000),
      anchor: anchorDate,
    });
  });
  // Substitution rules per client carrier, substitutions applied and proposed, support orders.
  let substitutions = { substitutionRules: 0, substitutions: 0, supportOrders: 0 };
  await step('substitutions', async () => {
    substitutions = await generateSubstitutions(db);
  });
  // The parcels of the orders labelled or on their way and behind them.
  let packages = { packages: 0 };
  await step('packages', async () => {
    packages = await generatePackages(db);
  });
  // The carrier's last event of the parcels delivered and returned.
  await step('tracking', () => generateTracking(db));
  // What came back: the devices the parcels carried, the returned parcels unpacked, claims for
  // the lost ones and RMAs of delivered devices (their repairs are raised below).
  let returns = { units: 0, unpacks: 0, claims: 0, rmas: 0 };
  await step('returns', async () => {
    // Statistics of the tables just filled: without them the planner joins a year of orders
    // and parcels row by row (minutes instead of seconds at 100,000 devices).
    await db.exec(
      'ANALYZE devices, device_events, orders, order_lines, order_line_units, packages, products, product_variants',
    );
    const stamp = { anchor: anchorDate, actor: await generatorUser(db) };
    const { units } = await generateUnits(db);
    const { unpacks } = await generateUnpacks(db, stamp);
    const { claims } = await generateClaims(db, stamp);
    const { rmas } = await generateRmas(db, {
      ...stamp,
      ...(options.rmas !== undefined && { rmas: int('rmas', options.rmas, 0, 10_000_000) }),
    });
    returns = { units, unpacks, claims, rmas };
  });
  // The orders' exceptions: cancellation requests, reships (their child orders made) and the
  // phones traded in; then the parcels of the child orders (reships and RMA replacements).
  let exceptions = { cancelRequests: 0, reships: 0, reshipOrders: 0, tradeIns: 0 };
  await step('order exceptions', async () => {
    const stamp = { anchor: anchorDate, actor: await generatorUser(db) };
    const { cancelRequests } = await generateCancelRequests(db, stamp);
    const { reships, reshipOrders } = await generateReships(db, stamp);
    // Phone n of model n mod MODELS, on its TAC of slot 4: one no device of ours has.
    const { tradeIns } = await generateTradeIns(db, {
      ...stamp,
      imei: (n) =>
        imeiSql(
          `(${TAC_BASE}::bigint + (${n}) % ${MODELS} * ${TACS_PER_MODEL} + 4) * 1000000 + ${SERIAL.tradeIn} + (${n}) / ${MODELS}`,
        ),
    });
    exceptions = { cancelRequests, reships, reshipOrders, tradeIns };
  });
  await step('child order parcels', () => generatePackages(db));
  await step('child order tracking', () => generateTracking(db));
  // The child orders that came back undeliverable too, reshipped again (a manager's decision),
  // and the parcels of the orders that makes.
  await step('second reships', async () => {
    const second = await generateSecondReships(db, {
      anchor: anchorDate,
      actor: await generatorUser(db),
    });
    exceptions.reships += second.reships;
    exceptions.reshipOrders += second.reshipOrders;
    await generatePackages(db);
    await generateTracking(db);
  });
  // The wholesale orders' freight shipments and their cartons.
  await step('wholesale shipments', () => generateWholesale(db));
  // Repair tickets for devices that failed QC or came back routed to repair (the returns above).
  await step('repair', () => generateRepair(db, { anchor: anchorDate }));
  // SIM cards: the carriers' boxes, the agents, their requests, activations and returns.
  let sims: GenerateSimsSummary = {
    sims: 0,
    simBoxes: 0,
    agents: 0,
    simRequests: 0,
    simReturns: 0,
    detectionRuns: 0,
  };
  await step('sims', async () => {
    sims = await generateSims(db, {
      sims: int('sims', options.sims ?? 2 * N, 0, 20_000_000),
      agents: int('agents', options.agents ?? 500, 1, 100_000),
      anchor: anchorDate,
    });
  });
  await run('analyze', 'ANALYZE');

  const [counts] = await db.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM devices WHERE id > ${base.device} AND invoice_id IS NOT NULL)
         AS devices,
       (SELECT count(*) FROM invoice_lines WHERE id > ${base.line}) AS lines,
       (SELECT count(*) FROM invoice_imeis WHERE id > ${base.imei}) AS imeis,
       (SELECT count(*) FROM warehouse_boxes WHERE id > ${base.box}) AS boxes,
       (SELECT count(*) FROM device_events WHERE id > ${base.event}) AS events,
       (SELECT count(*) FROM blacklist_entries WHERE id > ${base.blacklist}) AS blacklist`,
  );
  return {
    devices: Number(counts!.devices),
    invoices: I,
    invoiceLines: Number(counts!.lines),
    invoiceImeis: Number(counts!.imeis),
    warehouseBoxes: Number(counts!.boxes),
    deviceEvents: Number(counts!.events),
    blacklistEntries: Number(counts!.blacklist),
    models: MODELS,
    tacs: MODELS * TACS_PER_MODEL,
    vendors: VENDORS,
    productRequests,
    locations,
    stockMoves,
    inventoryBoxes,
    ...catalogue,
    retailers,
    ...orders,
    ...substitutions,
    ...packages,
    ...returns,
    ...exceptions,
    ...sims,
    seconds: (performance.now() - started) / 1000,
  };
}
