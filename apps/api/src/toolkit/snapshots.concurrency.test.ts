import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../http/principal.js';
import { createTestApp, createUser, type TestApp } from '../test/test-app.js';
import { createSnapshots, type SnapshotDefinition, type Snapshots } from './snapshots.js';

/**
 * Two app servers on one PostgreSQL (TEST_DATABASE_URL) refreshing the same snapshot at the same
 * moment: each server's snapshots are its own, so only the advisory lock keeps them from both
 * reading the figures. PGlite is owned by one process, where one server's own single flight is
 * the whole story (snapshots.test.ts).
 */

let t: TestApp;
let asker: Principal;

/** Two servers' snapshots of one definition whose reads are counted and take a while. */
function twoServers(name: string) {
  const counter = { reads: 0 };
  const definition: SnapshotDefinition<{ read: number }> = {
    name,
    maxAgeMs: 60_000,
    async compute(db) {
      const read = ++counter.reads;
      await db.query('SELECT count(*) FROM users');
      await sleep(300);
      return { read };
    },
  };
  const servers: Snapshots[] = [createSnapshots(t.db, t.app.log), createSnapshots(t.db, t.app.log)];
  const handles = servers.map((server) => server.register(definition));
  return { counter, servers, handles };
}

const parsed = (answer: { json: string }) =>
  JSON.parse(answer.json) as { as_of: string; figures: { read: number }; refreshed: boolean };

describe.runIf(process.env.TEST_DATABASE_URL)('two servers refreshing at once', () => {
  beforeAll(async () => {
    t = await createTestApp();
    asker = {
      userId: await createUser(t.db, { userName: 'asker', password: 'asker-pass-1' }),
    } as Principal;
  });
  afterAll(() => t.close());

  it('asked for on both: read once, and both answer those figures', async () => {
    const { counter, handles } = twoServers('asked-twice');
    const answers = (await Promise.all(handles.map((handle) => handle.refresh(asker)))).map(parsed);
    expect(counter.reads).toBe(1);
    expect(answers.map((answer) => answer.refreshed).sort()).toEqual([false, true]);
    expect(answers[0]!.as_of).toBe(answers[1]!.as_of);
    expect(answers.map((answer) => answer.figures.read)).toEqual([1, 1]);
  });

  it('both refreshers finding the figures stale: read once', async () => {
    const { counter, servers } = twoServers('stale-twice');
    await Promise.all(servers.map((server) => server.refreshStale()));
    expect(counter.reads).toBe(1);
    // And again once they are old, by whichever server gets there first.
    await t.db.query(
      "UPDATE snapshots SET as_of = as_of - interval '2 minutes' WHERE name = 'stale-twice'",
    );
    await Promise.all(servers.map((server) => server.refreshStale()));
    expect(counter.reads).toBe(2);
  });

  it('asked for while the other server’s refresher reads: waits for it and answers its figures', async () => {
    const { counter, servers, handles } = twoServers('asked-while-stale');
    const background = servers[0]!.refreshStale();
    await sleep(100);
    const answer = parsed(await handles[1]!.refresh(asker));
    await background;
    expect(counter.reads).toBe(1);
    expect(answer).toMatchObject({ refreshed: false, figures: { read: 1 } });
  });
});
