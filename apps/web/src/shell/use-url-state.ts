import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A list's filters, sort and page kept in the address, so that a filtered list is a link that can
 * be shared and survives a reload. Setting a filter goes back to page 1.
 */
export function useUrlState<K extends string>(keys: readonly K[]) {
  const [params, setParams] = useSearchParams();
  const state = useMemo(
    () =>
      Object.fromEntries(keys.map((key) => [key, params.get(key) ?? undefined])) as Record<
        K,
        string | undefined
      >,
    [keys, params],
  );
  const update = useCallback(
    (changes: Partial<Record<K | 'page', string | number | undefined>>) => {
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (!('page' in changes)) next.delete('page');
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, String(value));
          }
          return next;
        },
        { replace: true },
      );
    },
    [setParams],
  );
  return [state, update] as const;
}

/**
 * One value kept in the address beside a list's own (the drawer a page has open), so that the
 * drawer is a link; setting it leaves the list where it was.
 */
export function useUrlParam(key: string) {
  const [params, setParams] = useSearchParams();
  const value = params.get(key) ?? undefined;
  const set = useCallback(
    (next: string | undefined) =>
      setParams(
        (current) => {
          const changed = new URLSearchParams(current);
          if (next === undefined || next === '') changed.delete(key);
          else changed.set(key, next);
          return changed;
        },
        { replace: true },
      ),
    [key, setParams],
  );
  return [value, set] as const;
}
