import {
  boxContentEndpoint,
  type BoxContent,
  type ReceiveScan,
  type ScanLog,
  boxContentListEndpoint,
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
import {
  hashKey,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';
import { useRefreshDevices } from '../../devices';
import { contentAfterScan, contentAfterUndo, logAfterScan } from '../box-scan-answer';

/**
 * A box's content sits under the box list's key, so that one refresh after a close or a reopen
 * updates the station, the list and its count alike.
 */
const boxesKey = [warehouseBoxEndpoints.list.path] as const;
const contentKey = (id: number) => [...boxesKey, 'content', id] as const;
const scansKey = (id: number) => [...boxesKey, 'scans', id] as const;

/** The box and its devices, newest first: what the station shows, also after a reload. */
export function useBoxContent(id: number) {
  return useQuery({
    queryKey: contentKey(id),
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
    queryKey: scansKey(id),
    queryFn: async () =>
      (await callEndpoint(scanLogEndpoint, { params: { id }, query: { limit: SCAN_LOG_SHOWN } }))
        .data,
  });
}

/**
 * Marks the boxes' queries stale, to be read when next shown, but for those just put right from
 * an answer: marked, they would be read again at the next focus of the window for nothing.
 */
function markOthersStale(client: QueryClient, patched: readonly (readonly unknown[])[]) {
  const kept = new Set(patched.map((key) => hashKey(key)));
  return client.invalidateQueries({
    queryKey: boxesKey,
    refetchType: 'none',
    predicate: (query) => !kept.has(query.queryHash),
  });
}

/**
 * A scan into the box, and its answer put on the station's page: the box's counts, its devices
 * and its log change as the answer says, without reading the box again. Lists of boxes and
 * devices elsewhere are only marked stale: they are read when next shown.
 */
export function useBoxScan(id: number) {
  const client = useQueryClient();
  const refreshDevices = useRefreshDevices();
  return {
    send: async (code: string, station: string) =>
      (
        await callEndpoint(receiveScanEndpoint, {
          params: { id },
          body: { code, ...(station && { station }) },
        })
      ).data,
    apply: async (answer: ReceiveScan) => {
      const followed = await patchQuery<BoxContent>(client, contentKey(id), (content) =>
        contentAfterScan(content, answer),
      );
      if (followed) {
        await patchQuery<ScanLog>(client, scansKey(id), (log) => logAfterScan(log, answer));
      } else {
        await client.invalidateQueries({ queryKey: scansKey(id), exact: true });
      }
      await Promise.all([
        markOthersStale(client, [contentKey(id), scansKey(id)]),
        refreshDevices(),
      ]);
    },
    /** Reads the box and its log again, when an answer could not be put on the page. */
    reread: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: contentKey(id), exact: true }),
        client.invalidateQueries({ queryKey: scansKey(id), exact: true }),
      ]),
  };
}

/** The station's other writes; each refreshes the boxes and the device registry. */
export function useBoxActions(id: number) {
  const client = useQueryClient();
  const refreshDevices = useRefreshDevices();
  const refresh = () =>
    Promise.all([client.invalidateQueries({ queryKey: boxesKey }), refreshDevices()]);
  const params = { id };
  return {
    // Its answer (the box's counts) is put on the page, as a scan's is.
    undo: useMutation({
      mutationFn: async (deviceId: number) =>
        (await callEndpoint(undoScanEndpoint, { params, body: { device_id: deviceId } })).data,
      onSuccess: async (counts, deviceId) => {
        await patchQuery<BoxContent>(client, contentKey(id), (content) =>
          contentAfterUndo(content, deviceId, counts),
        );
        await Promise.all([markOthersStale(client, [contentKey(id)]), refreshDevices()]);
      },
      onError: refresh,
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

/** A box's printout (a PDF), opened in a new tab to print. */
async function openBoxPrintout(
  endpoint: typeof boxLabelEndpoint | typeof boxContentListEndpoint,
  id: number,
): Promise<void> {
  await openPrintout(async () => (await callEndpoint(endpoint, { params: { id } })).data);
}

/** The box's label: a 4x6 PDF with its Code128 code. */
export const openBoxLabel = (id: number) => openBoxPrintout(boxLabelEndpoint, id);

/** The box's content list: its devices by model and IMEI, with a barcode of the box code. */
export const openBoxContentList = (id: number) => openBoxPrintout(boxContentListEndpoint, id);

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
