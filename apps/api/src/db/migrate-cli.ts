import { loadConfig } from '../config.js';
import { openDatabase } from './open.js';
import { prepareDatabase } from './prepare.js';

/** Migrates and seeds the configured database without starting the server (deploy step). */
const config = loadConfig();
const db = await openDatabase(config.database);
try {
  const { firstAdminCreated } = await prepareDatabase(db, {
    info: (details: unknown, message?: string) =>
      process.stdout.write(`${message ?? ''} ${JSON.stringify(details)}\n`),
  } as never);
  process.stdout.write(
    `Database ready (${db.kind})${firstAdminCreated ? '; first administrator admin / admin created' : ''}.\n`,
  );
} finally {
  await db.close();
}
