import { RECEIVE_SCAN_RESULTS } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { countText, RESULT_WORDS, toneOf } from './scan-feedback';

describe('scan feedback', () => {
  it('has words and a tone for every result', () => {
    for (const result of RECEIVE_SCAN_RESULTS) {
      expect(RESULT_WORDS[result]).toBeTruthy();
      expect(['success', 'warning', 'info', 'error']).toContain(toneOf(result));
    }
    expect(toneOf('added')).toBe('success');
    expect(toneOf('already_in_box')).toBe('info');
  });

  it('counts against the expected quantity when there is one', () => {
    expect(countText(3, 10)).toBe('3 of 10');
    expect(countText(3, null)).toBe('3');
  });
});
