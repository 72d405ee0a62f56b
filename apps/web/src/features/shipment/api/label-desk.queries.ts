import { packageEndpoints, type LabelFormat } from '@inventory/contract';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';
import { useRefreshPackages } from './packages.queries';

/**
 * The label desk: fulfilled orders waiting, batches and their runs, a batch's print; scoped to a
 * campaign when one is given (its orders only).
 */

const QUEUE_KEY = packageEndpoints.labelQueue.path;

export function useLabelQueue(campaignId?: number) {
  return useQuery({
    queryKey: [QUEUE_KEY, campaignId ?? 'all'],
    queryFn: async () =>
      (await callEndpoint(packageEndpoints.labelQueue, { query: { campaign_id: campaignId } }))
        .data,
  });
}

/**
 * Starting a batch, giving it orders (its job labels them) and reading its progress; the queue is
 * read again after.
 */
export function useLabelDesk(campaignId?: number) {
  const refresh = useRefreshPackages();
  return {
    createBatch: (format: LabelFormat) =>
      callEndpoint(packageEndpoints.createBatch, { body: { format } }).then(
        (answer) => answer.data,
      ),
    startRun: (batchId: number, orderIds: number[]) =>
      callEndpoint(packageEndpoints.startRun, {
        params: { id: batchId },
        body: { order_ids: orderIds, campaign_id: campaignId },
      }).then((answer) => answer.data),
    progress: (batchId: number) =>
      callEndpoint(packageEndpoints.runProgress, { params: { id: batchId } }).then(
        (answer) => answer.data,
      ),
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
