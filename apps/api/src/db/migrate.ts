import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { API_ROOT } from '../config.js';
import type { Db } from './db.js';

export const MIGRATIONS_DIR = resolve(API_ROOT, 'migrations');

/** Any fixed number: app servers starting together on one PostgreSQL migrate one at a time. */
const MIGRATION_LOCK_KEY = 7_261_354;

/**
 * Applies the versioned SQL files of migrations/ that are not applied yet, in name order, each in
 * its own transaction. Returns the versions it applied. A file numbered below a version already
 * applied is refused: applied late, it would leave this database's schema unlike one migrated
 * from empty.
 */
export async function migrate(db: Db, directory = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const files = readdirSync(directory)
    .filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name))
    .sort();
  const applied: string[] = [];
  for (const file of files) {
    const version = file.replace(/\.sql$/, '');
    const done = await db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const existing = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
        version,
      ]);
      if (existing.length > 0) return false;
      const [newest] = await tx.query<{ version: string }>(
        'SELECT max(version) AS version FROM schema_migrations',
      );
      if (newest?.version && newest.version > version) {
        throw new Error(
          `Migration ${version} is older than ${newest.version}, which this database has applied: ` +
            'give it a number after the newest.',
        );
      }
      await tx.exec(readFileSync(resolve(directory, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (done) applied.push(version);
  }
  return applied;
}
