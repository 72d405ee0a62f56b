import {
  accessoryDashboardEndpoint,
  accessoryStockEndpoints,
  partStockEndpoints,
} from '@inventory/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callEndpoint } from '../../../shell/http-client';

/** After a receipt, adjustment or move: the bins, the parts and the dashboard are read again. */
export function useRefreshStock() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all(
        [
          accessoryStockEndpoints.list.path,
          partStockEndpoints.list.path,
          accessoryDashboardEndpoint.path,
        ].map((path) => client.invalidateQueries({ queryKey: [path] })),
      ),
    [client],
  );
}

/** The accessory dashboard, with the SKUs consumed in `week` when one is chosen. */
export function useAccessoryDashboard(week: string | undefined) {
  return useQuery({
    queryKey: [accessoryDashboardEndpoint.path, week ?? null],
    queryFn: async () => (await callEndpoint(accessoryDashboardEndpoint, { query: { week } })).data,
  });
}
