import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import PgBoss from 'pg-boss';
import { parse, type $ZodType } from 'zod/v4/core';
import type { Db, Queryable } from '../db/db.js';
import type { ModuleContext } from '../modules/module.js';

/*
 * Background jobs (label batches, carrier calls, tracking polls, ageing alerts, sweeps) on pg-boss
 * 10, kept in PostgreSQL (schema `pgboss`, migration 0053) over our own data layer on PGlite and
 * on a server alike: pg-boss gets an `executeSql` over `db.ts`, never a pool of its own.
 *
 * - A job is declared once with `defineJob` and registered by its module with `registerJobs`;
 *   the app creates its queue when it is ready.
 * - `enqueue(q, job, data)` writes the job with the statements of `q`: given the caller's
 *   transaction, the job exists only if that transaction commits (pg-boss's `send` takes a `db`).
 * - Workers start when the server listens and stop before it closes its database, so a test's app
 *   (never listening) runs none unless the test calls `jobsOf(app).start()`.
 * - Several app servers on one PostgreSQL: a worker takes a job with FOR UPDATE SKIP LOCKED, so
 *   each run of a job is taken by one server. A server that dies while a job runs leaves it
 *   `active` until its `expireInSeconds` passes; the maintenance of any server then fails it,
 *   and it is retried while it has retries left. Handlers must therefore be safe to run again.
 * - PGlite: one process owns the database, so a job still `active` when the workers start was
 *   left by a process that was killed: it is failed at once (and retried by its policy).
 */

export type JobPolicy = 'standard' | 'short' | 'singleton' | 'stately';

export type JobRetry = {
  /** Runs after the first that a failing job gets before it ends `failed`. */
  readonly limit: number;
  /** Seconds before a retry; with back-off, the first delay of a doubling one (with jitter). */
  readonly delaySeconds: number;
  readonly backoff: boolean;
};

export type JobContext = {
  readonly db: Db;
  readonly log: FastifyBaseLogger;
  /** The run: the job's id and how many runs failed before this one. */
  readonly job: { readonly id: string; readonly name: string; readonly retryCount: number };
};

export type JobDefinition<Data> = {
  /** The queue's name: lowercase words joined by dots or hyphens (`label.print-batch`). */
  readonly name: string;
  /** Checks the data at enqueue and again before each run. */
  readonly schema: $ZodType<Data>;
  readonly retry: JobRetry;
  /**
   * What a `singletonKey` means (pg-boss's queue policies): `standard` ignores it, `short` keeps
   * one waiting job per key (another enqueue is skipped), `singleton` runs one per key at a time,
   * `stately` keeps one per key in each state.
   */
  readonly policy?: JobPolicy;
  /** Longest a run may take; past it the run counts as failed. 15 minutes by default. */
  readonly expireInSeconds?: number;
  /** How many runs of this job one app server works on at once; 1 by default. */
  readonly concurrency?: number;
  /** A cron schedule (UTC): the job is sent on it once across all app servers, with `{}`. */
  readonly every?: string;
  handler(data: Data, context: JobContext): Promise<unknown>;
};

const JOB_NAME = /^[a-z][a-z0-9]*(?:[.-][a-z0-9]+)*$/;

/** Declares a job; its module registers it with `registerJobs`. */
export function defineJob<Data>(definition: JobDefinition<Data>): JobDefinition<Data> {
  if (!JOB_NAME.test(definition.name))
    throw new Error(`Job name ${definition.name} must be lowercase words joined by . or -.`);
  return definition;
}

/** pg-boss's scripts (its maintenance) come as one text of several statements in a transaction. */
const PG_BOSS_SCRIPT = /^\s*BEGIN;/;

/** pg-boss's `db` over one of ours: the database, or a transaction of the caller's. */
const pgBossDb = (q: Queryable): PgBoss.Db => ({
  async executeSql(text: string, values?: unknown[]) {
    if (PG_BOSS_SCRIPT.test(text)) {
      await q.exec(text);
      return { rows: [] };
    }
    return { rows: await q.query(text, values) };
  },
});

/** Only pg-boss's work loop takes jobs with this statement (its fetch). */
const FETCHES_JOBS = /FOR UPDATE SKIP LOCKED/;

