import { describe, expect, it } from 'vitest';
import { rmaScanStep } from './rma-scan';

describe('a scan at RMA receiving', () => {
  it('is a device once an RMA is on the station', () => {
    expect(rmaScanStep(' 356938035643809 ', true)).toEqual({
      kind: 'device',
      code: '356938035643809',
    });
  });

  it('finds an RMA by its number or return label otherwise', () => {
    expect(rmaScanStep('RMA-0000012', true)).toEqual({ kind: 'lookup', code: 'RMA-0000012' });
    expect(rmaScanStep('9400100000000000000017', true).kind).toBe('lookup');
    expect(rmaScanStep('356938035643809', false).kind).toBe('lookup');
  });
});
