import { packageEndpoints, type ShipScanAnswer } from '@inventory/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { useRefreshPackages } from './packages.queries';

/**
 * The dock: today's count, the parcel of a barcode, and the scan that ships it; scoped to a
 * campaign when one is given (a parcel of another is refused).
 */

const TODAY_KEY = packageEndpoints.today.path;

/** Parcels scanned out today, kept up to date by each scan's answer. */
export function useShippedToday() {
  return useQuery({
    queryKey: [TODAY_KEY],
    queryFn: async () => (await callEndpoint(packageEndpoints.today)).data,
  });
}

export function useDock(campaignId?: number) {
  const client = useQueryClient();
  const refresh = useRefreshPackages();
  return {
    lookup: async (code: string) =>
      (await callEndpoint(packageEndpoints.lookup, { query: { code, campaign_id: campaignId } }))
        .data,
    ship: async (code: string, station: string, imeis?: string[]) =>
      (
        await callEndpoint(packageEndpoints.scan, {
          body: {
            code,
            ...(station && { station }),
            ...(imeis && { imeis }),
            campaign_id: campaignId,
          },
        })
      ).data,
    /** Puts an answer's count on the page; the lists are read again when next shown. */
    apply: (answer: ShipScanAnswer) => {
      client.setQueryData([TODAY_KEY], { today: answer.today });
      if (answer.result === 'shipped') void refresh();
    },
  };
}