const NO_DATABASE: PgBoss.Db = {
  executeSql: () => Promise.reject(new Error('pg-boss was given no statements to run')),
};

/**
 * Sends, retries and cancels on the statements each call passes in (`{db}`), so one instance
 * serves every app and database: it never starts and keeps nothing.
 */
const sender = new PgBoss({ db: NO_DATABASE, migrate: false, schedule: false, supervise: false });

const jobOptions = (job: JobDefinition<unknown>) => ({
  retryLimit: job.retry.limit,
  retryDelay: job.retry.delaySeconds,
  retryBackoff: job.retry.backoff,
  ...(job.expireInSeconds ? { expireInSeconds: job.expireInSeconds } : {}),
});

export class JobQueueMissingError extends Error {}

/**
 * Writes a job with the statements of `q`: in the caller's transaction it exists only if that
 * commits. Answers the job's id, or null when its `singletonKey` is already waiting (policy
 * `short`) or held.
 */
export async function enqueue<Data>(
  q: Queryable,
  job: JobDefinition<Data>,
  data: Data,
  options: { readonly singletonKey?: string; readonly startAfterSeconds?: number } = {},
): Promise<string | null> {
  const checked = parse(job.schema, data) as object;
  const id = await sender.send(job.name, checked, {
    ...jobOptions(job as JobDefinition<unknown>),
    ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    db: pgBossDb(q),
  });
  if (id === null) {
    const [queue] = await q.query('SELECT 1 FROM pgboss.queue WHERE name = $1', [job.name]);
    if (!queue)
      throw new JobQueueMissingError(
        `Job ${job.name} has no queue: register it (registerJobs) and let the app get ready first.`,
      );
  }
  return id;
}

/** Puts a failed job back in the queue for one more run, in the caller's transaction. */
export const retryJob = (q: Queryable, name: string, id: string) =>
  sender.retry(name, id, { db: pgBossDb(q) });

/** Cancels a job that has not finished, in the caller's transaction. */
export const cancelJob = (q: Queryable, name: string, id: string) =>
  sender.cancel(name, id, { db: pgBossDb(q) });

export type JobWorkerOptions = {
  /** How often an idle worker looks for jobs (at least 0.5 s). */
  readonly pollingIntervalSeconds?: number;
};

export type Jobs = {
  register(definitions: readonly JobDefinition<unknown>[]): void;
  /** The names of the jobs the app defines. */
  readonly names: readonly string[];
  /** Creates the queues the database lacks (when the app is ready). */
  createQueues(): Promise<void>;
  /** Starts the workers of every registered job and the schedules. */
  start(options?: JobWorkerOptions): Promise<void>;
  /** Stops the workers, lets the runs under way finish (up to STOP_WAIT_MS), and waits for them. */
  stop(): Promise<void>;
  readonly running: boolean;
};

/** How long closing waits for runs under way before failing them (they are retried). */
export const STOP_WAIT_MS = 8_000;

const DAY_SECONDS = 86_400;

