/**
 * Type tests of the lifecycle's runs: compiled by `npm run typecheck`, never run. A run locks its
 * records until the commit, so it takes the transaction that `db.transaction` gives and nothing
 * else: the `@ts-expect-error` lines fail the typecheck if the database itself were accepted.
 */
import type { Db, Queryable } from '../db/db.js';
import {
  runTransition,
  runTransitions,
  type LifecycleStore,
  type TransitionInput,
} from './lifecycle.js';

declare const db: Db;
declare const tickets: LifecycleStore<'open' | 'done', 'finish', never>;
declare const finish: TransitionInput<'finish'>;

export const insideATransaction = () =>
  db.transaction(async (tx) => {
    await runTransition(tx, tickets, { ...finish, id: 1 });
    return runTransitions(tx, tickets, { ...finish, ids: [1, 2] });
  });

// @ts-expect-error: the database itself is no transaction; each statement would commit alone.
export const withTheDatabase = () => runTransition(db, tickets, { ...finish, id: 1 });

export const withAnyQueryable = (queryable: Queryable) =>
  // @ts-expect-error: a Queryable may be the database; only `db.transaction` gives a transaction.
  runTransitions(queryable, tickets, { ...finish, ids: [1] });
