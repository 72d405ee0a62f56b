import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable, Row } from '../db/db.js';
import { generateActivity } from '../db/generate-activity.js';
import { generateDatabase } from '../db/generate.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import type { Principal } from '../http/principal.js';
import { listPage, type ListQuery } from './list.js';
import { registeredLists, type ListStore, type ResourceStore } from './resource.js';
import { scopeOf, withinScope } from './scope.js';

/**
 * Every registered list's first page, for every declared sort in both orders, is read through an
 * index on generated data of a realistic shape: the planner, not a setting, must choose it. A new
 * list is walked without edits; its table must be large in the generated data (generate.ts,
 * generate-activity.ts) or be named below as small by nature. The 409 checks before a delete are
 * explained too, and every foreign key that a delete, a merge or a list follows has an index.
 */

/** A table this large is never read whole and sorted for one page. */
const LARGE = 5_000;

/** Tables that stay small whatever the business does: a full read and sort of them is cheap. */
const SMALL_BY_NATURE: Readonly<Record<string, string>> = {
  roles: 'a site has tens of roles',
  permissions: 'the catalogue and a few custom permissions: hundreds',
  colors: 'colour names: tens',
  tags: 'catalogue tags: hundreds',
  properties: 'product properties: tens',
  vendors: 'suppliers and recyclers: hundreds',
  device_models: 'models a reseller handles: a few thousand at most',
  accessories: 'accessory SKUs: hundreds',
  parts: 'repair part numbers: a few thousand at most',
  stock_levels: 'counted stock: each accessory and part in a few bins, thousands of levels',
  gov_plan_prices:
    'versions of client-carrier plan prices: programmes x states x models, a few thousand a year',
  products: 'the push-to-sale catalogue: a product per model sold, a few thousand at most',
  product_variants: 'sellable cuts of those products: thousands; the SKU is unique-indexed',
  bundles: 'fixed kits on sale: hundreds',
  combos: 'offers with choice slots: hundreds',
  retailers: 'B2B customer accounts: hundreds to a few thousand',
  client_carrier_api_keys: "client carriers' API keys: a few per carrier",
  pts_listings: 'a listing per sellable and channel: thousands',
  sim_boxes: "carriers' SIM boxes of hundreds to thousands of SIMs: a few thousand a year",
  substitution_rules: 'one per client carrier and programme: tens',
};

/**
 * Foreign keys without an index, on purpose. References to users are who-did-it stamps: no list
 * filters or joins by them, and a user is disabled, not deleted (a delete clears the stamps with
 * a scan of each table, which an administrator's rare act may take).
 */
const UNINDEXED_REFERENCE_TO = new Set(['users']);

let t: TestApp;
let tableRows: Map<string, number>;

beforeAll(async () => {
  t = await createTestApp();
  const anchor = new Date('2026-11-01');
  await t.db.transaction((tx) =>
    // SIMs enough for a year of requests and returns past LARGE (a request per pack of 50); RMAs
    // past LARGE too, from the devices delivered (a third of the registry is sold): more devices
    // than orders, which stay at 15,000.
    generateDatabase(tx, {
      devices: 24_000,
      invoices: 7_600,
      seed: 3,
      anchor,
      orders: 15_000,
      sims: 400_000,
      rmas: 5_500,
    }),
  );
  await generateActivity(t.db, {
    users: 5_500,
    auditEvents: 10_000,
    tacs: 5_000,
    inboundShipments: 5_500,
    vendorTransfers: 5_500,
    clearedBlacklistEntries: 5_500,
    inventoryBoxes: 5_500,
    workLogs: 20_000,
    workJobs: 5_500,
    anchor,
  });
  await t.db.exec('ANALYZE');
  const sizes = await t.db.query<{ name: string; rows: number }>(
    `SELECT relname AS name, reltuples::float8 AS rows FROM pg_class
     WHERE relkind = 'r' AND relnamespace = current_schema()::regnamespace`,
  );
  tableRows = new Map(sizes.map((size) => [size.name, Number(size.rows)]));
  const [agent] = await t.db.query<{ id: number }>(
    'SELECT agent_id AS id FROM agent_sim_ledger GROUP BY agent_id ORDER BY count(*) DESC LIMIT 1',
  );
  busiestAgent = {
    userId: agent!.id,
    type: 'agent',
    roleIds: [],
    roleKeys: [],
  } as unknown as Principal;
  // A registry big enough for real plans: about three minutes on PGlite in CI, five when the
  // machine is loaded (the fulfilment and tracking generators added to it).
}, 600_000);
afterAll(() => t?.close());

const isLarge = (table: string) => (tableRows.get(table) ?? 0) >= LARGE;

