import { normaliseScan } from '../identifiers.js';

/**
 * Parcel tracking numbers as the carriers format them, with their check digits, so that a label's
 * number reads as the carrier's and a mistyped one is caught before it is looked up.
 *
 * - USPS Intelligent Mail package barcode (IMpb), 22 digits: channel application id `94`, the
 *   service type code (3), the Mailer ID (6), a serial (10) and the mod-10 check digit (the USS
 *   rule: from the right, weights 3 and 1 in turn).
 * - UPS "1Z", 18 characters: `1Z`, the shipper number (6), the service code (2), the package
 *   reference (7) and the check digit (letters as digits, odd positions once, even twice).
 */

export const CARRIERS = ['usps', 'ups'] as const;
export type Carrier = (typeof CARRIERS)[number];

export const CARRIER_NAMES: Record<Carrier, string> = { usps: 'USPS', ups: 'UPS' };

const digitsOnly = (text: string) => /^\d+$/.test(text);

/** The mod-10 check digit of an IMpb's 21 digits. */
export function uspsCheckDigit(payload: string): number {
  if (!digitsOnly(payload)) throw new RangeError('An IMpb payload has only digits.');
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    // The rightmost digit of the payload weighs 3.
    const weight = (payload.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(payload[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** A letter of a UPS number as a digit: A=2, B=3 … I=0, J=1 …; digits stay. */
const upsValue = (char: string) =>
  /\d/.test(char) ? Number(char) : (char.charCodeAt(0) - 63) % 10;

/** The check digit of the 15 characters after a UPS number's `1Z`. */
export function upsCheckDigit(payload: string): number {
  if (!/^[0-9A-Z]+$/.test(payload)) throw new RangeError('A UPS payload has digits and capitals.');
  let sum = 0;
  for (let i = 0; i < payload.length; i += 1) {
    sum += upsValue(payload[i]!) * (i % 2 === 1 ? 2 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** A USPS IMpb tracking number of 22 digits whose check digit is right. */
export const isUspsTracking = (code: string) =>
  /^9\d{21}$/.test(code) && uspsCheckDigit(code.slice(0, 21)) === Number(code[21]);

/** A UPS 1Z number whose check digit is right. */
export const isUpsTracking = (code: string) =>
  /^1Z[0-9A-Z]{16}$/.test(code) && upsCheckDigit(code.slice(2, 17)) === Number(code[17]);

export const carrierOfTracking = (code: string): Carrier | null =>
  isUspsTracking(code) ? 'usps' : isUpsTracking(code) ? 'ups' : null;

/**
 * What a dock scanner reads off a label, as the tracking number: the IMpb barcode carries the
 * routing code before the number (`420` and the ZIP, 5 or 9 digits), which is dropped.
 */
export function trackingOfScan(raw: string): string {
  const code = normaliseScan(raw);
  const routed = /^420(?:\d{5}|\d{9})(9\d{21})$/.exec(code);
  return routed ? routed[1]! : code;
}
