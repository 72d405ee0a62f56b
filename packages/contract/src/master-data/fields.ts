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

/** Plain address check: something@domain.tld, no spaces. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Digits with the usual separators, an optional leading + and an optional extension. */
const PHONE_PATTERN = /^\+?[0-9][0-9 ().-]{3,28}[0-9)]( *(x|ext\.?) *[0-9]{1,6})?$/i;

/** An optional text that, when given, must match a pattern; empty text is stored as no value. */
const optionalMatching = (max: number, tooLong: string, pattern: RegExp, message: string) =>
  z.optional(
    z.nullable(
      z.pipe(
        z.string().check(
          z.trim(),
          z.maxLength(max, tooLong),
          z.refine((text) => text === '' || pattern.test(text), message),
        ),
        z.transform((text) => (text === '' ? null : text)),
      ),
    ),
  );

/** An optional e-mail address of a contact (a vendor's, a retailer's). */
export const optionalEmail = optionalMatching(
  254,
  'The email is too long (at most 254 characters).',
  EMAIL_PATTERN,
  'Write the email like name@example.com.',
);

/** An optional phone number of a contact. */
export const optionalPhone = optionalMatching(
  40,
  'The phone number is too long (at most 40 characters).',
  PHONE_PATTERN,
  'Write the phone number with digits, spaces, + - ( ) and an optional "ext 12".',
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
