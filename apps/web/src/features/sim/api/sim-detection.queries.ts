import {
  simDetectionEndpoints,
  type SimDetectionColumns,
  type SimDetectionOutcome,
  type SimDetectionRun,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const RUNS_KEY = simDetectionEndpoints.runs.path;
const ANOMALIES_KEY = simDetectionEndpoints.anomalies.path;

const unfinished = (run: SimDetectionRun) => run.status === 'loading' || run.status === 'applying';

/** How often a run still loading or applying is read again: its progress bar moves with it. */
const PROGRESS_MS = 1000;

/** A page of runs, newest first; read again every second while one of them is unfinished. */
export function useDetectionRuns(before: number | null) {
  return useQuery({
    queryKey: [RUNS_KEY, before],
    queryFn: async () =>
      (
        await callEndpoint(simDetectionEndpoints.runs, {
          query: before === null ? {} : { before },
        })
      ).data,
    refetchInterval: (query) => (query.state.data?.rows.some(unfinished) ? PROGRESS_MS : false),
  });
}

/** One run, followed while it loads and applies. */
export function useDetectionRun(id: number | null) {
  return useQuery({
    queryKey: [RUNS_KEY, 'run', id],
    queryFn: async () =>
      (await callEndpoint(simDetectionEndpoints.run, { params: { id: id! } })).data,
    enabled: id !== null,
    refetchInterval: (query) =>
      query.state.data && unfinished(query.state.data) ? PROGRESS_MS : false,
  });
}

/** A page of a run's rows in file order, filtered by outcome ('differences': all but unchanged). */
export function useDetectionRows(
  id: number | null,
  outcome: SimDetectionOutcome | 'differences' | undefined,
  after: number | null,
  done: boolean,
) {
  return useQuery({
    queryKey: [RUNS_KEY, 'rows', id, outcome ?? 'all', after, done],
    queryFn: async () =>
      (
        await callEndpoint(simDetectionEndpoints.rows, {
          params: { id: id! },
          query: { outcome, ...(after === null ? {} : { before: after }) },
        })
      ).data,
    enabled: id !== null,
  });
}

export function useCarrierMapping(carrierId: number | null) {
  return useQuery({
    queryKey: [simDetectionEndpoints.mapping.path, carrierId],
    queryFn: async () =>
      (await callEndpoint(simDetectionEndpoints.mapping, { params: { id: carrierId! } })).data,
    enabled: carrierId !== null,
  });
}

export function useCarrierOptions(search: string) {
  return useQuery({
    queryKey: [simDetectionEndpoints.carrierOptions.path, search],
    queryFn: async () =>
      (await callEndpoint(simDetectionEndpoints.carrierOptions, { query: { search } })).data,
  });
}

/** Keeps the carrier's mapping, then uploads the export with it: the new run. */
export function useUploadExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { carrierId: number; columns: SimDetectionColumns; file: File }) => {
      await callEndpoint(simDetectionEndpoints.saveMapping, {
        params: { id: input.carrierId },
        body: input.columns,
      });
      return (
        await callEndpoint(simDetectionEndpoints.upload, {
          query: { client_carrier_id: input.carrierId, file_name: input.file.name },
          file: input.file,
        })
      ).data;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: [RUNS_KEY] }),
  });
}

export function usePull() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: {
      client_carrier_id: number;
      iccids?: string[];
      first?: string;
      last?: string;
    }) => (await callEndpoint(simDetectionEndpoints.pull, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [RUNS_KEY] }),
  });
}

export function useRerun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callEndpoint(simDetectionEndpoints.rerun, { params: { id } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [RUNS_KEY] }),
  });
}

export function useAnomalies(status: 'open' | 'resolved', before: number | null) {
  return useQuery({
    queryKey: [ANOMALIES_KEY, status, before],
    queryFn: async () =>
      (
        await callEndpoint(simDetectionEndpoints.anomalies, {
          query: { status, ...(before === null ? {} : { before }) },
        })
      ).data,
  });
}

export function useResolveAnomaly() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: number; resolution: string }) =>
      (
        await callEndpoint(simDetectionEndpoints.resolveAnomaly, {
          params: { id: input.id },
          body: { resolution: input.resolution },
        })
      ).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [ANOMALIES_KEY] }),
  });
}

/** A download link for a run's differences. */
export async function differencesLink(id: number, format: 'csv' | 'xlsx') {
  return (
    await callEndpoint(simDetectionEndpoints.exportDifferences, {
      params: { id },
      body: { format },
    })
  ).data;
}
