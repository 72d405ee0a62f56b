import {
  mainDashboardEndpoint,
  refreshMainDashboardEndpoint,
  type MainDashboard,
  type MainDashboardQuery,
} from '@inventory/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';

/** The filters the page asks with (the address's), never a single widget. */
export type DashboardFilters = Omit<MainDashboardQuery, 'widget'>;

const keyOf = (filters: DashboardFilters) => [mainDashboardEndpoint.path, filters];

/**
 * The reader's widgets of the kept figures, asked again every minute while the page is open: the
 * server's refresher renews them every few minutes, and each answer is one row.
 */
export function useMainDashboard(filters: DashboardFilters) {
  return useQuery({
    queryKey: keyOf(filters),
    queryFn: async () => (await callEndpoint(mainDashboardEndpoint, { query: filters })).data,
    refetchInterval: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** Reads the figures again now; the answer becomes the page's figures. */
export function useRefreshMainDashboard(filters: DashboardFilters) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await callEndpoint(refreshMainDashboardEndpoint, { query: filters })).data,
    onSuccess: ({ refreshed: _refreshed, ...dashboard }) => {
      client.setQueryData<MainDashboard>(keyOf(filters), dashboard);
    },
  });
}
