import { PICKER_LIMIT, type PickerOption } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { containsPattern } from '../../http/sql.js';

/**
 * The product variants a price may name: those of a product of the model, by SKU or product name,
 * or one variant by id (a form opened on a price names its variant).
 */
export function variantOptions(
  db: Queryable,
  query: { search?: string | undefined; id?: number | undefined; model_id?: number | undefined },
): Promise<PickerOption[]> {
  const select = `SELECT v.id, v.sku || ' (' || p.name || ')' AS label
    FROM product_variants v JOIN products p ON p.id = v.product_id`;
  return query.id === undefined
    ? db.query<PickerOption>(
        `${select}
         WHERE ($1::bigint IS NULL OR p.model_id = $1) AND v.status = 'active'
           AND ($2::text IS NULL OR v.sku ILIKE $2 OR p.name ILIKE $2)
         ORDER BY v.sku, v.id LIMIT ${PICKER_LIMIT}`,
        [query.model_id ?? null, containsPattern(query.search)],
      )
    : db.query<PickerOption>(`${select} WHERE v.id = $1`, [query.id]);
}
