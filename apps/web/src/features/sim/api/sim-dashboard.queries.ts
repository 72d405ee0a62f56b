import {
  agentAddressChangesEndpoint,
  approveAgentAddressChangeEndpoint,
  rejectAgentAddressChangeEndpoint,
  simDashboardEndpoint,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const DASHBOARD_KEY = [simDashboardEndpoint.path];
const CHANGES_KEY = [agentAddressChangesEndpoint.path];

/** The SIM dashboard's figures, asked again every minute while the page is open. */
export function useSimDashboard() {
  return useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: async () => (await callEndpoint(simDashboardEndpoint)).data,
    refetchInterval: 60_000,
  });
}

/** Agents' address changes waiting for a coordinator (read only by those who decide them). */
export function useAddressChanges(enabled: boolean) {
  return useQuery({
    queryKey: CHANGES_KEY,
    queryFn: async () => (await callEndpoint(agentAddressChangesEndpoint)).data,
    enabled,
  });
}

export function useDecideAddressChange() {
  const client = useQueryClient();
  const refresh = () => {
    void client.invalidateQueries({ queryKey: CHANGES_KEY });
    void client.invalidateQueries({ queryKey: DASHBOARD_KEY });
  };
  return {
    approve: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(approveAgentAddressChangeEndpoint, { params: { id } })).data,
      onSuccess: refresh,
    }),
    reject: useMutation({
      mutationFn: async ({ id, reason }: { id: number; reason: string }) =>
        (await callEndpoint(rejectAgentAddressChangeEndpoint, { params: { id }, body: { reason } }))
          .data,
      onSuccess: refresh,
    }),
  };
}
