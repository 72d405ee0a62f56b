/**
 * Type tests of a store's list: compiled by `tsc -b` (npm run typecheck), never run. Each
 * `@ts-expect-error` marks what the compiler must refuse: were it accepted, the unused directive
 * would itself fail the typecheck.
 */
import type { colorResource } from '@inventory/contract';
import type { ListSql, SortSql } from './list.js';
import type { ListQueryOf } from './resource.js';

type ColorListSql = ListSql<ListQueryOf<typeof colorResource>>;
const text: SortSql = { sql: 'lower(c.name)', type: 'text' };
const list = { from: 'colors c', id: 'c.id', columns: 'c.id, c.name' };

export const everySort: ColorListSql = {
  ...list,
  sorts: { name: text, usage_count: text, updated_at: text },
  filters: (query) => [query.active !== undefined && ['c.active = ?', query.active]],
};

export const misspeltSort: ColorListSql = {
  ...list,
  // @ts-expect-error: `colour` is no sort of the colours list.
  sorts: { name: text, usage_count: text, updated_at: text, colour: text },
};

export const missingSort: ColorListSql = {
  ...list,
  // @ts-expect-error: every declared sort has its SQL; `updated_at` is left out.
  sorts: { name: text, usage_count: text },
};

export const unknownFilter: ColorListSql = {
  ...list,
  sorts: { name: text, usage_count: text, updated_at: text },
  // @ts-expect-error: `status` is no filter of the colours list.
  filters: (query) => [query.status !== undefined && ['c.status = ?', query.status]],
};
