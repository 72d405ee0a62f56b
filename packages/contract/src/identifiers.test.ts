import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import {
  ICCID_ISSUERS,
  IDENTIFIER_MESSAGES,
  iccidSchema,
  imeiSchema,
  isLuhnValid,
  issuerOfIccid,
  luhnCheckDigit,
  normaliseScan,
  parseDeviceId,
  parseIccid,
  parseImei,
  parseMeid,
  parseTac,
  tacSchema,
} from './identifiers.js';

const digits = (length: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const withLuhn = (payload: string) => payload + luhnCheckDigit(payload);

const validImei = digits(14).map(withLuhn);
const validIccid = fc.oneof(digits(16), digits(17)).map((body) => withLuhn(`89${body}`));
// 14 hex characters with at least one letter, so never an IMEI-range decimal MEID.
const hexMeid = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength: 13, maxLength: 13 }),
    fc.constantFrom(...'ABCDEF'),
    fc.nat(13),
  )
  .map(([rest, letter, at]) => rest.slice(0, at) + letter + rest.slice(at));

/** `value` with one position changed to another digit. */
const oneDigitChange = (valid: fc.Arbitrary<string>) =>
  valid.chain((value) =>
    fc.tuple(fc.nat(value.length - 1), fc.integer({ min: 1, max: 9 })).map(([at, shift]) => ({
      at,
      changed: value.slice(0, at) + ((Number(value[at]) + shift) % 10) + value.slice(at + 1),
    })),
  );

/** What scanners and pastes put around or inside an identifier. */
const scanned = (value: fc.Arbitrary<string>) =>
  fc
    .tuple(
      value,
      fc.constantFrom('', ']C0', ']C1', ']E0', ' ', '\t', '\x1d'),
      fc.constantFrom('', '\r\n', '\n', '\r', '\t', ' ', '\x1d'),
      fc.array(fc.tuple(fc.nat(25), fc.constantFrom(' ', '-', '.', '/', '\x1d', '\u00a0'))),
    )
    .map(([clean, prefix, suffix, separators]) => {
      let text = clean;
      for (const [at, separator] of separators) {
        const i = at % (text.length + 1);
        text = text.slice(0, i) + separator + text.slice(i);
      }
      return { clean, raw: prefix + text + suffix };
    });

describe('normaliseScan', () => {
  it('strips what a scanner or a paste adds', () => {
    expect(normaliseScan(' ]C0 4901-5420.3237/518\r\n')).toBe('490154203237518');
    expect(normaliseScan(']C1\x1d8901\t4104 2123 4567 8909\x1d')).toBe('89014104212345678909');
    expect(normaliseScan('af0123450abcde')).toBe('AF0123450ABCDE');
    expect(normaliseScan('\u200b490154203237518\ufeff')).toBe('490154203237518');
  });

  it('is idempotent', () => {
    const noise = fc.string({
      unit: fc.constantFrom(...' \t\r\n\x1d\x00\x7f]-./_abcfCE01Z9\u00a0\u2013'),
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), noise), (text) => {
        const once = normaliseScan(text);
        expect(normaliseScan(once)).toBe(once);
      }),
    );
    // A hundred random strings take milliseconds; the machine running the whole suite at once
    // once held it past the default five seconds.
  }, 30_000);
});

describe('Luhn', () => {
  it('computes the check digit of known identifiers', () => {
    expect(luhnCheckDigit('49015420323751')).toBe(8);
    expect(luhnCheckDigit('35693803564380')).toBe(9);
    expect(luhnCheckDigit('8901410421234567890')).toBe(9);
    expect(isLuhnValid('490154203237518')).toBe(true);
    expect(isLuhnValid('490154203237517')).toBe(false);
    expect(isLuhnValid('49015420323751A')).toBe(false);
    expect(isLuhnValid('')).toBe(false);
    expect(() => luhnCheckDigit('12A')).toThrow(RangeError);
  });

  it('accepts every payload with its computed check digit', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789') }), (payload) => {
        expect(isLuhnValid(withLuhn(payload))).toBe(true);
      }),
    );
  });
});

