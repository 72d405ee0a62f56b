import {
  simReturnEndpoints,
  simReturnList,
  type SimBulkDispositionInput,
  type SimDispositionInput,
  type SimReturnDetail,
  type SimReturnScanAnswer,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';
import { returnAfterScan } from '../sim-return-answer';

/** The SIM returns' reads and writes (DOMAIN.md 4.6 /sim/return). */

const LIST_KEY = [`/${simReturnList.name}`];
export const simReturnKey = (id: number) => [simReturnEndpoints.detail.path, id];

/** A return with its lines, as the station shows it. */
export function useSimReturn(id: number) {
  return useQuery({
    queryKey: simReturnKey(id),
    queryFn: async () => (await callEndpoint(simReturnEndpoints.detail, { params: { id } })).data,
  });
}

/** Scans into a return, each answer put into the return shown (no read again). */
export function useSimReturnScan(id: number) {
  const client = useQueryClient();
  return {
    send: async (code: string, station: string) =>
      (
        await callEndpoint(simReturnEndpoints.scan, {
          params: { id },
          body: { code, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: SimReturnScanAnswer) => {
      await patchQuery<SimReturnDetail>(client, simReturnKey(id), (detail) =>
        returnAfterScan(detail, answer),
      );
      await client.invalidateQueries({ queryKey: LIST_KEY });
    },
    reread: () => client.invalidateQueries({ queryKey: simReturnKey(id), exact: true }),
  };
}

/** Dispositions, close and cancel: each answers the return as it is after. */
export function useSimReturnActions(id: number) {
  const client = useQueryClient();
  const settle = async (detail: SimReturnDetail) => {
    client.setQueryData(simReturnKey(id), detail);
    await client.invalidateQueries({ queryKey: LIST_KEY });
  };
  const params = { id };
  return {
    dispose: useMutation({
      mutationFn: async ({ lineId, ...body }: SimDispositionInput & { lineId: number }) =>
        (
          await callEndpoint(simReturnEndpoints.dispose, {
            params: { id, line_id: lineId },
            body,
          })
        ).data,
      onSuccess: settle,
    }),
    disposeAll: useMutation({
      mutationFn: async (body: SimBulkDispositionInput) =>
        (await callEndpoint(simReturnEndpoints.disposeAll, { params, body })).data,
      onSuccess: settle,
    }),
    close: useMutation({
      mutationFn: async () => (await callEndpoint(simReturnEndpoints.close, { params })).data,
      onSuccess: settle,
    }),
    cancel: useMutation({
      mutationFn: async (reason: string | null) =>
        (await callEndpoint(simReturnEndpoints.cancel, { params, body: { reason } })).data,
      onSuccess: settle,
    }),
  };
}

/**
 * Opens the return's label (a 4x6 PDF) in a new tab, opened before the link is asked for so that
 * no popup blocker stops it; where the browser refuses a tab the file is downloaded.
 */
export async function openSimReturnLabel(id: number): Promise<void> {
  await openPrintout(
    async () => (await callEndpoint(simReturnEndpoints.label, { params: { id }, body: {} })).data,
  );
}
