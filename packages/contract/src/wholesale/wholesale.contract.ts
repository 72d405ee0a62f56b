import * as z from 'zod/mini';
import { labelPrintable, printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import {
  ORDER_BOX_ACCESS,
  ORDER_BOX_REOPEN_ACCESS,
  ORDER_SHIPPING_ACCESS,
  SHIPPING_OVERRIDE_ACCESS,
} from '../guards.js';
import { idNumber, idParamsSchema } from '../list.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { scanStationSchema, SHIPPING_SERVICES } from '../shipment/packages.contract.js';

/**
 * Wholesale (retailer) outbound (DOMAIN.md 2.2 OrderBox, 4.7 /order/box, /shipment,
 * /shipment/scan-out-to-ship, 5.2 "Wholesale (retailer) variant"): an assigned wholesale order is
 * packed into cartons ("OB-…") by IMEI and accessory quantity, each closed with its weight; its
 * closed cartons ship as one shipment (freight under a bill of lading, or a parcel label per
 * carton), checked before it leaves; the cartons are scanned at the dock, optionally on pallets,
 * and the carrier's pickup ships them. Migration 0059.
 */

export const ORDER_BOX_STATUSES = ['open', 'closed', 'scanned_out'] as const;
export type OrderBoxStatus = (typeof ORDER_BOX_STATUSES)[number];

export const ORDER_BOX_STATUS_WORDS: Record<OrderBoxStatus, string> = {
  open: 'open',
  closed: 'closed',
  scanned_out: 'scanned out',
};

export const WHOLESALE_SHIPMENT_STATUSES = ['open', 'in_transit', 'delivered'] as const;
export type WholesaleShipmentStatus = (typeof WHOLESALE_SHIPMENT_STATUSES)[number];

export const WHOLESALE_SHIPMENT_STATUS_WORDS: Record<WholesaleShipmentStatus, string> = {
  open: 'being prepared',
  in_transit: 'in transit',
  delivered: 'delivered',
};

/** Freight under a bill of lading, or a carrier's parcel label on each carton. */
export const SHIPMENT_MODES = ['freight', 'parcel'] as const;
export type ShipmentMode = (typeof SHIPMENT_MODES)[number];

/** The heaviest carton the station takes, in pounds. */
export const ORDER_BOX_MAX_LB = 150;

/** An order line as the carton station counts it. */
export const cartonLineSchema = z.object({
  sku: z.string(),
  description: z.string(),
  kind: z.enum(['device', 'accessory']),
  /** Units the order ships of it. */
  qty: z.int(),
  /** In a carton, open or closed. */
  in_boxes: z.int(),
  /** In closed cartons. */
  packed: z.int(),
});
export type CartonLine = z.infer<typeof cartonLineSchema>;

/** A wholesale order on /order/box: its lines, how much is boxed and packed, its cartons. */
export const cartonOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  retailer: z.nullable(z.string()),
  /** City and state. */
  place: z.string(),
  sla_due_at: z.nullable(z.string()),
  lines: z.array(cartonLineSchema),
  units: z.int(),
  units_in_boxes: z.int(),
  units_packed: z.int(),
  boxes: z.int(),
  open_boxes: z.int(),
  shipment_id: z.nullable(z.int()),
  shipment_number: z.nullable(z.string()),
});
export type CartonOrder = z.infer<typeof cartonOrderSchema>;

/** Wholesale orders at most on the carton queue. */
export const CARTON_QUEUE_LIMIT = 200;

export const cartonQueueSchema = z.object({ orders: z.array(cartonOrderSchema) });
export type CartonQueue = z.infer<typeof cartonQueueSchema>;

