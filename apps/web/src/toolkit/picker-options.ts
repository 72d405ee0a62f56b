import type { EndpointDefinition, pickerEndpoint } from '@inventory/contract';
import { callEndpoint } from '../shell/http-client';
import type { ListFilter, Option } from './resource-page-config';

/** Any endpoint that answers as a picker does (a page's own, or the TAC pages' model picker). */
type PickerEndpoint = EndpointDefinition &
  Pick<ReturnType<typeof pickerEndpoint>, 'method' | 'query' | 'response'>;

/**
 * A page's picker endpoint as the `load` of a filter or a field: up to 20 matches of a search,
 * or, given an id, the one option of that id (to name a value set from a link).
 */
export const pickerLoader =
  (endpoint: PickerEndpoint) =>
  async (search: string, id?: number): Promise<Option[]> =>
    (await callEndpoint(endpoint, { query: id === undefined ? { search } : { id } })).data.map(
      (option) => ({
        value: option.id,
        label: option.label,
      }),
    );

/** A day typed (YYYY-MM-DD) as the one option of a date filter. */
export const dayOption = (what: string) => async (search: string, current?: number | string) => {
  const day = String(current ?? search).trim();
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? [{ value: day, label: `${what} ${day}` }] : [];
};

/** The two filters of a range of business days, each a day typed: "Shipped from", "Shipped to". */
export const dayRangeFilters = <Key extends string>(
  what: string,
  from: Key,
  to: Key,
): ListFilter<Key>[] => [
  { key: from, label: `${what} from (YYYY-MM-DD)`, load: dayOption('From') },
  { key: to, label: `${what} to (YYYY-MM-DD)`, load: dayOption('To') },
];
