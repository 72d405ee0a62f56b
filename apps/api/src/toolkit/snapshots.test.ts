import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../db/db.js';
import type { Principal } from '../http/principal.js';
import { createTestApp, createUser, type TestApp } from '../test/test-app.js';
import { createSnapshots, snapshotsOf, type SnapshotDefinition } from './snapshots.js';

/**
 * The snapshot toolkit on either database: figures read once however many ask at once, the
 * refresher reading only what is older than its max age, and its timer living exactly as long as
 * the listening server.
 */

let t: TestApp;
let asker: Principal;
beforeAll(async () => {
  t = await createTestApp();
  asker = {
    userId: await createUser(t.db, { userName: 'asker', password: 'asker-pass-1' }),
  } as Principal;
});
afterAll(() => t.close());

/** A snapshot counting its reads, each taking `ms` (so that two refreshes overlap). */
function countedSnapshot(name: string, ms = 0) {
  const counter = { reads: 0 };
  const definition: SnapshotDefinition<{ users: number }> = {
    name,
    maxAgeMs: 60_000,
    async compute(db: Queryable) {
      counter.reads++;
      const [row] = await db.query<{ users: number }>('SELECT count(*)::int AS users FROM users');
      await sleep(ms);
      return { users: row!.users };
    },
  };
  return { counter, definition };
}

type Answer = { as_of: string; figures: unknown; refreshed?: boolean };
const parsed = (answer: { json: string }) => JSON.parse(answer.json) as Answer;

describe('a snapshot', () => {
  it('is read on its first read, then kept until it is refreshed', async () => {
    const { counter, definition } = countedSnapshot('first-read');
    const snapshot = createSnapshots(t.db, t.app.log).register(definition);
    const first = parsed(await snapshot.read());
    const again = parsed(await snapshot.read());
    expect(counter.reads).toBe(1);
    expect(again.as_of).toBe(first.as_of);
    const refreshed = parsed(await snapshot.refresh(asker));
    expect(counter.reads).toBe(2);
    expect(refreshed.refreshed).toBe(true);
    expect(refreshed.as_of > first.as_of).toBe(true);
  });

  it('asked for twice at once in one server, is read once and both get its figures', async () => {
    const { counter, definition } = countedSnapshot('twice-at-once', 100);
    const snapshot = createSnapshots(t.db, t.app.log).register(definition);
    const answers = (await Promise.all([snapshot.refresh(asker), snapshot.refresh(asker)])).map(
      parsed,
    );
    expect(counter.reads).toBe(1);
    expect(answers.map((answer) => answer.refreshed).sort()).toEqual([false, true]);
    expect(answers[0]!.as_of).toBe(answers[1]!.as_of);
  });

  it('is read again by the refresher only once it is older than its max age', async () => {
    const { counter, definition } = countedSnapshot('stale');
    const snapshots = createSnapshots(t.db, t.app.log);
    snapshots.register(definition);
    await snapshots.refreshStale();
    await snapshots.refreshStale();
    expect(counter.reads).toBe(1);
    await t.db.query(
      `UPDATE snapshots SET as_of = as_of - interval '61 seconds' WHERE name = 'stale'`,
    );
    await snapshots.refreshStale();
    expect(counter.reads).toBe(2);
  });

  it('holds no lock that a write of the tables it reads waits for', async () => {
    await t.db.exec(
      'CREATE TABLE snapshot_test_scans (n int); INSERT INTO snapshot_test_scans VALUES (0)',
    );
    const definition: SnapshotDefinition<{ scans: number }> = {
      name: 'while-scanning',
      maxAgeMs: 60_000,
      async compute(db) {
        const [before] = await db.query<{ n: number }>('SELECT n FROM snapshot_test_scans');
        // A station's write of the same table, on another connection, finishes meanwhile.
        await t.db.query('INSERT INTO snapshot_test_scans VALUES (1)');
        await t.db.query('UPDATE snapshot_test_scans SET n = n + 1');
        return { scans: before!.n };
      },
    };
    const snapshot = createSnapshots(t.db, t.app.log).register(definition);
    expect(parsed(await snapshot.refresh(asker)).figures).toEqual({ scans: 0 });
  });
});

describe('the refresher', () => {
  it('runs while the server listens and stops when it closes', async () => {
    const served = await createTestApp();
    const snapshots = snapshotsOf(served.app)!;
    expect(snapshots.running).toBe(false);
    await served.app.listen({ port: 0, host: '127.0.0.1' });
    expect(snapshots.running).toBe(true);
    await expect
      .poll(async () => (await served.db.query('SELECT name FROM snapshots')).length)
      .toBeGreaterThan(0);
    await served.close();
    expect(snapshots.running).toBe(false);
  });

  it('never starts in an app that does not listen', () => {
    expect(snapshotsOf(t.app)!.running).toBe(false);
  });
});
