import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pgliteImage } from '../db/pglite.js';
import { openPostgres } from '../db/postgres.js';
import { prepareDatabase } from '../db/prepare.js';
import { TEMPLATE_ENV, testDatabaseName } from './test-database.js';

const quiet = { info: () => {} };

/**
 * Migrates and seeds one database for the whole run, which each test file then copies: a PGlite
 * image in a temporary file, or a template database on TEST_DATABASE_URL. Every database the run
 * creates there carries one prefix and is dropped at the end.
 */
export default async function setup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const directory = await mkdtemp(join(tmpdir(), 'inventory-test-image-'));
    const imagePath = join(directory, 'migrated.tar');
    const image = await pgliteImage((db) => prepareDatabase(db, quiet).then(() => undefined));
    await writeFile(imagePath, Buffer.from(await image.arrayBuffer()));
    process.env[TEMPLATE_ENV.pgliteImage] = imagePath;
    return () => rm(directory, { recursive: true, force: true });
  }
  const prefix = `inventory_test_${randomBytes(4).toString('hex')}_`;
  process.env.TEST_DATABASE_PREFIX = prefix;
  const template = testDatabaseName('template');
  // Made ready first: a template whose migration fails is dropped too, not left behind.
  const dropRunDatabases = () =>
    withAdmin(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    });
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE "${template}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${template}`;
  try {
    const db = await openPostgres(url.toString(), 1);
    try {
      await prepareDatabase(db, quiet);
    } finally {
      await db.close();
    }
  } catch (error) {
    await dropRunDatabases();
    throw error;
  }
  process.env[TEMPLATE_ENV.postgresTemplate] = template;
  return dropRunDatabases;
}

async function withAdmin(adminUrl: string, work: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}
