import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../db/db.js';
import { openPglite } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';

/**
 * A fresh database for one test file: PGlite in memory, or, when TEST_DATABASE_URL is set, a new
 * database on that PostgreSQL server that is dropped when the file closes it.
 */
export async function openTestDatabase(): Promise<Db> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return openPglite(null);
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'inventory_test_'}${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openPostgres(url.toString(), 20);
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