export const orderBoxSchema = z.object({
  id: z.int(),
  code: z.string(),
  order_id: z.int(),
  order_number: z.string(),
  /** Carton n of its order. */
  seq: z.int(),
  status: z.enum(ORDER_BOX_STATUSES),
  weight_g: z.nullable(z.int()),
  /** Devices and accessory units in it. */
  devices: z.int(),
  accessories: z.int(),
  shipment_id: z.nullable(z.int()),
  shipment_number: z.nullable(z.string()),
  tracking_number: z.nullable(z.string()),
  pallet_code: z.nullable(z.string()),
  opened_at: z.string(),
  closed_at: z.nullable(z.string()),
  closed_by_name: z.nullable(z.string()),
  reopened_count: z.int(),
  dock_scanned_at: z.nullable(z.string()),
  dock_scanned_by_name: z.nullable(z.string()),
  scanned_out_at: z.nullable(z.string()),
});
export type OrderBox = z.infer<typeof orderBoxSchema>;

export const orderBoxDetailSchema = z.object({
  box: orderBoxSchema,
  units: z.array(
    z.object({
      unit_id: z.int(),
      device_id: z.int(),
      imei: z.string(),
      sku: z.string(),
      description: z.string(),
      device_status: z.string(),
    }),
  ),
  items: z.array(
    z.object({ variant_id: z.int(), sku: z.string(), description: z.string(), qty: z.int() }),
  ),
});
export type OrderBoxDetail = z.infer<typeof orderBoxDetailSchema>;

export const cartonOrderDetailSchema = z.object({
  order: cartonOrderSchema,
  boxes: z.array(orderBoxDetailSchema),
});
export type CartonOrderDetail = z.infer<typeof cartonOrderDetailSchema>;

export const createOrderBoxSchema = z.object({ order_id: idNumber });
export type CreateOrderBoxInput = z.input<typeof createOrderBoxSchema>;

export const orderBoxScanSchema = z.object({
  code: z
    .string('Scan an IMEI or an accessory SKU.')
    .check(
      z.trim(),
      z.minLength(1, 'Scan an IMEI or an accessory SKU.'),
      z.maxLength(64, 'This is too long for an IMEI or a SKU.'),
    ),
  /** How many of an accessory go in; a device is one. */
  qty: z.optional(
    z
      .number('The quantity must be a whole number.')
      .check(
        z.int('The quantity must be a whole number.'),
        z.gte(1, 'Put in at least one.'),
        z.lte(10_000, 'That is more than a carton holds.'),
      ),
  ),
  station: scanStationSchema,
});
export type OrderBoxScanInput = z.input<typeof orderBoxScanSchema>;

/** What a carton answers for a code scanned into it. */
export const ORDER_BOX_SCAN_RESULTS = [
  'packed',
  'swapped',
  'accessory_added',
  'already_in_box',
  'in_other_box',
  'wrong_variant',
  'not_on_order',
  'too_many',
  'held',
  'blacklisted',
  'not_available',
  'box_closed',
  'not_packable',
  'unknown',
  'invalid',
] as const;
export type OrderBoxScanResult = (typeof ORDER_BOX_SCAN_RESULTS)[number];

export const ORDER_BOX_SCAN_TONES: Record<
  OrderBoxScanResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  packed: 'success',
  swapped: 'warning',
  accessory_added: 'success',
  already_in_box: 'info',
  in_other_box: 'error',
  wrong_variant: 'error',
  not_on_order: 'error',
  too_many: 'error',
  held: 'error',
  blacklisted: 'error',
  not_available: 'error',
  box_closed: 'error',
  not_packable: 'error',
  unknown: 'error',
  invalid: 'error',
};

export const orderBoxScanAnswerSchema = z.object({
  result: z.enum(ORDER_BOX_SCAN_RESULTS),
  message: z.string(),
  code: z.string(),
  at: z.string(),
  /** The carton and its order after the scan. */
  box: orderBoxDetailSchema,
  order: cartonOrderSchema,
});
export type OrderBoxScanAnswer = z.infer<typeof orderBoxScanAnswerSchema>;

export const closeOrderBoxSchema = z.object({
  weight_lb: z
    .number('Weigh the carton: its weight in pounds.')
    .check(
      z.gt(0, 'Weigh the carton: its weight in pounds.'),
      z.lte(ORDER_BOX_MAX_LB, `A carton weighs at most ${ORDER_BOX_MAX_LB} lb.`),
    ),
});
export type CloseOrderBoxInput = z.input<typeof closeOrderBoxSchema>;

