import { ApiError } from '../http/errors.js';

/**
 * Turns at work that holds a lot of memory (reading an import, carrying an attachment): at most
 * `atOnce` work at a time and at most `waitingMax` wait, each holding what it carries meanwhile;
 * past that, a request is refused with 503 and Retry-After, so memory adds up to a known bound.
 */
export type Turns = {
  /** Waits for a turn; throws the 503 when too many wait already. */
  take(): Promise<void>;
  /** Ends a turn taken, handing it to the next waiting, if any. */
  end(): void;
};

export function turns(atOnce: number, waitingMax: number, busy: string): Turns {
  let working = 0;
  const waiting: (() => void)[] = [];
  return {
    async take() {
      if (working >= atOnce && waiting.length >= waitingMax) {
        throw new ApiError(503, busy, { 'retry-after': '60' });
      }
      if (working < atOnce) {
        working += 1;
        return;
      }
      // The turn is handed over by end, without freeing it to a newcomer in between.
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    end() {
      const next = waiting.shift();
      if (next) next();
      else working -= 1;
    },
  };
}
