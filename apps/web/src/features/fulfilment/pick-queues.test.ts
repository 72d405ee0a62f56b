import { PICK_QUEUES } from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import { fulfilmentPages } from './fulfilment.pages';
import { PICK_QUEUE_PATHS, queueOfPath } from './pick-queues';

describe('the pick station pages', () => {
  it('are one page per queue, each loading the station, which reads its queue from the path', () => {
    const station = fulfilmentPages.find((page) => page.path === PICK_QUEUE_PATHS.standard)!;
    for (const queue of PICK_QUEUES) {
      const page = fulfilmentPages.find((entry) => entry.path === PICK_QUEUE_PATHS[queue]);
      expect(page, queue).toBeDefined();
      expect(String(page!.load)).toBe(String(station.load));
      expect(queueOfPath(page!.path)).toBe(queue);
    }
  });
});
