import * as z from 'zod/mini';

/** Values and field schemas shared by the receiving contracts. */

/** Cosmetic and functional grades, best first (DOMAIN.md glossary). */
export const DEVICE_GRADES = ['New', 'A+', 'A', 'B', 'C', 'D', 'F'] as const;
export type DeviceGrade = (typeof DEVICE_GRADES)[number];

export const DEVICE_CONDITIONS = ['new', 'used', 'refurbished', 'ungraded'] as const;
export type DeviceCondition = (typeof DEVICE_CONDITIONS)[number];

/** An amount of money in cents, as every money column stores it. */
export const centsSchema = (what: string) =>
  z
    .number(`The ${what} must be a number of cents.`)
    .check(
      z.int(`The ${what} must be a whole number of cents.`),
      z.gte(0, `The ${what} cannot be negative.`),
      z.lte(100_000_000_000, `The ${what} is too large.`),
    );

/** A calendar date as `YYYY-MM-DD`. */
export const isoDate = (what: string) =>
  z.string(`Write the ${what} as YYYY-MM-DD.`).check(
    z.regex(/^\d{4}-\d{2}-\d{2}$/, { message: `Write the ${what} as YYYY-MM-DD.`, abort: true }),
    // A day of the calendar: the date read back must be the one written (Date.parse takes
    // 2024-02-30 as 1 March).
    z.refine(
      (text) => {
        const time = Date.parse(`${text}T00:00:00Z`);
        return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
      },
      { message: `The ${what} is not a date.` },
    ),
  );

/** A scan as a station sends it: the code and which station sent it. */
export const scanBodyShape = {
  code: z
    .string('Scan or type a code.')
    .check(
      z.maxLength(64, 'This is too long for an IMEI or MEID.'),
      z.minLength(1, 'Scan or type a code.'),
    ),
  /** The scan station (a name the browser keeps), for the device's timeline. */
  station: z.optional(z.string().check(z.maxLength(60, 'The station name is too long.'))),
};
