import { RECEIVE_SCAN_RESULTS } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { countText } from '../../toolkit/station';
import { RECEIVING_FEEDBACK } from './scan-feedback';

describe('scan feedback', () => {
  it('has words and a tone for every result', () => {
    for (const result of RECEIVE_SCAN_RESULTS) {
      expect(RECEIVING_FEEDBACK.words[result]).toBeTruthy();
      expect(['success', 'warning', 'info', 'error']).toContain(RECEIVING_FEEDBACK.tones[result]);
    }
    expect(RECEIVING_FEEDBACK.tones.added).toBe('success');
    expect(RECEIVING_FEEDBACK.tones.already_in_box).toBe('info');
  });

  it('counts against the expected quantity when there is one', () => {
    expect(countText(3, 10)).toBe('3 of 10');
    expect(countText(3, null)).toBe('3');
  });
});
