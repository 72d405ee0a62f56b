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

/**
 * A page's size written into the statement rather than passed as a parameter: with `LIMIT $n`
 * PostgreSQL cannot judge a generic plan and plans the statement again at every execution (half
 * of a list page's time in the database); the sizes are whole numbers the schema bounds, so each
 * list has a few texts, each planned once per connection.
 */
function literalLimit(limit: number): string {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a page size: ${limit}`);
  return String(limit);
}

/** The WHERE and ORDER BY of a scan from a keyset position in one direction. */
function scanClauses<Q extends ListQuery>(list: ListSql<Q>, query: Q, position: CursorPosition) {
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
  const direction = descending ? 'DESC' : 'ASC';
  return {
    sort,
    backward,
    where: whereOf(conditions),
    orderBy: `ORDER BY ${sort.sql} ${direction}, ${list.id} ${direction}`,
  };
}

/** Rows from a keyset position in one direction; `reverse` scans against the list's order. */
async function scan<Q extends ListQuery>(
  db: Queryable,
  list: ListSql<Q>,
  query: Q,
  position: CursorPosition,
  limit: number,
): Promise<{ rows: KeyedRow[]; more: boolean }> {
  const { sort, backward, where, orderBy } = scanClauses(list, query, position);
  // The rows come back as one JSON text: one value for the driver to read instead of a few
  // hundred, and JSON.parse is native. json_agg keeps the order of the sorted subquery it reads.
  const [page] = await db.query<{ rows: string }>(
    `SELECT COALESCE(json_agg(page), '[]')::text AS rows FROM (
       SELECT ${list.columns}, (${sort.sql})::text AS "_key" FROM ${list.from} ${where.sql}
       ${orderBy} LIMIT ${literalLimit(limit + 1)}) page`,
    where.params,
  );
  const rows = JSON.parse(page?.rows ?? '[]') as KeyedRow[];
  const more = rows.length > limit;
  if (more) rows.pop();
  if (backward) rows.reverse();
  return { rows, more };
}

const withoutKey = ({ _key, ...item }: KeyedRow) => item;

type PageRow = {
  items: string;
  found: number;
  /** Sort key and id of the first and of the last row shown, in scan order. */
  first_key: string | null;
  first_id: string | number | null;
  last_key: string | null;
  last_id: string | number | null;
};

/**
 * One keyset page with links to its neighbours, as the JSON text of the answer: the database
 * writes the items' JSON and the answer passes it on unparsed (reading and writing again a page
 * of 50 devices was a third of the request). Any page costs what the first one costs.
 */
export async function listPage<Q extends ListQuery>(
  db: Queryable,
  list: ListSql<Q>,
  query: Q,
): Promise<string> {
  const position = decodeCursor(query.cursor);
  const { sort, backward, where, orderBy } = scanClauses(list, query, position);
  const limit = literalLimit(query.limit);
  // One row more than the page tells whether there is a next one in the scan's direction; the
  // item's columns are computed for those rows only.
  const [page] = await db.query<PageRow>(
    `SELECT COALESCE(json_agg(item ORDER BY n ${backward ? 'DESC' : 'ASC'})
         FILTER (WHERE n <= ${limit}), '[]')::text AS items,
       count(*)::int AS found,
       (array_agg(_key ORDER BY n))[1] AS first_key, (array_agg(_id ORDER BY n))[1] AS first_id,
       (array_agg(_key ORDER BY n DESC) FILTER (WHERE n <= ${limit}))[1] AS last_key,
       (array_agg(_id ORDER BY n DESC) FILTER (WHERE n <= ${limit}))[1] AS last_id
     FROM (
       SELECT to_json(item) AS item, (${sort.sql})::text AS _key, ${list.id} AS _id,
         row_number() OVER (${orderBy}) AS n
       FROM ${list.from} CROSS JOIN LATERAL (SELECT ${list.columns}) item
       ${where.sql} ${orderBy} LIMIT ${limit} + 1
     ) page`,
    where.params,
  );
  const found = page?.found ?? 0;
  const more = found > query.limit;
  const [start, end] = [
    page?.first_key != null ? { key: page.first_key, id: Number(page.first_id) } : null,
    page?.last_key != null ? { key: page.last_key, id: Number(page.last_id) } : null,
  ];
  // Shown in the list's order: a backward scan's first row is the page's last.
  const [first, last] = backward ? [end, start] : [start, end];
  const hasBefore = backward ? more : position.kind !== 'first';
  const hasAfter = backward ? position.kind !== 'last' : more;
  const prevCursor = hasBefore && first ? encodeCursor('before', first.key, first.id) : null;
  const nextCursor = hasAfter && last ? encodeCursor('after', last.key, last.id) : null;
  return `{"items":${page?.items ?? '[]'},"prevCursor":${JSON.stringify(prevCursor)},"nextCursor":${JSON.stringify(nextCursor)}}`;
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
