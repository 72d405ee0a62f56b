import * as z from 'zod/mini';

/**
 * Device and SIM identifiers as a receiving station reads them (DOMAIN.md 2.3 items 1-2 and
 * Appendix A): IMEI, MEID, TAC and ICCID. Parsers never throw; they say what is wrong in words a
 * warehouse worker understands.
 */

// Whitespace, control and format characters (CR/LF, TAB, GS, zero-width), dashes, dots, slashes.
const SCAN_NOISE = /[\s\p{Cc}\p{Cf}\p{Pd}./]/gu;
// AIM symbology identifiers (`]C0` Code 128, `]E0` EAN, `]d2` Data Matrix), repeated for idempotence.
const SYMBOLOGY_PREFIX = /^(?:\][A-Za-z][0-9A-Za-z])+/;

/** What a keyboard-wedge scanner or a paste gives, reduced to the identifier's characters. */
export function normaliseScan(raw: string): string {
  return raw
    .replace(SCAN_NOISE, '')
    .replace(SYMBOLOGY_PREFIX, '')
    .replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

/** Luhn check value in `base` for `values` (each below `base`) that will have it appended. */
function luhnCheck(values: readonly number[], base: number): number {
  // Once the check is appended, the payload's last value is second from the right: doubled.
  const sum = values.reduceRight((total, value, i) => {
    if ((values.length - i) % 2 === 0) return total + value;
    const doubled = value * 2;
    return total + (doubled >= base ? doubled - base + 1 : doubled); // digit sum in `base`
  }, 0);
  return (base - (sum % base)) % base;
}

/** The Luhn digit to append to an all-digit payload (IMEI, ICCID). */
export function luhnCheckDigit(payload: string): number {
  if (!/^\d*$/.test(payload)) throw new RangeError('A Luhn payload has only digits.');
  return luhnCheck([...payload].map(Number), 10);
}

/** True when `digits` is all digits and its last one is the Luhn check digit of the others. */
export function isLuhnValid(digits: string): boolean {
  return /^\d+$/.test(digits) && luhnCheckDigit(digits.slice(0, -1)) === Number(digits.at(-1));
}

export type IdentifierProblem =
  'empty' | 'characters' | 'length' | 'check-digit' | 'imeisv' | 'prefix';
/** `device` is a scan that may be an IMEI or a MEID. */
export type IdentifierKind = 'imei' | 'meid' | 'device' | 'tac' | 'iccid';

const NAMES: Record<IdentifierKind, string> = {
  imei: 'IMEI',
  meid: 'MEID',
  device: 'IMEI or MEID',
  tac: 'TAC',
  iccid: 'ICCID',
};
const LENGTHS: Record<IdentifierKind, string> = {
  imei: 'An IMEI has 15 digits',
  meid: 'A MEID has 14 characters, or 15 with its check digit',
  device: 'An IMEI or MEID has 14 or 15 characters',
  tac: 'A TAC has 8 digits (the start of the IMEI)',
  iccid: 'An ICCID has 19 or 20 digits',
};

/** The message of each problem for the kind of identifier and the length that was read. */
export const IDENTIFIER_MESSAGES: Record<
  IdentifierProblem,
  (kind: IdentifierKind, length: number) => string
> = {
  empty: (kind) => `Scan or type the ${NAMES[kind]}.`,
  characters: (kind) =>
    kind === 'meid' || kind === 'device'
      ? `The ${NAMES[kind]} may only contain digits and the letters A to F.`
      : `The ${NAMES[kind]} may only contain digits.`,
  length: (kind, length) =>
    kind === 'imei' && length === 14
      ? 'This has 14 digits: it may be an IMEI without its check digit. Scan the barcode that shows all 15 digits.'
      : `${LENGTHS[kind]}, not ${length}.`,
  'check-digit': (kind) => `The ${NAMES[kind]}'s check digit is wrong: rescan it.`,
  imeisv: () => 'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.',
  prefix: () => "An ICCID starts with 89: check that you scanned the SIM card's ICCID.",
};

export type ParseResult<T> =
  { ok: true; value: T } | { ok: false; problem: IdentifierProblem; message: string };

type ParseFailure = Extract<ParseResult<unknown>, { ok: false }>;
const fail = (problem: IdentifierProblem, kind: IdentifierKind, value: string): ParseFailure => ({
  ok: false,
  problem,
  message: IDENTIFIER_MESSAGES[problem](kind, value.length),
});

export type ParsedDeviceId =
  | { kind: 'imei'; value: string; tac: string }
  | {
      kind: 'meid';
      /** 14 upper-case hex characters, check digit dropped. */
      value: string;
      checkDigit: string | null;
      /** All 14 are digits: an IMEI-range MEID (first byte below A0). */
      decimal: boolean;
    };

/** The type allocation code: the first 8 digits of an IMEI. */
export const tacOf = (imei: string): string => imei.slice(0, 8);

/** An IMEI: 15 digits with a valid Luhn check digit; an IMEISV (16 digits) is refused. */
export function parseImei(raw: string): ParseResult<{ imei: string; tac: string }> {
  const imei = normaliseScan(raw);
  if (imei === '') return fail('empty', 'imei', imei);
  if (!/^\d+$/.test(imei)) return fail('characters', 'imei', imei);
  if (imei.length === 16) return fail('imeisv', 'imei', imei);
  if (imei.length !== 15) return fail('length', 'imei', imei);
  if (!isLuhnValid(imei)) return fail('check-digit', 'imei', imei);
  return { ok: true, value: { imei, tac: tacOf(imei) } };
}

/**
 * A MEID: 14 hex characters and an optional check digit, stored upper-case. The check digit is
 * the IMEI's Luhn for an all-decimal MEID and the same Luhn in base 16 otherwise.
 */
export function parseMeid(
  raw: string,
): ParseResult<{ meid: string; checkDigit: string | null; decimal: boolean }> {
  const scanned = normaliseScan(raw);
  if (scanned === '') return fail('empty', 'meid', scanned);
  if (!/^[0-9A-F]+$/.test(scanned)) return fail('characters', 'meid', scanned);
  if (scanned.length !== 14 && scanned.length !== 15) return fail('length', 'meid', scanned);
  const meid = scanned.slice(0, 14);
  const checkDigit = scanned[14] ?? null;
  const decimal = /^\d{14}$/.test(meid);
  const values = [...meid].map((c) => parseInt(c, 16));
  const expected = luhnCheck(values, decimal ? 10 : 16)
    .toString(16)
    .toUpperCase();
  if (checkDigit !== null && checkDigit !== expected) return fail('check-digit', 'meid', scanned);
  return { ok: true, value: { meid, checkDigit, decimal } };
}

/**
 * A scan at a receiving station: 15 digits are an IMEI (a bad check digit is refused, never read
 * as a MEID), 16 digits an IMEISV, 14 digits or 14-15 hex characters with a letter a MEID.
 */
export function parseDeviceId(raw: string): ParseResult<ParsedDeviceId> {
  const scanned = normaliseScan(raw);
  if (scanned === '') return fail('empty', 'device', scanned);
  if (/^\d{15,16}$/.test(scanned)) {
    const imei = parseImei(scanned);
    return imei.ok
      ? { ok: true, value: { kind: 'imei', value: imei.value.imei, tac: imei.value.tac } }
      : imei;
  }
  if (!/^[0-9A-F]+$/.test(scanned)) return fail('characters', 'device', scanned);
  if (scanned.length !== 14 && scanned.length !== 15) return fail('length', 'device', scanned);
  const meid = parseMeid(scanned);
  if (!meid.ok) return meid;
  const { meid: value, checkDigit, decimal } = meid.value;
  return { ok: true, value: { kind: 'meid', value, checkDigit, decimal } };
}

/** A TAC: exactly 8 digits. */
export function parseTac(raw: string): ParseResult<string> {
  const tac = normaliseScan(raw);
  if (tac === '') return fail('empty', 'tac', tac);
  if (!/^\d+$/.test(tac)) return fail('characters', 'tac', tac);
  if (tac.length !== 8) return fail('length', 'tac', tac);
  return { ok: true, value: tac };
}

export type IccidIssuer = { prefix: string; name: string; country: string };

/**
 * A starter prefix table (ICCID = 89, country code, issuer); operations extends it. An unknown
 * prefix is not an error: the issuer is then null.
 */
export const ICCID_ISSUERS: readonly IccidIssuer[] = [
  { prefix: '8901410', name: 'AT&T', country: 'US' },
  { prefix: '8901260', name: 'T-Mobile', country: 'US' },
  { prefix: '8901120', name: 'Sprint (T-Mobile)', country: 'US' },
  { prefix: '891480', name: 'Verizon', country: 'US' },
  { prefix: '8944', name: 'UK operator', country: 'GB' },
];

/** The issuer with the longest prefix that starts the ICCID, or null. */
export function issuerOfIccid(
  iccid: string,
  issuers: readonly IccidIssuer[] = ICCID_ISSUERS,
): IccidIssuer | null {
  let found: IccidIssuer | null = null;
  for (const issuer of issuers) {
    if (iccid.startsWith(issuer.prefix) && issuer.prefix.length > (found?.prefix.length ?? 0)) {
      found = issuer;
    }
  }
  return found;
}

/**
 * An ICCID: 89 then 17 or 18 digits, the last being the Luhn check digit. With
 * `withoutCheckDigit` (an import marked so) the Luhn check is skipped.
 */
export function parseIccid(
  raw: string,
  options: { withoutCheckDigit?: boolean } = {},
): ParseResult<{ iccid: string; issuer: IccidIssuer | null }> {
  const iccid = normaliseScan(raw);
  if (iccid === '') return fail('empty', 'iccid', iccid);
  if (!/^\d+$/.test(iccid)) return fail('characters', 'iccid', iccid);
  if (iccid.length !== 19 && iccid.length !== 20) return fail('length', 'iccid', iccid);
  if (!iccid.startsWith('89')) return fail('prefix', 'iccid', iccid);
  if (!options.withoutCheckDigit && !isLuhnValid(iccid)) return fail('check-digit', 'iccid', iccid);
  return { ok: true, value: { iccid, issuer: issuerOfIccid(iccid) } };
}

/** A string schema whose output is the identifier read by `parse`; failures carry its message. */
const identifierSchema = <T>(parse: (raw: string) => ParseResult<T>, pick: (value: T) => string) =>
  z.pipe(
    z.string(),
    z.transform((raw: string, ctx) => {
      const result = parse(raw);
      if (result.ok) return pick(result.value);
      ctx.issues.push({ code: 'custom', message: result.message, input: raw });
      return z.NEVER;
    }),
  );

/** A scanned IMEI; the output is the normalised 15 digits. */
export const imeiSchema = identifierSchema(parseImei, (value) => value.imei);
/** A TAC; the output is the normalised 8 digits. */
export const tacSchema = identifierSchema(parseTac, (value) => value);
/** A scanned ICCID with its check digit; the output is the normalised 19 or 20 digits. */
export const iccidSchema = identifierSchema(parseIccid, (value) => value.iccid);
/** A MEID; the output is its 14 upper-case hex characters, check digit dropped. */
export const meidSchema = identifierSchema(parseMeid, (value) => value.meid);
