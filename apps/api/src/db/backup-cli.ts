import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { backupDatabase, BackupError } from './backup.js';

/**
 * npm run db:backup [-- --out FILE]: a consistent copy of the configured database (DATABASE_URL:
 * pg_dump's custom format, taken while the app runs; DATA_DIR: the embedded database, with the app
 * stopped) written to FILE, by default inventory-<time>.dump or .tar.gz in the current folder.
 */
const { values } = parseArgs({ options: { out: { type: 'string' } } });
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file =
  values.out ?? `inventory-${stamp}.${config.database.kind === 'postgres' ? 'dump' : 'tar.gz'}`;
try {
  const { kind, bytes } = await backupDatabase(config.database, file);
  process.stdout.write(`Backed up the ${kind} database to ${file} (${bytes} bytes).\n`);
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  process.stderr.write(`db:backup: ${error.message}\n`);
  process.exitCode = 1;
}
