import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { isoDate } from './receiving-fields.js';

describe('a calendar date', () => {
  const day = isoDate('day');
  it('is a day of the calendar written as YYYY-MM-DD', () => {
    expect(z.safeParse(day, '2024-02-29').success).toBe(true);
    expect(z.safeParse(day, '2026-12-31').success).toBe(true);
  });

  it('refuses a day the calendar does not have, which the database would refuse too', () => {
    for (const text of ['2024-02-30', '2023-02-29', '2026-04-31', '2026-13-01', '2026-00-10']) {
      const parsed = z.safeParse(day, text);
      expect(parsed.success, text).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('The day is not a date.');
    }
    expect(z.safeParse(day, '29/02/2024').error?.issues[0]?.message).toBe(
      'Write the day as YYYY-MM-DD.',
    );
  });
});
