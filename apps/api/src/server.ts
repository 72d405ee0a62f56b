import { buildApp } from './app.js';
import { loadConfig, type AppConfig } from './config.js';
import type { Db } from './db/db.js';
import { openDatabase, openReadReplica } from './db/open.js';
import { firstLoginHint, prepareDatabase } from './db/prepare.js';

/** Bad configuration or an unreachable database ends the process with one line, not a stack. */
function fail(message: string): never {
  process.stderr.write(`inventory: ${message}\n`);
  process.exit(1);
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

function listenError(error: unknown, config: AppConfig): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return `port ${config.port} is already in use (set PORT to another port)`;
  if (code === 'EACCES') return `no permission to listen on port ${config.port}`;
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return `cannot listen on host ${config.host}`;
  return `cannot listen on ${config.host}:${config.port}: ${reason(error)}`;
}

async function main() {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    fail(`configuration error: ${reason(error)}`);
  }

  let db: Db;
  let replica: Db | null;
  try {
    db = await openDatabase(config.database);
    replica = await openReadReplica(config.database);
  } catch (error) {
    fail(`database error: ${reason(error)}`);
  }

  const app = await buildApp(config, db, replica ? { replica } : {});
  try {
    const { firstAdminCreated } = await prepareDatabase(db, app.log);
    await app.listen({ port: config.port, host: config.host });
    const port = (app.server.address() as { port: number } | null)?.port ?? config.port;
    const url = `http://localhost:${port}/`;
    app.log.info(
      { database: db.kind, url, apiReference: `${url}api/docs` },
      'inventory back office is running',
    );
    if (firstAdminCreated) process.stdout.write(`\n${firstLoginHint(url)}\n\n`);
  } catch (error) {
    await app.close().catch(() => {});
    const code = (error as NodeJS.ErrnoException).code;
    fail(code ? listenError(error, config) : `start failed: ${reason(error)}`);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing open requests');
    setTimeout(() => fail('shutdown took longer than 10 s; stopped'), 10_000).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => fail(`shutdown failed: ${reason(error)}`),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

await main();