// --- Shipments ---

export const wholesaleShipmentSchema = z.object({
  id: z.int(),
  number: z.string(),
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  retailer: z.nullable(z.string()),
  place: z.string(),
  mode: z.enum(SHIPMENT_MODES),
  carrier: z.string(),
  service: z.nullable(z.enum(SHIPPING_SERVICES)),
  bol_number: z.nullable(z.string()),
  pro_number: z.nullable(z.string()),
  /** The cartons' parcel labels (parcel mode). */
  tracking_numbers: z.array(z.string()),
  /** A BOL (freight) or every carton's label (parcel): the shipment may leave. */
  has_tracking: z.boolean(),
  ship_date: z.string(),
  status: z.enum(WHOLESALE_SHIPMENT_STATUSES),
  boxes: z.int(),
  boxes_scanned: z.int(),
  units: z.int(),
  weight_g: z.int(),
  checked_at: z.nullable(z.string()),
  checked_by_name: z.nullable(z.string()),
  pickup_carrier: z.nullable(z.string()),
  driver_name: z.nullable(z.string()),
  picked_up_at: z.nullable(z.string()),
  confirmed_by_name: z.nullable(z.string()),
  override_by_name: z.nullable(z.string()),
  override_reason: z.nullable(z.string()),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
});
export type WholesaleShipment = z.infer<typeof wholesaleShipmentSchema>;

export const palletSchema = z.object({
  id: z.int(),
  code: z.string(),
  boxes: z.int(),
  closed_at: z.nullable(z.string()),
});
export type Pallet = z.infer<typeof palletSchema>;

export const wholesaleShipmentDetailSchema = z.object({
  shipment: wholesaleShipmentSchema,
  boxes: z.array(orderBoxSchema),
  pallets: z.array(palletSchema),
});
export type WholesaleShipmentDetail = z.infer<typeof wholesaleShipmentDetailSchema>;

/** A fulfilled wholesale order whose closed cartons wait for a shipment. */
export const shipmentReadyOrderSchema = z.object({
  order_id: z.int(),
  number: z.string(),
  retailer: z.nullable(z.string()),
  place: z.string(),
  boxes: z.int(),
  units: z.int(),
  weight_g: z.int(),
});
export type ShipmentReadyOrder = z.infer<typeof shipmentReadyOrderSchema>;

/** Shipments on their way shown at most, the latest first. */
export const SHIPMENT_BOARD_SHIPPED_LIMIT = 50;

export const wholesaleShipmentBoardSchema = z.object({
  ready: z.array(shipmentReadyOrderSchema),
  open: z.array(wholesaleShipmentSchema),
  shipped: z.array(wholesaleShipmentSchema),
});
export type WholesaleShipmentBoard = z.infer<typeof wholesaleShipmentBoardSchema>;

const optionalText = (what: string, max: number) =>
  z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(max, `The ${what} is at most ${max} characters.`)),
    ),
  );

export const createShipmentSchema = z.object({
  order_id: idNumber,
  mode: z.enum(SHIPMENT_MODES, 'Choose freight or parcel.'),
  /** Freight: the carrier's name. */
  carrier: optionalText('carrier', 80),
  /** Parcel: the service every carton's label is bought for. */
  service: z.optional(z.enum(SHIPPING_SERVICES, 'Choose the carrier service.')),
  bol_number: optionalText('BOL number', 40),
  pro_number: optionalText('PRO number', 40),
  /** The day the carrier takes it; today (the business day) when not given. */
  ship_date: z.optional(isoDate('ship date')),
});
export type CreateShipmentInput = z.input<typeof createShipmentSchema>;

export const shipmentBillSchema = z.object({
  bol_number: z
    .string('Enter the BOL number.')
    .check(
      z.trim(),
      z.minLength(1, 'Enter the BOL number.'),
      z.maxLength(40, 'The BOL number is at most 40 characters.'),
    ),
  pro_number: optionalText('PRO number', 40),
  carrier: optionalText('carrier', 80),
});
export type ShipmentBillInput = z.input<typeof shipmentBillSchema>;

