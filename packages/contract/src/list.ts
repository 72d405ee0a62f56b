import * as z from 'zod/mini';

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
