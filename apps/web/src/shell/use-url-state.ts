import { useCallback, useContext, useMemo } from 'react';
import { UNSAFE_DataRouterContext, useNavigate, useSearchParams } from 'react-router';

/**
 * Changes the address's query, starting from the query the router holds now. React Router's own
 * setter starts from the query of the last render, and the router renders a navigation as a
 * transition, which a busy browser may leave for later: a drawer closed and a search sent at once
 * put the closed drawer's key back and opened it again. Under a router without data (the unit
 * tests' memory router) the last render's query is the only one there is.
 */
export function useChangeQuery() {
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const [rendered] = useSearchParams();
  const navigate = useNavigate();
  return useCallback(
    (change: (query: URLSearchParams) => void) => {
      const query = new URLSearchParams(router ? router.state.location.search : rendered);
      change(query);
      void navigate(`?${query.toString()}`, { replace: true });
    },
    [router, rendered, navigate],
  );
}

/**
 * A list's filters, sort and page kept in the address, so that a filtered list is a link that can
 * be shared and survives a reload. Setting a filter goes back to the first page: the page key
 * (`page`, or a cursor) is dropped unless the change sets it.
 */
export function useUrlState<K extends string, P extends string = 'page'>(
  keys: readonly K[],
  pageKey: P = 'page' as P,
) {
  const [params] = useSearchParams();
  const changeQuery = useChangeQuery();
  const state = useMemo(
    () =>
      Object.fromEntries(keys.map((key) => [key, params.get(key) ?? undefined])) as Record<
        K,
        string | undefined
      >,
    [keys, params],
  );
  const update = useCallback(
    (changes: Partial<Record<K | P, string | number | undefined>>) =>
      changeQuery((query) => {
        if (!(pageKey in changes)) query.delete(pageKey);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '') query.delete(key);
          else query.set(key, String(value));
        }
      }),
    [changeQuery, pageKey],
  );
  return [state, update] as const;
}

/**
 * One value kept in the address beside a list's own (the drawer a page has open), so that the
 * drawer is a link; setting it leaves the list where it was.
 */
export function useUrlParam(key: string) {
  const [params] = useSearchParams();
  const changeQuery = useChangeQuery();
  const value = params.get(key) ?? undefined;
  const set = useCallback(
    (next: string | undefined) =>
      changeQuery((query) => {
        if (next === undefined || next === '') query.delete(key);
        else query.set(key, next);
      }),
    [key, changeQuery],
  );
  return [value, set] as const;
}
