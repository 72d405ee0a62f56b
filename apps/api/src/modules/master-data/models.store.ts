import {
  DEVICE_OSES,
  DEVICE_TYPES,
  NETWORKS,
  createDeviceModelSchema,
  deviceModelResource,
  mergeDeviceModelEndpoint,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable } from '../../db/db.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { repointAndDelete } from '../../toolkit/merge.js';
import {
  findItem,
  type Prepared,
  type ResourceFieldsOf,
  type ResourceStore,
  type WriteInput,
} from '../../toolkit/resource.js';
import type { ModuleContext } from '../module.js';
import { stampColumns } from './stamps.js';

/** The model's name as lists show it and imports of TACs accept it: "Motorola Moto G Play". */
export const MODEL_DISPLAY_NAME = "b.name || ' ' || m.name";

/**
 * The display name of the model that `modelId` (SQL) names, as a scalar subquery for a row of a
 * page: two lookups by primary key, where a join of model and brand makes PostgreSQL build a hash
 * table for every row.
 */
export const modelDisplayNameOf = (modelId: string) =>
  `(SELECT (SELECT b.name FROM brands b WHERE b.id = m.brand_id) || ' ' || m.name
    FROM device_models m WHERE m.id = ${modelId})`;

/** The brand of a model's column values until `finish`: its id, and its name for a new one. */
type BrandValues = { brand_id?: number; brand?: string };

/**
 * Resolves each input's brand name to a brand id in one query. A brand that does not exist yet
 * gets a negative stand-in id, one per name, so that the import key (brand_id, name) still tells
 * new brands apart at the dry run; `finish` creates it when the rows are written.
 */
async function prepareModels(
  inputs: readonly WriteInput<ResourceFieldsOf<typeof deviceModelResource>>[],
  db: Queryable,
): Promise<Prepared[]> {
  const names = [
    ...new Set(
      inputs.flatMap(({ input }) =>
        typeof input.brand === 'string' ? [input.brand.toLowerCase()] : [],
      ),
    ),
  ];
  const brandIds = new Map<string, number>();
  if (names.length > 0) {
    const rows = await db.query<{ id: number; key: string }>(
      'SELECT id, lower(name) AS key FROM brands WHERE lower(name) = ANY ($1::text[])',
      [names],
    );
    for (const row of rows) brandIds.set(row.key, row.id);
  }
  let standIn = 0;
  return inputs.map(({ input }) => {
    const values: Record<string, unknown> = Object.fromEntries(
      Object.entries(input).filter(([, value]) => value !== undefined),
    );
    if (typeof input.brand === 'string') {
      const key = input.brand.toLowerCase();
      if (!brandIds.has(key)) brandIds.set(key, --standIn);
      const { brand, ...rest } = values;
      return { values: { brand_id: brandIds.get(key), ...rest, brand } };
    }
    return { values };
  });
}

/**
 * Inside the writing transaction: creates the brands the records name that do not exist yet (in
 * one statement), puts their ids in place of the stand-ins, and drops the brand names.
 */
async function finishModels(
  records: Record<string, unknown>[],
  db: Queryable,
): Promise<Record<string, unknown>[]> {
  const newNames = new Map<string, string>();
  for (const record of records as BrandValues[]) {
    if (record.brand && (record.brand_id ?? 0) < 0) {
      const key = record.brand.toLowerCase();
      if (!newNames.has(key)) newNames.set(key, record.brand);
    }
  }
  const ids = new Map<string, number>();
  if (newNames.size > 0) {
    await db.query(
      `INSERT INTO brands (name) SELECT unnest($1::text[])
       ON CONFLICT ((lower(name))) DO NOTHING`,
      [[...newNames.values()]],
    );
    const rows = await db.query<{ id: number; key: string }>(
      'SELECT id, lower(name) AS key FROM brands WHERE lower(name) = ANY ($1::text[])',
      [[...newNames.keys()]],
    );
    for (const row of rows) ids.set(row.key, row.id);
  }
  return records.map((record) => {
    const { brand, ...values } = record as BrandValues & Record<string, unknown>;
    if (brand && (values.brand_id ?? 0) < 0) values.brand_id = ids.get(brand.toLowerCase());
    return values;
  });
}

/** A cell as the word of the list it matches whatever its case ("iOS" is ios), or as it is. */
const wordOf = (words: readonly string[]) => (text: unknown) =>
  typeof text === 'string'
    ? (words.find((word) => word.toLowerCase() === text.trim().toLowerCase()) ?? text)
    : text;
const deviceTypeOf = wordOf(DEVICE_TYPES);
const osOf = wordOf(DEVICE_OSES);
const networkOf = wordOf(NETWORKS);

/** A file row: Type, OS and Network in any case ("Phone", "iOS", "5g"), then the create input. */
const modelRowSchema = z.pipe(
  z.transform((row: unknown) => {
    if (typeof row !== 'object' || row === null) return row;
    const cells = row as Record<string, unknown>;
    return {
      ...cells,
      ...('device_type' in cells && { device_type: deviceTypeOf(cells.device_type) }),
      ...('os' in cells && { os: osOf(cells.os) }),
      ...('network' in cells && { network: networkOf(cells.network) }),
    };
  }),
  createDeviceModelSchema,
);

