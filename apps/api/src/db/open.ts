import type { DatabaseConfig } from '../config.js';
import type { Db } from './db.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/** Opens the database the configuration names. */
export function openDatabase(config: DatabaseConfig): Promise<Db> {
  return config.kind === 'postgres' ? openPostgres(config.url) : openPglite(config.dataDir);
}

/** Opens the read replica the configuration names, read-only; null when it names none. */
export function openReadReplica(config: DatabaseConfig): Promise<Db> | null {
  return config.kind === 'postgres' && config.readUrl
    ? openPostgres(config.readUrl, 10, { readOnly: true })
    : null;
}
