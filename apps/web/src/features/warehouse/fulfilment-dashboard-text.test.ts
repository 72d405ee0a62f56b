import { describe, expect, it } from 'vitest';
import { cutoffCountdown, durationText, serverNow } from './fulfilment-dashboard-text';

describe('the cut-off countdown', () => {
  it('says a duration in whole minutes', () => {
    expect(durationText(59_999)).toBe('under a minute');
    expect(durationText(45 * 60_000 + 30_000)).toBe('45 min');
    expect(durationText(2 * 3_600_000)).toBe('2 h');
    expect(durationText(-(2 * 3_600_000 + 5 * 60_000))).toBe('2 h 5 min');
  });

  it('counts down on the server’s clock, whatever the browser’s says', () => {
    // The server answered at 12:30 its time; the browser, 3 hours off, received it 10 min ago.
    const browserNow = Date.parse('2026-11-28T21:40:00Z');
    const atServer = serverNow('2026-11-28T18:30:00.000Z', browserNow - 600_000, browserNow);
    expect(new Date(atServer).toISOString()).toBe('2026-11-28T18:40:00.000Z');
    expect(cutoffCountdown('2026-11-28T20:00:00.000Z', atServer)).toEqual({
      passed: false,
      text: '1 h 20 min left',
    });
    expect(cutoffCountdown('2026-11-28T18:05:00.000Z', atServer)).toEqual({
      passed: true,
      text: 'passed 35 min ago',
    });
  });
});
