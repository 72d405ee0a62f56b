import {
  orderBoxEndpoints,
  wholesaleShipmentEndpoints,
  type CartonOrderDetail,
  type CloseOrderBoxInput,
  type CreateShipmentInput,
  type DockScanAnswer,
  type OrderBoxScanAnswer,
  type PickupInput,
  type ShipmentBillInput,
} from '@inventory/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../../shell/http-client';
import { openPrintout } from '../../../toolkit/resource-queries';
import { patchQuery } from '../../../toolkit/station';
import { cartonOrderAfterScan, shipmentAfterDockScan } from '../wholesale-answers';

/** The cartons of /order/box, the shipments of /shipment and the dock's scans. */

const QUEUE_KEY = [orderBoxEndpoints.queue.path];
export const cartonOrderKey = (id: number) => [orderBoxEndpoints.order.path, id];
const BOARD_KEY = [wholesaleShipmentEndpoints.board.path];
export const shipmentKey = (id: number) => [wholesaleShipmentEndpoints.detail.path, id];

export function useCartonQueue() {
  return useQuery({
    queryKey: QUEUE_KEY,
    queryFn: async () => (await callEndpoint(orderBoxEndpoints.queue)).data,
  });
}

export function useCartonOrder(id: number | null) {
  return useQuery({
    queryKey: cartonOrderKey(id ?? 0),
    queryFn: async () =>
      (await callEndpoint(orderBoxEndpoints.order, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

/** Opens a carton's 4x6 OB label (PDF) in a new tab. */
export const printCartonLabel = (id: number) =>
  openPrintout(
    async () => (await callEndpoint(orderBoxEndpoints.label, { params: { id }, body: {} })).data,
  );

/** Opens an order's packing list (PDF) in a new tab. */
export const printPackingList = (orderId: number) =>
  openPrintout(
    async () =>
      (await callEndpoint(orderBoxEndpoints.packingList, { params: { id: orderId }, body: {} }))
        .data,
  );

export function useCartonActions(orderId: number) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: QUEUE_KEY }),
      client.invalidateQueries({ queryKey: cartonOrderKey(orderId) }),
      client.invalidateQueries({ queryKey: BOARD_KEY }),
    ]);
  return {
    open: useMutation({
      mutationFn: async () =>
        (await callEndpoint(orderBoxEndpoints.create, { body: { order_id: orderId } })).data,
      onSuccess: refresh,
    }),
    close: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: CloseOrderBoxInput }) =>
        (await callEndpoint(orderBoxEndpoints.close, { params: { id }, body })).data,
      onSuccess: refresh,
    }),
    reopen: useMutation({
      mutationFn: async (id: number) =>
        (await callEndpoint(orderBoxEndpoints.reopen, { params: { id } })).data,
      onSuccess: refresh,
    }),
    scan: async (boxId: number, code: string, station: string, qty?: number) =>
      (
        await callEndpoint(orderBoxEndpoints.scan, {
          params: { id: boxId },
          body: { code, ...(station && { station }), ...(qty && qty > 1 ? { qty } : {}) },
        })
      ).data,
    /** Puts a scan's answer into the order's read; the queue is read again when next shown. */
    apply: async (answer: OrderBoxScanAnswer) => {
      await patchQuery<CartonOrderDetail>(client, cartonOrderKey(orderId), (detail) =>
        cartonOrderAfterScan(detail, answer),
      );
      void client.invalidateQueries({ queryKey: QUEUE_KEY });
    },
  };
}

export function useShipmentBoard() {
  return useQuery({
    queryKey: BOARD_KEY,
    queryFn: async () => (await callEndpoint(wholesaleShipmentEndpoints.board)).data,
  });
}

export function useShipment(id: number | null) {
  return useQuery({
    queryKey: shipmentKey(id ?? 0),
    queryFn: async () =>
      (await callEndpoint(wholesaleShipmentEndpoints.detail, { params: { id: id! } })).data,
    enabled: id !== null,
  });
}

const print =
  (endpoint: (typeof wholesaleShipmentEndpoints)['billOfLading' | 'labels' | 'manifest']) =>
  (id: number) =>
    openPrintout(async () => (await callEndpoint(endpoint, { params: { id }, body: {} })).data);

export const printBillOfLading = print(wholesaleShipmentEndpoints.billOfLading);
export const printCartonParcelLabels = print(wholesaleShipmentEndpoints.labels);
export const printManifest = print(wholesaleShipmentEndpoints.manifest);

/** A shipment's action: its board, records and the carton queue are read again after it. */
function useShipmentAction<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: BOARD_KEY }),
        client.invalidateQueries({ queryKey: [wholesaleShipmentEndpoints.detail.path] }),
        client.invalidateQueries({ queryKey: QUEUE_KEY }),
      ]),
  });
}

export function useShipmentActions() {
  return {
    create: useShipmentAction(
      async (body: CreateShipmentInput) =>
        (await callEndpoint(wholesaleShipmentEndpoints.create, { body })).data,
    ),
    bill: useShipmentAction(
      async ({ id, body }: { id: number; body: ShipmentBillInput }) =>
        (await callEndpoint(wholesaleShipmentEndpoints.bill, { params: { id }, body })).data,
    ),
    check: useShipmentAction(
      async (id: number) =>
        (await callEndpoint(wholesaleShipmentEndpoints.check, { params: { id } })).data,
    ),
    openPallet: useShipmentAction(
      async (id: number) =>
        (await callEndpoint(wholesaleShipmentEndpoints.openPallet, { params: { id } })).data,
    ),
    closePallet: useShipmentAction(
      async (id: number) =>
        (await callEndpoint(wholesaleShipmentEndpoints.closePallet, { params: { id } })).data,
    ),
    override: useShipmentAction(
      async ({ id, reason }: { id: number; reason: string }) =>
        (
          await callEndpoint(wholesaleShipmentEndpoints.override, {
            params: { id },
            body: { reason },
          })
        ).data,
    ),
    pickup: useShipmentAction(
      async ({ id, body }: { id: number; body: PickupInput }) =>
        (await callEndpoint(wholesaleShipmentEndpoints.pickup, { params: { id }, body })).data,
    ),
  };
}

export function useDockScan() {
  const client = useQueryClient();
  return {
    scan: async (code: string, station: string) =>
      (
        await callEndpoint(wholesaleShipmentEndpoints.dockScan, {
          body: { code, ...(station && { station }) },
        })
      ).data,
    /** Puts the answer's shipment into its read; the board is read again when next shown. */
    apply: (answer: DockScanAnswer) => {
      const detail = shipmentAfterDockScan(answer);
      if (detail) client.setQueryData(shipmentKey(detail.shipment.id), detail);
      if (answer.result === 'scanned') void client.invalidateQueries({ queryKey: BOARD_KEY });
    },
  };
}
