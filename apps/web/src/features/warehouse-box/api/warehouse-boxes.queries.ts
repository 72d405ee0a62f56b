import {
  boxContentEndpoint,
  boxLabelEndpoint,
  closeBoxEndpoint,
  modelDashboardEndpoint,
  receiveScanEndpoint,
  reopenBoxEndpoint,
  scanLogEndpoint,
  stageBoxEndpoint,
  undoScanEndpoint,
  warehouseBoxDashboardEndpoint,
  warehouseBoxEndpoints,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { startDownload } from '../../../toolkit/resource-queries';
import { useRefreshDevices } from '../../inventory';

/**
 * A box's content sits under the box list's key, so that one refresh after a scan, an undo or a
 * close updates the station, the list and its count alike.
 */
const boxesKey = [warehouseBoxEndpoints.list.path] as const;

/** The box and its devices, newest first: what the station shows, also after a reload. */
export function useBoxContent(id: number) {
  return useQuery({
    queryKey: [...boxesKey, 'content', id],
    queryFn: async () => (await callEndpoint(boxContentEndpoint, { params: { id } })).data,
  });
}

/** How many of a box's latest scans the station shows. */
const SCAN_LOG_SHOWN = 200;

/**
 * The box's scan log as the server keeps it, newest first: every station's scans, refused ones
 * included, so a reload or another tab shows the same. Under the box list's key, a scan refreshes it.
 */
export function useScanLog(id: number) {
  return useQuery({
    queryKey: [...boxesKey, 'scans', id],
    queryFn: async () =>
      (await callEndpoint(scanLogEndpoint, { params: { id }, query: { limit: SCAN_LOG_SHOWN } }))
        .data,
  });
}

/** The station's writes; each refreshes the boxes and the device registry. */
export function useBoxActions(id: number) {
  const client = useQueryClient();
  const refreshDevices = useRefreshDevices();
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: boxesKey }), refreshDevices()]);
  const params = { id };
  return {
    scan: useMutation({
      mutationFn: async ({ code, station }: { code: string; station: string }) =>
        (
          await callEndpoint(receiveScanEndpoint, {
            params,
            body: { code, ...(station && { station }) },
          })
        ).data,
      onSettled: refresh,
    }),
    undo: useMutation({
      mutationFn: async (deviceId: number) =>
        (await callEndpoint(undoScanEndpoint, { params, body: { device_id: deviceId } })).data,
      onSettled: refresh,
    }),
    close: useMutation({
      mutationFn: async (overrideReason: string | null) =>
        (
          await callEndpoint(closeBoxEndpoint, {
            params,
            body: { override_reason: overrideReason },
          })
        ).data,
      onSettled: refresh,
    }),
    reopen: useMutation({
      mutationFn: async () => (await callEndpoint(reopenBoxEndpoint, { params })).data,
      onSettled: refresh,
    }),
    stage: useMutation({
      mutationFn: async (location: string) =>
        (await callEndpoint(stageBoxEndpoint, { params, body: { location } })).data,
      onSettled: refresh,
    }),
  };
}

/**
 * Opens the box's label (a 4x6 PDF with its Code128 code) in a new tab to print. The tab is
 * opened at the click, before the link is asked for, so that no popup blocker stops it; when the
 * browser refuses a tab the file is downloaded instead.
 */
export async function openBoxLabel(id: number): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const download = (await callEndpoint(boxLabelEndpoint, { params: { id } })).data;
    if (tab) tab.location.href = download.url;
    else startDownload(download);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** The dashboard's figures; days are the browser's (its time zone goes along). */
export function useBoxDashboard() {
  return useQuery({
    queryKey: [warehouseBoxDashboardEndpoint.path],
    queryFn: async () =>
      (
        await callEndpoint(warehouseBoxDashboardEndpoint, {
          query: { tz: Intl.DateTimeFormat().resolvedOptions().timeZone },
        })
      ).data,
  });
}

export function useModelDashboard(vendorId: number | undefined) {
  return useQuery({
    queryKey: [modelDashboardEndpoint.path, vendorId ?? null],
    queryFn: async () =>
      (await callEndpoint(modelDashboardEndpoint, { query: { vendor_id: vendorId } })).data,
  });
}
