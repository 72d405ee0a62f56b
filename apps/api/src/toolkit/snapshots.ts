import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db, Queryable } from '../db/db.js';
import { JsonAnswer } from '../http/endpoint.js';
import type { Principal } from '../http/principal.js';
import { isoTextSql } from '../http/sql.js';
import type { ModuleContext } from '../modules/module.js';

/*
 * Kept figures (migration 0029): a dashboard whose figures would count over a table that grows
 * (the devices) reads them in the background instead of on each request, and every request reads
 * one row, whatever the tables hold. The answer carries when the figures were read, so the page
 * says how old they are.
 *
 * - A refresher in each app server checks every SNAPSHOT_CHECK_MS and reads again the snapshots
 *   older than their `maxAgeMs`. It starts when the server listens and stops when it closes, so a
 *   test's app (never listening) runs no timer: tests refresh with `refresh` or `refreshStale`.
 * - Several app servers on one PostgreSQL: a refresh holds a transaction-level advisory lock per
 *   snapshot. The refresher's `pg_try_advisory_xact_lock` skips a snapshot another server is
 *   reading, then skips it too when the figures it finds are young; an asked-for refresh waits for
 *   the lock and answers the figures of a refresh that finished while it waited. Either way the
 *   figures are read once. The lock blocks nothing but another refresh of the same snapshot: the
 *   figures' statements take no row locks.
 * - PGlite: one process owns the database, so a refresh running in this process is the only one;
 *   its statements run outside a transaction, taking turns with the requests (PGlite runs one
 *   statement at a time), so a compute keeps each statement short.
 */

/** How often the refresher looks for snapshots older than their max age. */
export const SNAPSHOT_CHECK_MS = 30_000;

/** Advisory locks of snapshots: this class id, the snapshot's name hashed as the object id. */
const SNAPSHOT_LOCK_CLASS = 7_261_355;

export type SnapshotDefinition<F> = {
  /** One name per snapshot, unique in the app (the row's key). */
  readonly name: string;
  /** The refresher reads the figures again once they are this old. */
  readonly maxAgeMs: number;
  /**
   * Reads the figures as of `asOf` (ISO, the refresh's start). On PostgreSQL it runs in the
   * refresh's transaction; on PGlite on the database itself, between other requests' statements.
   */
  compute(db: Queryable, asOf: string): Promise<F>;
};

export type SnapshotHandle<F> = {
  readonly name: string;
  /** The kept figures with their age (`snapshotSchema`); read first when there are none yet. */
  read(): Promise<JsonAnswer>;
  /** The kept figures themselves (an export of what the page shows), with when they were read. */
  kept(): Promise<{ readonly asOf: string; readonly figures: F }>;
  /**
   * Reads the figures again now (`snapshotRefreshSchema`); while another refresh runs, waits for
   * it and answers its figures (`refreshed: false`).
   */
  refresh(by: Principal): Promise<JsonAnswer>;
};

export type Snapshots = {
  register<F>(definition: SnapshotDefinition<F>): SnapshotHandle<F>;
  /** Reads again every snapshot older than its max age: the refresher's tick. */
  refreshStale(): Promise<void>;
  /** Starts the refresher: a tick now, then one every `everyMs`. */
  start(everyMs?: number): void;
  /** Stops the refresher and waits for the refreshes under way. */
  stop(): Promise<void>;
  readonly running: boolean;
};

type Entry = {
  readonly definition: SnapshotDefinition<unknown>;
  /** The refresh this process runs now, which a second caller waits for instead of running one. */
  running: Promise<boolean> | null;
};

type Mode =
  /**
   * Asked for (by a person; null: the first read of a new database): wait for a refresh under way
   * and take its figures; otherwise read them.
   */
  | { readonly kind: 'asked'; readonly by: number | null }
  /** The refresher: skip what another server is reading, and figures younger than the max age. */
  | { readonly kind: 'stale' };

