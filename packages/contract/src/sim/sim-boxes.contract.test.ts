import { describe, expect, it } from 'vitest';
import { isLuhnValid, luhnCheckDigit } from '../identifiers.js';
import { iccidRangeCount, iccidsOfRange, SIM_BOX_MAX_QTY } from './sim-boxes.contract.js';

const iccid = (payload: string) => `${payload}${luhnCheckDigit(payload)}`;

describe('an ICCID range', () => {
  it('counts the SIMs from the first to the last, check digits aside', () => {
    const first = iccid('890141012345678900');
    const last = iccid('890141012345679399');
    expect(iccidRangeCount(first, last)).toEqual({ ok: true, count: 500 });
    const all = iccidsOfRange(first, 500);
    expect(all[0]).toBe(first);
    expect(all.at(-1)).toBe(last);
    expect(all.every(isLuhnValid)).toBe(true);
    expect(new Set(all).size).toBe(500);
  });

  it('carries over digits and keeps 20-digit ICCIDs beyond the safe integers', () => {
    const first = iccid('8901260999999999999');
    expect(iccidsOfRange(first, 2)).toEqual([first, iccid('8901261000000000000')]);
  });

  it('refuses mixed lengths, a reversed range and one larger than a box', () => {
    const short = iccid('890141012345678900');
    const long = iccid('8901410123456789000');
    expect(iccidRangeCount(short, long)).toMatchObject({ ok: false });
    expect(iccidRangeCount(iccid('890141012345678901'), short)).toMatchObject({
      ok: false,
      message: expect.stringContaining('before the first'),
    });
    const far = iccid(String(890141012345678900n + BigInt(SIM_BOX_MAX_QTY)));
    expect(iccidRangeCount(short, far)).toMatchObject({
      ok: false,
      message: expect.stringContaining('at most'),
    });
  });
});