export const dockScanSchema = z.object({
  code: z
    .string('Scan a carton label.')
    .check(
      z.trim(),
      z.minLength(1, 'Scan a carton label.'),
      z.maxLength(64, 'This is too long for a carton label.'),
    ),
  station: scanStationSchema,
});
export type DockScanInput = z.input<typeof dockScanSchema>;

export const DOCK_SCAN_RESULTS = [
  'scanned',
  'already_scanned',
  'box_open',
  'no_shipment',
  'not_checked',
  'no_tracking',
  'shipped',
  'unknown',
] as const;
export type DockScanResult = (typeof DOCK_SCAN_RESULTS)[number];

export const DOCK_SCAN_TONES: Record<DockScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  scanned: 'success',
  already_scanned: 'info',
  box_open: 'error',
  no_shipment: 'error',
  not_checked: 'error',
  no_tracking: 'error',
  shipped: 'error',
  unknown: 'error',
};

export const dockScanAnswerSchema = z.object({
  result: z.enum(DOCK_SCAN_RESULTS),
  message: z.string(),
  code: z.string(),
  at: z.string(),
  /** The carton's shipment after the scan: expected against scanned; null when none. */
  shipment: z.nullable(wholesaleShipmentDetailSchema),
});
export type DockScanAnswer = z.infer<typeof dockScanAnswerSchema>;

export const shipmentOverrideSchema = z.object({
  reason: z
    .string('Say why the shipment leaves with cartons not scanned.')
    .check(
      z.trim(),
      z.minLength(3, 'Say why the shipment leaves with cartons not scanned.'),
      z.maxLength(500, 'The reason is at most 500 characters.'),
    ),
});
export type ShipmentOverrideInput = z.input<typeof shipmentOverrideSchema>;

export const pickupSchema = z.object({
  carrier: z
    .string('Enter the carrier that picks up.')
    .check(
      z.trim(),
      z.minLength(1, 'Enter the carrier that picks up.'),
      z.maxLength(80, 'The carrier is at most 80 characters.'),
    ),
  driver_name: z
    .string("Enter the driver's name.")
    .check(
      z.trim(),
      z.minLength(1, "Enter the driver's name."),
      z.maxLength(80, "The driver's name is at most 80 characters."),
    ),
  /** When the carrier took it; now when not given. */
  picked_up_at: z.optional(
    z.iso.datetime({ offset: true, error: 'Give the pickup time such as 2026-01-31T08:00:00Z.' }),
  ),
});
export type PickupInput = z.input<typeof pickupSchema>;

/** A carton's 4x6 label: its OB code as a barcode, the order and the retailer. */
export const orderBoxLabelPrintable = labelPrintable('order-box-label', ['4x6']);

/** An order's packing list: its cartons with each device's IMEI and the accessories. */
export const cartonPackingListPrintable = sheetPrintable('carton-packing-list');

/** A freight shipment's bill of lading. */
export const shipmentBillPrintable = sheetPrintable('wholesale-bill-of-lading');

/** A parcel shipment's carton labels, one 4x6 label per carton. */
export const shipmentLabelsPrintable = labelPrintable('wholesale-parcel-labels', ['4x6']);

/** The dock's manifest of a shipment: its cartons, pallets and who scanned them. */
export const shipmentManifestPrintable = sheetPrintable('wholesale-manifest');

const TAG = 'Wholesale';

