import type { EndpointDefinition, pickerEndpoint } from '@inventory/contract';
import { callEndpoint } from '../shell/http-client';
import type { Option } from './resource-page-config';

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
