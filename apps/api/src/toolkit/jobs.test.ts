import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { Db } from '../db/db.js';
import { openPostgres } from '../db/postgres.js';
import { prepareDatabase } from '../db/prepare.js';
import type { AppModule } from '../modules/module.js';
import { crashStorage, type CrashStorage } from '../test/crash-server.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { defineJob, enqueue, jobsOf, registerJobs } from './jobs.js';

/*
 * The jobs platform on pg-boss: a job runs, retries with back-off, ends failed with its error
 * after its limit, exists only if the transaction that enqueued it committed, and on PostgreSQL
 * runs once when two app servers work one queue.
 */

type JobRow = {
  state: string;
  retry_count: number;
  delay_seconds: number;
  output: { message?: string } | null;
};

const rowOf = async (db: Db, id: string) => {
  const [row] = await db.query<JobRow>(
    `SELECT state::text AS state, retry_count,
       extract(epoch FROM start_after - now())::float8 AS delay_seconds, output
     FROM pgboss.job WHERE id = $1`,
    [id],
  );
  return row!;
};

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still waiting: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets a job waiting for its retry's delay run now. */
const runRetryNow = (db: Db, id: string) =>
  db.query(`UPDATE pgboss.job SET start_after = now() - interval '1 second' WHERE id = $1`, [id]);

const runs: { id: string; attempt: number }[] = [];
/** How many runs of a flaky job fail before one succeeds, by its data's key. */
const flaky = defineJob({
  name: 'test.flaky',
  schema: z.object({ failures: z.int() }),
  retry: { limit: 3, delaySeconds: 1, backoff: true },
  async handler(data, { job }) {
    runs.push({ id: job.id, attempt: job.retryCount });
    if (job.retryCount < data.failures) throw new Error(`carrier down (run ${job.retryCount})`);
  },
});

const carrierDown = defineJob({
  name: 'test.carrier-down',
  schema: z.object({ parcel: z.string() }),
  retry: { limit: 1, delaySeconds: 0, backoff: false },
  async handler() {
    throw new Error('The carrier answered 503.');
  },
});

const labelBatch = defineJob({
  name: 'test.label-batch',
  schema: z.object({ batch: z.int() }),
  retry: { limit: 2, delaySeconds: 1, backoff: false },
  policy: 'short',
  async handler() {},
});

const testJobs: AppModule = {
  name: 'test-jobs',
  register: (context) => registerJobs(context, [flaky, carrierDown, labelBatch]),
};

