import {
  gaylordEndpoints,
  type Carrier,
  type GaylordDetail,
  type GaylordScanAnswer,
  type ShippingService,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';
import { gaylordAfterScan } from '../gaylord-scan-answer';
import { useRefreshPackages } from './packages.queries';

/** The gaylords: the board, a gaylord with its parcels, the scans into it and its actions. */

const BOARD_KEY = [gaylordEndpoints.board.path];
export const gaylordKey = (id: number) => [gaylordEndpoints.detail.path, id];

export function useGaylordBoard() {
  return useQuery({
    queryKey: BOARD_KEY,
    queryFn: async () => (await callEndpoint(gaylordEndpoints.board)).data,
  });
}

export function useGaylord(id: number) {
  return useQuery({
    queryKey: gaylordKey(id),
    queryFn: async () => (await callEndpoint(gaylordEndpoints.detail, { params: { id } })).data,
  });
}

/** What a gaylord's action changes: the board, its record, the packages' lists and records. */
function useRefreshGaylords() {
  const client = useQueryClient();
  const refreshPackages = useRefreshPackages();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: BOARD_KEY }),
      client.invalidateQueries({ queryKey: [gaylordEndpoints.detail.path] }),
      refreshPackages(),
    ]);
}

/** Opens a gaylord's 4x6 label (PDF) in a new tab. */
export const printGaylordLabel = (id: number) =>
  openPrintout(
    async () => (await callEndpoint(gaylordEndpoints.label, { params: { id }, body: {} })).data,
  );

/** Opens a SCAN form (PDF) in a new tab. */
export const printScanForm = (id: number) =>
  openPrintout(
    async () =>
      (await callEndpoint(gaylordEndpoints.printScanForm, { params: { id }, body: {} })).data,
  );

export function useGaylordActions() {
  const refresh = useRefreshGaylords();
  return {
    open: useMutation({
      mutationFn: async (service: ShippingService) =>
        (await callEndpoint(gaylordEndpoints.open, { body: { service } })).data,
      onSuccess: refresh,
    }),
    takeOut: useMutation({
      mutationFn: async ({ id, packageId }: { id: number; packageId: number }) =>
        (
          await callEndpoint(gaylordEndpoints.takeOut, {
            params: { id },
            body: { package_id: packageId },
          })
        ).data,
      onSuccess: refresh,
    }),
    close: useMutation({
      mutationFn: async ({ id, count }: { id: number; count: number }) =>
        (await callEndpoint(gaylordEndpoints.close, { params: { id }, body: { count } })).data,
      onSuccess: refresh,
    }),
    pickUp: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(gaylordEndpoints.pickUp, { params: { id } })).data,
      onSuccess: refresh,
    }),
    generateScanForm: useMutation({
      mutationFn: async (body: { carrier: Carrier; ship_date?: string }) =>
        (await callEndpoint(gaylordEndpoints.generateScanForm, { body })).data,
      onSuccess: refresh,
    }),
  };
}

/** The sorting station of one gaylord: each scan's answer is put into the gaylord's read. */
export function useGaylordScans(id: number) {
  const client = useQueryClient();
  const refreshPackages = useRefreshPackages();
  return {
    scan: async (code: string, station: string) =>
      (
        await callEndpoint(gaylordEndpoints.scan, {
          params: { id },
          body: { code, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: GaylordScanAnswer) => {
      await patchQuery<GaylordDetail>(client, gaylordKey(id), (detail) =>
        gaylordAfterScan(detail, answer),
      );
      // The board and the packages' reads are made again when next shown.
      if (answer.result === 'sorted') {
        await Promise.all([client.invalidateQueries({ queryKey: BOARD_KEY }), refreshPackages()]);
      }
    },
  };
}
