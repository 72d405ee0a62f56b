import { useRef, useState } from 'react';
import { showApiError } from '../shell/api-errors';
import type { Option } from './resource-page-config';

/**
 * The options of a searching select. Focus searches '' while the first keys search the user's
 * term; answers can come back in either order, and only the latest search's is shown. `keep`
 * names the shown options a new answer must not drop (the chosen ones).
 */
export function useLatestSearch(
  load: (term: string) => Promise<Option[]>,
  { initial = [], keep }: { initial?: Option[]; keep?: (shown: Option[]) => Option[] } = {},
) {
  const [options, setOptions] = useState<Option[]>(initial);
  const [loading, setLoading] = useState(false);
  const latest = useRef(0);
  const search = async (term: string) => {
    const asked = ++latest.current;
    setLoading(true);
    try {
      const found = await load(term);
      if (asked !== latest.current) return;
      setOptions((shown) => {
        const kept = keep?.(shown) ?? [];
        return [...kept, ...found.filter((o) => !kept.some((k) => k.value === o.value))];
      });
    } catch (error) {
      if (asked === latest.current) showApiError(error);
    } finally {
      if (asked === latest.current) setLoading(false);
    }
  };
  return { options, loading, search };
}