/** Snapshots of one app on one database; `registerSnapshot` gives a module its app's. */
export function createSnapshots(db: Db, log: FastifyBaseLogger): Snapshots {
  const entries = new Map<string, Entry>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;

  const maxAgeSeconds = (entry: Entry) => Math.round(entry.definition.maxAgeMs / 1000);

  /** The answer: the kept row with its age; `refreshed` for an asked-for refresh. */
  async function answerOf(entry: Entry, refreshed?: boolean): Promise<JsonAnswer | null> {
    const [row] = await db.query<{ json: string }>(
      `SELECT (jsonb_build_object(
           'as_of', ${isoTextSql('s.as_of')}, 'read_at', ${isoTextSql('clock_timestamp()')},
           'max_age_seconds', $2::int, 'took_ms', s.took_ms, 'refreshed_by', u.name,
           'figures', s.figures)
         || CASE WHEN $3::boolean IS NULL THEN '{}'::jsonb
                 ELSE jsonb_build_object('refreshed', $3::boolean) END)::text AS json
       FROM snapshots s LEFT JOIN users u ON u.id = s.refreshed_by
       WHERE s.name = $1`,
      [entry.definition.name, maxAgeSeconds(entry), refreshed ?? null],
    );
    return row ? new JsonAnswer(row.json) : null;
  }

  /** Reads the figures and keeps them, on the refresh's transaction (PostgreSQL) or the database. */
  async function computeAndKeep(q: Queryable, entry: Entry, by: number | null) {
    const { name } = entry.definition;
    const [{ as_of: asOf }] = (await q.query<{ as_of: string }>(
      `SELECT ${isoTextSql('clock_timestamp()')} AS as_of`,
    )) as [{ as_of: string }];
    const started = performance.now();
    const figures = await entry.definition.compute(q, asOf);
    const tookMs = Math.round(performance.now() - started);
    await q.query(
      `INSERT INTO snapshots (name, figures, as_of, refreshed_at, took_ms, refreshed_by)
       VALUES ($1, $2::jsonb, $3, clock_timestamp(), $4, $5)
       ON CONFLICT (name) DO UPDATE SET figures = EXCLUDED.figures, as_of = EXCLUDED.as_of,
         refreshed_at = EXCLUDED.refreshed_at, took_ms = EXCLUDED.took_ms,
         refreshed_by = EXCLUDED.refreshed_by`,
      [name, JSON.stringify(figures), asOf, tookMs, by],
    );
    log.debug({ snapshot: name, tookMs }, 'snapshot refreshed');
  }

  /** PostgreSQL: one refresh of a snapshot at a time across app servers. True when this one read. */
  const refreshOnServer = (entry: Entry, mode: Mode) =>
    db.transaction(async (tx) => {
      const key = [SNAPSHOT_LOCK_CLASS, entry.definition.name];
      if (mode.kind === 'asked') {
        await tx.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', key);
      } else {
        const [lock] = await tx.query<{ got: boolean }>(
          'SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS got',
          key,
        );
        if (!lock!.got) return false;
      }
      // now() is this transaction's start: a refresh written after it ran while this one waited.
      const [kept] = await tx.query<{ done: boolean }>(
        mode.kind === 'asked'
          ? 'SELECT refreshed_at >= now() AS done FROM snapshots WHERE name = $1'
          : `SELECT as_of > clock_timestamp() - make_interval(secs => $2) AS done
             FROM snapshots WHERE name = $1`,
        mode.kind === 'asked'
          ? [entry.definition.name]
          : [entry.definition.name, entry.definition.maxAgeMs / 1000],
      );
      if (kept?.done) return false;
      await computeAndKeep(tx, entry, mode.kind === 'asked' ? mode.by : null);
      return true;
    });

  /** One refresh per snapshot in this process; a second caller waits for the first's figures. */
  async function refreshEntry(entry: Entry, mode: Mode): Promise<boolean> {
    if (entry.running) {
      await entry.running;
      return false;
    }
    const run =
      db.kind === 'postgres'
        ? refreshOnServer(entry, mode)
        : computeAndKeep(db, entry, mode.kind === 'asked' ? mode.by : null).then(() => true);
    entry.running = run;
    try {
      return await run;
    } finally {
      entry.running = null;
    }
  }

  async function refreshStale() {
    const kept = await db.query<{ name: string; age_ms: number }>(
      `SELECT name, (extract(epoch FROM clock_timestamp() - as_of) * 1000)::float8 AS age_ms
       FROM snapshots WHERE name = ANY ($1::text[])`,
      [[...entries.keys()]],
    );
    const ages = new Map(kept.map((row) => [row.name, row.age_ms]));
    for (const entry of entries.values()) {
      const age = ages.get(entry.definition.name);
      if (age !== undefined && age < entry.definition.maxAgeMs) continue;
      try {
        await refreshEntry(entry, { kind: 'stale' });
      } catch (error) {
        // The figures kept stay, with their age; the next tick tries again.
        log.error({ err: error, snapshot: entry.definition.name }, 'snapshot refresh failed');
      }
    }
  }

  const tick = () => {
    if (ticking) return;
    ticking = refreshStale()
      .catch((error: unknown) => log.error({ err: error }, 'snapshot refresher failed'))
      .finally(() => {
        ticking = null;
      });
  };

  return {
    register<F>(definition: SnapshotDefinition<F>): SnapshotHandle<F> {
      if (entries.has(definition.name))
        throw new Error(`Snapshot ${definition.name} is registered twice.`);
      const entry: Entry = { definition, running: null };
      entries.set(definition.name, entry);
      // The first read of a new database, before the refresher's first tick, reads the figures.
      const answer = async () => {
        const kept = await answerOf(entry);
        if (kept) return kept;
        await refreshEntry(entry, { kind: 'asked', by: null });
        return (await answerOf(entry))!;
      };
      return {
        name: definition.name,
        read: answer,
        async kept() {
          const { as_of: asOf, figures } = JSON.parse((await answer()).json) as {
            as_of: string;
            figures: F;
          };
          return { asOf, figures };
        },
        async refresh(by) {
          const refreshed = await refreshEntry(entry, { kind: 'asked', by: by.userId });
          return (await answerOf(entry, refreshed))!;
        },
      };
    },
    refreshStale,
    start(everyMs = SNAPSHOT_CHECK_MS) {
      if (timer) return;
      timer = setInterval(tick, everyMs);
      // The refresher never keeps a process alive on its own.
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await ticking;
      await Promise.allSettled([...entries.values()].map((entry) => entry.running));
    },
    get running() {
      return timer !== null;
    },
  };
}

const appSnapshots = new WeakMap<FastifyInstance, Snapshots>();

/**
 * Registers a snapshot in the app's refresher, which starts when the server listens and stops
 * before it closes its database.
 */
export function registerSnapshot<F>(
  context: ModuleContext,
  definition: SnapshotDefinition<F>,
): SnapshotHandle<F> {
  const { app, db } = context;
  let snapshots = appSnapshots.get(app);
  if (!snapshots) {
    const created = createSnapshots(db, app.log.child({ toolkit: 'snapshots' }));
    appSnapshots.set(app, created);
    app.addHook('onListen', async () => created.start());
    app.addHook('preClose', () => created.stop());
    snapshots = created;
  }
  return snapshots.register(definition);
}

/** The app's snapshots (tests: force a refresh, see the refresher start and stop). */
export const snapshotsOf = (app: FastifyInstance): Snapshots | undefined => appSnapshots.get(app);
