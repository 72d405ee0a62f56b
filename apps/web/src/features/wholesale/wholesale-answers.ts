import type {
  CartonOrderDetail,
  DockScanAnswer,
  OrderBoxScanAnswer,
  WholesaleShipmentDetail,
} from '@inventory/contract';

/**
 * A carton scan's answer put into the order the station shows: the order's counts and the carton
 * as the answer has them. Null (read the order again) for another order's answer, or when the
 * answer's carton count shows another station opened a carton meanwhile.
 */
export function cartonOrderAfterScan(
  detail: CartonOrderDetail,
  answer: OrderBoxScanAnswer,
): CartonOrderDetail | null {
  if (answer.order.id !== detail.order.id) return null;
  if (answer.order.boxes !== detail.boxes.length) return null;
  if (!detail.boxes.some(({ box }) => box.id === answer.box.box.id)) return null;
  return {
    order: answer.order,
    boxes: detail.boxes.map((entry) => (entry.box.id === answer.box.box.id ? answer.box : entry)),
  };
}

/** The shipment a dock scan's answer shows, as it is after the scan; null for none. */
export const shipmentAfterDockScan = (answer: DockScanAnswer): WholesaleShipmentDetail | null =>
  answer.shipment;

/** The cartons of a shipment not yet scanned at the dock. */
export const cartonsMissing = (detail: WholesaleShipmentDetail) =>
  detail.boxes.filter((box) => box.dock_scanned_at === null).map((box) => box.code);
