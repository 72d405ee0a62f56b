import type { PickQueue } from '@inventory/contract';

/**
 * The pages of the pick station's queues (DOMAIN.md 4.14): one station, one page per queue. Kept
 * apart from the pages' components, so that the page registry reads it without them.
 */
export const PICK_QUEUE_PATHS: Record<PickQueue, string> = {
  standard: '/fulfill/need-to-fulfill',
  prepaid: '/fulfill/prepaid',
  existing_customer: '/fulfill/existing-customer',
  ota: '/fulfill/ota-orders',
  replacement: '/fulfill/replacement',
};

/** The queue a station page works. */
export const queueOfPath = (path: string): PickQueue =>
  (Object.keys(PICK_QUEUE_PATHS) as PickQueue[]).find(
    (queue) => PICK_QUEUE_PATHS[queue] === path,
  ) ?? 'standard';
