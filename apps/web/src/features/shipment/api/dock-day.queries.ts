import { dockDayEndpoints, type DockDay } from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';

/** Today's dock: its figures, the end-of-day close, a manager's reopening and the report. */

const DOCK_DAY_KEY = [dockDayEndpoints.today.path];

export function useDockDay() {
  return useQuery({
    queryKey: DOCK_DAY_KEY,
    queryFn: async () => (await callEndpoint(dockDayEndpoints.today)).data,
  });
}

/** Reads today's figures again (a parcel shipped at the dock). */
export function useRefreshDockDay() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: DOCK_DAY_KEY });
}

export function useDockDayActions() {
  const client = useQueryClient();
  const onSuccess = (day: DockDay) => client.setQueryData(DOCK_DAY_KEY, day);
  return {
    close: useMutation({
      mutationFn: async () => (await callEndpoint(dockDayEndpoints.close)).data,
      onSuccess,
    }),
    reopen: useMutation({
      mutationFn: async (reason: string) =>
        (await callEndpoint(dockDayEndpoints.reopen, { body: { reason } })).data,
      onSuccess,
    }),
  };
}

export const printDockDay = (day: string) =>
  openPrintout(
    async () => (await callEndpoint(dockDayEndpoints.print, { params: { day }, body: {} })).data,
  );
