import { PICKER_LIMIT, type PickerOption, type PickerQuery } from '@inventory/contract';
import type { Queryable } from '../db/db.js';
import { containsPattern } from '../http/sql.js';

/**
 * What a picker offers, as SQL: its rows (`from`, which may join), each row's `id` and `label`,
 * which rows match a search (`where`, the pattern as $1, or all rows when $1 is null), and their
 * order.
 */
export type PickerSql = {
  readonly from: string;
  readonly id: string;
  readonly label: string;
  readonly where: string;
  readonly order: string;
};

/**
 * A picker's options: up to PICKER_LIMIT rows matching the search or, given an id, that one row
 * whether or not the picker would offer it (a filter set from a link to a closed invoice still
 * names it; the page's guard already allows reading it).
 */
export function pickerOptions(
  db: Queryable,
  picker: PickerSql,
  query: PickerQuery,
): Promise<PickerOption[]> {
  const select = `SELECT ${picker.id} AS id, ${picker.label} AS label FROM ${picker.from}`;
  return query.id === undefined
    ? db.query<PickerOption>(
        `${select} WHERE ${picker.where} ORDER BY ${picker.order} LIMIT ${PICKER_LIMIT}`,
        [containsPattern(query.search)],
      )
    : db.query<PickerOption>(`${select} WHERE ${picker.id} = $1`, [query.id]);
}
