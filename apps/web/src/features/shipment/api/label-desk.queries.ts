import { packageEndpoints, type LabelFormat } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';
import { useRefreshPackages } from './packages.queries';

/** The label desk: fulfilled orders waiting, batches and their steps, a batch's print. */

const QUEUE_KEY = packageEndpoints.labelQueue.path;

export function useLabelQueue() {
  return useQuery({
    queryKey: [QUEUE_KEY],
    queryFn: async () => (await callEndpoint(packageEndpoints.labelQueue)).data,
  });
}

/** Starting a batch and labelling its orders step by step; the queue is read again after. */
export function useLabelDesk() {
  const refresh = useRefreshPackages();
  return {
    createBatch: (format: LabelFormat) =>
      callEndpoint(packageEndpoints.createBatch, { body: { format } }).then(
        (answer) => answer.data,
      ),
    step: (batchId: number, orderIds: number[]) =>
      callEndpoint(packageEndpoints.labelStep, {
        params: { id: batchId },
        body: { order_ids: orderIds },
      }).then((answer) => answer.data),
    refresh,
  };
}

/** Downloads a batch's labels as one file in the format given. */
export async function printBatch(batchId: number, format: LabelFormat): Promise<void> {
  const download = (
    await callEndpoint(packageEndpoints.printBatch, { params: { id: batchId }, body: { format } })
  ).data;
  startDownload(download);
}