export const deviceModelStore: ResourceStore<typeof deviceModelResource, typeof modelRowSchema> = {
  contract: deviceModelResource,
  reads: ['brands', 'device_models', 'tac_numbers'],
  table: 'device_models',
  entity: 'device_model',
  list: {
    from: 'device_models m JOIN brands b ON b.id = m.brand_id',
    id: 'm.id',
    columns: `m.id, m.brand_id, b.name AS brand, m.name, ${MODEL_DISPLAY_NAME} AS display_name,
      m.model_numbers, m.device_type, m.os, m.storage_gb, m.ram_gb, m.network, m.esim,
      m.dual_sim, m.hotspot, m.weight_g,
      (SELECT count(*)::int FROM tac_numbers t WHERE t.model_id = m.id) AS tac_count,
      ${stampColumns('m')}`,
    sorts: {
      name: { sql: 'lower(m.name)', type: 'text' },
      // By brand, then by model within it: "brand model" lower-cased, kept by a trigger.
      brand: { sql: 'm.sort_name', type: 'text' },
      tac_count: {
        sql: '(SELECT count(*) FROM tac_numbers t WHERE t.model_id = m.id)',
        type: 'bigint',
      },
      updated_at: { sql: 'm.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      `(${MODEL_DISPLAY_NAME} ILIKE ? OR array_to_string(m.model_numbers, ' ') ILIKE ?)`,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.active !== undefined && ['m.active = ?', query.active],
      query.brand_id !== undefined && ['m.brand_id = ?', query.brand_id],
      query.device_type !== undefined && ['m.device_type = ?', query.device_type],
      query.os !== undefined && ['m.os = ?', query.os],
      query.network !== undefined && ['m.network = ?', query.network],
    ],
  },
  uniques: {
    device_models_brand_name_key: ['name', 'This brand has a model with this name already.'],
  },
  references: [
    { label: 'TAC numbers', countSql: 'SELECT count(*) FROM tac_numbers WHERE model_id = $1' },
    {
      label: 'accessories',
      countSql: 'SELECT count(*) FROM accessories WHERE compatible_model_ids @> ARRAY[$1::bigint]',
    },
    {
      label: 'parts',
      countSql: 'SELECT count(*) FROM parts WHERE compatible_model_ids @> ARRAY[$1::bigint]',
    },
    { label: 'devices', countSql: 'SELECT count(*) FROM devices WHERE model_id = $1' },
    {
      label: 'catalogue products',
      countSql: 'SELECT count(*) FROM products WHERE model_id = $1',
    },
    {
      label: 'government-plan prices',
      countSql: 'SELECT count(*) FROM gov_plan_prices WHERE model_id = $1',
    },
    {
      label: 'invoice lines',
      countSql: 'SELECT count(*) FROM invoice_lines WHERE model_id = $1',
    },
    {
      label: 'invoice IMEIs',
      countSql: 'SELECT count(*) FROM invoice_imeis WHERE model_id = $1 OR tac_model_id = $1',
    },
  ],
  prepare: prepareModels,
  finish: finishModels,
  imports: {
    key: {
      fields: ['brand_id', 'name'],
      conflict: 'brand_id, lower(name)',
      match: "brand_id::text || '|' || lower(name)",
    },
    rowSchema: modelRowSchema,
  },
};

/**
 * Merging a duplicate model: its TACs, and the accessories and parts that fit it, move to the
 * model kept, which also takes its model numbers.
 */
export function registerDeviceModelMerge({ endpoint, db }: ModuleContext): void {
  endpoint(mergeDeviceModelEndpoint, ({ principal, params, body, meta }) =>
    db.transaction(async (tx) => {
      const from = await findItem(deviceModelStore, tx, params.id);
      const into = await findItem(deviceModelStore, tx, body.into);
      await repointAndDelete(tx, 'device_models', params.id, body.into, [
        { table: 'tac_numbers', column: 'model_id' },
        { table: 'accessories', column: 'compatible_model_ids', array: true },
        { table: 'parts', column: 'compatible_model_ids', array: true },
        { table: 'devices', column: 'model_id' },
        { table: 'invoice_lines', column: 'model_id' },
        { table: 'invoice_imeis', column: 'model_id' },
        { table: 'invoice_imeis', column: 'tac_model_id' },
        { table: 'warehouse_boxes', column: 'expected_model_id' },
        { table: 'products', column: 'model_id' },
      ]);
      await tx.query(
        `UPDATE device_models SET model_numbers = ARRAY(
           SELECT number FROM (
             SELECT DISTINCT ON (lower(number)) number, position
             FROM unnest(model_numbers || $2::text[]) WITH ORDINALITY AS n (number, position)
             ORDER BY lower(number), position) kept
           ORDER BY position),
           updated_at = now(), updated_by = $3
         WHERE id = $1`,
        [body.into, from.model_numbers, principal.userId],
      );
      const after = await findItem(deviceModelStore, tx, body.into);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: 'device_model.merged',
        entityType: 'device_model',
        entityId: body.into,
        before: { merged: from, into },
        after,
      });
      return after;
    }),
  );
}
