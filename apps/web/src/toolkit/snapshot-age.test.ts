import { describe, expect, it } from 'vitest';
import { ageText, snapshotAgeMs } from './snapshot-age';

describe('a snapshot’s age', () => {
  const snapshot = { as_of: '2026-03-02T10:00:00.000Z', read_at: '2026-03-02T10:03:00.000Z' };

  it('is its age when the server answered plus the time since, on the browser’s own clock', () => {
    // The browser's clock is an hour off: only its own difference counts.
    const received = Date.parse('2026-03-02T11:00:00.000Z');
    expect(snapshotAgeMs(snapshot, received, received)).toBe(180_000);
    expect(snapshotAgeMs(snapshot, received, received + 120_000)).toBe(300_000);
  });

  it('is never negative', () => {
    expect(snapshotAgeMs(snapshot, 2_000, 1_000)).toBe(179_000);
    expect(snapshotAgeMs({ ...snapshot, read_at: snapshot.as_of }, 2_000, 1_000)).toBe(0);
  });

  it('is said in words', () => {
    expect(ageText(0)).toBe('just now');
    expect(ageText(59_999)).toBe('just now');
    expect(ageText(60_000)).toBe('1 min ago');
    expect(ageText(59 * 60_000)).toBe('59 min ago');
    expect(ageText(120 * 60_000)).toBe('2 h ago');
    expect(ageText(125 * 60_000)).toBe('2 h 5 min ago');
  });
});
