import { deviceLabelEndpoint, workerEndpoints, type EndpointBody } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';

/**
 * The worker station: my queue, the scan, the test record, a diagnostic tool's file and the
 * device label.
 */

export function useWorkerQueue() {
  return useQuery({
    queryKey: [workerEndpoints.queue.path],
    queryFn: async () => (await callEndpoint(workerEndpoints.queue)).data,
  });
}

export const scanWorkerDevice = async (code: string) =>
  (await callEndpoint(workerEndpoints.scan, { body: { code } })).data;

export function useRecordTest() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: EndpointBody<typeof workerEndpoints.result>) =>
      (await callEndpoint(workerEndpoints.result, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [workerEndpoints.queue.path] }),
  });
}

/** Sends a diagnostic tool's file: answers the devices whose results are kept for their test. */
export function useUploadDiagnostics() {
  return useMutation({
    mutationFn: async (file: File) =>
      (
        await callEndpoint(workerEndpoints.diagnostics, {
          query: { fileName: file.name },
          file,
        })
      ).data,
  });
}

/** The device's 2x1 label, downloaded by the browser (the print is audited). */
export async function printDeviceLabel(id: number): Promise<void> {
  startDownload((await callEndpoint(deviceLabelEndpoint, { params: { id } })).data);
}
