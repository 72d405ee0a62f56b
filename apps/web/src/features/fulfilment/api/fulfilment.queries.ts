import {
  backlogOrderList,
  fulfilmentEndpoints,
  orderEndpoints,
  packingSlipEndpoint,
  pickListEndpoint,
  pipelineOrderList,
  readyOrderList,
  type AssignOrdersInput,
  type AutoAssignInput,
  type BacklogInput,
  type PickOrder,
  type PickScanAnswer,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';

/** Fulfilment's reads and writes (DOMAIN.md 4.14): assignment, the pick station, the pipeline. */

const OVERVIEW_KEY = [fulfilmentEndpoints.overview.path];
const MY_PICKS_KEY = [fulfilmentEndpoints.myPicks.path];
export const pickOrderKey = (id: number) => [fulfilmentEndpoints.pickLookup.path, id];
const LIST_KEYS = [readyOrderList, pipelineOrderList, backlogOrderList].map((list) => [
  `/${list.name}`,
]);

/** After a change: the lists, the overview and the worker's queue are read again. */
async function refreshAll(client: ReturnType<typeof useQueryClient>) {
  await Promise.all([
    ...LIST_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })),
    client.invalidateQueries({ queryKey: OVERVIEW_KEY }),
    client.invalidateQueries({ queryKey: MY_PICKS_KEY }),
  ]);
}

/** The assignment's figures and workers; read only by those who may assign (`enabled`). */
export function useAssignmentOverview(enabled = true) {
  return useQuery({
    queryKey: OVERVIEW_KEY,
    enabled,
    queryFn: async () => (await callEndpoint(fulfilmentEndpoints.overview, {})).data,
  });
}

export function useAssignment() {
  const client = useQueryClient();
  return {
    assign: useMutation({
      mutationFn: async (body: AssignOrdersInput) =>
        (await callEndpoint(fulfilmentEndpoints.assign, { body })).data,
      onSuccess: () => refreshAll(client),
    }),
    autoAssign: useMutation({
      mutationFn: async (body: AutoAssignInput) =>
        (await callEndpoint(fulfilmentEndpoints.autoAssign, { body })).data,
      onSuccess: () => refreshAll(client),
    }),
  };
}

/** The pipeline's actions on one order; each answers its row as it is after. */
export function usePipelineActions() {
  const client = useQueryClient();
  const settle = () => refreshAll(client);
  return {
    reassign: useMutation({
      mutationFn: async ({ id, assigneeId }: { id: number; assigneeId: number }) =>
        (
          await callEndpoint(fulfilmentEndpoints.reassign, {
            params: { id },
            body: { assignee_id: assigneeId },
          })
        ).data,
      onSuccess: settle,
    }),
    unassign: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(fulfilmentEndpoints.unassign, { params: { id }, body: {} })).data,
      onSuccess: settle,
    }),
    unpick: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(fulfilmentEndpoints.unpick, { params: { id }, body: {} })).data,
      onSuccess: settle,
    }),
    backlog: useMutation({
      mutationFn: async ({ id, ...body }: BacklogInput & { id: number }) =>
        (await callEndpoint(fulfilmentEndpoints.backlog, { params: { id }, body })).data,
      onSuccess: settle,
    }),
  };
}

/** The backlog's own actions: the order's release (validated again) and cancellation. */
export function useBacklogActions() {
  const client = useQueryClient();
  const settle = () => refreshAll(client);
  return {
    release: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(orderEndpoints.release, { params: { id }, body: {} })).data,
      onSuccess: settle,
    }),
    cancel: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string | null }) =>
        (await callEndpoint(orderEndpoints.cancel, { params: { id }, body: { reason } })).data,
      onSuccess: settle,
    }),
  };
}

/** The worker's queue at the station. */
export function useMyPicks() {
  return useQuery({
    queryKey: MY_PICKS_KEY,
    queryFn: async () => (await callEndpoint(fulfilmentEndpoints.myPicks, {})).data,
  });
}

/** One of the worker's orders, by the number scanned. */
export function usePickOrder(number: string | null) {
  return useQuery({
    queryKey: [fulfilmentEndpoints.pickLookup.path, number],
    enabled: number !== null,
    retry: false,
    queryFn: async () =>
      (await callEndpoint(fulfilmentEndpoints.pickLookup, { query: { number: number! } })).data,
  });
}

/** Scans of one order, each answer put into the order shown (no read again). */
export function usePickScan(number: string) {
  const client = useQueryClient();
  const key = [fulfilmentEndpoints.pickLookup.path, number];
  return {
    send: async (id: number, code: string, station: string) =>
      (
        await callEndpoint(fulfilmentEndpoints.pickScan, {
          params: { id },
          body: { code, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: PickScanAnswer) => {
      await patchQuery<PickOrder>(client, key, () => answer.order);
      await client.invalidateQueries({ queryKey: MY_PICKS_KEY });
    },
    reread: () => client.invalidateQueries({ queryKey: key, exact: true }),
    confirmAccessories: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(fulfilmentEndpoints.confirmAccessories, { params: { id }, body: {} }))
          .data,
      onSuccess: async (order) => {
        client.setQueryData(key, order);
        await client.invalidateQueries({ queryKey: MY_PICKS_KEY });
      },
    }),
  };
}

/** An order's document (a PDF), opened in a new tab to print. */
async function openDocument(
  endpoint: typeof packingSlipEndpoint | typeof pickListEndpoint,
  id: number,
): Promise<void> {
  await openPrintout(async () => (await callEndpoint(endpoint, { params: { id } })).data);
}

export const openPackingSlip = (id: number) => openDocument(packingSlipEndpoint, id);
export const openPickList = (id: number) => openDocument(pickListEndpoint, id);
