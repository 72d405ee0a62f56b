import { PALLET_MAX_BOXES } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { boxesText, palletRefusal } from './putaway-modes';

describe('palletRefusal', () => {
  it('takes a new box, and refuses one on the pallet already or past the limit', () => {
    expect(palletRefusal([], 'IB-000001')).toBeNull();
    expect(palletRefusal(['IB-000001'], 'IB-000001')).toBe('IB-000001 is on the pallet already.');
    const full = Array.from({ length: PALLET_MAX_BOXES }, (_, n) => `IB-${n}`);
    expect(palletRefusal(full, 'IB-999999')).toContain('at most 50 boxes');
  });
});

describe('boxesText', () => {
  it('counts boxes in words', () => {
    expect(boxesText(1)).toBe('1 box');
    expect(boxesText(3)).toBe('3 boxes');
  });
});
