import type { Queryable } from '../../db/db.js';
import type { WriteInput } from '../../toolkit/resource.js';
import { MODEL_DISPLAY_NAME } from './models.store.js';

/**
 * Models and colours found by what people write for them: an id picked in a form (`#12`), a
 * display name ("Apple iPhone 13"), a name, a model number or an alias. Used by every import that
 * names a model or a colour, all rows at once.
 */

export type Match = { term: string; rank: number; id: number; active: boolean; label: string };

/**
 * The best matches of each term: the lowest rank that matches wins (0 an id, 1 the display name,
 * 2 the name, 3 a model number or an alias), and several matches at that rank are ambiguous.
 */
export function bestMatches(rows: readonly Match[]): Map<string, Match[]> {
  const best = new Map<string, Match[]>();
  for (const row of rows) {
    const current = best.get(row.term);
    if (!current || current[0]!.rank > row.rank) best.set(row.term, [row]);
    else if (current[0]!.rank === row.rank && !current.some((m) => m.id === row.id)) {
      current.push(row);
    }
  }
  return best;
}

/**
 * Models by id (key `#id`), by display name ("Brand Model"), by name or by model number, in one
 * query: the names of every model are matched against the distinct terms with a hash join.
 */
export async function findModels(db: Queryable, ids: readonly number[], terms: readonly string[]) {
  if (ids.length === 0 && terms.length === 0) return new Map<string, Match[]>();
  const byName = `UNION ALL
       SELECT lower(${MODEL_DISPLAY_NAME}), 1, m.id FROM device_models m JOIN brands b ON b.id = m.brand_id
       UNION ALL
       SELECT lower(m.name), 2, m.id FROM device_models m
       UNION ALL
       SELECT lower(n.number), 3, m.id FROM device_models m, unnest(m.model_numbers) AS n (number)`;
  const rows = await db.query<Match>(
    `WITH terms AS (SELECT DISTINCT unnest($2::text[]) AS term),
     keys AS (
       SELECT '#' || m.id AS key, 0 AS rank, m.id FROM device_models m WHERE m.id = ANY ($1::bigint[])
       ${terms.length > 0 ? byName : ''})
     SELECT k.key AS term, k.rank, m.id, m.active, ${MODEL_DISPLAY_NAME} AS label
     FROM keys k
     JOIN device_models m ON m.id = k.id
     JOIN brands b ON b.id = m.brand_id
     WHERE k.rank = 0 OR k.key IN (SELECT term FROM terms)`,
    [ids, terms],
  );
  return bestMatches(rows);
}

/** Colours by id (key `#id`), by name or by alias, in one query. */
export async function findColors(db: Queryable, ids: readonly number[], terms: readonly string[]) {
  if (ids.length === 0 && terms.length === 0) return new Map<string, Match[]>();
  const byName = `UNION ALL
       SELECT lower(c.name), 1, c.id FROM colors c
       UNION ALL
       SELECT lower(a.alias), 3, c.id FROM colors c, unnest(c.aliases) AS a (alias)`;
  const rows = await db.query<Match>(
    `WITH terms AS (SELECT DISTINCT unnest($2::text[]) AS term),
     keys AS (
       SELECT '#' || c.id AS key, 0 AS rank, c.id FROM colors c WHERE c.id = ANY ($1::bigint[])
       ${terms.length > 0 ? byName : ''})
     SELECT k.key AS term, k.rank, c.id, c.active, c.name AS label
     FROM keys k JOIN colors c ON c.id = k.id
     WHERE k.rank = 0 OR k.key IN (SELECT term FROM terms)`,
    [ids, terms],
  );
  return bestMatches(rows);
}

/** The distinct ids in `idField` and the distinct lower-cased names in `nameField` of the inputs. */
export function referencesOf<Fields>(
  inputs: readonly WriteInput<Fields>[],
  idField: keyof Fields,
  nameField: keyof Fields,
) {
  const ids = new Set<number>();
  const names = new Set<string>();
  for (const { input } of inputs) {
    const id = input[idField];
    const name = input[nameField];
    if (typeof id === 'number') ids.add(id);
    if (typeof name === 'string') names.add(name.toLowerCase());
  }
  return [[...ids], [...names]] as const;
}

/** The one match of a name, or why there is none: "No model named …", "… matches several". */
export function matchOf(
  found: readonly Match[] | undefined,
  name: string,
  what: 'model' | 'colour',
): Match | string {
  if (!found || found.length === 0) return `No ${what} named "${name}".`;
  if (found.length > 1) {
    return what === 'model'
      ? `"${name}" matches several models: use Brand Model, like "${found[0]!.label}".`
      : `"${name}" is an alias of several colours: use its name.`;
  }
  return found[0]!.active ? found[0]! : `${found[0]!.label} is deactivated: activate it first.`;
}

/** The row of an id picked in a form, or why it cannot be used. */
export function pickedOf(
  found: readonly Match[] | undefined,
  id: number,
  what: 'model' | 'colour',
) {
  const [row] = found ?? [];
  if (!row) return `There is no ${what} with id ${id}.`;
  return row.active ? row : `${row.label} is deactivated: choose an active ${what}.`;
}
