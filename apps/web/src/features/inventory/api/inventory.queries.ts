import {
  consolidationBoxesEndpoint,
  consolidationOverviewEndpoint,
  consolidationPlacementEndpoint,
  deviceInquiryEndpoint,
  consolidationScanEndpoint,
  inventoryBoxLabelEndpoint,
  openInventoryBoxesEndpoint,
  putawayEndpoint,
  putawayQueueEndpoint,
  putawaySuggestionEndpoint,
  reopenInventoryBoxEndpoint,
  sealInventoryBoxEndpoint,
  setBoxMaxQtyEndpoint,
  type LabelSize,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

/** The open boxes of the consolidation station, fullest first. */
export function useOpenBoxes() {
  return useQuery({
    queryKey: [openInventoryBoxesEndpoint.path],
    queryFn: async () => (await callEndpoint(openInventoryBoxesEndpoint)).data,
  });
}

/** The consolidation station's two scans: a device (names its box), then the box (puts it in). */
export const consolidationScan = async (code: string, station: string) =>
  (await callEndpoint(consolidationScanEndpoint, { body: { code, station } })).data;

export const consolidationPlacement = async (code: string, boxCode: string, station: string) =>
  (
    await callEndpoint(consolidationPlacementEndpoint, {
      body: { code, box_code: boxCode, station },
    })
  ).data;

/** Seal and limit changes of a box; the open boxes and the putaway queue are read again. */
export function useBoxActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [openInventoryBoxesEndpoint.path] }),
      client.invalidateQueries({ queryKey: [putawayQueueEndpoint.path] }),
    ]);
  return {
    seal: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(sealInventoryBoxEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
    setMaxQty: useMutation({
      mutationFn: async ({ id, maxQty }: { id: number; maxQty: number }) =>
        (await callEndpoint(setBoxMaxQtyEndpoint, { params: { id }, body: { max_qty: maxQty } }))
          .data,
      onSuccess: refresh,
    }),
  };
}

/**
 * Opens a box's IB label (a PDF) in a new tab to print. The tab is opened at the click, before
 * the link is asked for, so that no popup blocker stops it; without a tab the file downloads.
 */
export async function openInventoryBoxLabel(id: number, size: LabelSize = '4x6'): Promise<void> {
  await openPrintout(
    async () =>
      (await callEndpoint(inventoryBoxLabelEndpoint, { params: { id }, body: { size } })).data,
  );
}

/** Sealed boxes waiting for a location. */
export function usePutawayQueue() {
  return useQuery({
    queryKey: [putawayQueueEndpoint.path],
    queryFn: async () => (await callEndpoint(putawayQueueEndpoint)).data,
  });
}

/** Where a sealed box should go; with a pallet, a place with room for `roomFor` boxes. */
export const putawaySuggestion = async (boxCode: string, roomFor = 1) =>
  (
    await callEndpoint(putawaySuggestionEndpoint, {
      body: { box_code: boxCode, ...(roomFor > 1 && { room_for: roomFor }) },
    })
  ).data;

/** Puts a box away; the queue is read again. */
export function usePutAway() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ boxCode, locationCode }: { boxCode: string; locationCode: string }) =>
      (
        await callEndpoint(putawayEndpoint, {
          body: { box_code: boxCode, location_code: locationCode },
        })
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [putawayQueueEndpoint.path] }),
  });
}

/** The newest boxes of the consolidation boxes page, of one status or all. */
export function useConsolidationBoxes(status: 'open' | 'sealed' | 'located' | undefined) {
  return useQuery({
    queryKey: [consolidationBoxesEndpoint.path, status ?? 'all'],
    queryFn: async () =>
      (await callEndpoint(consolidationBoxesEndpoint, { query: status ? { status } : {} })).data,
  });
}

/** Reopens a sealed box; the boxes are read again. */
export function useReopenBox() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callEndpoint(reopenInventoryBoxEndpoint, { params: { id } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [consolidationBoxesEndpoint.path] }),
  });
}

/** The consolidation leader's overview: devices waiting by kind, and the open boxes. */
export function useConsolidationOverview() {
  return useQuery({
    queryKey: [consolidationOverviewEndpoint.path],
    queryFn: async () => (await callEndpoint(consolidationOverviewEndpoint)).data,
  });
}

/** A device's stage, box and location by a scanned code. */
export const inquireDevice = async (code: string) =>
  (await callEndpoint(deviceInquiryEndpoint, { body: { code } })).data;
