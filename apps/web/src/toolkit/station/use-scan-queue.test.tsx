import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useScanQueue } from './use-scan-queue';

afterEach(cleanup);

/** A request the test answers when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** A station whose requests wait for the test, recording what was sent and applied. */
function station() {
  const requests: { code: string; answer: ReturnType<typeof deferred<string>> }[] = [];
  const applied: string[] = [];
  const failures: string[] = [];
  const hook = renderHook(() =>
    useScanQueue<string>({
      send: (code) => {
        const answer = deferred<string>();
        requests.push({ code, answer });
        return answer.promise;
      },
      apply: (answer) => applied.push(answer),
      failed: (_, code) => failures.push(code),
    }),
  );
  return { hook, requests, applied, failures };
}

describe('the scan queue', () => {
  it('sends one scan at a time, in the order scanned, each applied before the next is sent', async () => {
    const { hook, requests, applied } = station();
    act(() => {
      hook.result.current.enqueue('A');
      hook.result.current.enqueue('B');
      hook.result.current.enqueue('C');
    });
    // All three show at once, newest first, while only the first is on its way.
    expect(hook.result.current.queued.map((scan) => scan.code)).toEqual(['C', 'B', 'A']);
    await waitFor(() => expect(requests.map((request) => request.code)).toEqual(['A']));

    await act(async () => requests[0]!.answer.resolve('answer A'));
    await waitFor(() => expect(requests.map((request) => request.code)).toEqual(['A', 'B']));
    expect(applied).toEqual(['answer A']);
    expect(hook.result.current.queued.map((scan) => scan.code)).toEqual(['C', 'B']);

    await act(async () => requests[1]!.answer.resolve('answer B'));
    await waitFor(() => expect(requests).toHaveLength(3));
    await act(async () => requests[2]!.answer.resolve('answer C'));
    await waitFor(() => expect(applied).toEqual(['answer A', 'answer B', 'answer C']));
    expect(hook.result.current.queued).toEqual([]);
  });

  it('keeps a failed scan with its reason, and goes on with the next', async () => {
    const { hook, requests, applied, failures } = station();
    act(() => {
      hook.result.current.enqueue('A');
      hook.result.current.enqueue('B');
    });
    await waitFor(() => expect(requests).toHaveLength(1));
    await act(async () => requests[0]!.answer.reject(new Error('Box WB-000001 is closed.')));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(failures).toEqual(['A']);
    await act(async () => requests[1]!.answer.resolve('answer B'));
    await waitFor(() => expect(applied).toEqual(['answer B']));
    expect(hook.result.current.queued).toEqual([
      expect.objectContaining({ code: 'A', failure: 'Box WB-000001 is closed.' }),
    ]);
  });

  it('takes a scan the server answered off the queue even when its answer cannot be shown', async () => {
    const sent: string[] = [];
    const failures: string[] = [];
    const rereads: string[] = [];
    const hook = renderHook(() =>
      useScanQueue<string>({
        send: async (code) => {
          sent.push(code);
          return `answer ${code}`;
        },
        apply: (answer) => {
          if (answer === 'answer A') throw new Error('The page could not follow the answer.');
        },
        failed: (_, code) => failures.push(code),
        applyFailed: (_, answer, code) => rereads.push(`${code}: ${answer}`),
      }),
    );
    act(() => {
      hook.result.current.enqueue('A');
      hook.result.current.enqueue('B');
    });
    await waitFor(() => expect(sent).toEqual(['A', 'B']));
    await waitFor(() => expect(hook.result.current.queued).toEqual([]));
    expect(failures).toEqual([]);
    expect(rereads).toEqual(['A: answer A']);
  });
});
