import { listQuerySchemaOf, type ListDefinition, type Schema } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import type { Queryable, Row } from '../db/db.js';
import type { Principal } from '../http/principal.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { VERSIONED_TABLES } from './answer-cache.js';
import { countRows, listPage, type ListQuery } from './list.js';
import { registeredLists, type ListStore } from './resource.js';
import { scopeOf, withinScope } from './scope.js';

/**
 * A kept list answer is served until a table it was read from is written; a table the list reads
 * but does not declare would serve stale answers, so every registered list that keeps answers has
 * its declaration (`reads`) compared with the tables its query plans read: the page and the count
 * of every sort, of the search and of each filter (a filter may read a table of its own).
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

type PlanNode = Row & {
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
};

function* nodesOf(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* nodesOf(child);
}

/** The tables a plan reads, subplans and CTEs included; an index alone (bitmap) names its table. */
async function tablesOfPlan(sql: string, params: readonly unknown[]): Promise<string[]> {
  const [row] = await t.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${sql}`, params);
  const explained = row!['QUERY PLAN'];
  const [document] = (typeof explained === 'string' ? JSON.parse(explained) : explained) as Array<{
    Plan: PlanNode;
  }>;
  const tables = new Set<string>();
  for (const node of nodesOf(document!.Plan)) {
    if (node['Relation Name']) tables.add(node['Relation Name']);
    else if (node['Index Name']) {
      const [index] = await t.db.query<{ table: string }>(
        `SELECT i.indrelid::regclass::text AS table FROM pg_index i
         WHERE i.indexrelid = to_regclass($1)`,
        [node['Index Name']],
      );
      tables.add(index!.table);
    }
  }
  return [...tables];
}

/** The statements a read runs, recorded instead of run. */
async function statementsOf(read: (db: Queryable) => Promise<unknown>) {
  const statements: Array<{ sql: string; params: readonly unknown[] }> = [];
  const recorder: Queryable = {
    async query<T extends Row>(sql: string, params: readonly unknown[] = []) {
      statements.push({ sql, params });
      return [{ rows: '[]', total: 0 }] as unknown as T[];
    },
    exec: async () => {},
  };
  await read(recorder);
  return statements;
}

/** A value for a filter, as a query string carries it: the first of a few that its schema takes. */
function sampleOf(schema: Schema): string | undefined {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    enum?: string[];
  };
  const candidates = [...(json.enum ?? []), '1', 'true', '2026-01-31T08:00:00Z', '2026-01-31', 'a'];
  return candidates.find((candidate) => z.safeParse(schema, candidate).data !== undefined);
}

/**
 * The queries that walk a list: every sort unfiltered, the search, and each filter alone (set
 * together, filters may contradict each other and the planner then reads no table at all).
 */
function queriesOf(contract: ListDefinition): ListQuery[] {
  const parse = (raw: Record<string, string>) =>
    z.parse(listQuerySchemaOf(contract), raw) as ListQuery;
  const filtered = Object.entries(contract.filters).map(([name, schema]) => {
    const sample = sampleOf(schema);
    if (sample === undefined) throw new Error(`${contract.name}: no sample value for ${name}.`);
    return parse({ [name]: sample });
  });
  return [...contract.sorts.map((sort) => parse({ sort })), parse({ search: 'a' }), ...filtered];
}

/** Someone asking, for a scoped list's condition. */
const asker = { userId: 1, type: 'agent', roleIds: [], roleKeys: [] } as unknown as Principal;

/** Every table that some page or count of the list reads. */
async function tablesReadBy(store: ListStore): Promise<string[]> {
  const list = withinScope(store.list, scopeOf(store, asker));
  const tables = new Set<string>();
  for (const query of queriesOf(store.contract)) {
    const statements = await statementsOf(async (db) => {
      await listPage(db, list, query);
      await countRows(db, list, query);
    });
    for (const { sql, params } of statements) {
      for (const table of await tablesOfPlan(sql, params)) tables.add(table);
    }
  }
  return [...tables].sort();
}

describe('kept list answers', () => {
  it('are keyed by the tables that have a version, and those are the tables the type names', async () => {
    const rows = await t.db.query<{ table_name: string }>(
      // A table versioned in shards (`location_holdings#0`, …) is one table.
      `SELECT DISTINCT split_part(table_name, '#', 1) AS table_name FROM data_versions
       ORDER BY table_name`,
    );
    expect(rows.map((row) => row.table_name)).toEqual([...VERSIONED_TABLES].sort());
  });

  it('declare exactly the tables that the query plans of their pages and counts read', async () => {
    const kept = registeredLists(t.app).filter((store) => store.reads);
    expect(kept.length).toBeGreaterThan(5);
    const mismatches: string[] = [];
    for (const store of kept) {
      const read = await tablesReadBy(store);
      const declared = new Set<string>(store.reads);
      const undeclared = read.filter((table) => !declared.has(table));
      const unread = [...declared].filter((table) => !read.includes(table));
      if (undeclared.length > 0) {
        mismatches.push(`${store.contract.name} reads undeclared ${undeclared.join(', ')}`);
      }
      if (unread.length > 0) {
        mismatches.push(`${store.contract.name} declares unread ${unread.join(', ')}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('are not kept only by lists that read a table without a version', async () => {
    const versioned = new Set<string>(VERSIONED_TABLES);
    const keepable: string[] = [];
    const unkept = registeredLists(t.app).filter((each) => !each.reads);
    for (const store of unkept) {
      const read = await tablesReadBy(store);
      if (read.every((table) => versioned.has(table))) {
        keepable.push(`${store.contract.name} could keep answers: reads ${read.join(', ')}`);
      }
    }
    expect(keepable).toEqual([]);
  });
});
