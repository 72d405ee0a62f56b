import {
  fulfilmentDashboardEndpoint,
  refreshFulfilmentDashboardEndpoint,
  type FulfilmentDashboard,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const DASHBOARD_KEY = [fulfilmentDashboardEndpoint.path];

/**
 * The fulfilment dashboard's kept figures, asked again every 30 seconds while the page is open:
 * the server renews them every minute, and each answer is one row.
 */
export function useFulfilmentDashboard() {
  return useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: async () => (await callEndpoint(fulfilmentDashboardEndpoint)).data,
    refetchInterval: 30_000,
  });
}

/** Reads the figures again now; the answer becomes the page's figures. */
export function useRefreshFulfilmentDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await callEndpoint(refreshFulfilmentDashboardEndpoint)).data,
    onSuccess: ({ refreshed: _refreshed, ...dashboard }) => {
      client.setQueryData<FulfilmentDashboard>(DASHBOARD_KEY, dashboard);
    },
  });
}
