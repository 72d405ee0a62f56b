import { useMemo } from 'react';
import { useUrlState } from '../shell/use-url-state';

/** The address keys of every toolkit list, besides the area's filters. */
export const LIST_KEYS = ['search', 'sort', 'order', 'cursor', 'limit'] as const;

/**
 * A toolkit list's state in the address, so a filtered list is a link to share and survives a
 * reload. Any change but a page move starts again from the first page.
 */
export function useListUrlState(filterKeys: readonly string[]) {
  const keys = useMemo(() => [...LIST_KEYS, ...filterKeys], [filterKeys]);
  return useUrlState(keys, 'cursor');
}
