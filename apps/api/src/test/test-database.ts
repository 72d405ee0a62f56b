import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import pg from 'pg';
import type { Db } from '../db/db.js';
import { openPglite } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';
import { prepareDatabase } from '../db/prepare.js';

/** Where `global-setup.ts` leaves the migrated and seeded database that test files copy. */
export const TEMPLATE_ENV = {
  pgliteImage: 'TEST_PGLITE_IMAGE',
  postgresTemplate: 'TEST_DATABASE_TEMPLATE',
} as const;

const quiet = { info: () => {} };

/** A database name of this run: the global teardown drops every one with this prefix. */
export const testDatabaseName = (suffix = randomBytes(4).toString('hex')) =>
  `${process.env.TEST_DATABASE_PREFIX ?? 'inventory_test_'}${suffix}`;

/**
 * A fresh database for one test file: PGlite in memory, or, when TEST_DATABASE_URL is set, a new
 * database on that PostgreSQL server that is dropped when the file closes it. `prepared` gives it
 * migrated and seeded, copied from the run's template when there is one (creating and migrating
 * each file's database from zero was most of a short test file's time).
 */
export async function openTestDatabase({ prepared = false } = {}): Promise<Db> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  const template = prepared ? process.env[TEMPLATE_ENV.postgresTemplate] : undefined;
  const image = prepared ? process.env[TEMPLATE_ENV.pgliteImage] : undefined;
  const db = adminUrl
    ? await openPostgresCopy(adminUrl, template)
    : await openPglite(null, { image: image ? await openAsBlob(image) : undefined });
  // Without a template this migrates and seeds; with one it confirms the copy is current.
  if (prepared) await prepareDatabase(db, quiet);
  return db;
}

async function openPostgresCopy(adminUrl: string, template: string | undefined): Promise<Db> {
  const name = testDatabaseName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
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
