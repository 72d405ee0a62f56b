import { COUNT_CAP } from '@inventory/contract';
import type { Queryable, Row } from '../db/db.js';
import { containsPattern, whereOf } from '../http/sql.js';
import { decodeCursor, encodeCursor, type CursorPosition } from './cursor.js';

/** A sort of a list: a SQL expression that is never null, and its type for the cursor's value. */
export type SortSql = {
  readonly sql: string;
  readonly type: 'text' | 'bigint' | 'integer' | 'numeric' | 'date' | 'timestamptz' | 'boolean';
};

/** One WHERE condition with `?` for each of its values; null or false when a filter is unset. */
export type Condition = readonly [sql: string, ...values: unknown[]] | null | false;

/**
 * How a list reads its table: a new list declares these and gets paging, count and export. Its
 * sorts are exactly the sorts its query allows (the contract's), so a sort left out or misspelt
 * does not compile.
 */
export type ListSql<Query extends ListQuery> = {
  /** FROM clause, joins included: `colors c`. */
  readonly from: string;
  /** The row's id column, the tie-breaker of every order: `c.id`. */
  readonly id: string;
  /** SELECT list of one item, in the contract's shape (timestamps as ISO text). */
  readonly columns: string;
  readonly sorts: Readonly<Record<Query['sort'], SortSql>>;
  /** The condition for a search term; `pattern` is the term as an escaped ILIKE pattern. */
  readonly search?: (pattern: string, term: string) => Condition;
  /**
   * The conditions of the filters that are set in a query. A method, so that any store's list is
   * a list of the general kind (the toolkit's steps and the lists of stores take any).
   */
  filters?(query: Query): readonly Condition[];
};

export type ListQuery = {
  readonly search?: string | undefined;
  readonly sort: string;
  readonly order: 'asc' | 'desc';
  readonly cursor?: string | undefined;
  readonly limit: number;
};

function conditionsOf<Q extends ListQuery>(list: ListSql<Q>, query: Q): Condition[] {
  const conditions: Condition[] = [...(list.filters?.(query) ?? [])];
  if (query.search && list.search) {
    conditions.push(list.search(containsPattern(query.search)!, query.search));
  }
  return conditions;
}

const sortOf = <Q extends ListQuery>(list: ListSql<Q>, query: Q): SortSql => {
  const sorts: Readonly<Partial<Record<string, SortSql>>> = list.sorts;
  const sort = sorts[query.sort];
  if (!sort) throw new Error(`List sort ${query.sort} is not declared.`);
  return sort;
};

type KeyedRow = Row & { id: number; _key: string };

/** Rows from a keyset position in one direction; `reverse` scans against the list's order. */
async function scan<Q extends ListQuery>(
  db: Queryable,
  list: ListSql<Q>,
  query: Q,
  position: CursorPosition,
  limit: number,
): Promise<{ rows: KeyedRow[]; more: boolean; backward: boolean }> {
  const sort = sortOf(list, query);
  const backward = position.kind === 'before' || position.kind === 'last';
  const descending = (query.order === 'desc') !== backward;
  const conditions = conditionsOf(list, query);
  if (position.kind === 'after' || position.kind === 'before') {
    conditions.push([
      `(${sort.sql}, ${list.id}) ${descending ? '<' : '>'} (?::${sort.type}, ?::bigint)`,
      position.key,
      position.id,
    ]);
  }
  const where = whereOf(conditions);
  const direction = descending ? 'DESC' : 'ASC';
  // The page comes back as one JSON text: one value for the driver to read instead of a few
  // hundred, and JSON.parse is native. json_agg keeps the order of the sorted subquery it reads.
  const [page] = await db.query<{ rows: string }>(
    `SELECT COALESCE(json_agg(page), '[]')::text AS rows FROM (
       SELECT ${list.columns}, (${sort.sql})::text AS "_key" FROM ${list.from} ${where.sql}
       ORDER BY ${sort.sql} ${direction}, ${list.id} ${direction}
       LIMIT $${where.params.length + 1}) page`,
    [...where.params, limit + 1],
  );
  const rows = JSON.parse(page?.rows ?? '[]') as KeyedRow[];
  const more = rows.length > limit;
  if (more) rows.pop();
  if (backward) rows.reverse();
  return { rows, more, backward };
}

const withoutKey = ({ _key, ...item }: KeyedRow) => item;

/** One keyset page with links to its neighbours; any page costs what the first one costs. */
export async function listPage<Q extends ListQuery>(db: Queryable, list: ListSql<Q>, query: Q) {
  const position = decodeCursor(query.cursor);
  const { rows, more, backward } = await scan(db, list, query, position, query.limit);
  const first = rows[0];
  const last = rows.at(-1);
  const hasBefore = backward ? more : position.kind !== 'first';
  const hasAfter = backward ? position.kind !== 'last' : more;
  return {
    items: rows.map(withoutKey),
    prevCursor: hasBefore && first ? encodeCursor('before', first._key, first.id) : null,
    nextCursor: hasAfter && last ? encodeCursor('after', last._key, last.id) : null,
  };
}

/** How many rows match: exact up to COUNT_CAP, then `capped`. */
export async function countRows<Q extends ListQuery>(db: Queryable, list: ListSql<Q>, query: Q) {
  const where = whereOf(conditionsOf(list, query));
  const [row] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${list.from} ${where.sql}
       LIMIT ${COUNT_CAP + 1}) matching`,
    where.params,
  );
  const total = row?.total ?? 0;
  return { total: Math.min(total, COUNT_CAP), capped: total > COUNT_CAP };
}

/**
 * Every matching row in the list's order, a chunk at a time by keyset, so an export of a million
 * rows holds one chunk in memory and takes no long-lived snapshot or lock.
 */
export async function* allRows<Q extends ListQuery>(
  db: Queryable,
  list: ListSql<Q>,
  query: Q,
  chunkSize = 2000,
): AsyncGenerator<Row[]> {
  let position: CursorPosition = { kind: 'first' };
  for (;;) {
    const { rows, more }: { rows: KeyedRow[]; more: boolean } = await scan(
      db,
      list,
      query,
      position,
      chunkSize,
    );
    if (rows.length > 0) yield rows.map(withoutKey);
    const last: KeyedRow | undefined = rows.at(-1);
    if (!more || !last) return;
    position = { kind: 'after', key: last._key, id: last.id };
  }
}
