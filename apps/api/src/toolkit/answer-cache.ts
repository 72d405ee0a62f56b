import type { Db } from '../db/db.js';

/*
 * List answers kept in memory while the tables they were read from stay as they were (decision
 * 0010). Each table that lists read has a version that every writing statement moves in its own
 * transaction (migration 0010; later tables call `track_data_version`, migration 0021); an answer
 * is kept under the versions of the tables its list declares it reads (`reads` of a store), so a
 * write to any of them retires it. The declaration is compared with the tables of the list's query
 * plans by `list-reads.test.ts`.
 */

/**
 * The tables with a version, as data_versions holds them (list-reads.test.ts compares the two).
 * Tables written many times a second by concurrent work have none (see decision 0010).
 */
export const VERSIONED_TABLES = [
  'users',
  'roles',
  'user_roles',
  'brands',
  'device_models',
  'colors',
  'tac_numbers',
  'accessories',
  'parts',
  'vendors',
  'tags',
  'tag_assignments',
  'properties',
  'property_values',
  'permissions',
  'role_permissions',
  'locations',
  'location_holdings',
] as const;

export type VersionedTable = (typeof VERSIONED_TABLES)[number];

export type DataVersions = {
  /**
   * The versions of the tables, as one key. `read` is what the request's session statement read
   * of data_versions (PostgreSQL); null where the server keeps the versions in memory. Either is
   * read before the answer's own query, so an answer is as new as its key, or newer.
   */
  keyOf(tables: readonly VersionedTable[], read: string | null): Promise<string | null>;
};

/**
 * The versions of data_versions' rows by table. A table written by concurrent work may have its
 * version in shards (`location_holdings#0`, `#1`, …; migration 0032), so that its writers never
 * wait for one row: its version is their sum, which every committed write to it moves.
 */
function versionsOf(rows: Iterable<readonly [string, string]>): Map<string, string> {
  const versions = new Map<string, string>();
  for (const [name, version] of rows) {
    const [table, shard] = name.split('#') as [string, string | undefined];
    versions.set(
      table,
      shard === undefined ? version : String(Number(versions.get(table) ?? 0) + Number(version)),
    );
  }
  return versions;
}

/** `a=1,b=2` (as data_versions is read) as a map. */
const versionsRead = (read: string) =>
  versionsOf(read.split(',').map((entry) => entry.split('=') as [string, string]));

/** The key of the tables' versions, or null when one of them has none (a migration not yet run). */
function keyOfTables(tables: readonly string[], versions: ReadonlyMap<string, string>) {
  if (tables.length === 0 || !tables.every((table) => versions.has(table))) return null;
  return tables.map((table) => `${table}=${versions.get(table)}`).join(',');
}

export function createDataVersions(db: Db): DataVersions {
  let lastRead = { text: '', versions: new Map<string, string>() };
  const local = db.listen ? localVersions(db as Db & Required<Pick<Db, 'listen'>>) : null;

  return {
    async keyOf(tables, read) {
      if (read === null) return local ? keyOfTables(tables, await local()) : null;
      if (lastRead.text !== read) lastRead = { text: read, versions: versionsRead(read) };
      return keyOfTables(tables, lastRead.versions);
    },
  };
}

/**
 * PGlite (one process owns the database): the versions are kept in memory, moved by the
 * notifications that the database sends before a writing statement resolves (as the sessions do,
 * see session.service.ts). A read that a notification overtook is used once but not kept.
 */
function localVersions(db: Db & Required<Pick<Db, 'listen'>>) {
  let versions: Map<string, string> | null = null;
  let changes = 0;
  let subscribed = false;
  const subscribing = (async () => {
    await db.query("SELECT set_config('inventory.notify_changes', 'on', false)");
    await db.listen('data_changed', (payload) => {
      changes += 1;
      const [table, version] = payload.split(' ');
      if (table && version) versions?.set(table, version);
    });
    subscribed = true;
  })().catch(() => {});
  const readAll = async () => {
    const rows = await db.query<{ table_name: string; version: string }>(
      'SELECT table_name, version::text FROM data_versions',
    );
    return versionsOf(rows.map((row) => [row.table_name, row.version] as const));
  };

  return async (): Promise<ReadonlyMap<string, string>> => {
    if (!subscribed) await subscribing;
    if (!subscribed) return readAll();
    if (versions) return versions;
    const seen = changes;
    const read = await readAll();
    if (changes === seen) versions = read;
    return read;
  };
}

/** Enough answers of one list for the pages and filters in use; past it the oldest go first. */
const ANSWER_LIMIT = 500;

/**
 * One list's answers as JSON text, kept under the versions of the tables it reads (sorted once
 * here, so that a key names them in one order). Every answer of one version of the data replaces
 * the answers of older versions, so the memory held is that of the answers of the current data.
 */
export function createAnswerCache(versions: DataVersions, reads: readonly VersionedTable[]) {
  const tables = [...new Set(reads)].sort();
  let currentKey: string | null = null;
  const answers = new Map<string, string>();

  return {
    /**
     * The JSON text of an answer: kept, or written by `make` and kept when the versions of the
     * tables are known. `query` tells answers of one list apart (the asker's scope included, for
     * a scoped list); `read` is the principal's `dataVersions`.
     */
    async answer(
      query: unknown,
      read: string | null,
      make: () => Promise<string>,
    ): Promise<string> {
      const key = await versions.keyOf(tables, read);
      if (key === null) return make();
      if (key !== currentKey) {
        answers.clear();
        currentKey = key;
      }
      const queryKey = JSON.stringify(query);
      const kept = answers.get(queryKey);
      if (kept !== undefined) {
        answers.delete(queryKey);
        answers.set(queryKey, kept);
        return kept;
      }
      const json = await make();
      if (currentKey === key) {
        if (answers.size >= ANSWER_LIMIT) answers.delete(answers.keys().next().value!);
        answers.set(queryKey, json);
      }
      return json;
    },
  };
}

export type AnswerCache = ReturnType<typeof createAnswerCache>;
