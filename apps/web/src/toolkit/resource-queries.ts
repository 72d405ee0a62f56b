import type {
  Download,
  ImportBatch,
  ImportCheck,
  ImportEndpoints,
  ListEndpoints,
  WriteEndpoints,
} from '@inventory/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../shell/http-client';

/** A list query as the address holds it: the toolkit's paging and sort and the area's filters. */
export type ListQuery = Record<string, string | number | undefined>;

/**
 * Query keys of a resource: everything under its path, so one invalidation refreshes its list,
 * count and imports alike (an import's endpoints share the path of its list).
 */
const keyOf = (endpoints: { readonly list: { readonly path: string } } | ImportEndpoints) => [
  'list' in endpoints ? endpoints.list.path : endpoints.upload.path.replace(/\/imports$/, ''),
];

export function useResourceList<T>(endpoints: ListEndpoints, query: ListQuery) {
  return useQuery({
    queryKey: [...keyOf(endpoints), 'list', query],
    queryFn: async () =>
      (await callEndpoint(endpoints.list, { query })).data as {
        items: T[];
        nextCursor: string | null;
        prevCursor: string | null;
      },
    placeholderData: keepPreviousData,
  });
}

/** The count ignores the page, so paging through a list never counts again. */
export function useResourceCount(endpoints: ListEndpoints, query: ListQuery) {
  const { cursor: _cursor, limit: _limit, ...filters } = query;
  return useQuery({
    queryKey: [...keyOf(endpoints), 'count', filters],
    queryFn: async () => (await callEndpoint(endpoints.count, { query: filters })).data,
    placeholderData: keepPreviousData,
  });
}

/** One row by its id, when it is not on the page shown (a form opened from a shared link). */
export function useResourceItem<T>(endpoints: ListEndpoints, id: number | null) {
  return useQuery({
    queryKey: [...keyOf(endpoints), 'item', id],
    queryFn: async () => (await callEndpoint(endpoints.get, { params: { id: id! } })).data as T,
    enabled: id !== null,
    retry: false,
  });
}

export function useResourceWrites(endpoints: ListEndpoints & WriteEndpoints) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: keyOf(endpoints) });
  return {
    create: useMutation({
      mutationFn: (body: unknown) => callEndpoint(endpoints.create, { body }),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: ({ id, body }: { id: number; body: unknown }) =>
        callEndpoint(endpoints.update, { params: { id }, body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => callEndpoint(endpoints.remove, { params: { id } }),
      onSuccess: refresh,
    }),
    refresh,
  };
}

/**
 * Opens a file the server makes to print (a PDF) in a new tab. The tab is opened at the click,
 * before `ask` asks for the one-use link, so that no popup blocker stops it; where the browser
 * refuses a tab (a phone), or `inTab` is false (ZPL for a label printer), the file downloads.
 */
export async function openPrintout(ask: () => Promise<Download>, inTab = true): Promise<void> {
  const tab = inTab ? window.open('', '_blank') : null;
  try {
    const download = await ask();
    if (tab) tab.location.href = download.url;
    else startDownload(download);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** Follows a one-use download link: the browser streams the file to disk. */
export function startDownload(download: Download): void {
  const link = document.createElement('a');
  link.href = download.url;
  link.download = '';
  document.body.append(link);
  link.click();
  link.remove();
}

export function useImports(endpoints: ImportEndpoints, enabled: boolean) {
  return useQuery({
    queryKey: [...keyOf(endpoints), 'imports'],
    queryFn: async () => (await callEndpoint(endpoints.imports)).data as ImportBatch[],
    enabled,
  });
}

export function useImportSteps(endpoints: ImportEndpoints, refreshes: readonly string[] = []) {
  const client = useQueryClient();
  // A commit changes the import's own list and the lists it feeds (a manifest makes invoices).
  const refresh = () =>
    Promise.all(
      [keyOf(endpoints), ...refreshes.map((path) => [path])].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  return {
    upload: useMutation({
      mutationFn: async (file: File) =>
        (await callEndpoint(endpoints.upload, { query: { fileName: file.name }, file })).data,
      onSuccess: refresh,
    }),
    check: useMutation({
      mutationFn: async ({ id, mapping }: { id: number; mapping: Record<string, string | null> }) =>
        (await callEndpoint(endpoints.check, { params: { id }, body: { mapping } }))
          .data as ImportCheck,
      onSuccess: refresh,
    }),
    commit: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(endpoints.commit, { params: { id } })).data as ImportBatch,
      onSuccess: refresh,
    }),
  };
}
