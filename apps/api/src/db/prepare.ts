import type { FastifyBaseLogger } from 'fastify';
import { FIRST_ADMIN, seedAccess } from '../modules/access/access.seed.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';

/** Migrates and seeds; on an empty database creates the first administrator and says so. */
export async function prepareDatabase(
  db: Db,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<{ firstAdminCreated: boolean }> {
  const applied = await migrate(db);
  if (applied.length > 0) log.info({ migrations: applied }, 'database migrated');
  const firstAdminCreated = await seedAccess(db);
  // PGlite has no autovacuum: without statistics its planner sorts whole tables instead of using
  // indexes. A PostgreSQL server keeps its own statistics.
  if (db.kind === 'pglite') await db.exec('ANALYZE');
  return { firstAdminCreated };
}

export const firstLoginHint = (url: string) =>
  `First start: open ${url} and sign in as ${FIRST_ADMIN.userName} / ${FIRST_ADMIN.password}; ` +
  'you will be asked to set a new password.';
