import {
  agentHomeEndpoint,
  agentLedgerListEndpoints,
  agentProfileEndpoint,
  agentSimByIccidEndpoint,
  agentSimListEndpoints,
  recordAgentActivationEndpoint,
  requestAgentAddressChangeEndpoint,
  updateAgentProfileEndpoint,
  type AgentAddressInput,
  type AgentProfile,
  type RecordAgentActivationInput,
  type UpdateAgentProfileInput,
} from '@inventory/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The agent's own home, SIMs, history and profile (DOMAIN.md 7), read as the agent. */

const HOME_KEY = [agentHomeEndpoint.path];
const SIMS_KEY = [agentSimListEndpoints.list.path];
const PROFILE_KEY = [agentProfileEndpoint.path];

export function useAgentHome() {
  return useQuery({
    queryKey: HOME_KEY,
    queryFn: async () => (await callEndpoint(agentHomeEndpoint)).data,
  });
}

/** The list's query as the page's address holds it (filters, cursor, limit). */
export type ListQueryParams = Record<string, string | undefined>;

const listQueryOf = (params: ListQueryParams) =>
  Object.fromEntries(Object.entries(params).filter(([, value]) => value !== undefined));

export function useAgentSims(params: ListQueryParams) {
  const query = listQueryOf(params);
  return {
    page: useQuery({
      queryKey: [...SIMS_KEY, query],
      queryFn: async () => (await callEndpoint(agentSimListEndpoints.list, { query })).data,
      placeholderData: keepPreviousData,
    }),
    count: useQuery({
      queryKey: [agentSimListEndpoints.count.path, query],
      queryFn: async () => (await callEndpoint(agentSimListEndpoints.count, { query })).data,
    }),
  };
}

/** One of the agent's SIMs by ICCID (404 for another agent's). */
export function useAgentSim(iccid: string | null) {
  return useQuery({
    queryKey: [agentSimByIccidEndpoint.path, iccid],
    queryFn: async () =>
      (await callEndpoint(agentSimByIccidEndpoint, { params: { iccid: iccid! } })).data,
    enabled: iccid !== null,
    retry: false,
  });
}

export function useAgentHistory(params: ListQueryParams) {
  const query = listQueryOf(params);
  return {
    page: useQuery({
      queryKey: [agentLedgerListEndpoints.list.path, query],
      queryFn: async () => (await callEndpoint(agentLedgerListEndpoints.list, { query })).data,
      placeholderData: keepPreviousData,
    }),
    count: useQuery({
      queryKey: [agentLedgerListEndpoints.count.path, query],
      queryFn: async () => (await callEndpoint(agentLedgerListEndpoints.count, { query })).data,
    }),
  };
}

/** Records an activation; the home figures and the SIM list are read again after it. */
export function useRecordActivation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: RecordAgentActivationInput) =>
      (await callEndpoint(recordAgentActivationEndpoint, { body })).data,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: HOME_KEY });
      void client.invalidateQueries({ queryKey: SIMS_KEY });
    },
  });
}

export function useAgentProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: async () => (await callEndpoint(agentProfileEndpoint)).data,
  });
}

export function useAgentProfileActions() {
  const client = useQueryClient();
  const keep = (profile: AgentProfile) => client.setQueryData(PROFILE_KEY, profile);
  return {
    update: useMutation({
      mutationFn: async (body: UpdateAgentProfileInput) =>
        (await callEndpoint(updateAgentProfileEndpoint, { body })).data,
      onSuccess: keep,
    }),
    requestAddress: useMutation({
      mutationFn: async (body: AgentAddressInput) =>
        (await callEndpoint(requestAgentAddressChangeEndpoint, { body })).data,
      onSuccess: keep,
    }),
  };
}
