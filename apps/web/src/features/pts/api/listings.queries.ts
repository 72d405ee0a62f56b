import {
  ptsListingEndpoints,
  ptsListingWriteEndpoints,
  ptsUpdateEndpoints,
  type CreatePtsListingInput,
  type ManualListingAction,
  type PtsUpdateRequest,
  type UpdatePtsListingInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** Every write refreshes the listings and the applied changes. */
function useRefreshListings() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: [ptsListingEndpoints.list.path] }),
      client.invalidateQueries({ queryKey: [ptsUpdateEndpoints.batches.path] }),
    ]);
}

/** The writes of the listings page: create, edit and the lifecycle's actions. */
export function useListingWrites() {
  const refresh = useRefreshListings();
  const after = { onSuccess: () => void refresh() };
  const W = ptsListingWriteEndpoints;
  return {
    create: useMutation({
      mutationFn: async (body: CreatePtsListingInput) =>
        (await callEndpoint(W.create, { body })).data,
      ...after,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: UpdatePtsListingInput }) =>
        (await callEndpoint(W.update, { params: { id }, body })).data,
      ...after,
    }),
    act: useMutation({
      mutationFn: async ({ id, action }: { id: number; action: ManualListingAction }) =>
        (await callEndpoint(W[action], { params: { id }, body: {} })).data,
      ...after,
    }),
  };
}

/** The bulk update: its preview (no write) and its apply. */
export function useBulkUpdate() {
  const refresh = useRefreshListings();
  return {
    preview: useMutation({
      mutationFn: async (body: PtsUpdateRequest) =>
        (await callEndpoint(ptsUpdateEndpoints.preview, { body })).data,
    }),
    apply: useMutation({
      mutationFn: async (body: PtsUpdateRequest & { skip_errors: boolean }) =>
        (await callEndpoint(ptsUpdateEndpoints.apply, { body })).data,
      onSuccess: () => void refresh(),
    }),
  };
}

/** The applied changes, newest first. */
export const useUpdateBatches = () =>
  useQuery({
    queryKey: [ptsUpdateEndpoints.batches.path],
    queryFn: async () => (await callEndpoint(ptsUpdateEndpoints.batches, {})).data,
  });

/** One applied change with its listings before and after, when one is opened. */
export const useUpdateBatch = (id: number | null) =>
  useQuery({
    queryKey: [ptsUpdateEndpoints.batches.path, id],
    enabled: id !== null,
    queryFn: async () =>
      (await callEndpoint(ptsUpdateEndpoints.batch, { params: { id: id! } })).data,
  });
