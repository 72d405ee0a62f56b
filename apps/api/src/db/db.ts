export type Row = Record<string, unknown>;

/** Something that runs parameterised SQL: the database itself or an open transaction. */
export type Queryable = {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
};

/** Marks a transaction's statements; not exported, so that only `transactionOf` makes one. */
const inTransaction: unique symbol = Symbol('in a transaction');

/**
 * An open transaction: what the data layer's `transaction` gives its function and nothing else
 * does. Code that must run inside one (a lifecycle's run locks rows until the commit) takes it,
 * so that a call with the database itself does not compile.
 */
export type Transaction = Queryable & { readonly [inTransaction]: true };

/** The steps a transaction keeps for its end, by key (`beforeCommit`). */
const lastSteps = new WeakMap<Transaction, Map<string, { run: () => Promise<unknown> }>>();

/** The statements of a transaction the data layer opened, marked: its `transaction` alone calls it. */
export const transactionOf = (queryable: Queryable): Transaction => ({
  ...queryable,
  [inTransaction]: true,
});

/**
 * Keeps a step for the end of the transaction, run right before its COMMIT (and not at all when
 * it rolls back): for a lock every station's transaction would take on one hot row (the count of
 * a box many pickers take from), held from that moment to the commit instead of for the whole
 * transaction. The first call with a key makes the step and its state; later calls with the key
 * get that state to add to. A step that throws rolls the transaction back.
 */
export function beforeCommit<State>(
  tx: Transaction,
  key: string,
  make: () => { state: State; run: () => Promise<unknown> },
): State {
  let steps = lastSteps.get(tx);
  if (!steps) {
    steps = new Map();
    lastSteps.set(tx, steps);
  }
  const step = (steps.get(key) as { state: State; run: () => Promise<unknown> }) ?? make();
  steps.set(key, step);
  return step.state;
}

/** Runs the steps kept for the end, in the order they were first kept: the data layer's part. */
export async function runLastSteps(tx: Transaction): Promise<void> {
  for (const step of lastSteps.get(tx)?.values() ?? []) await step.run();
}

/** The one data layer: PGlite (embedded) or a PostgreSQL server, same SQL on both. */
export type Db = Queryable & {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * PGlite only (one process owns the database): subscribes to NOTIFY on a channel. The callback
   * runs before the statement that sent the notification (or its transaction's COMMIT) resolves,
   * so a cache it clears is never read stale by code that awaited the change.
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<void>;
  close(): Promise<void>;
};

/** A failure to reach or open the database, reported as one line at start. */
export class DatabaseUnavailableError extends Error {}
