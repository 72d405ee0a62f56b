import { agentReturnEndpoints, type CreateAgentReturnInput } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

/** The agent's own returns (DOMAIN.md 7 "Returns"): the server answers only the signed-in agent's. */

const RETURNS_KEY = [agentReturnEndpoints.list.path];
const RETURNABLE_KEY = [agentReturnEndpoints.returnable.path];
const returnKey = (id: number) => [agentReturnEndpoints.detail.path, id];

export function useAgentReturns() {
  return useQuery({
    queryKey: RETURNS_KEY,
    queryFn: async () => (await callEndpoint(agentReturnEndpoints.list, {})).data,
  });
}

/** The agent's SIMs that can go back, read while the form is open. */
export function useReturnableSims(enabled: boolean) {
  return useQuery({
    queryKey: RETURNABLE_KEY,
    queryFn: async () => (await callEndpoint(agentReturnEndpoints.returnable, {})).data,
    enabled,
  });
}

export function useAgentReturn(id: number | null) {
  return useQuery({
    queryKey: returnKey(id ?? 0),
    queryFn: async () =>
      (await callEndpoint(agentReturnEndpoints.detail, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** Creating and cancelling a return; each reads the returns and the returnable SIMs again. */
export function useAgentReturnActions() {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: RETURNS_KEY }),
      client.invalidateQueries({ queryKey: RETURNABLE_KEY }),
      client.invalidateQueries({ queryKey: [agentReturnEndpoints.detail.path] }),
    ]);
  return {
    create: useMutation({
      mutationFn: async (body: CreateAgentReturnInput) =>
        (await callEndpoint(agentReturnEndpoints.create, { body })).data,
      onSuccess: refresh,
    }),
    cancel: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(agentReturnEndpoints.cancel, { params: { id } })).data,
      onSuccess: refresh,
    }),
  };
}

/**
 * Opens the return's label (a 4x6 PDF) in a new tab, opened before the link is asked for so that
 * no popup blocker stops it; where the browser refuses a tab (a phone) the file is downloaded.
 */
export async function openAgentReturnLabel(id: number): Promise<void> {
  await openPrintout(
    async () => (await callEndpoint(agentReturnEndpoints.label, { params: { id }, body: {} })).data,
  );
}
