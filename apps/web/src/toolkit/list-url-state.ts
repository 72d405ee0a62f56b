import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useChangeQuery } from '../shell/use-url-state';

/** The address keys of every toolkit list, besides the area's filters. */
export const LIST_KEYS = ['search', 'sort', 'order', 'cursor', 'limit'] as const;

/**
 * A toolkit list's state in the address, so a filtered list is a link to share and survives a
 * reload. Any change but a page move starts again from the first page.
 */
export function useListUrlState(filterKeys: readonly string[]) {
  const [params] = useSearchParams();
  const changeQuery = useChangeQuery();
  const keys = useMemo(() => [...LIST_KEYS, ...filterKeys], [filterKeys]);
  const state = useMemo(
    () =>
      Object.fromEntries(keys.map((key) => [key, params.get(key) ?? undefined])) as Record<
        string,
        string | undefined
      >,
    [keys, params],
  );
  const update = useCallback(
    (changes: Record<string, string | number | undefined>) =>
      changeQuery((query) => {
        if (!('cursor' in changes)) query.delete('cursor');
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '') query.delete(key);
          else query.set(key, String(value));
        }
      }),
    [changeQuery],
  );
  return [state, update] as const;
}