type PlanNode = Row & { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/** The large tables that the plan reads whole and then sorts. */
function scannedAndSorted(plan: PlanNode): string[] {
  const tables = new Set<string>();
  for (const node of nodesOf(plan)) {
    if (node['Node Type'] !== 'Sort') continue;
    for (const below of nodesOf(node)) {
      const table = below['Relation Name'];
      if (below['Node Type'] === 'Seq Scan' && table && isLarge(table)) tables.add(table);
    }
  }
  return [...tables];
}

/** Any large table the plan reads whole. */
function scannedWhole(plan: PlanNode): string[] {
  return [...nodesOf(plan)].flatMap((node) =>
    node['Node Type'] === 'Seq Scan' && node['Relation Name'] && isLarge(node['Relation Name'])
      ? [node['Relation Name']]
      : [],
  );
}

async function planOf(sql: string, params: readonly unknown[]): Promise<PlanNode> {
  const [row] = await t.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  // node-postgres parses the json column, PGlite too; either way one plan in an array.
  const explained = row!['QUERY PLAN'];
  const document = (typeof explained === 'string' ? JSON.parse(explained) : explained) as Array<{
    Plan: PlanNode;
  }>;
  return document[0]!.Plan;
}

/** The statement and values that a list's first page runs, recorded instead of run. */
/** The agent with the most SIMs on their ledger: a scoped list is planned as that agent reads it. */
let busiestAgent: Principal;

async function firstPageStatement(store: ListStore, query: ListQuery) {
  let statement: { sql: string; params: readonly unknown[] } | null = null;
  const recorder: Queryable = {
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      statement = { sql, params };
      return [{ rows: '[]' }] as unknown as T[];
    },
    exec: async () => {},
  };
  await listPage(recorder, withinScope(store.list, scopeOf(store, busiestAgent)), query);
  if (!statement) throw new Error(`${store.contract.name}: the page ran no statement.`);
  return statement as { sql: string; params: readonly unknown[] };
}

const mainTableOf = (store: ListStore) => /^\s*([a-z_][a-z0-9_]*)/i.exec(store.list.from)![1]!;

describe('the registered lists, on generated data', () => {
  it('read large tables, or tables small by nature', () => {
    const lists = registeredLists(t.app);
    expect(lists.length).toBeGreaterThan(10);
    const unsized = lists
      .map((store) => ({ list: store.contract.name, table: mainTableOf(store) }))
      .filter(({ table }) => !isLarge(table) && !(table in SMALL_BY_NATURE));
    expect(unsized, 'generate these tables large, or say why they stay small').toEqual([]);
  });

  it('read the first page of every sort, both ways, without reading a large table whole and sorting it', async () => {
    const sortedScans: string[] = [];
    for (const store of registeredLists(t.app)) {
      for (const sort of store.contract.sorts) {
        for (const order of ['asc', 'desc'] as const) {
          const { sql, params } = await firstPageStatement(store, { sort, order, limit: 50 });
          const tables = scannedAndSorted(await planOf(sql, params));
          if (tables.length > 0) {
            sortedScans.push(`${store.contract.name} by ${sort} ${order}: ${tables.join(', ')}`);
          }
        }
      }
    }
    expect(sortedScans).toEqual([]);
  });

  it('check the uses of a row before a delete through indexes', async () => {
    const wholeScans: string[] = [];
    for (const store of registeredLists(t.app) as ResourceStore[]) {
      for (const reference of store.references ?? []) {
        const tables = scannedWhole(await planOf(`SELECT (${reference.countSql})::int`, [1]));
        if (tables.length > 0) wholeScans.push(`${store.contract.name} (${reference.label})`);
      }
    }
    expect(wholeScans).toEqual([]);
  });
});

describe('foreign keys', () => {
  it('each have an index led by their columns, so a delete, a merge and a join find the rows', async () => {
    const unindexed = await t.db.query<{ key: string }>(
      `SELECT c.conrelid::regclass::text || '.' || c.conname AS key
       FROM pg_constraint c
       WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
         AND NOT (c.confrelid::regclass::text = ANY ($1::text[]))
         AND NOT EXISTS (
           SELECT 1 FROM pg_index i
           WHERE i.indrelid = c.conrelid
             -- A partial index that leaves out only nulls finds every referring row.
             AND (i.indpred IS NULL OR pg_get_expr(i.indpred, i.indrelid) =
                  format('(%s IS NOT NULL)', (SELECT attname FROM pg_attribute
                     WHERE attrelid = c.conrelid AND attnum = c.conkey[1])))
             AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
             AND (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
       ORDER BY 1`,
      [[...UNINDEXED_REFERENCE_TO]],
    );
    expect(unindexed.map((row) => row.key)).toEqual([]);
  });
});
