import type { DatabaseConfig } from '../config.js';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Opens the database the configuration names. */
export function openDatabase(config: DatabaseConfig): Promise<Db> {
  return config.kind === 'postgres' ? openPostgres(config.url) : openPglite(config.dataDir);
}
