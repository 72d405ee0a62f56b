import { colorResource, mergeColorEndpoint } from '@inventory/contract';
import { auditActor, recordAudit } from '../audit/index.js';
import { repointAndDelete } from '../../toolkit/merge.js';
import { findItem, type ResourceStore } from '../../toolkit/resource.js';
import type { ModuleContext } from '../module.js';
import { stampColumns } from './stamps.js';

export const colorStore: ResourceStore<typeof colorResource> = {
  contract: colorResource,
  reads: ['colors', 'tac_numbers'],
  table: 'colors',
  entity: 'color',
  list: {
    from: 'colors c',
    id: 'c.id',
    columns: `c.id, c.name, c.hex, c.aliases,
      (SELECT count(*)::int FROM tac_numbers t WHERE t.color_id = c.id) AS usage_count,
      ${stampColumns('c')}`,
    sorts: {
      name: { sql: 'lower(c.name)', type: 'text' },
      usage_count: {
        sql: '(SELECT count(*) FROM tac_numbers t WHERE t.color_id = c.id)',
        type: 'bigint',
      },
      updated_at: { sql: 'c.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      "(c.name ILIKE ? OR array_to_string(c.aliases, ' ') ILIKE ? OR c.hex ILIKE ?)",
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [query.active !== undefined && ['c.active = ?', query.active]],
  },
  uniques: { colors_name_key: ['name', 'A colour with this name exists.'] },
  references: [
    { label: 'TAC numbers', countSql: 'SELECT count(*) FROM tac_numbers WHERE color_id = $1' },
    { label: 'devices', countSql: 'SELECT count(*) FROM devices WHERE color_id = $1' },
    { label: 'invoice lines', countSql: 'SELECT count(*) FROM invoice_lines WHERE color_id = $1' },
    { label: 'invoice IMEIs', countSql: 'SELECT count(*) FROM invoice_imeis WHERE color_id = $1' },
    {
      label: 'catalogue variants',
      countSql: 'SELECT count(*) FROM product_variants WHERE color_id = $1',
    },
  ],
  imports: { key: { fields: ['name'], conflict: 'lower(name)', match: 'lower(name)' } },
};

/** Merging a colour keeps its spellings as aliases of the colour it goes into. */
export function registerColorMerge({ endpoint, db }: ModuleContext): void {
  endpoint(mergeColorEndpoint, ({ principal, params, body, meta }) =>
    db.transaction(async (tx) => {
      const from = await findItem(colorStore, tx, params.id);
      const into = await findItem(colorStore, tx, body.into);
      await repointAndDelete(tx, 'colors', params.id, body.into, [
        { table: 'tac_numbers', column: 'color_id' },
        { table: 'devices', column: 'color_id' },
        { table: 'invoice_lines', column: 'color_id' },
        { table: 'invoice_imeis', column: 'color_id' },
        { table: 'product_variants', column: 'color_id' },
      ]);
      await tx.query(
        `UPDATE colors SET aliases = (
           SELECT COALESCE(array_agg(DISTINCT alias), '{}') FROM unnest(aliases || $2::text[]) AS alias
           WHERE lower(alias) <> lower(name)),
           updated_at = now(), updated_by = $3
         WHERE id = $1`,
        [body.into, [from.name, ...from.aliases], principal.userId],
      );
      const after = await findItem(colorStore, tx, body.into);
      await recordAudit(tx, {
        ...auditActor(principal, meta),
        action: 'color.merged',
        entityType: 'color',
        entityId: body.into,
        before: { merged: from, into },
        after,
      });
      return after;
    }),
  );
}
