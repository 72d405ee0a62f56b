import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openAsBlob, readdirSync, renameSync, statSync } from 'node:fs';
import { open, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { DatabaseUnavailableError } from './db.js';
import { dumpPgliteDirectory, loadPgliteDirectory } from './pglite.js';

const run = promisify(execFile);

/** A backup or restore refused for a reason the operator can act on; the CLI prints it. */
export class BackupError extends Error {}

/** What a backup file holds, told by its first bytes. */
type BackupKind = 'postgres' | 'pglite';

const KIND_WORDS: Record<BackupKind, string> = {
  postgres: 'a PostgreSQL server',
  pglite: 'an embedded database',
};

/** pg_dump's custom format starts with "PGDMP"; PGlite's data directory is a gzipped tarball. */
async function kindOfFile(file: string): Promise<BackupKind | null> {
  const handle = await open(file, 'r').catch(() => {
    throw new BackupError(`no backup file at ${file}`);
  });
  try {
    const { buffer } = await handle.read(Buffer.alloc(5), 0, 5, 0);
    if (buffer.toString('latin1') === 'PGDMP') return 'postgres';
    if (buffer[0] === 0x1f && buffer[1] === 0x8b) return 'pglite';
    return null;
  } finally {
    await handle.close();
  }
}

/** The last line a client tool printed on failure, which says why. */
const toolMessage = (error: unknown) => {
  const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
  return stderr.split('\n').at(-1) || (error instanceof Error ? error.message : String(error));
};

/**
 * The database's URL for a client tool's arguments, with its password moved to the tool's
 * environment: arguments are in every user's process list, a process's environment is not.
 */
export function clientToolTarget(url: string): { url: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = parsed.password
    ? decodeURIComponent(parsed.password)
    : parsed.searchParams.get('password');
  if (password === null) return { url, env: process.env };
  parsed.password = '';
  parsed.searchParams.delete('password');
  return { url: parsed.toString(), env: { ...process.env, PGPASSWORD: password } };
}

const holdsCluster = (cluster: string) => existsSync(cluster) && readdirSync(cluster).length > 0;

/** The lock's refusal while an app process has the embedded database open, with what to do. */
const whileRunning = (what: string) => (error: unknown) => {
  if (error instanceof DatabaseUnavailableError) {
    throw new BackupError(`${error.message}; stop the app to ${what}`);
  }
  throw error;
};

/**
 * Writes a consistent copy of the database to `file`. On a server, pg_dump's custom format, taken
 * in one snapshot while the app keeps working. Embedded, PGlite's data directory as a gzipped
 * tarball: the directory's lock makes sure no app process is writing while it is copied.
 */
export async function backupDatabase(
  config: DatabaseConfig,
  file: string,
): Promise<{ kind: BackupKind; bytes: number }> {
  if (config.kind === 'postgres') {
    try {
      const target = clientToolTarget(config.url);
      await run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, target.url], {
        env: target.env,
      });
    } catch (error) {
      throw new BackupError(`pg_dump failed: ${toolMessage(error)}`);
    }
    return { kind: 'postgres', bytes: statSync(file).size };
  }
  const { dataDir } = config;
  if (!dataDir) throw new BackupError('an embedded database in memory has no backup');
  const tarball = await dumpPgliteDirectory(dataDir, (cluster) => {
    if (!holdsCluster(cluster)) throw new BackupError(`no embedded database in ${dataDir}`);
  }).catch(whileRunning('back it up'));
  await writeFile(file, Buffer.from(await tarball.arrayBuffer()));
  return { kind: 'pglite', bytes: statSync(file).size };
}

/**
 * pg_restore writes the backup as SQL and psql runs it in one transaction, after dropping the
 * schemas holding tables when the database is replaced: a failure anywhere leaves the database as
 * it was, and no table newer than the backup is left behind to trip the next migration.
 */
async function restoreIntoServer(url: string, file: string, drop: string[]): Promise<void> {
  const dropping = drop
    .map((schema) => `DROP SCHEMA "${schema.replaceAll('"', '""')}" CASCADE;`)
    .join(' ');
  const reader = spawn('pg_restore', ['--no-owner', '--file=-', file], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const target = clientToolTarget(url);
  const writer = spawn(
    'psql',
    [
      '--quiet',
      '--no-psqlrc',
      '--single-transaction',
      '--set=ON_ERROR_STOP=1',
      ...(drop.length > 0 ? [`--command=${dropping} CREATE SCHEMA IF NOT EXISTS public;`] : []),
      '--file=-',
      target.url,
    ],
    { stdio: ['pipe', 'ignore', 'pipe'], env: target.env },
  );
  reader.stdout.pipe(writer.stdin);
  // Should psql stop early, the pipe breaks; psql's own exit says why.
  writer.stdin.on('error', () => {});
  const finished = (child: ChildProcess, name: string) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise<void>((resolve, reject) => {
      child.on('error', (error) => reject(new BackupError(`${name} failed: ${error.message}`)));
      child.on('close', (code) =>
        code === 0
          ? resolve()
          : reject(new BackupError(`${name} failed: ${toolMessage({ stderr })}`)),
      );
    });
  };
  await Promise.all([finished(reader, 'pg_restore'), finished(writer, 'psql')]);
}

/** The schemas of the server's database that hold tables (ours: public, pg-boss's pgboss). */
async function schemasWithTables(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((error: unknown) => {
    throw new BackupError(`cannot reach the database: ${toolMessage(error)}`);
  });
  try {
    const { rows } = await client.query<{ schemaname: string }>(
      `SELECT DISTINCT schemaname FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY schemaname`,
    );
    return rows.map((row) => row.schemaname);
  } finally {
    await client.end();
  }
}

/**
 * Restores a backup that `backupDatabase` wrote, into the configured database. A database that
 * already holds data is replaced only when asked (`replace`): on a server its objects are dropped
 * and restored in one transaction; embedded, the old directory is kept beside the new one, renamed
 * with the time, so nothing is lost by a restore made in error.
 */
export async function restoreDatabase(
  config: DatabaseConfig,
  file: string,
  { replace = false } = {},
): Promise<{ kind: BackupKind; replaced: string | null }> {
  const kind = await kindOfFile(file);
  if (kind === null) throw new BackupError(`${file} is not a backup that db:backup wrote`);
  if (kind !== config.kind) {
    throw new BackupError(
      `${file} is a backup of ${KIND_WORDS[kind]}; it cannot be restored into ${KIND_WORDS[config.kind]}`,
    );
  }
  if (config.kind === 'postgres') {
    const schemas = await schemasWithTables(config.url);
    if (schemas.length > 0 && !replace) {
      throw new BackupError('the database already holds tables; add --replace to replace them');
    }
    await restoreIntoServer(config.url, file, schemas);
    return { kind, replaced: schemas.length > 0 ? config.url : null };
  }
  const { dataDir } = config;
  if (!dataDir) throw new BackupError('an embedded database in memory cannot be restored');
  let replaced: string | null = null;
  const tarball = await openAsBlob(file, { type: 'application/gzip' });
  await loadPgliteDirectory(dataDir, tarball, (cluster) => {
    if (!holdsCluster(cluster)) return;
    if (!replace) {
      throw new BackupError(`${dataDir} already holds a database; add --replace to replace it`);
    }
    replaced = `${cluster}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(cluster, replaced);
  }).catch(whileRunning('restore'));
  return { kind, replaced };
}
