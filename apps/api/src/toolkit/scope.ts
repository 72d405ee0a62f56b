import type { Principal } from '../http/principal.js';
import type { Condition, ListQuery, ListSql } from './list.js';
import type { ListStore } from './stores.js';

/*
 * Lists scoped to the person asking (an agent's own records, a leader's team): a store's `scope`
 * turns the asker into one condition that every read of the store adds (page, count, export, one
 * row), so a row outside it is neither listed nor found.
 */

/** The asker's condition of a store, parenthesised to join others by AND; null: every row. */
export function scopeOf(store: Pick<ListStore, 'scope'>, asker: Principal): Condition {
  const condition = store.scope?.(asker);
  if (!condition) return null;
  const [sql, ...values] = condition;
  return [`(${sql})`, ...values];
}

/** The list as one scope sees it: the scope's condition joins the list's filters. */
export function withinScope<Q extends ListQuery>(list: ListSql<Q>, scope: Condition): ListSql<Q> {
  if (!scope) return list;
  return { ...list, filters: (query: Q) => [scope, ...(list.filters?.(query) ?? [])] };
}
