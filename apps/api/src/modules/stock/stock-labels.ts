import type { StockItemKind } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { NotFoundError, fieldError } from '../../http/errors.js';
import type { LabelContent } from '../../toolkit/documents/print.js';
import { ITEM_TABLES } from './stock.service.js';

/**
 * Bin labels (2x1, the documents toolkit's label): the SKU or part number in bold with its
 * Code128 barcode, the item's name, and the bin's code as a second barcode, so that a person
 * reads the shelf as the scanner does. One label per item and bin, in bin order.
 */

const missingOf = (ids: readonly number[], found: readonly { id: number }[]) => {
  const seen = new Set(found.map((row) => row.id));
  return [...new Set(ids)].filter((id) => !seen.has(id)).slice(0, 10);
};

/** The chosen accessory bins (the list's rows: stock level ids), each of them or a 404. */
export async function accessoryBinsToLabel(
  db: Queryable,
  ids: readonly number[],
): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    "SELECT id::int AS id FROM stock_levels WHERE item_kind = 'accessory' AND id = ANY($1::bigint[])",
    [ids],
  );
  const missing = missingOf(ids, rows);
  if (missing.length > 0) {
    throw new NotFoundError(`There is no accessory bin with id ${missing.join(', ')}.`);
  }
  return rows.map((row) => row.id);
}

/**
 * The bins holding the chosen parts (the list's rows: part ids): a part's row spans its bins, so
 * each bin with units gets its label. An unknown part is a 404; parts in no bin leave nothing to
 * print (422).
 */
export async function partBinsToLabel(db: Queryable, ids: readonly number[]): Promise<number[]> {
  const parts = await db.query<{ id: number }>(
    'SELECT id::int AS id FROM parts WHERE id = ANY($1::bigint[])',
    [ids],
  );
  const missing = missingOf(ids, parts);
  if (missing.length > 0)
    throw new NotFoundError(`There is no part with id ${missing.join(', ')}.`);
  const levels = await db.query<{ id: number }>(
    'SELECT id::int AS id FROM stock_levels WHERE part_id = ANY($1::bigint[]) AND on_hand > 0',
    [ids],
  );
  if (levels.length === 0) {
    throw fieldError(
      'ids',
      ids.length === 1
        ? 'This part is in no bin: there is no bin label to print.'
        : 'None of the chosen parts is in a bin: there is no bin label to print.',
    );
  }
  return levels.map((level) => level.id);
}

/** The labels of the stock levels a print link recorded. */
export async function binLabels(
  db: Queryable,
  kind: StockItemKind,
  levelIds: readonly number[],
): Promise<LabelContent> {
  const { table, label } = ITEM_TABLES[kind];
  const rows = await db.query<{ item: string; name: string; bin: string }>(
    `SELECT i.${label} AS item, i.name, l.code AS bin
     FROM stock_levels s JOIN ${table} i ON i.id = s.item_id JOIN locations l ON l.id = s.location_id
     WHERE s.item_kind = $1 AND s.id = ANY($2::bigint[]) ORDER BY l.code, lower(i.${label})`,
    [kind, levelIds],
  );
  const [first] = rows;
  if (!first) throw new NotFoundError('The bins of these labels are gone.');
  return {
    fileName:
      rows.length === 1 ? `bin-label-${first.item}-${first.bin}` : `bin-labels-${rows.length}`,
    labels: rows.map((row) => ({
      barcode: row.item,
      title: row.item,
      lines: [row.name],
      secondBarcode: row.bin,
    })),
  };
}
