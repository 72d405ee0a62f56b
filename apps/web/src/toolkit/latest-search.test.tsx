import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLatestSearch } from './latest-search';
import type { Option } from './resource-page-config';

/** A load the test answers, term by term, in the order it chooses. */
function answeredLoad() {
  const pending = new Map<string, (found: Option[]) => void>();
  const load = (term: string) =>
    new Promise<Option[]>((resolve) => {
      pending.set(term, resolve);
    });
  return { load, answer: (term: string, found: Option[]) => pending.get(term)!(found) };
}

describe('useLatestSearch', () => {
  it("shows the typed term's answer though the focus's empty search answers after it", async () => {
    const { load, answer } = answeredLoad();
    const { result } = renderHook(() => useLatestSearch(load));
    let focused!: Promise<void>;
    let typed!: Promise<void>;
    act(() => {
      focused = result.current.search('');
      typed = result.current.search('ENR-2');
    });
    await act(async () => {
      answer('ENR-2', [{ value: 2, label: 'ENR-2' }]);
      await typed;
      answer('', []);
      await focused;
    });
    expect(result.current.options).toEqual([{ value: 2, label: 'ENR-2' }]);
    expect(result.current.loading).toBe(false);
  });

  it('keeps the options it is told to keep, once each', async () => {
    const { load, answer } = answeredLoad();
    const chosen = { value: 1, label: 'Chosen' };
    const { result } = renderHook(() =>
      useLatestSearch(load, {
        initial: [chosen],
        keep: (shown) => shown.filter((option) => option.value === 1),
      }),
    );
    let searched!: Promise<void>;
    act(() => {
      searched = result.current.search('x');
    });
    await act(async () => {
      answer('x', [chosen, { value: 3, label: 'Other' }]);
      await searched;
    });
    expect(result.current.options.map((option) => option.value)).toEqual([1, 3]);
  });
});
