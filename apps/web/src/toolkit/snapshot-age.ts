import { useEffect, useState } from 'react';

/**
 * How old kept figures are (a snapshot: `snapshotSchema` in the contract), so that a dashboard
 * says it (UX.md: "Figures that are kept rather than computed say how old they are").
 */

/** What the page knows of a snapshot's moments. */
export type SnapshotMoments = {
  /** When the server read the figures. */
  readonly as_of: string;
  /** When the server answered (its own clock, like `as_of`). */
  readonly read_at: string;
};

/**
 * The figures' age in milliseconds at `now`: their age when the server answered, plus the time
 * since the answer came (`receivedAt`, the browser's clock), so the two clocks are never compared.
 */
export const snapshotAgeMs = (snapshot: SnapshotMoments, receivedAt: number, now: number) =>
  Math.max(0, Date.parse(snapshot.read_at) - Date.parse(snapshot.as_of) + (now - receivedAt));

/** An age in words: "just now", "1 min ago", "2 h 5 min ago". */
export function ageText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h ago` : `${hours} h ${rest} min ago`;
}

/** The clock, read again every `everyMs`, so that an age on screen grows while it is shown. */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
