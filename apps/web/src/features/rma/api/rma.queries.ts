import {
  reuseEndpoints,
  reuseList,
  rmaEndpoints,
  rmaList,
  type ClearRmaMismatchInput,
  type CloseRmaShortInput,
  type CreateRmaInput,
  type ResolveRmaInput,
  type ReuseDecisionInput,
  type RmaChecklistInput,
  type RmaRouteInput,
  type RmaScanInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';

/** The RMA list and record, receiving and the reuse queue. */

const DETAIL_KEY = rmaEndpoints.detail.path;

/** What an RMA's step changes: the list and the records. */
export function useRefreshRmas() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [`/${rmaList.name}`] }),
      client.invalidateQueries({ queryKey: [DETAIL_KEY] }),
    ]);
}

export function useRmaDetail(id: number) {
  return useQuery({
    queryKey: [DETAIL_KEY, id],
    queryFn: async () => (await callEndpoint(rmaEndpoints.detail, { params: { id } })).data,
  });
}

export const createRma = async (body: CreateRmaInput) =>
  (await callEndpoint(rmaEndpoints.create, { body })).data;

/**
 * Authorise, reject, cancel, mark in transit, close and resolve; a supervisor's clearing of a
 * mismatch and closing short. Each refreshes the list.
 */
export function useRmaActions() {
  const refresh = useRefreshRmas();
  const options = { onSuccess: refresh };
  return {
    authorize: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(rmaEndpoints.authorize, { params: { id }, body: {} })).data,
      ...options,
    }),
    transition: useMutation({
      mutationFn: async ({
        id,
        action,
        reason,
      }: {
        id: number;
        action: 'reject' | 'mark_in_transit' | 'cancel' | 'close';
        reason?: string | null;
      }) =>
        (await callEndpoint(rmaEndpoints.transition, { params: { id }, body: { action, reason } }))
          .data,
      ...options,
    }),
    resolve: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: ResolveRmaInput }) =>
        (await callEndpoint(rmaEndpoints.resolve, { params: { id }, body })).data,
      ...options,
    }),
    clearMismatch: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: ClearRmaMismatchInput }) =>
        (await callEndpoint(rmaEndpoints.clearMismatch, { params: { id }, body })).data,
      ...options,
    }),
    closeShort: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: CloseRmaShortInput }) =>
        (await callEndpoint(rmaEndpoints.closeShort, { params: { id }, body })).data,
      ...options,
    }),
  };
}

/** Downloads an RMA's return label (PDF). */
export async function printReturnLabel(id: number): Promise<void> {
  startDownload(
    (await callEndpoint(rmaEndpoints.printLabel, { params: { id }, body: { format: 'pdf' } })).data,
  );
}

export const findRmaToReceive = async (code: string) =>
  (await callEndpoint(rmaEndpoints.receiving, { query: { code } })).data;

export const scanIntoRma = async (id: number, body: RmaScanInput) =>
  (await callEndpoint(rmaEndpoints.scan, { params: { id }, body })).data;

export const recordRmaChecklist = async (id: number, body: RmaChecklistInput) =>
  (await callEndpoint(rmaEndpoints.checklist, { params: { id }, body })).data;

export const routeRmaDevice = async (id: number, body: RmaRouteInput) =>
  (await callEndpoint(rmaEndpoints.route, { params: { id }, body })).data;

export function useReuseDecision() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: ReuseDecisionInput }) =>
      (await callEndpoint(reuseEndpoints.decide, { params: { id }, body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [`/${reuseList.name}`] }),
  });
}
