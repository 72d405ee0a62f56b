import { accessoryImportRowSchema, accessoryResource, type FieldErrors } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { PrepareRows, Prepared, ResourceStore } from '../../toolkit/resource.js';
import { stampColumns } from './stamps.js';

/**
 * The compatible models of a row as the item shows them: the ids (as JSON, so that both database
 * drivers give numbers) and each model's "Brand Name", in the same order. Reads the models of one
 * page by primary key.
 */
export const compatibleModelColumns = (alias: string) =>
  `to_json(${alias}.compatible_model_ids) AS compatible_model_ids,
   ARRAY(SELECT COALESCE(b.name || ' ' || m.name, '#' || c.id::text)
         FROM unnest(${alias}.compatible_model_ids) WITH ORDINALITY AS c(id, n)
         LEFT JOIN device_models m ON m.id = c.id
         LEFT JOIN brands b ON b.id = m.brand_id
         ORDER BY c.n) AS compatible_models`;

/** Rows with this model among their compatible ones (served by the GIN index on the array). */
export const compatibleWith = (alias: string, modelId: number | undefined) =>
  modelId !== undefined &&
  ([`${alias}.compatible_model_ids @> ARRAY[?::bigint]`, modelId] as const);

const quoted = (words: readonly string[]) => words.map((word) => `"${word}"`).join(', ');

/**
 * Every model named in the inputs, in one query: by display name ("Brand Name") first, else by
 * model number, ignoring case. A term that names no model, or several, is missing from the map.
 */
async function modelsByName(db: Queryable, terms: readonly string[]) {
  const rows =
    terms.length === 0
      ? []
      : await db.query<{ term: string; ids: number[]; by_name: boolean }>(
          `WITH wanted AS (SELECT DISTINCT lower(term) AS term FROM unnest($1::text[]) AS term),
           keys AS (
             SELECT m.id, lower(b.name || ' ' || m.name) AS term, true AS by_name
             FROM device_models m JOIN brands b ON b.id = m.brand_id
             UNION ALL
             SELECT m.id, lower(n.number), false
             FROM device_models m, unnest(m.model_numbers) AS n(number))
           SELECT w.term, k.by_name, to_json(array_agg(DISTINCT k.id)) AS ids
           FROM wanted w JOIN keys k ON k.term = w.term
           GROUP BY w.term, k.by_name`,
          [terms],
        );
  const found = new Map<string, { ids: number[]; byName: boolean }>();
  for (const row of rows) {
    const known = found.get(row.term);
    if (!known || (row.by_name && !known.byName)) {
      found.set(row.term, { ids: row.ids, byName: row.by_name });
    }
  }
  return found;
}

async function existingModelIds(db: Queryable, ids: readonly number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db.query<{ id: number }>(
    'SELECT id FROM device_models WHERE id = ANY ($1::bigint[])',
    [ids],
  );
  return new Set(rows.map((row) => Number(row.id)));
}

/** The fields of a catalogue item's inputs that its `prepare` reads. */
type CatalogueFields = {
  /** Names or model numbers, in an import's rows. */
  readonly compatible_models?: readonly string[] | undefined;
  /** Ids, in a form's input. */
  readonly compatible_model_ids?: readonly number[] | undefined;
  readonly barcode?: string | null | undefined;
};

/** How a catalogue item with compatible models and a barcode is written: accessories, parts. */
type CatalogueTable<Fields> = {
  readonly table: string;
  /** The field of the import key: `sku`, `part_number`. */
  readonly keyField: keyof Fields & string;
  /** How the other row is named in a barcode message: "Accessory", "Part". */
  readonly label: string;
};

/**
 * The `prepare` of accessories and parts, for many inputs at once (an import): compatible models
 * given by name or model number are resolved to ids, given ids must exist, and a barcode must not
 * be another row's nor repeat within the inputs. Two queries in all, whatever the number of rows.
 */