describe('background jobs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ modules: [testJobs] });
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('run nothing in an app that does not listen until a test starts them', () => {
    expect(jobsOf(t.app)!.running).toBe(false);
    expect(jobsOf(t.app)!.names).toContain('web-order.expire-holds');
  });

  it('keeps a job only if the transaction that enqueued it commits', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await enqueue(tx, labelBatch, { batch: 1 });
        throw new Error('the batch was refused');
      }),
    ).rejects.toThrow('the batch was refused');
    const id = await t.db.transaction((tx) => enqueue(tx, labelBatch, { batch: 2 }));
    const kept = await t.db.query<{ data: { batch: number } }>(
      `SELECT data FROM pgboss.job WHERE name = 'test.label-batch'`,
    );
    expect(kept.map((row) => row.data.batch)).toEqual([2]);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('checks the data at enqueue and keeps one waiting job per singleton key', async () => {
    await expect(enqueue(t.db, labelBatch, { batch: 'x' as unknown as number })).rejects.toThrow();
    expect(await enqueue(t.db, labelBatch, { batch: 3 }, { singletonKey: 'b3' })).not.toBeNull();
    expect(await enqueue(t.db, labelBatch, { batch: 3 }, { singletonKey: 'b3' })).toBeNull();
  });

  it('runs a job, retrying it with a growing delay while it fails', async () => {
    await jobsOf(t.app)!.start({ pollingIntervalSeconds: 0.5 });
    const id = (await enqueue(t.db, flaky, { failures: 2 }))!;

    const first = await waitFor(
      () => rowOf(t.db, id),
      (row) => row.state === 'retry',
    );
    expect(first.output?.message).toBe('carrier down (run 0)');
    // Back-off: the first retry waits between 1 and 2 delays, the second between 2 and 4.
    expect(first.delay_seconds).toBeGreaterThan(0.5);
    expect(first.delay_seconds).toBeLessThanOrEqual(2);
    await runRetryNow(t.db, id);

    const second = await waitFor(
      () => rowOf(t.db, id),
      (row) => row.state === 'retry' && row.retry_count === 1,
    );
    expect(second.delay_seconds).toBeGreaterThan(1.5);
    expect(second.delay_seconds).toBeLessThanOrEqual(4);
    await runRetryNow(t.db, id);

    const done = await waitFor(
      () => rowOf(t.db, id),
      (row) => row.state === 'completed',
    );
    expect(done.retry_count).toBe(2);
    expect(runs.filter((run) => run.id === id).map((run) => run.attempt)).toEqual([0, 1, 2]);
  });

  it('ends a job failed after its retries, with the last error kept', async () => {
    const id = (await enqueue(t.db, carrierDown, { parcel: '1Z999' }))!;
    const failed = await waitFor(
      () => rowOf(t.db, id),
      (row) => row.state === 'failed',
    );
    expect(failed.retry_count).toBe(1);
    expect(failed.output?.message).toBe('The carrier answered 503.');
  });

  it('stops the workers when the app closes', async () => {
    const jobs = jobsOf(t.app)!;
    expect(jobs.running).toBe(true);
    await jobs.stop();
    expect(jobs.running).toBe(false);
  });
});

const counted = defineJob({
  name: 'test.counted',
  schema: z.object({ n: z.int() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  concurrency: 4,
  async handler(data, { db, job }) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    await db.query('INSERT INTO test_job_runs (job_id, n, server) VALUES ($1, $2, $3)', [
      job.id,
      data.n,
      (db as Db & { server?: string }).server,
    ]);
  },
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('two app servers on one PostgreSQL', () => {
  let storage: CrashStorage;
  const dbs: Db[] = [];

  beforeAll(async () => {
    storage = await crashStorage('', 'jobs');
    for (const server of ['a', 'b']) {
      const db = await openPostgres(storage.url!, 6);
      // The handler records which server ran it.
      dbs.push(Object.assign(db, { server }));
    }
    await prepareDatabase(dbs[0]!, { info: () => {} });
    await dbs[0]!.exec(
      'CREATE TABLE test_job_runs (job_id uuid NOT NULL, n int NOT NULL, server text NOT NULL)',
    );
  }, 120_000);
  afterAll(() => storage.drop());

  it('runs each job once', async () => {
    const config = { ...loadConfig({ LOG_LEVEL: 'silent' }), webDist: null };
    const module: AppModule = {
      name: 'counted',
      register: (context) => registerJobs(context, [counted]),
    };
    const apps = [];
    for (const db of dbs) apps.push(await buildApp(config, db, { modules: [module] }));
    try {
      for (const app of apps) await app.ready();
      const total = 40;
      await dbs[0]!.transaction(async (tx) => {
        for (let n = 0; n < total; n += 1) await enqueue(tx, counted, { n });
      });
      await Promise.all(apps.map((app) => jobsOf(app)!.start({ pollingIntervalSeconds: 0.5 })));
      await waitFor(
        async () =>
          (
            await dbs[0]!.query<{ done: number }>(
              `SELECT count(*)::int AS done FROM pgboss.job
               WHERE name = 'test.counted' AND state = 'completed'`,
            )
          )[0]!.done,
        (done) => done === total,
      );
      const ran = await dbs[0]!.query<{ jobs: number; runs: number; servers: number }>(
        `SELECT count(DISTINCT job_id)::int AS jobs, count(*)::int AS runs,
           count(DISTINCT server)::int AS servers FROM test_job_runs`,
      );
      expect(ran[0]).toEqual({ jobs: total, runs: total, servers: 2 });
    } finally {
      for (const app of apps) await app.close();
    }
  }, 60_000);
});
