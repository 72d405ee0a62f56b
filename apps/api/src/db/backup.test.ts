import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.js';
import { crashStorage, type CrashStorage } from '../test/crash-server.js';
import { backupDatabase, BackupError, clientToolTarget, restoreDatabase } from './backup.js';
import { openDatabase } from './open.js';
import { prepareDatabase } from './prepare.js';

/**
 * db:backup and db:restore: a backup of a working database restores into an empty one with its
 * data; a database holding data is replaced only when asked, and nothing is lost by the ask. On the
 * embedded database by default, on PostgreSQL (pg_dump, psql) when TEST_DATABASE_URL is set.
 */

const folder = mkdtempSync(join(tmpdir(), 'inventory-backup-'));
const storages: CrashStorage[] = [];
const quiet = { info: () => {} };

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  for (const storage of storages) await storage.drop();
});

async function databaseConfig(label: string): Promise<DatabaseConfig> {
  const dataDir = join(folder, label);
  const storage = await crashStorage(dataDir, label);
  storages.push(storage);
  return storage.url ? { kind: 'postgres', url: storage.url } : { kind: 'pglite', dataDir };
}

/** Opens the database as the app does, does `fn` and closes it. */
async function withDatabase<T>(
  config: DatabaseConfig,
  fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<T>,
) {
  const db = await openDatabase(config);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

const colours = (config: DatabaseConfig) =>
  withDatabase(config, async (db) => {
    // The next start migrates: the restored database is current already.
    await prepareDatabase(db, quiet);
    const rows = await db.query<{ name: string }>('SELECT name FROM colors ORDER BY name');
    return rows.map((row) => row.name);
  });

describe('db:backup and db:restore', () => {
  it('restore a backup into an empty database, and replace one only when asked', async () => {
    const source = await databaseConfig('source');
    const target = await databaseConfig('target');
    const backup = join(folder, 'inventory.backup');

    const open = await openDatabase(source);
    await prepareDatabase(open, quiet);
    await open.query('INSERT INTO colors (name) VALUES ($1)', ['Backed-up blue']);
    if (source.kind === 'pglite') {
      await open.close();
      // The embedded database has one process: an app running on it keeps the backup out.
      const app = spawn('sleep', ['60']);
      const lock = join(source.dataDir!, 'pglite.lock');
      writeFileSync(lock, String(app.pid));
      await expect(backupDatabase(source, backup)).rejects.toThrow(
        `the data directory is in use by another process (pid ${app.pid}): ${lock}; stop the app to back it up`,
      );
      app.kill();
      rmSync(lock);
    }
    const written = await backupDatabase(source, backup);
    expect(written).toEqual({ kind: source.kind, bytes: expect.any(Number) });
    // On a server pg_dump reads one snapshot while the app works on.
    if (source.kind === 'postgres') await open.close();

    expect(await restoreDatabase(target, backup)).toEqual({ kind: target.kind, replaced: null });
    expect(await colours(target)).toContain('Backed-up blue');

    await withDatabase(target, (db) =>
      db.query('INSERT INTO colors (name) VALUES ($1)', ['Only in the target']),
    );
    await expect(restoreDatabase(target, backup)).rejects.toThrow(/add --replace to replace/);
    expect(await colours(target)).toContain('Only in the target');

    const { replaced } = await restoreDatabase(target, backup, { replace: true });
    const restored = await colours(target);
    expect(restored).toContain('Backed-up blue');
    expect(restored).not.toContain('Only in the target');
    if (target.kind === 'pglite') {
      // The replaced cluster is kept beside the new one.
      expect(readdirSync(join(folder, 'target'))).toContain(replaced!.split('/').at(-1));
    }
  });

  it('refuses a file that is not a backup of this kind of database, saying why', async () => {
    const target = await databaseConfig('wrong');
    const notBackup = join(folder, 'notes.txt');
    writeFileSync(notBackup, 'not a backup');
    await expect(restoreDatabase(target, notBackup)).rejects.toThrow(
      new BackupError(`${notBackup} is not a backup that db:backup wrote`),
    );
    const otherKind = join(folder, 'other.backup');
    writeFileSync(
      otherKind,
      target.kind === 'postgres' ? Buffer.from([0x1f, 0x8b, 8, 0, 0]) : 'PGDMP',
    );
    await expect(restoreDatabase(target, otherKind)).rejects.toThrow(/it cannot be restored into/);
    await expect(restoreDatabase(target, join(folder, 'missing.backup'))).rejects.toThrow(
      /no backup file at/,
    );
  });

  it('gives pg_dump and psql the password in their environment, never in their arguments', () => {
    const inUrl = clientToolTarget('postgres://keeper:p%40ss%2Fword@db.internal:5432/inventory');
    expect(inUrl.url).toBe('postgres://keeper@db.internal:5432/inventory');
    expect(inUrl.env.PGPASSWORD).toBe('p@ss/word');
    const inQuery = clientToolTarget(
      'postgres://db.internal/inventory?password=secret&sslmode=require',
    );
    expect(inQuery.url).toBe('postgres://db.internal/inventory?sslmode=require');
    expect(inQuery.env.PGPASSWORD).toBe('secret');
    const none = clientToolTarget('postgres://postgres@127.0.0.1:5432/inventory');
    expect(none.url).toBe('postgres://postgres@127.0.0.1:5432/inventory');
    expect(none.env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });
});
