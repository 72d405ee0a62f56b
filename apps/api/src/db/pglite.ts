import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { runLastSteps, transactionOf, type Db, type Queryable, type Row } from './db.js';
import { acquireDirectoryLock } from './directory-lock.js';

/**
 * The extensions a migration creates: every PGlite is opened with them, a copy of an image too
 * (btree_gist: the exclusion constraint of government-plan prices, migration 0036).
 */
const EXTENSIONS = { btree_gist };

const queryableOf = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
  async query<T extends Row>(sql: string, params?: readonly unknown[]) {
    const result = await target.query<T>(sql, params ? [...params] : undefined);
    return result.rows;
  },
  async exec(sql) {
    await target.exec(sql);
  },
});

const dbOf = (pglite: PGlite, release: () => void): Db => ({
  kind: 'pglite',
  ...queryableOf(pglite),
  transaction: (fn) =>
    pglite.transaction(async (open) => {
      const tx = transactionOf(queryableOf(open));
      const result = await fn(tx);
      await runLastSteps(tx);
      return result;
    }),
  async listen(channel, onPayload) {
    await pglite.listen(channel, onPayload);
  },
  async close() {
    try {
      await pglite.close();
    } finally {
      release();
    }
  },
});

/**
 * Opens PGlite on disk under dataDir (locked against a second process), or in memory when dataDir
 * is null (tests), then optionally as a copy of a database that `pgliteImage` saved, which skips
 * creating and migrating it. PGlite runs one statement at a time, so its transactions are
 * serialised.
 */
export async function openPglite(
  dataDir: string | null,
  options: { image?: Blob } = {},
): Promise<Db> {
  if (!dataDir)
    return dbOf(
      await PGlite.create({ loadDataDir: options.image, extensions: EXTENSIONS }),
      () => {},
    );
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDirectoryLock(join(dataDir, LOCK));
  try {
    return dbOf(await PGlite.create(join(dataDir, CLUSTER), { extensions: EXTENSIONS }), release);
  } catch (error) {
    release();
    throw error;
  }
}

/** Inside DATA_DIR: PGlite's cluster, and the lock file of the process that has it open. */
const CLUSTER = 'pglite';
const LOCK = 'pglite.lock';

/** Runs `fn` on the cluster's folder while holding the data directory's lock. */
async function underLock<T>(dataDir: string, fn: (cluster: string) => Promise<T>): Promise<T> {
  mkdirSync(dataDir, { recursive: true });
  const release = acquireDirectoryLock(join(dataDir, LOCK));
  try {
    return await fn(join(dataDir, CLUSTER));
  } finally {
    release();
  }
}

/**
 * The embedded database's cluster as a gzipped tarball: a consistent copy, since the directory's
 * lock keeps every app process out while it is read. `found` is given the cluster's folder first,
 * under the lock, to refuse when there is no database in it.
 */
export function dumpPgliteDirectory(
  dataDir: string,
  found: (cluster: string) => void,
): Promise<Blob> {
  return underLock(dataDir, async (cluster) => {
    found(cluster);
    const pglite = await PGlite.create(cluster, { extensions: EXTENSIONS });
    try {
      return await pglite.dumpDataDir('gzip');
    } finally {
      await pglite.close();
    }
  });
}

/**
 * Makes the cluster under dataDir from a tarball that `dumpPgliteDirectory` wrote, holding the
 * directory's lock. `clear` runs first under the lock, to refuse or move aside a cluster there.
 */
export function loadPgliteDirectory(
  dataDir: string,
  tarball: Blob,
  clear: (cluster: string) => void,
): Promise<void> {
  return underLock(dataDir, async (cluster) => {
    clear(cluster);
    const pglite = await PGlite.create(cluster, { loadDataDir: tarball, extensions: EXTENSIONS });
    await pglite.close();
  });
}

/** An in-memory database prepared by `prepare`, saved whole so others open as copies of it. */
export async function pgliteImage(prepare: (db: Db) => Promise<void>): Promise<Blob> {
  const pglite = await PGlite.create({ extensions: EXTENSIONS });
  try {
    await prepare(dbOf(pglite, () => {}));
    return await pglite.dumpDataDir('none');
  } finally {
    await pglite.close();
  }
}
