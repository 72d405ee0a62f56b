/** A timestamp column as the API shows it: ISO 8601 in UTC, or null. */
export const isoOrNull = (value: Date | null | undefined): string | null =>
  value ? value.toISOString() : null;

/** A search term as an ILIKE pattern that matches it anywhere, with its wildcards escaped. */
export const containsPattern = (term: string | undefined): string | null =>
  term ? `%${term.replace(/[\\%_]/g, (char) => `\\${char}`)}%` : null;

/** ORDER BY direction from a validated query value. */
export const direction = (order: 'asc' | 'desc') => (order === 'desc' ? 'DESC' : 'ASC');
