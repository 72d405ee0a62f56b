import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { BackupError, restoreDatabase } from './backup.js';

/**
 * npm run db:restore -- --from FILE [--replace]: restores a backup that db:backup wrote into the
 * configured database (DATABASE_URL or DATA_DIR), with every app process stopped. A database that
 * holds data is replaced only with --replace; the next start migrates the restored database.
 */
const { values } = parseArgs({
  options: { from: { type: 'string' }, replace: { type: 'boolean', default: false } },
});
try {
  if (!values.from) throw new BackupError('name the backup file: --from FILE');
  const { kind, replaced } = await restoreDatabase(loadConfig().database, values.from, {
    replace: values.replace,
  });
  process.stdout.write(
    `Restored ${values.from} into the ${kind} database` +
      (replaced && kind === 'pglite' ? `; the replaced one is kept at ${replaced}` : '') +
      '.\n',
  );
} catch (error) {
  if (!(error instanceof BackupError)) throw error;
  process.stderr.write(`db:restore: ${error.message}\n`);
  process.exitCode = 1;
}
