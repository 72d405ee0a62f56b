import {
  blacklistEndpoints,
  deviceCardEndpoint,
  deviceEndpoints,
  deviceLabelEndpoint,
  deviceLookupEndpoint,
  deviceProductionEndpoint,
  vendorTransferEndpoints,
} from '@inventory/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';

/**
 * Lookups and cards sit under the registry's key, so that one refresh after a device changes
 * (a hold, a return) updates the list, the count, the lookup and the open card alike.
 */
const devicesKey = [deviceEndpoints.list.path] as const;

export function useDeviceLookup(code: string | null) {
  return useQuery({
    queryKey: [...devicesKey, 'lookup', code],
    queryFn: async () =>
      (await callEndpoint(deviceLookupEndpoint, { query: { code: code! } })).data,
    enabled: Boolean(code),
  });
}

export function useDeviceCard(id: number | null) {
  return useQuery({
    queryKey: [...devicesKey, 'card', id],
    queryFn: async () => (await callEndpoint(deviceCardEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** What production recorded of a device: the card's own read, apart from the lookup. */
export function useDeviceProduction(id: number) {
  return useQuery({
    queryKey: [...devicesKey, 'production', id],
    queryFn: async () => (await callEndpoint(deviceProductionEndpoint, { params: { id } })).data,
  });
}

/** Refreshes everything that shows a device's status: the registry, the blacklist, returns. */
export function useRefreshDevices() {
  const client = useQueryClient();
  return () =>
    Promise.all(
      [devicesKey, [blacklistEndpoints.list.path], [vendorTransferEndpoints.list.path]].map(
        (queryKey) => client.invalidateQueries({ queryKey }),
      ),
    );
}

/** Asks for the device's 2x1 label and lets the browser download it (the print is audited). */
export async function printDeviceLabel(id: number): Promise<void> {
  startDownload((await callEndpoint(deviceLabelEndpoint, { params: { id } })).data);
}