describe('parseImei', () => {
  it('reads a valid IMEI and its TAC', () => {
    expect(parseImei('490154203237518')).toEqual({
      ok: true,
      value: { imei: '490154203237518', tac: '49015420' },
    });
    expect(parseImei('35-693803-564380-9').ok).toBe(true);
  });

  it('names each problem in plain words', () => {
    expect(parseImei(' \r\n')).toEqual({
      ok: false,
      problem: 'empty',
      message: 'Scan or type the IMEI.',
    });
    expect(parseImei('49015420323751O')).toMatchObject({
      problem: 'characters',
      message: 'The IMEI may only contain digits.',
    });
    expect(parseImei('490154203237517')).toMatchObject({
      problem: 'check-digit',
      message: "The IMEI's check digit is wrong: rescan it.",
    });
    expect(parseImei('4901542032375101')).toMatchObject({
      problem: 'imeisv',
      message: 'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.',
    });
    expect(parseImei('49015420323751')).toMatchObject({
      problem: 'length',
      message: expect.stringContaining('IMEI without its check digit'),
    });
    expect(parseImei('4901542032')).toMatchObject({
      problem: 'length',
      message: 'An IMEI has 15 digits, not 10.',
    });
  });

  it('accepts every valid IMEI, however it was scanned', () => {
    fc.assert(
      fc.property(scanned(validImei), ({ clean, raw }) => {
        expect(parseImei(raw)).toEqual({
          ok: true,
          value: { imei: clean, tac: clean.slice(0, 8) },
        });
      }),
    );
  });

  it('refuses every one-digit change of a valid IMEI as a bad check digit', () => {
    fc.assert(
      fc.property(oneDigitChange(validImei), ({ changed }) => {
        expect(parseImei(changed)).toMatchObject({ ok: false, problem: 'check-digit' });
      }),
    );
  });

  it('refuses every IMEISV', () => {
    fc.assert(
      fc.property(scanned(digits(16)), ({ raw }) => {
        expect(parseImei(raw)).toMatchObject({
          ok: false,
          problem: 'imeisv',
          message: IDENTIFIER_MESSAGES.imeisv('imei', 16),
        });
      }),
    );
  });
});

describe('parseMeid', () => {
  it('checks the check digit in base 16 for a hex MEID and in base 10 for a decimal one', () => {
    // The MEID example of Wikipedia: AF 01 23 45 0A BC DE, check digit C.
    expect(parseMeid('af0123450abcdec')).toEqual({
      ok: true,
      value: { meid: 'AF0123450ABCDE', checkDigit: 'C', decimal: false },
    });
    expect(parseMeid('AF0123450ABCDE7')).toMatchObject({
      problem: 'check-digit',
      message: "The MEID's check digit is wrong: rescan it.",
    });
    expect(parseMeid('490154203237518')).toEqual({
      ok: true,
      value: { meid: '49015420323751', checkDigit: '8', decimal: true },
    });
    expect(parseMeid('49015420323751A')).toMatchObject({ problem: 'check-digit' });
    expect(parseMeid('A0000000002')).toMatchObject({
      problem: 'length',
      message: 'A MEID has 14 characters, or 15 with its check digit, not 11.',
    });
    expect(parseMeid('A00000000000G')).toMatchObject({ problem: 'characters' });
  });
});

