/** A timestamp column as the API shows it: ISO 8601 in UTC, or null. */
export const isoOrNull = (value: Date | null | undefined): string | null =>
  value ? value.toISOString() : null;

/**
 * SQL for a timestamptz column as text in `isoOrNull`'s form (milliseconds, `Z`), for lists that
 * read their rows as JSON: the same row reads the same whichever way it is read.
 */
export const isoTextSql = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The first moment of a business day, for a date given as SQL (a parameter such as `$1`). Every
 * day the warehouse counts, filters or prints is a day in the order settings' time zone
 * (America/Chicago), the one `order_business_day(at)` gives a moment's day in; never UTC's, which
 * turns the day over at six in the evening, nor the database server's own.
 */
export const businessDayStartSql = (day: string) =>
  `(${day}::date::timestamp AT TIME ZONE (SELECT time_zone FROM order_settings))`;

/** The first moment after a business day given as SQL: a range's exclusive end. */
export const businessDayEndSql = (day: string) =>
  `((${day}::date + 1)::timestamp AT TIME ZONE (SELECT time_zone FROM order_settings))`;

/**
 * A list filter's conditions for a range of business days on a timestamp column: from the start
 * of `from`, up to the end of `to`, either end left open when not given (a column the code names).
 */
export const businessDaysCondition = (
  column: string,
  from: string | undefined,
  to: string | undefined,
) =>
  [
    from !== undefined && ([`${column} >= ${businessDayStartSql('?')}`, from] as const),
    to !== undefined && ([`${column} < ${businessDayEndSql('?')}`, to] as const),
  ] as const;

/** A search term as an ILIKE pattern that matches it anywhere, with its wildcards escaped. */
export const containsPattern = (term: string | undefined): string | null =>
  term ? `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;

/** A table or column name quoted for SQL, for names the code (never a request) gives. */
export const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** ORDER BY direction from a validated query value. */
export const direction = (order: 'asc' | 'desc') => (order === 'desc' ? 'DESC' : 'ASC');

/**
 * A WHERE clause from the filters that are set, numbering parameters from 1. Unset filters add
 * nothing, so the planner sees plain predicates it can serve from indexes. A condition writes `?`
 * for each of its values, in order.
 */
export function whereOf(
  conditions: ReadonlyArray<readonly [sql: string, ...values: unknown[]] | null | false>,
): { sql: string; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  for (const condition of conditions) {
    if (!condition) continue;
    const [sql, ...values] = condition;
    let next = 0;
    clauses.push(sql.replace(/\?/g, () => `$${params.push(values[next++])}`));
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

/**
 * The values of a text column that start with `prefix`, as a range of its index in any collation
 * (LIKE alone is index-friendly only under the C collation): '3528' is col >= '3528' AND
 * col < '3529'. A prefix with letters (a MEID's) gets the lower bound only.
 */
export function prefixCondition(
  column: string,
  prefix: string,
): readonly [sql: string, ...values: unknown[]] {
  const pattern = `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const next = /^\d+$/.test(prefix)
    ? String(BigInt(prefix) + 1n).padStart(prefix.length, '0')
    : null;
  return next && next.length === prefix.length
    ? [`${column} >= ? AND ${column} < ? AND ${column} LIKE ?`, prefix, next, pattern]
    : [`${column} >= ? AND ${column} LIKE ?`, prefix, pattern];
}
