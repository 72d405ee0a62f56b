import { describe, expect, it } from 'vitest';
import { boxKind, isBoxCode } from './consolidation-feedback';

describe('the consolidation station reading a scan', () => {
  it('takes an IB code for the box and anything else for a device', () => {
    expect(isBoxCode('IB-000012')).toBe(true);
    expect(isBoxCode(' ib-000012 ')).toBe(true);
    expect(isBoxCode('350000010000014')).toBe(false);
  });

  it('says what a box holds in one line', () => {
    expect(
      boxKind({
        model: 'Samsung Galaxy A15',
        color: 'Black',
        capacity_gb: 128,
        grade: 'A',
        carrier_lock: 'T-Mobile',
      }),
    ).toBe('Samsung Galaxy A15 · Black · 128 GB · grade A · T-Mobile');
  });
});
