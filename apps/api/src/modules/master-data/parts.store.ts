import { partImportRowSchema, partResource } from '@inventory/contract';
import type { ResourceStore } from '../../toolkit/resource.js';
import {
  compatibleModelColumns,
  compatibleWith,
  prepareCatalogueItems,
} from './accessories.store.js';
import { stampColumns } from './stamps.js';

/**
 * Parts are costed in cents; the files' Cost column is in currency units with two decimals: the
 * item carries both (`cost` is text made by the database, "12.50"), the export reads `cost` and
 * the import's row schema turns the Cost text into cents without floating point.
 */
export const partStore: ResourceStore<typeof partResource, typeof partImportRowSchema> = {
  contract: partResource,
  reads: ['brands', 'device_models', 'parts'],
  table: 'parts',
  entity: 'part',
  list: {
    from: 'parts p',
    id: 'p.id',
    columns: `p.id, p.part_number, p.name, p.category, ${compatibleModelColumns('p')},
      p.cost_cents, (p.cost_cents / 100.0)::numeric(12, 2)::text AS cost, p.reorder_point,
      p.barcode, ${stampColumns('p')}`,
    sorts: {
      part_number: { sql: 'lower(p.part_number)', type: 'text' },
      name: { sql: 'lower(p.name)', type: 'text' },
      category: { sql: 'p.category', type: 'text' },
      cost_cents: { sql: 'p.cost_cents', type: 'integer' },
      reorder_point: { sql: 'p.reorder_point', type: 'integer' },
      updated_at: { sql: 'p.updated_at', type: 'timestamptz' },
    },
    search: (pattern) => [
      '(p.part_number ILIKE ? OR p.name ILIKE ? OR p.barcode ILIKE ?)',
      pattern,
      pattern,
      pattern,
    ],
    filters: (query) => [
      query.active !== undefined && ['p.active = ?', query.active],
      query.category !== undefined && ['p.category = ?', query.category],
      compatibleWith('p', query.model_id),
    ],
  },
  uniques: {
    parts_part_number_key: ['part_number', 'A part with this part number exists.'],
    parts_barcode_key: ['barcode', 'Another part has this barcode.'],
  },
  // Repairs consume parts through stock moves, so the ledger is the one reference.
  references: [
    { label: 'stock moves', countSql: 'SELECT count(*) FROM stock_moves WHERE part_id = $1' },
  ],
  prepare: prepareCatalogueItems({ table: 'parts', keyField: 'part_number', label: 'Part' }),
  imports: {
    key: { fields: ['part_number'], conflict: 'lower(part_number)', match: 'lower(part_number)' },
    rowSchema: partImportRowSchema,
  },
};
