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

/** The statements of a transaction the data layer opened, marked: its `transaction` alone calls it. */
export const transactionOf = (queryable: Queryable): Transaction => ({
  ...queryable,
  [inTransaction]: true,
});

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
