import { packageEndpoints, packageList, type LabelFormat } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';

/** A package's record and its label's actions: reprint and void. */

const DETAIL_KEY = packageEndpoints.detail.path;

/** What a label, a void or a scan changes: the label queue, the packages list and records. */
export function useRefreshPackages() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [packageEndpoints.labelQueue.path] }),
      client.invalidateQueries({ queryKey: [`/${packageList.name}`] }),
      client.invalidateQueries({ queryKey: [DETAIL_KEY] }),
    ]);
}

/** Downloads one package's label again (the server counts the reprint). */
export async function reprintLabel(packageId: number, format: LabelFormat): Promise<void> {
  const download = (
    await callEndpoint(packageEndpoints.reprint, { params: { id: packageId }, body: { format } })
  ).data;
  startDownload(download);
}

export function useVoidLabel() {
  const refresh = useRefreshPackages();
  return useMutation({
    mutationFn: async ({ id, reason }: { id: number; reason: string | null }) =>
      (await callEndpoint(packageEndpoints.void, { params: { id }, body: { reason } })).data,
    onSuccess: refresh,
  });
}

export function usePackageDetail(id: number) {
  return useQuery({
    queryKey: [DETAIL_KEY, id],
    queryFn: async () => (await callEndpoint(packageEndpoints.detail, { params: { id } })).data,
  });
}
