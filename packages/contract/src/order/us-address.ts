import * as z from 'zod/mini';
import { usStateSchema, usZipSchema } from '../address.js';

/**
 * US postal addresses as orders keep them (DOMAIN.md 5.2 step 2): upper case, single spaces, a
 * two-letter state and a ZIP of 5 digits or ZIP+4. Whether the ZIP lies in the state is the
 * server's check (a bundled ZIP data set); this is what both sides check alike.
 */

/** A post office box: never a service address (a subscriber lives at a physical address). */
const PO_BOX_PATTERN = /^(P\.? ?O\.?|POST OFFICE) ?BOX\b/;

/** Trimmed, upper case, one space between words. */
export const postalText = (text: string) => text.trim().replace(/\s+/g, ' ').toUpperCase();

const line = (what: string, required: boolean) =>
  z.pipe(
    z
      .string(`Enter the ${what}.`)
      .check(
        z.trim(),
        ...(required ? [z.minLength(1, `Enter the ${what}.`)] : []),
        z.maxLength(100, `The ${what} is too long (at most 100 characters).`),
      ),
    z.transform(postalText),
  );

export const usAddressShape = {
  line1: line('street address', true),
  line2: z.optional(
    z.nullable(
      z.pipe(
        line('second address line', false),
        z.transform((text) => text || null),
      ),
    ),
  ),
  city: line('city', true),
  state: usStateSchema,
  zip: usZipSchema,
};

/** A US address, normalised as it is read. */
export const usAddressSchema = z.object(usAddressShape);
export type UsAddress = z.output<typeof usAddressSchema>;
export type UsAddressInput = z.input<typeof usAddressSchema>;

/** The key two service addresses share when they are the same place: line 1 and the 5-digit ZIP. */
export const addressKey = (address: Pick<UsAddress, 'line1' | 'line2' | 'zip'>) =>
  [address.line1, address.line2 ?? '', address.zip.slice(0, 5)]
    .join('|')
    .replace(/[.,#]/g, '')
    .replace(/\s+/g, ' ');

export const isPoBox = (line1: string) => PO_BOX_PATTERN.test(postalText(line1));
