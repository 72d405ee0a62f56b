import type { Parcel } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { allVerified, dockStep } from './dock-scan';

const parcel = {
  package: { tracking_number: '9400190123400000123453' },
  units: [{ imei: '359999900000019' }, { imei: null }],
} as unknown as Parcel;

describe('a code scanned at the dock', () => {
  it('looks a parcel up when none is on the station, or another is', () => {
    expect(dockStep('9400190123400000123453', null)).toEqual({
      kind: 'lookup',
      code: '9400190123400000123453',
    });
    expect(dockStep('1Z999AA10123456784', parcel)).toEqual({
      kind: 'lookup',
      code: '1Z999AA10123456784',
    });
  });

  it('confirms the parcel on the station when it is scanned again, routing code or not', () => {
    expect(dockStep('420770029400190123400000123453', parcel)).toEqual({
      kind: 'confirm',
      code: '9400190123400000123453',
    });
  });

  it('verifies a device against the parcel', () => {
    expect(dockStep(' 359999900000019 ', parcel)).toEqual({
      kind: 'verify',
      imei: '359999900000019',
      known: true,
    });
    expect(dockStep('359999900000027', parcel)).toMatchObject({ kind: 'verify', known: false });
    expect(allVerified(parcel, new Set())).toBe(false);
    expect(allVerified(parcel, new Set(['359999900000019']))).toBe(true);
  });
});
