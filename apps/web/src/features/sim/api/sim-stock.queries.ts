import {
  moveSimBoxEndpoint,
  receiveSimRangeEndpoint,
  simBoxLabelEndpoint,
  simBoxList,
  simBoxPackLabelsEndpoint,
  simBoxPacksEndpoint,
  simCardList,
  simInquireEndpoint,
  simListImportEndpoints,
  simPackLabelEndpoint,
  simPrefixEndpoint,
  simStatusActionEndpoint,
  simTransferEndpoint,
  splitSimBoxEndpoint,
  type ImportCheck,
  type ImportMode,
  type LabelSize,
  type ReceiveSimRange,
  type SimListAction,
  type SimListImportOptions,
  type SimListImportSummary,
  type SimPackSize,
  type SimTransfer,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';

/** The SIM stock's reads and writes (DOMAIN.md 4.6 /sim/box, /sim, /sim/inquire). */

const BOXES_KEY = [`/${simBoxList.name}`];
const SIMS_KEY = [`/${simCardList.name}`];

/** After a write to boxes or SIMs: both lists and their counts are read again. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([BOXES_KEY, SIMS_KEY].map((queryKey) => client.invalidateQueries({ queryKey })));
}

export function useBoxWrites() {
  const refresh = useRefresh();
  return {
    receive: useMutation({
      mutationFn: async (body: ReceiveSimRange) =>
        (await callEndpoint(receiveSimRangeEndpoint, { body })).data,
      onSuccess: refresh,
    }),
    split: useMutation({
      mutationFn: async ({ id, size }: { id: number; size: SimPackSize }) =>
        (await callEndpoint(splitSimBoxEndpoint, { params: { id }, body: { size } })).data,
      onSuccess: refresh,
    }),
    move: useMutation({
      mutationFn: async ({ id, locationId }: { id: number; locationId: number }) =>
        (
          await callEndpoint(moveSimBoxEndpoint, {
            params: { id },
            body: { location_id: locationId },
          })
        ).data,
      onSuccess: refresh,
    }),
  };
}

/** What the prefix table says of a scanned ICCID (its issuer and client carrier). */
export const prefixOf = async (iccid: string) =>
  (await callEndpoint(simPrefixEndpoint, { query: { iccid } })).data;

export function useBoxPacks(id: number | null) {
  return useQuery({
    queryKey: [...BOXES_KEY, 'packs', id],
    queryFn: async () => (await callEndpoint(simBoxPacksEndpoint, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** Labels print as PDF, downloaded: the box's, all its packs', or one pack's. */
export const printLabels = {
  box: async (id: number, size: LabelSize = '4x6') =>
    startDownload(
      (await callEndpoint(simBoxLabelEndpoint, { params: { id }, body: { format: 'pdf', size } }))
        .data,
    ),
  packs: async (id: number, size: LabelSize = '2x1') =>
    startDownload(
      (
        await callEndpoint(simBoxPackLabelsEndpoint, {
          params: { id },
          body: { format: 'pdf', size },
        })
      ).data,
    ),
  pack: async (id: number, size: LabelSize = '2x1') =>
    startDownload(
      (await callEndpoint(simPackLabelEndpoint, { params: { id }, body: { format: 'pdf', size } }))
        .data,
    ),
};

export type SimListCheck = ImportCheck & { summary?: SimListImportSummary | null };

/** An ICCID list: upload, the dry run with the box's options, the commit. */
export function useSimListImport() {
  const refresh = useRefresh();
  const endpoints = simListImportEndpoints;
  return {
    upload: useMutation({
      mutationFn: async (file: File) =>
        (await callEndpoint(endpoints.upload, { query: { fileName: file.name }, file })).data,
    }),
    check: useMutation({
      mutationFn: async (input: {
        id: number;
        mapping: Record<string, string | null>;
        options: SimListImportOptions;
      }) =>
        (
          await callEndpoint(endpoints.check, {
            params: { id: input.id },
            body: { mapping: input.mapping, options: input.options },
          })
        ).data as SimListCheck,
    }),
    commit: useMutation({
      mutationFn: async ({ id, mode }: { id: number; mode: ImportMode }) =>
        (await callEndpoint(endpoints.commit, { params: { id }, body: { mode } })).data,
      onSuccess: refresh,
    }),
    errorFile: async (id: number) =>
      startDownload((await callEndpoint(endpoints.errorFile, { params: { id } })).data),
  };
}

export function useSimWrites() {
  const refresh = useRefresh();
  return {
    mark: useMutation({
      mutationFn: async (input: { id: number; action: SimListAction; reason: string }) =>
        (
          await callEndpoint(simStatusActionEndpoint, {
            params: { id: input.id },
            body: { action: input.action, reason: input.reason },
          })
        ).data,
      onSuccess: refresh,
    }),
    transfer: useMutation({
      mutationFn: async (body: SimTransfer) =>
        (await callEndpoint(simTransferEndpoint, { body })).data,
      onSuccess: refresh,
    }),
  };
}

/** A SIM's story by its ICCID (checked already); a 404 is no SIM of that ICCID, never retried. */
export function useSimStory(iccid: string | null) {
  return useQuery({
    queryKey: [simInquireEndpoint.path, iccid],
    queryFn: async () => (await callEndpoint(simInquireEndpoint, { body: { iccid: iccid! } })).data,
    enabled: iccid !== null,
    retry: false,
  });
}