/** The jobs of one app on one database; `registerJobs` gives a module its app's. */
export function createJobs(db: Db, log: FastifyBaseLogger): Jobs {
  const definitions = new Map<string, JobDefinition<unknown>>();
  let boss: PgBoss | null = null;
  let stopping = false;
  /** Statements and runs under way, which stopping waits for before the database closes. */
  const underWay = new Set<Promise<unknown>>();
  const track = <T>(work: Promise<T>): Promise<T> => {
    underWay.add(work);
    void work.finally(() => underWay.delete(work)).catch(() => {});
    return work;
  };

  const workerDb: PgBoss.Db = {
    executeSql(text, values) {
      // Once stopping, no job is taken any more; completions of runs under way still write.
      if (stopping && FETCHES_JOBS.test(text)) return Promise.resolve({ rows: [] });
      return track(pgBossDb(db).executeSql(text, values));
    },
  };

  async function run(definition: JobDefinition<unknown>, job: PgBoss.JobWithMetadata<unknown>) {
    const data = parse(definition.schema, job.data);
    await definition.handler(data, {
      db,
      log: log.child({ job: definition.name, jobId: job.id }),
      job: { id: job.id, name: job.name, retryCount: job.retryCount },
    });
  }

  /** PGlite: jobs left `active` by a process that was killed are failed, so they retry now. */
  async function failAbandoned(started: PgBoss) {
    const left = await db.query<{ name: string; ids: string[] }>(
      `SELECT name, array_agg(id::text) AS ids FROM pgboss.job WHERE state = 'active' GROUP BY name`,
    );
    for (const { name, ids } of left) {
      for (const id of ids)
        await started.fail(name, id, { message: 'The server stopped while the job ran.' });
      log.warn({ job: name, count: ids.length }, 'jobs left running by a stopped server failed');
    }
  }

  return {
    register(list) {
      for (const definition of list) {
        if (definitions.has(definition.name))
          throw new Error(`Job ${definition.name} is registered twice.`);
        definitions.set(definition.name, definition);
      }
    },
    get names() {
      return [...definitions.keys()];
    },
    async createQueues() {
      // An app on a database not migrated (the OpenAPI writer's) has no jobs to keep.
      const [schema] = await db.query<{ migrated: boolean }>(
        "SELECT to_regclass('pgboss.queue') IS NOT NULL AS migrated",
      );
      if (!schema?.migrated) return;
      const names = [...definitions.keys()];
      const existing = await db.query<{ name: string }>(
        'SELECT name FROM pgboss.queue WHERE name = ANY ($1::text[])',
        [names],
      );
      const have = new Set(existing.map((row) => row.name));
      const creator = new PgBoss({ db: pgBossDb(db), migrate: false });
      for (const definition of definitions.values()) {
        if (have.has(definition.name)) continue;
        await creator.createQueue(definition.name, {
          name: definition.name,
          policy: definition.policy ?? 'standard',
          ...jobOptions(definition),
        });
      }
    },
    async start({ pollingIntervalSeconds = 2 } = {}) {
      if (boss) return;
      const scheduled = [...definitions.values()].filter((definition) => definition.every);
      const started = new PgBoss({
        db: workerDb,
        migrate: false,
        schedule: scheduled.length > 0,
        // Completed jobs stay on the jobs page a day, failed ones a week (to be retried).
        archiveCompletedAfterSeconds: DAY_SECONDS,
        archiveFailedAfterSeconds: 7 * DAY_SECONDS,
        deleteAfterDays: 7,
      });
      started.on('error', (error: unknown) => log.error({ err: error }, 'background jobs'));
      await started.start();
      boss = started;
      if (db.kind === 'pglite') await failAbandoned(started);
      for (const definition of definitions.values()) {
        for (let worker = 0; worker < (definition.concurrency ?? 1); worker += 1) {
          await started.work<unknown>(
            definition.name,
            { pollingIntervalSeconds, includeMetadata: true, batchSize: 1 },
            ([job]) => track(run(definition, job!)),
          );
        }
      }
      for (const definition of scheduled) {
        await started.schedule(
          definition.name,
          definition.every!,
          {},
          {
            tz: 'UTC',
            ...jobOptions(definition),
          },
        );
      }
    },
    async stop() {
      if (!boss) return;
      stopping = true;
      try {
        await boss.stop({ graceful: true, wait: true, close: false, timeout: STOP_WAIT_MS });
        while (underWay.size > 0) await Promise.allSettled([...underWay]);
      } finally {
        boss = null;
        stopping = false;
      }
    },
    get running() {
      return boss !== null;
    },
  };
}

const appJobs = new WeakMap<FastifyInstance, Jobs>();

/**
 * Registers jobs in the app: their queues are created when the app is ready, their workers run
 * from when the server listens until it closes.
 */
export function registerJobs(
  context: ModuleContext,
  definitions: readonly JobDefinition<unknown>[],
): void {
  const { app, db } = context;
  let jobs = appJobs.get(app);
  if (!jobs) {
    const created = createJobs(db, app.log.child({ toolkit: 'jobs' }));
    appJobs.set(app, created);
    app.addHook('onReady', () => created.createQueues());
    app.addHook('onListen', () => created.start());
    app.addHook('preClose', () => created.stop());
    jobs = created;
  }
  jobs.register(definitions);
}

/** The app's jobs (tests: start the workers of an app that does not listen). */
export const jobsOf = (app: FastifyInstance): Jobs | undefined => appJobs.get(app);