describe('parseDeviceId', () => {
  it('reads IMEIs and MEIDs, refuses IMEISVs', () => {
    expect(parseDeviceId('490154203237518')).toEqual({
      ok: true,
      value: { kind: 'imei', value: '490154203237518', tac: '49015420' },
    });
    expect(parseDeviceId('490154203237517')).toMatchObject({
      problem: 'check-digit',
      message: "The IMEI's check digit is wrong: rescan it.",
    });
    expect(parseDeviceId('49015420323751')).toEqual({
      ok: true,
      value: { kind: 'meid', value: '49015420323751', checkDigit: null, decimal: true },
    });
    expect(parseDeviceId('AF0123450ABCDEC')).toEqual({
      ok: true,
      value: { kind: 'meid', value: 'AF0123450ABCDE', checkDigit: 'C', decimal: false },
    });
    expect(parseDeviceId('4901542032375101')).toMatchObject({ problem: 'imeisv' });
    expect(parseDeviceId('')).toMatchObject({ message: 'Scan or type the IMEI or MEID.' });
    expect(parseDeviceId('A1B2')).toMatchObject({
      problem: 'length',
      message: 'An IMEI or MEID has 14 or 15 characters, not 4.',
    });
    expect(parseDeviceId('SN-X1')).toMatchObject({ problem: 'characters' });
  });

  it('accepts every valid IMEI and MEID, however it was scanned', () => {
    fc.assert(
      fc.property(scanned(validImei), ({ clean, raw }) => {
        expect(parseDeviceId(raw)).toEqual({
          ok: true,
          value: { kind: 'imei', value: clean, tac: clean.slice(0, 8) },
        });
      }),
    );
    fc.assert(
      fc.property(hexMeid, fc.boolean(), (meid, lower) => {
        expect(parseDeviceId(lower ? meid.toLowerCase() : meid)).toEqual({
          ok: true,
          value: { kind: 'meid', value: meid, checkDigit: null, decimal: false },
        });
      }),
    );
    fc.assert(
      fc.property(scanned(hexMeid), ({ clean, raw }) => {
        expect(parseDeviceId(raw)).toMatchObject({ ok: true, value: { value: clean } });
        expect(parseMeid(raw)).toMatchObject({ ok: true, value: { meid: clean } });
      }),
    );
  });

  it('accepts a hex MEID with exactly one check digit: its base-16 Luhn', () => {
    fc.assert(
      fc.property(hexMeid, (meid) => {
        const accepted = [...'0123456789ABCDEF'].filter((c) => parseDeviceId(meid + c).ok);
        expect(accepted).toHaveLength(1);
        expect(parseDeviceId(meid + accepted[0])).toEqual({
          ok: true,
          value: { kind: 'meid', value: meid, checkDigit: accepted[0], decimal: false },
        });
      }),
    );
  });

  it('never reads a changed IMEI as a MEID, and always refuses an IMEISV', () => {
    fc.assert(
      fc.property(oneDigitChange(validImei), digits(16), ({ changed }, imeisv) => {
        expect(parseDeviceId(changed)).toMatchObject({ ok: false, problem: 'check-digit' });
        expect(parseDeviceId(imeisv)).toMatchObject({ ok: false, problem: 'imeisv' });
      }),
    );
  });
});

describe('parseTac', () => {
  it('takes exactly 8 digits', () => {
    expect(parseTac(' 4901-5420 ')).toEqual({ ok: true, value: '49015420' });
    expect(parseTac('490154203237518')).toMatchObject({
      problem: 'length',
      message: 'A TAC has 8 digits (the start of the IMEI), not 15.',
    });
    expect(parseTac('4901542X')).toMatchObject({ problem: 'characters' });
  });
});

