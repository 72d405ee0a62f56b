import { parcelShipmentList, trackingEndpoints } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { useRefreshPackages } from './packages.queries';

/** Parcel shipments: a parcel's tracking, a refresh from the carrier, flagging it lost. */

const TRACKING_KEY = trackingEndpoints.tracking.path;

/** What new events change: the parcel shipments list and records, and the packages'. */
function useRefreshShipments() {
  const client = useQueryClient();
  const refreshPackages = useRefreshPackages();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [`/${parcelShipmentList.name}`] }),
      client.invalidateQueries({ queryKey: [TRACKING_KEY] }),
      refreshPackages(),
    ]);
}

export function useParcelTracking(id: number) {
  return useQuery({
    queryKey: [TRACKING_KEY, id],
    queryFn: async () => (await callEndpoint(trackingEndpoints.tracking, { params: { id } })).data,
  });
}

export function useRefreshTracking() {
  const refresh = useRefreshShipments();
  return useMutation({
    mutationFn: async (packageIds: number[]) =>
      (await callEndpoint(trackingEndpoints.refresh, { body: { package_ids: packageIds } })).data,
    onSuccess: refresh,
  });
}

export function useFlagLost() {
  const refresh = useRefreshShipments();
  return useMutation({
    mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
      (await callEndpoint(trackingEndpoints.flagLost, { params: { id }, body: { reason } })).data,
    onSuccess: refresh,
  });
}
