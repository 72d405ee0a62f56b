import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { generateDatabase } from './generate.js';
import { openDatabase } from './open.js';
import { prepareDatabase } from './prepare.js';

/**
 * npm run db:generate -- --devices 1000000 [--invoices 10000] [--seed 1] [--anchor 2026-11-01]
 * [--orders N (default: one per device)] [--retailers 200] [--sims N (default: two per device)]
 * [--agents 500] [--rmas N (default: 3 in 100 delivered devices)]: migrates and seeds the configured
 * database (DATA_DIR or DATABASE_URL), then fills it with generated data (generate.ts). The database must hold no devices or invoices yet.
 */
const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '1000000' },
    invoices: { type: 'string' },
    seed: { type: 'string', default: '1' },
    anchor: { type: 'string' },
    orders: { type: 'string' },
    retailers: { type: 'string' },
    sims: { type: 'string' },
    agents: { type: 'string' },
    rmas: { type: 'string' },
  },
});
const config = loadConfig();
const db = await openDatabase(config.database);
try {
  await prepareDatabase(db, { info: () => {} } as never);
  process.stdout.write(
    `Generating ${Number(values.devices).toLocaleString('en-US')} devices into ${db.kind} ...\n`,
  );
  // One transaction: a failure leaves the database as it was.
  const summary = await db.transaction((tx) =>
    generateDatabase(tx, {
      devices: Number(values.devices),
      ...(values.invoices !== undefined && { invoices: Number(values.invoices) }),
      seed: Number(values.seed),
      ...(values.anchor !== undefined && { anchor: new Date(values.anchor) }),
      ...(values.orders !== undefined && { orders: Number(values.orders) }),
      ...(values.retailers !== undefined && { retailers: Number(values.retailers) }),
      ...(values.sims !== undefined && { sims: Number(values.sims) }),
      ...(values.agents !== undefined && { agents: Number(values.agents) }),
      ...(values.rmas !== undefined && { rmas: Number(values.rmas) }),
      progress: (step, seconds) => process.stdout.write(`  ${step}: ${seconds.toFixed(1)} s\n`),
    }),
  );
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
} catch (error) {
  process.stderr.write(`db:generate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