export function prepareCatalogueItems<Fields extends CatalogueFields>({
  table,
  keyField,
  label,
}: CatalogueTable<Fields>): PrepareRows<Fields> {
  return async (inputs, db) => {
    const names = inputs.flatMap(({ input }) => input.compatible_models ?? []);
    const ids = inputs.flatMap(({ input }) => input.compatible_model_ids ?? []);
    const barcodes = inputs.flatMap(({ input }) =>
      typeof input.barcode === 'string' ? [input.barcode] : [],
    );
    const byName = await modelsByName(db, names);
    const knownIds = await existingModelIds(db, ids);
    const holders =
      barcodes.length === 0
        ? []
        : await db.query<{ id: number; key: string; barcode: string }>(
            `SELECT id, ${keyField} AS key, barcode FROM ${table} WHERE barcode = ANY ($1::text[])`,
            [barcodes],
          );
    const holderOf = new Map(holders.map((holder) => [holder.barcode, holder]));
    const firstWithBarcode = new Map<string, number>();

    return inputs.map(({ input, id }, index): Prepared => {
      const errors: FieldErrors = {};
      const { compatible_models: modelNames, ...rest } = input;
      const values = Object.fromEntries(
        Object.entries(rest).filter(([, value]) => value !== undefined),
      );

      if (Array.isArray(modelNames)) {
        const unknown: string[] = [];
        const ambiguous: string[] = [];
        const resolved: number[] = [];
        for (const name of modelNames) {
          const match = byName.get(name.toLowerCase());
          if (!match) unknown.push(name);
          else if (match.ids.length > 1) ambiguous.push(name);
          else resolved.push(Number(match.ids[0]));
        }
        if (unknown.length > 0) {
          (errors.compatible_models ??= []).push(
            `No model has the name or model number ${quoted(unknown)}: write the brand and model name, or a model number.`,
          );
        }
        if (ambiguous.length > 0) {
          (errors.compatible_models ??= []).push(
            `${quoted(ambiguous)} ${ambiguous.length === 1 ? 'is the model number' : 'are model numbers'} of several models: write the brand and model name.`,
          );
        }
        values.compatible_model_ids = [...new Set(resolved)];
      }
      if (Array.isArray(input.compatible_model_ids)) {
        const missing = input.compatible_model_ids.filter((m) => !knownIds.has(m));
        if (missing.length > 0) {
          errors.compatible_model_ids = [`There is no model with id ${missing.join(', ')}.`];
        }
      }

      if (typeof input.barcode === 'string') {
        const holder = holderOf.get(input.barcode);
        const sameRow =
          holder &&
          (id !== null
            ? Number(holder.id) === id
            : holder.key.toLowerCase() === String(input[keyField] ?? '').toLowerCase());
        const earlier = firstWithBarcode.get(input.barcode);
        if (holder && !sameRow) {
          errors.barcode = [`${label} ${holder.key} has this barcode.`];
        } else if (earlier !== undefined) {
          errors.barcode = ['Another row of the file has this barcode.'];
        } else {
          firstWithBarcode.set(input.barcode, index);
        }
      }
      return Object.keys(errors).length > 0 ? { errors } : { values };
    });
  };
}

export const accessoryStore: ResourceStore<
  typeof accessoryResource,
  typeof accessoryImportRowSchema
> = {
  contract: accessoryResource,
  reads: ['accessories', 'brands', 'device_models'],
  table: 'accessories',
  entity: 'accessory',
  list: {
    from: 'accessories a',
    id: 'a.id',
    columns: `a.id, a.sku, a.name, a.kind, a.barcode, ${compatibleModelColumns('a')},
      a.reorder_point, ${stampColumns('a')}`,
    sorts: {
      sku: { sql: 'lower(a.sku)', type: 'text' },
      name: { sql: 'lower(a.name)', type: 'text' },
      kind: { sql: 'a.kind', type: 'text' },
      reorder_point: { sql: 'a.reorder_point', type: 'integer' },
      updated_at: { sql: 'a.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      '(a.sku ILIKE ? OR a.name ILIKE ? OR a.barcode ILIKE ?)',
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.active !== undefined && ['a.active = ?', query.active],
      query.kind !== undefined && ['a.kind = ?', query.kind],
      compatibleWith('a', query.model_id),
    ],
  },
  uniques: {
    accessories_sku_key: ['sku', 'An accessory with this SKU exists.'],
    accessories_barcode_key: ['barcode', 'Another accessory has this barcode.'],
  },
  references: [
    {
      label: 'stock moves',
      countSql: 'SELECT count(*) FROM stock_moves WHERE accessory_id = $1',
    },
    {
      label: 'catalogue variants',
      countSql: 'SELECT count(*) FROM product_variants WHERE accessory_id = $1',
    },
  ],
  prepare: prepareCatalogueItems({ table: 'accessories', keyField: 'sku', label: 'Accessory' }),
  imports: {
    key: { fields: ['sku'], conflict: 'lower(sku)', match: 'lower(sku)' },
    rowSchema: accessoryImportRowSchema,
  },
};
