import type { FulfilmentType } from '@inventory/contract';

/**
 * The fulfilment dashboard's words: its queues' names, and the countdown to the day's carrier
 * cut-off on the server's clock (the moment the server answered plus the time since the answer
 * came, so the browser's clock is never compared with the cut-off, as the kept figures' age in
 * `toolkit/snapshot-age`).
 */

/** A queue (fulfilment type) as the dashboard names it. */
export const QUEUE_TEXT: Record<FulfilmentType, string> = {
  new_lifeline: 'New Lifeline',
  ota: 'OTA',
  prepaid: 'Prepaid',
  existing_customer: 'Existing customer',
  replacement: 'Replacement',
  support: 'Support',
  wholesale: 'Wholesale',
};

/** A duration in whole minutes: "under a minute", "45 min", "2 h", "2 h 5 min". */
export function durationText(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** The server's time now: when it answered (`readAt`), plus the time since (`receivedAt`). */
export const serverNow = (readAt: string, receivedAt: number, now: number) =>
  Date.parse(readAt) + (now - receivedAt);

/** How long until the cut-off at `cutoffAt` (ISO), or how long since it passed. */
export function cutoffCountdown(cutoffAt: string, atServer: number) {
  const left = Date.parse(cutoffAt) - atServer;
  return left > 0
    ? { passed: false, text: `${durationText(left)} left` }
    : { passed: true, text: `passed ${durationText(left)} ago` };
}
