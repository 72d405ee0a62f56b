import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Prefix of the databases this run creates on TEST_DATABASE_URL; all are dropped at the end. */
export default async function setup() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return undefined;
  const prefix = `inventory_test_${randomBytes(4).toString('hex')}_`;
  process.env.TEST_DATABASE_PREFIX = prefix;
  return async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE datname LIKE $1',
        [`${prefix}%`],
      );
      for (const { datname } of rows) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    } finally {
      await client.end();
    }
  };
}
