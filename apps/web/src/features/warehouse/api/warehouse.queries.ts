import {
  refreshWarehouseDashboardEndpoint,
  warehouseDashboardEndpoint,
  type WarehouseDashboard,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

const DASHBOARD_KEY = [warehouseDashboardEndpoint.path];

/**
 * The warehouse dashboard's kept figures, asked again every minute while the page is open: the
 * server's refresher renews them every few minutes, and each answer is one row.
 */
export function useWarehouseDashboard() {
  return useQuery({
    queryKey: DASHBOARD_KEY,
    queryFn: async () => (await callEndpoint(warehouseDashboardEndpoint)).data,
    refetchInterval: 60_000,
  });
}

/** Reads the figures again now; the answer becomes the page's figures. */
export function useRefreshWarehouseDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => (await callEndpoint(refreshWarehouseDashboardEndpoint)).data,
    onSuccess: ({ refreshed: _refreshed, ...dashboard }) => {
      client.setQueryData<WarehouseDashboard>(DASHBOARD_KEY, dashboard);
    },
  });
}
