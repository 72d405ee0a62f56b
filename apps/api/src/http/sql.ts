/** A timestamp column as the API shows it: ISO 8601 in UTC, or null. */
export const isoOrNull = (value: Date | null | undefined): string | null =>
  value ? value.toISOString() : null;

/** A search term as an ILIKE pattern that matches it anywhere, with its wildcards escaped. */
export const containsPattern = (term: string | undefined): string | null =>
  term ? `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;

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
