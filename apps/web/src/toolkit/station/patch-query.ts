import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Puts an answer into a cached read instead of reading it again. A read on its way is dropped
 * first, as it may predate the answer. `update` gives the read as it stands after the answer, or
 * null when the answer shows that more changed than it says (another station's work): then, as
 * when nothing is held yet, the read is made again. True when the answer was put in.
 */
export async function patchQuery<T>(
  client: QueryClient,
  queryKey: QueryKey,
  update: (current: T) => T | null,
): Promise<boolean> {
  if (client.getQueryData<T>(queryKey) !== undefined) {
    await client.cancelQueries({ queryKey, exact: true });
    const current = client.getQueryData<T>(queryKey);
    const next = current === undefined ? null : update(current);
    if (next !== null) {
      client.setQueryData<T>(queryKey, next);
      return true;
    }
  }
  await client.invalidateQueries({ queryKey, exact: true });
  return false;
}
