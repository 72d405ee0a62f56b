import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/test-database.js';
import type { Db } from './db.js';
import { beforeCommit, DatabaseUnavailableError } from './db.js';
import { acquireDirectoryLock } from './directory-lock.js';
import { migrate } from './migrate.js';

describe('migrate', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openTestDatabase();
  });
  afterAll(() => db.close());

  it('applies each version once', async () => {
    const first = await migrate(db);
    expect(first).toContain('0001_access');
    expect(await migrate(db)).toEqual([]);
  });

  it('refuses a version numbered below one already applied', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'inventory-migrations-'));
    try {
      writeFileSync(join(directory, '0000_late_arrival.sql'), 'CREATE TABLE late_arrival (id int)');
      await expect(migrate(db, directory)).rejects.toThrow(
        /Migration 0000_late_arrival is older than \d{4}_/,
      );
      expect(await db.query("SELECT to_regclass('late_arrival') AS t")).toEqual([{ t: null }]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('rolls a failing statement back inside a transaction', async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO roles (name) VALUES ('temporary')");
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await db.query("SELECT 1 FROM roles WHERE name = 'temporary'")).toEqual([]);
  });

  it('runs the steps kept for the end once each, in order, right before the commit', async () => {
    const ran: string[] = [];
    const names = await db.transaction(async (tx) => {
      const kept = (name: string) =>
        beforeCommit(tx, 'roles to add', () => {
          const list: string[] = [];
          return {
            state: list,
            run: async () => {
              ran.push(`roles ${list.join(' ')}`);
              await tx.query('INSERT INTO roles (name) SELECT unnest($1::text[])', [list]);
            },
          };
        }).push(name);
      kept('kept one');
      beforeCommit(tx, 'second', () => ({ state: null, run: async () => ran.push('second') }));
      kept('kept two');
      expect(ran).toEqual([]);
      return (await tx.query("SELECT name FROM roles WHERE name LIKE 'kept %'")).length;
    });
    expect(names).toBe(0);
    expect(ran).toEqual(['roles kept one kept two', 'second']);
    expect(await db.query("SELECT name FROM roles WHERE name LIKE 'kept %' ORDER BY name")).toEqual(
      [{ name: 'kept one' }, { name: 'kept two' }],
    );
  });

  it('rolls the transaction back when a step kept for the end fails, and skips it on a rollback', async () => {
    let ran = false;
    await expect(
      db.transaction(async (tx) => {
        await tx.query("INSERT INTO roles (name) VALUES ('undone')");
        beforeCommit(tx, 'failing', () => ({
          state: null,
          run: () => Promise.reject(new Error('refused at the end')),
        }));
      }),
    ).rejects.toThrow('refused at the end');
    await expect(
      db.transaction(async (tx) => {
        beforeCommit(tx, 'skipped', () => ({ state: null, run: async () => (ran = true) }));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(ran).toBe(false);
    expect(await db.query("SELECT 1 FROM roles WHERE name = 'undone'")).toEqual([]);
  });
});

describe('the PGlite directory lock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inventory-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a second owner while the first runs', () => {
    const lock = join(dir, 'held.lock');
    // pid 1 always runs: it stands for another live process.
    writeFileSync(lock, '1');
    expect(() => acquireDirectoryLock(lock)).toThrow(DatabaseUnavailableError);
    expect(() => acquireDirectoryLock(lock)).toThrow(/in use by another process \(pid 1\)/);
  });

  it('takes over a lock left by a process that is gone', () => {
    const lock = join(dir, 'stale.lock');
    writeFileSync(lock, '999999999');
    const release = acquireDirectoryLock(lock);
    release();
  });
});
