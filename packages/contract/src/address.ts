import * as z from 'zod/mini';

/**
 * United States postal addresses: the states, DC, the inhabited territories and the military
 * "states" (AA, AE, AP), as USPS abbreviates them, and the ZIP code (five digits, or ZIP+4).
 */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
  'AA',
  'AE',
  'AP',
] as const;
export type UsState = (typeof US_STATES)[number];

/** A state as its two-letter USPS code; lower case is accepted and stored upper case. */
export const usStateSchema = z.pipe(
  z.string('Choose the state.').check(z.trim(), z.toUpperCase()),
  z.enum(US_STATES, 'Write the state as its two-letter code, like TX.'),
);

/** A ZIP code: 12345 or 12345-6789. */
export const usZipSchema = z
  .string('Write the ZIP code.')
  .check(z.trim(), z.regex(/^[0-9]{5}(-[0-9]{4})?$/, 'Write the ZIP code as 12345 or 12345-6789.'));
