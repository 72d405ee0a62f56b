import {
  campaignEndpoints,
  campaignImportEndpoints,
  orderList,
  type CampaignImportOptions,
  type CampaignStatus,
  type ImportMode,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const LIST_KEY = campaignEndpoints.list.path;
const OUTBOUND_KEY = campaignEndpoints.outbound.path;
const IMPORTS_KEY = campaignImportEndpoints.imports.path;

/** The newest campaigns of a status (or all) with their progress. */
export function useCampaigns(status: CampaignStatus | undefined) {
  return useQuery({
    queryKey: [LIST_KEY, status ?? 'all'],
    queryFn: async () => (await callEndpoint(campaignEndpoints.list, { query: { status } })).data,
  });
}

/** The campaigns the label desk and the dock work for, with their progress. */
export function useOutboundCampaigns() {
  return useQuery({
    queryKey: [OUTBOUND_KEY],
    queryFn: async () => (await callEndpoint(campaignEndpoints.outbound)).data,
  });
}

/** Reads the campaigns' progress again, after labels or scans moved it. */
export function useRefreshOutboundCampaigns() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: [OUTBOUND_KEY] });
}

/** One campaign with its orders. */
export function useCampaign(id: number | null) {
  return useQuery({
    queryKey: [LIST_KEY, 'detail', id],
    queryFn: async () =>
      (await callEndpoint(campaignEndpoints.detail, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

export function useCloseCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) =>
      (await callEndpoint(campaignEndpoints.close, { params: { id } })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [LIST_KEY] }),
  });
}

/** The campaign files imported before, newest first. */
export function useCampaignImports() {
  return useQuery({
    queryKey: [IMPORTS_KEY],
    queryFn: async () => (await callEndpoint(campaignImportEndpoints.imports)).data,
  });
}

/** The campaign file's steps: upload, dry run with the campaign, commit in a mode. */
export function useCampaignImportSteps() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all(
      [[IMPORTS_KEY], [LIST_KEY], [`/${orderList.name}`]].map((queryKey) =>
        client.invalidateQueries({ queryKey }),
      ),
    );
  const E = campaignImportEndpoints;
  return {
    upload: useMutation({
      mutationFn: async (file: File) =>
        (await callEndpoint(E.upload, { query: { fileName: file.name }, file })).data,
    }),
    check: useMutation({
      mutationFn: async ({
        id,
        mapping,
        options,
      }: {
        id: number;
        mapping: Record<string, string | null>;
        options: CampaignImportOptions;
      }) => (await callEndpoint(E.check, { params: { id }, body: { mapping, options } })).data,
      onSuccess: refresh,
    }),
    commit: useMutation({
      mutationFn: async ({ id, mode }: { id: number; mode: ImportMode }) =>
        (await callEndpoint(E.commit, { params: { id }, body: { mode } })).data,
      onSuccess: refresh,
    }),
    errorFile: (id: number) => callEndpoint(E.errorFile, { params: { id } }),
    template: (format: 'csv' | 'xlsx') => callEndpoint(E.template, { body: { format } }),
  };
}
