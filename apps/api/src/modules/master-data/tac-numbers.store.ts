import {
  normaliseScan,
  optionalText,
  parseDeviceId,
  requiredText,
  tacLookupEndpoint,
  tacModelOptionsEndpoint,
  tacNumberResource,
  tacSchema,
  wholeNumber,
  learnTacEndpoint,
  unknownTacsEndpoint,
  type FieldErrors,
  type TacLookup,
  type UnknownTac,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable } from '../../db/db.js';
import { fieldError, uniqueViolationAs } from '../../http/errors.js';
import { prefixCondition } from '../../http/sql.js';
import {
  findItem,
  prepareOne,
  type Prepared,
  type ResourceFieldsOf,
  type ResourceStore,
  type WriteInput,
} from '../../toolkit/resource.js';
import { pickerOptions, type PickerSql } from '../../toolkit/pickers.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { ModuleContext } from '../module.js';
import { MODEL_DISPLAY_NAME } from './models.store.js';
import { findColors, findModels, matchOf, pickedOf, referencesOf } from './name-matching.js';
import { stampColumns } from './stamps.js';

/** One row of a TAC file: the model and the colour by name, resolved in bulk by `prepare`. */
const tacRowSchema = z.object({
  tac: tacSchema,
  model: requiredText('model', 200),
  // An empty cell of a mapped column clears the value; an unmapped column is left alone.
  capacity_gb: z._default(z.nullable(wholeNumber('capacity', 1, 100_000)), null),
  color: z._default(optionalText('colour', 60), null),
});

/**
 * Checks the model and colour of each input, all in two queries however many rows an import has.
 * A form names them by id; a file row by name (`model`, `color`), and its TAC gets source `import`.
 */
async function prepareTacs(
  inputs: readonly WriteInput<ResourceFieldsOf<typeof tacNumberResource, typeof tacRowSchema>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const models = await findModels(db, ...referencesOf(inputs, 'model_id', 'model'));
  const colors = await findColors(db, ...referencesOf(inputs, 'color_id', 'color'));
  const prepared: Prepared[] = new Array(inputs.length);
  for (let i = 0; i < inputs.length; i += 1) {
    const input = inputs[i]!.input;
    let errors: FieldErrors | null = null;
    const fail = (field: string, message: string) => ((errors ??= {})[field] = [message]);
    // The fields given but the names, which are resolved to ids below; copied key by key (a
    // file has many rows), through a view of the input by any name.
    const given: Readonly<Record<string, unknown>> = input;
    const values: Record<string, unknown> = {};
    for (const field in given) {
      if (field !== 'model' && field !== 'color' && given[field] !== undefined) {
        values[field] = given[field];
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

export const tacNumberStore: ResourceStore<typeof tacNumberResource, typeof tacRowSchema> = {
  contract: tacNumberResource,
  reads: ['brands', 'colors', 'device_models', 'tac_numbers'],
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
      if (prefix) return prefixCondition('t.tac', prefix);
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
  // Devices keep the TAC's digits: a TAC that received devices stays, deactivated at most.
  references: [
    {
      label: 'devices',
      countSql:
        'SELECT count(*) FROM devices WHERE tac = (SELECT tac FROM tac_numbers WHERE id = $1)',
    },
  ],
  prepare: prepareTacs,
  imports: {
    key: { fields: ['tac'], conflict: 'tac', match: 'tac' },
    rowSchema: tacRowSchema,
  },
};

/** Active models by display name or model number: the model pickers of every page. */
export const MODEL_PICKER: PickerSql = {
  from: 'device_models m JOIN brands b ON b.id = m.brand_id',
  id: 'm.id',
  label: MODEL_DISPLAY_NAME,
  where: `m.active AND ($1::text IS NULL OR (${MODEL_DISPLAY_NAME}) ILIKE $1
    OR array_to_string(m.model_numbers, ' ') ILIKE $1)`,
  order: 'm.sort_name, m.id',
};

/** The model picker of the TAC pages. */
export function registerTacModelOptions({ endpoint, db }: ModuleContext): void {
  endpoint(tacModelOptionsEndpoint, ({ query }) => pickerOptions(db, MODEL_PICKER, query));
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

/**
 * The TACs met at scanning that map to no active model, and learning one: it maps to a model
 * from now on (source `learned`) and leaves the list.
 */
export function registerUnknownTacs({ endpoint, db }: ModuleContext): void {
  endpoint(unknownTacsEndpoint, () =>
    db.query<UnknownTac>(
      `SELECT u.tac, to_json(u.first_seen_at) #>> '{}' AS first_seen_at,
         to_json(u.last_seen_at) #>> '{}' AS last_seen_at, u.seen_count, u.last_imei,
         i.invoice_no AS last_invoice_no
       FROM unknown_tacs u LEFT JOIN purchase_invoices i ON i.id = u.last_invoice_id
       WHERE NOT EXISTS (SELECT 1 FROM tac_numbers t WHERE t.tac = u.tac AND t.active)
       ORDER BY u.last_seen_at DESC, u.tac LIMIT 200`,
    ),
  );
  endpoint(learnTacEndpoint, ({ principal, body, meta }) =>
    db.transaction(async (tx) => {
      const values = await prepareOne(tacNumberStore, { ...body }, null, tx);
      const [created] = await tx
        .query<{ id: number }>(
          `INSERT INTO tac_numbers (tac, model_id, capacity_gb, color_id, source, created_by,
             updated_by)
           VALUES ($1, $2, $3, $4, 'learned', $5, $5) RETURNING id`,
          [values.tac, values.model_id, values.capacity_gb, values.color_id, principal.userId],
        )
        .catch(uniqueViolationAs(tacNumberStore.uniques));
      await tx.query('DELETE FROM unknown_tacs WHERE tac = $1', [values.tac]);
      const learned = await findItem(tacNumberStore, tx, created!.id);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: 'tac_number.learned',
        entityType: 'tac_number',
        entityId: learned.id,
        after: learned,
      });
      return learned;
    }),
  );
}
