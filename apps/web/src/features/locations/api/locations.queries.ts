import {
  bulkCreateLocationsEndpoint,
  createLocationEndpoint,
  locationEndpoints,
  locationLabelsEndpoint,
  recordLocationAuditEndpoint,
  setLocationsActiveEndpoint,
  updateLocationEndpoint,
  type BulkCreateLocationsInput,
  type CreateLocationInput,
  type LabelFormat,
  type RecordLocationAuditInput,
  type UpdateLocationInput,
} from '@inventory/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

/** Every write refreshes the list and its count, which sit under the list's path. */
function useRefreshLocations() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: [locationEndpoints.list.path] });
}

/** The writes of the locations page, each refreshing the list when it is done. */
export function useLocationWrites() {
  const refresh = useRefreshLocations();
  const after = { onSuccess: () => void refresh() };
  return {
    create: useMutation({
      mutationFn: async (body: CreateLocationInput) =>
        (await callEndpoint(createLocationEndpoint, { body })).data,
      ...after,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: UpdateLocationInput }) =>
        (await callEndpoint(updateLocationEndpoint, { params: { id }, body })).data,
      ...after,
    }),
    ranges: useMutation({
      mutationFn: async (body: BulkCreateLocationsInput) =>
        (await callEndpoint(bulkCreateLocationsEndpoint, { body })).data,
      onSuccess: (result) => {
        if (!result.dry_run) void refresh();
      },
    }),
    setActive: useMutation({
      mutationFn: async (body: { ids: number[]; active: boolean }) =>
        (await callEndpoint(setLocationsActiveEndpoint, { body })).data,
      ...after,
    }),
    audit: useMutation({
      mutationFn: async (body: RecordLocationAuditInput) =>
        (await callEndpoint(recordLocationAuditEndpoint, { body })).data,
      ...after,
    }),
  };
}

/**
 * The chosen locations' labels: a PDF opens in a new tab (opened before the request, so the
 * browser allows it); ZPL, for a Zebra printer, downloads.
 */
export async function printLocationLabels(ids: number[], format: LabelFormat): Promise<void> {
  await openPrintout(
    async () =>
      (await callEndpoint(locationLabelsEndpoint, { params: {}, body: { ids, format } })).data,
    format === 'pdf',
  );
}
