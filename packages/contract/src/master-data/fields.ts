import * as z from 'zod/mini';

/** Field schemas shared by the master-data contracts. */

/** A required name of at most `max` characters. */
export const requiredText = (what: string, max = 200) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `Please enter the ${what}.`),
      z.maxLength(max, `The ${what} is too long (at most ${max} characters).`),
    );

/** Optional free text; empty text is stored as no value. */
export const optionalText = (what: string, max = 500) =>
  z.optional(
    z.nullable(
      z.pipe(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(max, `The ${what} is too long (at most ${max} characters).`),
          ),
        z.transform((text) => (text === '' ? null : text)),
      ),
    ),
  );

export const hexColor = z.optional(
  z.nullable(
    z.pipe(
      z
        .string()
        .check(
          z.trim(),
          z.regex(/^(#?[0-9A-Fa-f]{6})?$/, 'Write the colour as six hex digits, like #1A2B3C.'),
        ),
      // Empty text is no colour, as for every optional text.
      z.transform((hex) => (hex === '' ? null : `#${hex.replace('#', '').toUpperCase()}`)),
    ),
  ),
);

/** A list of short words, trimmed, empty entries and repeats (ignoring case) dropped. */
export const wordList = (what: string, maxItems = 50, maxLength = 100) =>
  z.pipe(
    z
      .array(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(maxLength, `Each ${what} is at most ${maxLength} characters.`),
          ),
      )
      .check(z.maxLength(maxItems, `At most ${maxItems} ${what}s.`)),
    z.transform((words) => {
      const seen = new Set<string>();
      return words.filter((word) => {
        const key = word.toLowerCase();
        if (word === '' || seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    }),
  );

export const wholeNumber = (what: string, min = 0, max = 2_000_000_000) =>
  z
    .number()
    .check(
      z.int(`The ${what} must be a whole number.`),
      z.gte(min, `The ${what} must be at least ${min}.`),
      z.lte(max, `The ${what} must be at most ${max}.`),
    );

export const optionalWholeNumber = (what: string, min = 0, max = 2_000_000_000) =>
  z.optional(z.nullable(wholeNumber(what, min, max)));

export const entityId = (what: string) =>
  z.number().check(z.int(`Choose a ${what}.`), z.gte(1, `Choose a ${what}.`));

export const idList = (what: string) =>
  z.array(entityId(what)).check(z.maxLength(500, `At most 500 ${what}s.`));

/** The audit columns every master-data item carries. */
export const stampShape = {
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
};

/** A merge: the rows of `from` are repointed to `into` and `from` is deleted. */
export const mergeBodySchema = z.object({ into: entityId('row to keep') });
