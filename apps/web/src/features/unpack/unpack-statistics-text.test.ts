import { describe, expect, it } from 'vitest';
import { rateText } from './unpack-statistics-text';

describe('the return rate', () => {
  it('is returns per 100 orders shipped, and none without shipments', () => {
    expect(rateText(3, 200)).toBe('1.5 %');
    expect(rateText(1, 3)).toBe('33.3 %');
    expect(rateText(2, 0)).toBe('—');
  });
});
