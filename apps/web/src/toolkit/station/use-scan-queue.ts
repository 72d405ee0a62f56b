import { useCallback, useEffect, useRef, useState } from 'react';

/** A scan of this tab that has no answer yet, or whose request failed. */
export type QueuedScan = {
  readonly key: string;
  readonly code: string;
  /** When it was scanned. */
  readonly at: string;
  /** Why it was not scanned, once its request failed. */
  readonly failure?: string;
};

let scanNumber = 0;

/**
 * The scans of a station, sent one at a time in the order they were scanned: a scanner can read
 * the next code before the last one is answered, and two answers about one box must not cross.
 * Each answer is put on the page (`apply`) before the next scan is sent. A scan stays in `queued`
 * until then; one whose request failed stays with its failure, and the next scans go on. An answer
 * that could not be put on the page is still a scan the server recorded: it leaves the queue, and
 * `applyFailed` lets the station read what the server holds instead.
 */
export function useScanQueue<A>({
  send,
  apply,
  failed,
  applyFailed,
}: {
  send: (code: string) => Promise<A>;
  apply: (answer: A, code: string) => unknown;
  failed?: (error: unknown, code: string) => void;
  applyFailed?: (error: unknown, answer: A, code: string) => unknown;
}) {
  const [queued, setQueued] = useState<readonly QueuedScan[]>([]);
  const tail = useRef<Promise<void>>(Promise.resolve());
  // The latest callbacks: a scan sends with what the station holds when its turn comes.
  const handlers = useRef({ send, apply, failed, applyFailed });
  useEffect(() => {
    handlers.current = { send, apply, failed, applyFailed };
  });

  const enqueue = useCallback((code: string) => {
    scanNumber += 1;
    const scan: QueuedScan = { key: `scan-${scanNumber}`, code, at: new Date().toISOString() };
    setQueued((current) => [scan, ...current]);
    tail.current = tail.current.then(async () => {
      let answer: A;
      try {
        answer = await handlers.current.send(code);
      } catch (error) {
        const failure = error instanceof Error ? error.message : String(error);
        setQueued((current) =>
          current.map((other) => (other.key === scan.key ? { ...other, failure } : other)),
        );
        handlers.current.failed?.(error, code);
        return;
      }
      try {
        await handlers.current.apply(answer, code);
      } catch (error) {
        await handlers.current.applyFailed?.(error, answer, code);
      } finally {
        setQueued((current) => current.filter((other) => other.key !== scan.key));
      }
    });
  }, []);

  return { queued, enqueue };
}
