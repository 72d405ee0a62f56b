import * as z from 'zod/mini';
import type { Schema } from './endpoint.js';

/** Page number, page size (at most 200) and sort order of a list query; strings are coerced. */
export const pagingQueryShape = {
  page: z._default(
    z.coerce
      .number()
      .check(z.int('The page must be a whole number.'), z.gte(1, 'Pages start at 1.')),
    1,
  ),
  pageSize: z._default(
    z.coerce
      .number()
      .check(
        z.int('The page size must be a whole number.'),
        z.gte(1, 'The page size must be at least 1.'),
        z.lte(200, 'The page size must be at most 200.'),
      ),
    50,
  ),
  order: z._default(z.enum(['asc', 'desc']), 'asc'),
  search: z.optional(z.string().check(z.trim(), z.maxLength(200, 'The search is too long.'))),
};

/** One page of a list, with the total number of matching rows. */
export const pageSchema = <T extends Schema>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.int(),
    page: z.int(),
    pageSize: z.int(),
  });

/** A row's id as a path or query carries it; text that is no number reads as such. */
export const idNumber = z.coerce
  .number({ error: 'The id must be a whole number.' })
  .check(z.int('The id must be a whole number.'), z.gte(1, 'Unknown id.'));

export const idParamsSchema = z.object({ id: idNumber });

export const pickerOptionSchema = z.object({ id: z.int(), label: z.string() });
export type PickerOption = z.infer<typeof pickerOptionSchema>;

/** The most options a picker offers at once. */
export const PICKER_LIMIT = 20;

/**
 * A picker's query: the options matching a search, or the one option of an id, whatever the
 * picker would otherwise offer (a filter set from a link names what it filters by).
 */
export const pickerQuerySchema = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(200, 'The search is too long.'))),
  id: z.optional(idNumber),
});
export type PickerQuery = z.infer<typeof pickerQuerySchema>;