describe('parseIccid', () => {
  it('reads an ICCID and its issuer', () => {
    expect(parseIccid('8901 4104 2123 4567 8909')).toEqual({
      ok: true,
      value: { iccid: '89014104212345678909', issuer: ICCID_ISSUERS[0] },
    });
    expect(parseIccid('89148000001234567898')).toMatchObject({
      ok: true,
      value: { issuer: { name: 'Verizon', country: 'US' } },
    });
    expect(parseIccid('8944110123456789013')).toMatchObject({
      ok: true,
      value: { iccid: '8944110123456789013', issuer: { country: 'GB' } },
    });
    expect(parseIccid('8933000000000000004')).toMatchObject({ ok: true, value: { issuer: null } });
  });

  it('names each problem in plain words', () => {
    expect(parseIccid('89014104212345678908')).toMatchObject({
      problem: 'check-digit',
      message: "The ICCID's check digit is wrong: rescan it.",
    });
    expect(parseIccid('490154203237518')).toMatchObject({
      problem: 'length',
      message: 'An ICCID has 19 or 20 digits, not 15.',
    });
    expect(parseIccid('99014104212345678909')).toMatchObject({
      problem: 'prefix',
      message: "An ICCID starts with 89: check that you scanned the SIM card's ICCID.",
    });
    expect(parseIccid('')).toMatchObject({ problem: 'empty', message: 'Scan or type the ICCID.' });
  });

  it('accepts every valid ICCID, however it was scanned', () => {
    fc.assert(
      fc.property(scanned(validIccid), ({ clean, raw }) => {
        expect(parseIccid(raw)).toMatchObject({ ok: true, value: { iccid: clean } });
      }),
    );
  });

  it('refuses every one-digit change of a valid ICCID', () => {
    fc.assert(
      fc.property(oneDigitChange(validIccid), ({ at, changed }) => {
        // A change in the leading 89 is reported as a wrong prefix.
        const problem = at < 2 ? 'prefix' : 'check-digit';
        expect(parseIccid(changed)).toMatchObject({ ok: false, problem });
      }),
    );
  });

  it('skips the Luhn check only for files without check digits', () => {
    fc.assert(
      fc.property(fc.oneof(digits(17), digits(18)), (body) => {
        const iccid = `89${body}`;
        expect(parseIccid(iccid, { withoutCheckDigit: true })).toMatchObject({
          ok: true,
          value: { iccid },
        });
      }),
    );
    expect(parseIccid('89014104212345678908', { withoutCheckDigit: true }).ok).toBe(true);
    expect(parseIccid('8901410421234567', { withoutCheckDigit: true })).toMatchObject({
      problem: 'length',
    });
  });

  it('takes the issuer with the longest matching prefix', () => {
    const issuers = [
      { prefix: '8901', name: 'Some US issuer', country: 'US' },
      { prefix: '8901410', name: 'AT&T', country: 'US' },
      { prefix: '89014', name: 'Shorter', country: 'US' },
    ];
    expect(issuerOfIccid('89014104212345678909', issuers)?.name).toBe('AT&T');
    expect(issuerOfIccid('89012604212345678909', issuers)?.name).toBe('Some US issuer');
    expect(issuerOfIccid('89440000000000000000', issuers)).toBeNull();
    expect(issuerOfIccid('89012604212345678909')?.name).toBe('T-Mobile');
  });
});

describe('schemas', () => {
  it('output the normalised identifier', () => {
    expect(z.safeParse(imeiSchema, ' 490154203237518\r\n')).toMatchObject({
      success: true,
      data: '490154203237518',
    });
    expect(z.parse(tacSchema, '4901 5420')).toBe('49015420');
    expect(z.parse(iccidSchema, ']C0 89014104212345678909\r')).toBe('89014104212345678909');
  });

  it("carry the problem's message", () => {
    const imeisv = z.safeParse(imeiSchema, '4901542032375101');
    expect(imeisv.success).toBe(false);
    expect(imeisv.error?.issues[0]?.message).toBe(
      'This is an IMEISV (16 digits): scan the IMEI, not the IMEISV.',
    );
    expect(z.safeParse(tacSchema, '123').error?.issues[0]?.message).toBe(
      'A TAC has 8 digits (the start of the IMEI), not 3.',
    );
    expect(z.safeParse(iccidSchema, '89014104212345678908').error?.issues).toHaveLength(1);
    expect(z.safeParse(imeiSchema, 490154203237518).success).toBe(false);
  });
});
