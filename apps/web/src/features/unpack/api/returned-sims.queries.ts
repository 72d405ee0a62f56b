import { unpackEndpoints, type ReturnedSimDecision } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The SIMs that came back (/RMA/sim): the list, the decisions and the deactivation file. */

const SIMS_KEY = unpackEndpoints.returnedSims.path;

export function useReturnedSims() {
  return useQuery({
    queryKey: [SIMS_KEY],
    queryFn: async () => (await callEndpoint(unpackEndpoints.returnedSims)).data,
  });
}

export function useDecideSims() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: ReturnedSimDecision) =>
      (await callEndpoint(unpackEndpoints.decideSims, { body })).data,
    onSuccess: () => client.invalidateQueries({ queryKey: [SIMS_KEY] }),
  });
}

export const deactivationLink = async () =>
  (await callEndpoint(unpackEndpoints.deactivationExport, { body: {} })).data;
