import {
  MODEL_OPTIONS_LIMIT,
  normaliseScan,
  optionalText,
  parseDeviceId,
  requiredText,
  tacLookupEndpoint,
  tacModelOptionsEndpoint,
  tacNumberResource,
  tacSchema,
  wholeNumber,
  type FieldErrors,
  type TacLookup,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import { containsPattern } from '../../http/sql.js';
import type { Condition } from '../../toolkit/list.js';
import type { Prepared, ResourceStore, WriteInput } from '../../toolkit/resource.js';
import type { ModuleContext } from '../module.js';
import { MODEL_DISPLAY_NAME } from './models.store.js';
import { stampColumns } from './stamps.js';

/** One row of a TAC file: the model and the colour by name, resolved in bulk by `prepare`. */
const tacRowSchema = z.object({
  tac: tacSchema,
  model: requiredText('model', 200),
  // An empty cell of a mapped column clears the value; an unmapped column is left alone.
  capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
  color: z._default(optionalText('colour', 60), null),
});

type Match = { term: string; rank: number; id: number; active: boolean; label: string };

/**
 * The best matches of each term: the lowest rank that matches wins (0 an id, 1 the display name,
 * 2 the name, 3 a model number or an alias), and several matches at that rank are ambiguous.
 */
function bestMatches(rows: readonly Match[]): Map<string, Match[]> {
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
async function findModels(db: Queryable, ids: readonly number[], terms: readonly string[]) {
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
async function findColors(db: Queryable, ids: readonly number[], terms: readonly string[]) {
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
function referencesOf(inputs: readonly WriteInput[], idField: string, nameField: string) {
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
function matchOf(
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
function pickedOf(found: readonly Match[] | undefined, id: number, what: 'model' | 'colour') {
  const [row] = found ?? [];
  if (!row) return `There is no ${what} with id ${id}.`;
  return row.active ? row : `${row.label} is deactivated: choose an active ${what}.`;
}

/**
 * Checks the model and colour of each input, all in two queries however many rows an import has.
 * A form names them by id; a file row by name (`model`, `color`), and its TAC gets source `import`.
 */
async function prepareTacs(inputs: readonly WriteInput[], db: Queryable): Promise<Prepared[]> {
  const models = await findModels(db, ...referencesOf(inputs, 'model_id', 'model'));
  const colors = await findColors(db, ...referencesOf(inputs, 'color_id', 'color'));
  const prepared: Prepared[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i += 1) {
    const input = inputs[i]!.input;
    let errors: FieldErrors | null = null;
    const fail = (field: string, message: string) => ((errors ??= {})[field] = [message]);
    const values: Record<string, unknown> = {};
    for (const field in input) {
      if (field !== 'model' && field !== 'color' && input[field] !== undefined) {
        values[field] = input[field];
      }
    }
    if (typeof input.model_id === 'number') {
      const model = pickedOf(models.get(`#${input.model_id}`), input.model_id, 'model');
      if (typeof model === 'string') fail('model_id', model);
    }
    if (typeof input.color_id === 'number') {
      const color = pickedOf(colors.get(`#${input.color_id}`), input.color_id, 'colour');
      if (typeof color === 'string') fail('color_id', color);
    }
    if (typeof input.model === 'string') {
      const model = matchOf(models.get(input.model.toLowerCase()), input.model, 'model');
      if (typeof model === 'string') fail('model', model);
      else values.model_id = model.id;
      values.source = 'import';
    }
    if ('color' in input) {
      values.color_id = null;
      if (typeof input.color === 'string') {
        const color = matchOf(colors.get(input.color.toLowerCase()), input.color, 'colour');
        if (typeof color === 'string') fail('color', color);
        else values.color_id = color.id;
      }
    }
    prepared[i] = errors ? { errors } : { values };
  }
  return prepared;
}

/** A search term of digits is the start of a TAC (or a whole IMEI): its first 8 digits. */
const tacPrefixOf = (term: string) => (/^\d+$/.test(term) ? term.slice(0, 8) : null);

/**
 * The TACs that start with `prefix`, as a range of the tac index in any collation (LIKE alone is
 * index-friendly only under the C collation): '3528' is tac >= '3528' AND tac < '3529'.
 */
function tacPrefixCondition(prefix: string): Condition {
  const next = String(Number(prefix) + 1).padStart(prefix.length, '0');
  return next.length > prefix.length
    ? ['t.tac >= ? AND t.tac LIKE ?', prefix, `${prefix}%`]
    : ['t.tac >= ? AND t.tac < ? AND t.tac LIKE ?', prefix, next, `${prefix}%`];
}

export const tacNumberStore: ResourceStore<typeof tacNumberResource> = {
  contract: tacNumberResource,
  table: 'tac_numbers',
  entity: 'tac_number',
  list: {
    // Joins on primary keys only: a page costs its 50 rows whatever the table holds.
    from: `tac_numbers t
      JOIN device_models m ON m.id = t.model_id
      JOIN brands b ON b.id = m.brand_id
      LEFT JOIN colors c ON c.id = t.color_id`,
    id: 't.id',
    columns: `t.id, t.tac, t.model_id, ${MODEL_DISPLAY_NAME} AS model, b.name AS brand,
      t.capacity_gb, t.color_id, c.name AS color, t.source, ${stampColumns('t')}`,
    sorts: {
      tac: { sql: 't.tac', type: 'text' },
      // Models in display order (sort_name, kept by a trigger), then their TACs.
      model: { sql: 'm.sort_name', type: 'text' },
      updated_at: { sql: 't.updated_at', type: 'timestamptz' },
    },
    search: (pattern, term) => {
      const prefix = tacPrefixOf(term);
      if (prefix) return tacPrefixCondition(prefix);
      // The few models that match, then their TACs by the (model_id, tac) index.
      return [
        `t.model_id IN (SELECT sm.id FROM device_models sm JOIN brands sb ON sb.id = sm.brand_id
           WHERE (sb.name || ' ' || sm.name) ILIKE ? OR array_to_string(sm.model_numbers, ' ') ILIKE ?)`,
        pattern,
        pattern,
      ];
    },
    filters: (query) => [
      query.model_id !== undefined && ['t.model_id = ?', query.model_id],
      query.color_id !== undefined && ['t.color_id = ?', query.color_id],
      query.source !== undefined && ['t.source = ?', query.source],
      query.active !== undefined && ['t.active = ?', query.active],
    ],
  },
  uniques: { tac_numbers_tac_key: ['tac', 'This TAC is already mapped to a model.'] },
  // Devices will refer to TACs by their digits; until then an unused TAC may be deleted.
  references: [],
  prepare: prepareTacs,
  imports: {
    key: { fields: ['tac'], conflict: 'tac', match: 'tac' },
    rowSchema: tacRowSchema,
  },
};

/** The model picker of the TAC pages: active models by display name. */
export function registerTacModelOptions({ endpoint, db }: ModuleContext): void {
  endpoint(tacModelOptionsEndpoint, async ({ query }) => {
    const pattern = containsPattern(query.search || undefined);
    return db.query<{ id: number; label: string }>(
      `SELECT m.id, ${MODEL_DISPLAY_NAME} AS label
       FROM device_models m JOIN brands b ON b.id = m.brand_id
       WHERE m.active AND ($1::text IS NULL OR (${MODEL_DISPLAY_NAME}) ILIKE $1
         OR array_to_string(m.model_numbers, ' ') ILIKE $1)
       ORDER BY m.sort_name, m.id
       LIMIT ${MODEL_OPTIONS_LIMIT}`,
      [pattern],
    );
  });
}

const NOT_A_DEVICE_ID = 'Scan an IMEI (15 digits), a MEID (14 characters) or a TAC (8 digits).';

/**
 * What a scanned code is and the model its TAC maps to. A code that is recognisable but cannot be
 * used as it is (a wrong check digit, an IMEISV, a MEID, an unknown TAC) answers with the problem
 * in words, and the model when its TAC still tells it; anything else is a 422 on `code`.
 */
export function registerTacLookup({ endpoint, db }: ModuleContext): void {
  const findTac = async (tac: string) => {
    const { list } = tacNumberStore;
    const [row] = await db.query(`SELECT ${list.columns} FROM ${list.from} WHERE t.tac = $1`, [
      tac,
    ]);
    return (row ?? null) as TacLookup['tacNumber'];
  };
  const withModel = async (
    kind: 'imei' | 'tac',
    input: string,
    tac: string,
    problem: string | null,
  ): Promise<TacLookup> => {
    const tacNumber = await findTac(tac);
    const unknown = `TAC ${tac} is not mapped to a model yet.`;
    const inactive = `TAC ${tac} is deactivated.`;
    return {
      kind,
      input,
      tac,
      tacNumber,
      problem: problem ?? (!tacNumber ? unknown : !tacNumber.active ? inactive : null),
    };
  };

  endpoint(tacLookupEndpoint, async ({ query }): Promise<TacLookup> => {
    const input = normaliseScan(query.code);
    if (input === '') throw fieldError('code', 'Scan or type an IMEI, MEID or TAC.');
    if (/^\d{8}$/.test(input)) return withModel('tac', input, input, null);
    const parsed = parseDeviceId(input);
    if (parsed.ok && parsed.value.kind === 'imei') {
      return withModel('imei', input, parsed.value.tac, null);
    }
    // 15 or 16 digits: the TAC is there even when the check digit is wrong or it is an IMEISV.
    if (!parsed.ok && /^\d{15,16}$/.test(input)) {
      return withModel('imei', input, input.slice(0, 8), parsed.message);
    }
    if (parsed.ok || parsed.problem === 'check-digit') {
      const noTac = /^\d{14}$/.test(input)
        ? 'A MEID has no TAC, so it tells no model. If this is an IMEI without its check digit, scan the barcode that shows all 15 digits.'
        : 'A MEID has no TAC, so it tells no model.';
      return {
        kind: 'meid',
        input,
        tac: null,
        tacNumber: null,
        problem: parsed.ok ? noTac : parsed.message,
      };
    }
    throw fieldError(
      'code',
      parsed.problem === 'characters'
        ? 'An IMEI or a TAC has only digits; a MEID digits and the letters A to F.'
        : `${NOT_A_DEVICE_ID} This has ${input.length} characters.`,
    );
  });
}
