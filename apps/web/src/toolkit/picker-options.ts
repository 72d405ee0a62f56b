import type { pickerEndpoint } from '@inventory/contract';
import { callEndpoint } from '../shell/http-client';
import type { Option } from './resource-page-config';

/** A page's picker endpoint (up to 20 matches of a search) as the `load` of a filter or a field. */
export const pickerLoader =
  (endpoint: ReturnType<typeof pickerEndpoint>) =>
  async (search: string): Promise<Option[]> =>
    (await callEndpoint(endpoint, { query: { search } })).data.map((option) => ({
      value: option.id,
      label: option.label,
    }));
