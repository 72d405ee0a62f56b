import { describe, expect, it } from 'vitest';
import { codesOf, stepsOf } from './transfer-steps';

describe('the steps of a return to vendor', () => {
  it('offers each step only where the status allows it', () => {
    expect(stepsOf({ status: 'draft', device_count: 0 })).toEqual(['cancel']);
    expect(stepsOf({ status: 'draft', device_count: 2 })).toEqual(['pack', 'cancel']);
    expect(stepsOf({ status: 'packed', device_count: 2 })).toEqual(['ship', 'cancel']);
    expect(stepsOf({ status: 'shipped', device_count: 2 })).toEqual(['confirm-receipt', 'credit']);
    expect(stepsOf({ status: 'received_by_vendor', device_count: 2 })).toEqual(['credit']);
    expect(stepsOf({ status: 'credited', device_count: 2 })).toEqual([]);
    expect(stepsOf({ status: 'cancelled', device_count: 0 })).toEqual([]);
  });

  it('reads a pasted list of codes', () => {
    expect(codesOf(' 350000010000011,350000010000029\n350000010000037 ;')).toEqual([
      '350000010000011',
      '350000010000029',
      '350000010000037',
    ]);
    expect(codesOf('   ')).toEqual([]);
  });
});