export const orderBoxEndpoints = {
  queue: defineEndpoint({
    method: 'GET',
    path: '/order-boxes/orders',
    summary: 'Wholesale orders needing cartons: their lines, cartons and units packed',
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    response: cartonQueueSchema,
  }),
  order: defineEndpoint({
    method: 'GET',
    path: '/order-boxes/orders/:id',
    summary: 'A wholesale order with its cartons and what each holds',
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    params: idParamsSchema,
    response: cartonOrderDetailSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/order-boxes',
    summary: 'Open a carton for an assigned wholesale order',
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    body: createOrderBoxSchema,
    response: orderBoxSchema,
    successStatus: 201,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/order-boxes/:id/scans',
    summary:
      "Scan an IMEI (the unit reserved or another matching one) or an accessory's SKU and quantity into an open carton",
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    params: idParamsSchema,
    body: orderBoxScanSchema,
    response: orderBoxScanAnswerSchema,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/order-boxes/:id/close',
    summary:
      'Close a carton with its weight: its devices are packed; the order is fulfilled when all is packed',
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    params: idParamsSchema,
    body: closeOrderBoxSchema,
    response: orderBoxSchema,
  }),
  reopen: defineEndpoint({
    method: 'POST',
    path: '/order-boxes/:id/reopen',
    summary:
      'Reopen a closed carton not yet in a shipment (a leader): its devices are picked again',
    tag: TAG,
    guard: ORDER_BOX_REOPEN_ACCESS,
    params: idParamsSchema,
    response: orderBoxSchema,
  }),
  label: printEndpoint({
    path: '/order-boxes/:id/label',
    summary: "Print a carton's 4x6 OB label",
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    params: idParamsSchema,
    printable: orderBoxLabelPrintable,
  }),
  packingList: printEndpoint({
    path: '/order-boxes/orders/:id/packing-list',
    summary: "Print a wholesale order's packing list: its cartons with every IMEI",
    tag: TAG,
    guard: ORDER_BOX_ACCESS,
    params: idParamsSchema,
    printable: cartonPackingListPrintable,
  }),
};

export const wholesaleShipmentEndpoints = {
  board: defineEndpoint({
    method: 'GET',
    path: '/wholesale-shipments',
    summary: 'Orders ready for a shipment, shipments being prepared and those on their way',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    response: wholesaleShipmentBoardSchema,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/wholesale-shipments/:id',
    summary: 'A wholesale shipment with its cartons and pallets',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments',
    summary:
      "Create the shipment of a fulfilled wholesale order's closed cartons: freight (BOL) or a parcel label per carton",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    body: createShipmentSchema,
    response: wholesaleShipmentDetailSchema,
    successStatus: 201,
  }),
  bill: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/bill',
    summary: "Attach a freight shipment's bill of lading number (and PRO number)",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: shipmentBillSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  check: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/check',
    summary:
      'Check a shipment: its contents verified, by whom and when (required before it leaves)',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  billOfLading: printEndpoint({
    path: '/wholesale-shipments/:id/bill-of-lading',
    summary: "Print a freight shipment's bill of lading",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: shipmentBillPrintable,
  }),
  labels: printEndpoint({
    path: '/wholesale-shipments/:id/labels',
    summary: "Print a parcel shipment's carton labels (4x6, one per carton)",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: shipmentLabelsPrintable,
  }),
  dockScan: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/dock-scans',
    summary:
      "Scan a carton's label at the dock: its shipment's cartons expected against scanned; onto the open pallet",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    body: dockScanSchema,
    response: dockScanAnswerSchema,
  }),
  openPallet: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/pallets',
    summary: 'Start a pallet: the cartons scanned next go onto it',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: wholesaleShipmentDetailSchema,
    successStatus: 201,
  }),
  closePallet: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/pallets/close',
    summary: 'Close the pallet being loaded',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  override: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/override',
    summary:
      'Let a shipment leave with cartons not scanned at the dock (a manager; who and why are kept)',
    tag: TAG,
    guard: SHIPPING_OVERRIDE_ACCESS,
    params: idParamsSchema,
    body: shipmentOverrideSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  pickup: defineEndpoint({
    method: 'POST',
    path: '/wholesale-shipments/:id/pickup',
    summary:
      'Confirm the carrier took a checked shipment: its cartons scan out, its devices and order ship',
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    body: pickupSchema,
    response: wholesaleShipmentDetailSchema,
  }),
  manifest: printEndpoint({
    path: '/wholesale-shipments/:id/manifest',
    summary: "Print a shipment's dock manifest: its cartons, pallets and scans",
    tag: TAG,
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: shipmentManifestPrintable,
  }),
};
