import {
  boxScanEndpoint,
  finishBoxCountEndpoint,
  inventoryBoxListEndpoints,
  inventoryBoxReprintEndpoint,
  startBoxCountEndpoint,
  stationBoxEndpoint,
  stationReopenEndpoint,
  type BoxScanInput,
  type LabelSize,
  type StationBox,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

/** The key of a box as the scan station holds it, by its code. */
export const stationBoxKey = (code: string) => [stationBoxEndpoint.path, code.toUpperCase()];

/** A box the scan station works on (what it holds, its count), by its scanned code. */
export function useStationBox(code: string | null) {
  return useQuery({
    queryKey: stationBoxKey(code ?? ''),
    queryFn: async () =>
      (await callEndpoint(stationBoxEndpoint, { body: { box_code: code! } })).data,
    enabled: code !== null,
    retry: false,
  });
}

/** Reads a box for the station, for a box code scanned (a 404 is the scan's failure). */
export const readStationBox = async (code: string) =>
  (await callEndpoint(stationBoxEndpoint, { body: { box_code: code } })).data;

/** One scan at the box station. */
export const boxScan = async (body: BoxScanInput) =>
  (await callEndpoint(boxScanEndpoint, { body })).data;

/** The device boxes' list and their counts are read again after a count starts or ends. */
const refreshBoxes = (client: ReturnType<typeof useQueryClient>, box: StationBox | null) =>
  Promise.all([
    client.invalidateQueries({ queryKey: [inventoryBoxListEndpoints.list.path] }),
    box && client.setQueryData(stationBoxKey(box.box.code), box),
  ]);

/** Starts a count of a box (it is locked until the count is finished). */
export function useStartCount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callEndpoint(startBoxCountEndpoint, { params: { id } })).data,
    onSuccess: async (count) => {
      await refreshBoxes(client, null);
      await client.invalidateQueries({ queryKey: stationBoxKey(count.box_code) });
    },
  });
}

/** Finishes a running count: its report, and the box unlocked. */
export function useFinishCount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callEndpoint(finishBoxCountEndpoint, { params: { id } })).data,
    onSuccess: (box) => refreshBoxes(client, { ...box, count: null }),
  });
}

/** Reopens a sealed box at the station (box.reopen). */
export function useStationReopen() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) =>
      (await callEndpoint(stationReopenEndpoint, { body: { box_code: code } })).data,
    onSuccess: (box) => refreshBoxes(client, box),
  });
}

/**
 * Opens a box's IB label (a PDF) in a new tab to print, from the device boxes' list. The tab is
 * opened at the click, before the link is asked for, so that no popup blocker stops it.
 */
export async function reprintInventoryBoxLabel(id: number, size: LabelSize = '4x6') {
  await openPrintout(
    async () =>
      (await callEndpoint(inventoryBoxReprintEndpoint, { params: { id }, body: { size } })).data,
  );
}
