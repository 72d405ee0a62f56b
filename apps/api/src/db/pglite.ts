import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable, Row } from './db.js';
import { acquireDirectoryLock } from './directory-lock.js';

const queryableOf = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
  async query<T extends Row>(sql: string, params?: readonly unknown[]) {
    const result = await target.query<T>(sql, params ? [...params] : undefined);
    return result.rows;
  },
  async exec(sql) {
    await target.exec(sql);
  },
});

/**
 * Opens PGlite on disk under dataDir (locked against a second process), or in memory when dataDir
 * is null (tests). PGlite runs one statement at a time, so its transactions are serialised.
 */
export async function openPglite(dataDir: string | null): Promise<Db> {
  let release = () => {};
  let pglite: PGlite;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    release = acquireDirectoryLock(join(dataDir, 'pglite.lock'));
    try {
      pglite = await PGlite.create(join(dataDir, 'pglite'));
    } catch (error) {
      release();
      throw error;
    }
  } else {
    pglite = await PGlite.create();
  }
  return {
    kind: 'pglite',
    ...queryableOf(pglite),
    transaction: (fn) => pglite.transaction((tx) => fn(queryableOf(tx))),
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
  };
}
