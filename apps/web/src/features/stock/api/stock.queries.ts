import {
  accessoryDashboardEndpoint,
  accessoryStockEndpoints,
  partStockEndpoints,
  type LabelFormat,
  type StockItemKind,
} from '@inventory/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

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

/**
 * Bin labels of the chosen rows (accessory bins, or parts with each of their bins): a PDF opens
 * in a new tab (opened before the request, so the browser allows it); ZPL, for a Zebra printer,
 * downloads.
 */
export async function printBinLabels(
  kind: StockItemKind,
  ids: readonly number[],
  format: LabelFormat,
): Promise<void> {
  const endpoint = kind === 'part' ? partStockEndpoints.labels : accessoryStockEndpoints.labels;
  await openPrintout(
    async () =>
      (await callEndpoint(endpoint, { params: {}, body: { ids: [...ids], format } })).data,
    format === 'pdf',
  );
}
