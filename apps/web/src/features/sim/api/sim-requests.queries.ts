import {
  simRequestEndpoints,
  simRequestLabelEndpoint,
  simRequestList,
  simRequestPackingSlipEndpoint,
  type SimAllocationAnswer,
  type SimRequestDetail,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';
import { requestAfterScan } from '../sim-request-answer';

/** The SIM requests' reads and writes (DOMAIN.md 4.6 /sim/request). */

const LIST_KEY = [`/${simRequestList.name}`];
export const simRequestKey = (id: number) => [simRequestEndpoints.detail.path, id];

export function useSimRequest(id: number) {
  return useQuery({
    queryKey: simRequestKey(id),
    queryFn: async () => (await callEndpoint(simRequestEndpoints.detail, { params: { id } })).data,
  });
}

/** Allocation scans, each answer put into the request shown (no read again). */
export function useAllocationScan(id: number) {
  const client = useQueryClient();
  return {
    send: async (code: string, station: string) =>
      (
        await callEndpoint(simRequestEndpoints.scan, {
          params: { id },
          body: { code, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: SimAllocationAnswer) => {
      await patchQuery<SimRequestDetail>(client, simRequestKey(id), (detail) =>
        requestAfterScan(detail, answer),
      );
      await client.invalidateQueries({ queryKey: LIST_KEY });
    },
    reread: () => client.invalidateQueries({ queryKey: simRequestKey(id), exact: true }),
  };
}

/** The request's actions: each answers the request as it is after. */
export function useSimRequestActions(id: number) {
  const client = useQueryClient();
  const settle = async (detail: SimRequestDetail) => {
    client.setQueryData(simRequestKey(id), detail);
    await client.invalidateQueries({ queryKey: LIST_KEY });
  };
  const params = { id };
  return {
    approve: useMutation({
      mutationFn: async (qty: number) =>
        (await callEndpoint(simRequestEndpoints.approve, { params, body: { qty_approved: qty } }))
          .data,
      onSuccess: settle,
    }),
    reject: useMutation({
      mutationFn: async (reason: string) =>
        (await callEndpoint(simRequestEndpoints.reject, { params, body: { reason } })).data,
      onSuccess: settle,
    }),
    unallocate: useMutation({
      mutationFn: async (iccid: string) =>
        (await callEndpoint(simRequestEndpoints.unallocate, { params, body: { iccid } })).data,
      onSuccess: settle,
    }),
    pack: useMutation({
      mutationFn: async () =>
        (await callEndpoint(simRequestEndpoints.pack, { params, body: {} })).data,
      onSuccess: settle,
    }),
    unpack: useMutation({
      mutationFn: async () =>
        (await callEndpoint(simRequestEndpoints.unpack, { params, body: {} })).data,
      onSuccess: settle,
    }),
    ship: useMutation({
      mutationFn: async (trackingNumber: string | null) =>
        (
          await callEndpoint(simRequestEndpoints.ship, {
            params,
            body: { tracking_number: trackingNumber },
          })
        ).data,
      onSuccess: settle,
    }),
  };
}

/** A request's printout (a PDF), opened in a new tab to print. */
const openRequestPrintout = (
  endpoint: typeof simRequestPackingSlipEndpoint | typeof simRequestLabelEndpoint,
  id: number,
) => openPrintout(async () => (await callEndpoint(endpoint, { params: { id } })).data);

export const openPackingSlip = (id: number) =>
  openRequestPrintout(simRequestPackingSlipEndpoint, id);
export const openShippingLabel = (id: number) => openRequestPrintout(simRequestLabelEndpoint, id);
