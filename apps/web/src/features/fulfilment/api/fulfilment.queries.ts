import {
  backlogOrderList,
  carrierUpdateEndpoints,
  fulfilmentEndpoints,
  orderEndpoints,
  packingSlipEndpoint,
  pickListEndpoint,
  pipelineOrderList,
  readyOrderList,
  type AssignOrdersInput,
  type AutoAssignInput,
  type BacklogInput,
  type CarrierUpdateExportInput,
  type CarrierUpdateKind,
  type PickOrder,
  type PickQueue,
  type PickScanAnswer,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout, startDownload } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';

/** Fulfilment's reads and writes (DOMAIN.md 4.14): assignment, the pick station, the pipeline. */

const OVERVIEW_KEY = [fulfilmentEndpoints.overview.path];
const MY_PICKS_KEY = [fulfilmentEndpoints.myPicks.path];
const BOARD_PATH = carrierUpdateEndpoints.board.path;
/** What a carrier update changes: the board and the order at the station. */
export const CARRIER_UPDATE_READS = [BOARD_PATH, fulfilmentEndpoints.pickLookup.path] as const;
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

/** The worker's orders of one queue at the station. */
export function useMyPicks(queue: PickQueue) {
  return useQuery({
    queryKey: [...MY_PICKS_KEY, queue],
    queryFn: async () =>
      (await callEndpoint(fulfilmentEndpoints.myPicks, { query: { queue } })).data,
  });
}

/** One of the worker's orders of the queue, by the number scanned. */
export function usePickOrder(number: string | null, queue: PickQueue) {
  return useQuery({
    queryKey: [fulfilmentEndpoints.pickLookup.path, number, queue],
    enabled: number !== null,
    retry: false,
    queryFn: async () =>
      (await callEndpoint(fulfilmentEndpoints.pickLookup, { query: { number: number!, queue } }))
        .data,
  });
}

/** Scans of one order, each answer put into the order shown (no read again). */
export function usePickScan(number: string, queue: PickQueue) {
  const client = useQueryClient();
  const key = [fulfilmentEndpoints.pickLookup.path, number, queue];
  return {
    send: async (id: number, code: string, station: string) =>
      (
        await callEndpoint(fulfilmentEndpoints.pickScan, {
          params: { id },
          body: { code, queue, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: PickScanAnswer) => {
      await patchQuery<PickOrder>(client, key, () => answer.order);
      await client.invalidateQueries({ queryKey: MY_PICKS_KEY });
      // The last unit picked opens the order's pairing or device change.
      if (answer.order.status === 'fulfilled') {
        await client.invalidateQueries({ queryKey: [BOARD_PATH] });
      }
    },
    reread: () => client.invalidateQueries({ queryKey: key, exact: true }),
    confirmAccessories: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(fulfilmentEndpoints.confirmAccessories, { params: { id }, body: {} }))
          .data,
      onSuccess: async (order) => {
        client.setQueryData(key, order);
        await client.invalidateQueries({ queryKey: MY_PICKS_KEY });
        await client.invalidateQueries({ queryKey: [BOARD_PATH] });
      },
    }),
    recordMdn: useMutation({
      mutationFn: async ({ id, mdn }: { id: number; mdn: string }) =>
        (await callEndpoint(fulfilmentEndpoints.recordMdn, { params: { id }, body: { mdn } })).data,
      onSuccess: (order) => client.setQueryData(key, order),
    }),
  };
}

/** Each order's latest pairing or device change while it waits for its label. */
export function useCarrierUpdateBoard(kind: CarrierUpdateKind) {
  return useQuery({
    queryKey: [BOARD_PATH, kind],
    queryFn: async () =>
      (await callEndpoint(carrierUpdateEndpoints.board, { query: { kind } })).data,
  });
}

/** The desk's actions: export a batch file (it downloads), retry, re-pair. */
export function useCarrierUpdateActions() {
  const client = useQueryClient();
  const settle = async () => {
    await Promise.all(
      CARRIER_UPDATE_READS.map((path) => client.invalidateQueries({ queryKey: [path] })),
    );
    await refreshAll(client);
  };
  return {
    exportFile: useMutation({
      mutationFn: async (body: CarrierUpdateExportInput) =>
        (await callEndpoint(carrierUpdateEndpoints.export, { body })).data,
      onSuccess: async (file) => {
        startDownload(file.download);
        await settle();
      },
    }),
    retry: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(carrierUpdateEndpoints.retry, { params: { id }, body: {} })).data,
      onSuccess: settle,
    }),
    rePair: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(carrierUpdateEndpoints.rePair, { params: { id }, body: {} })).data,
      onSuccess: settle,
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
