import * as z from 'zod/mini';
import { labelPrintable, printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { GAYLORD_MANAGE_ACCESS, ORDER_SHIPPING_ACCESS } from '../guards.js';
import { idNumber, idParamsSchema } from '../list.js';
import { isoDate } from '../receiving/receiving-fields.js';
import {
  packageRowSchema,
  scanStationSchema,
  SHIPPING_SERVICES,
  trackingCodeSchema,
} from './packages.contract.js';
import { CARRIERS } from './tracking-numbers.js';

/**
 * Outbound gaylords and SCAN forms (DOMAIN.md 2.2 Gaylord / ScanForm, 3.3, 4.14 /fulfill/gaylord):
 * labelled parcels are sorted into a gaylord of their carrier and service, the gaylord is closed
 * with its count confirmed, the closed gaylords of a carrier go on the SCAN form of their ship
 * date and origin ZIP (USPS PS Form 5630: one barcode accepts every parcel listed), and the
 * carrier's pickup ships their parcels.
 */

export const GAYLORD_STATUSES = ['open', 'closed', 'picked_up'] as const;
export type GaylordStatus = (typeof GAYLORD_STATUSES)[number];

export const GAYLORD_STATUS_WORDS: Record<GaylordStatus, string> = {
  open: 'open',
  closed: 'closed',
  picked_up: 'picked up',
};

/** Outbound: parcels sorted for a carrier. Inbound gaylords (bulk used devices) come later. */
export const GAYLORD_DIRECTIONS = ['outbound', 'inbound'] as const;

export const gaylordRowSchema = z.object({
  id: z.int(),
  code: z.string(),
  direction: z.enum(GAYLORD_DIRECTIONS),
  carrier: z.enum(CARRIERS),
  service: z.enum(SHIPPING_SERVICES),
  status: z.enum(GAYLORD_STATUSES),
  /** The parcels in it (labels not voided), and what they weigh together. */
  parcels: z.int(),
  weight_g: z.int(),
  opened_at: z.string(),
  opened_by_name: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
  closed_by_name: z.nullable(z.string()),
  picked_up_at: z.nullable(z.string()),
  picked_up_by_name: z.nullable(z.string()),
  scan_form_id: z.nullable(z.int()),
  scan_form_number: z.nullable(z.string()),
  /** The ship date of its SCAN form. */
  ship_date: z.nullable(z.string()),
});
export type GaylordRow = z.infer<typeof gaylordRowSchema>;

/** A gaylord with its parcels, the newest sorted first. */
export const gaylordDetailSchema = z.object({
  gaylord: gaylordRowSchema,
  parcels: z.array(packageRowSchema),
});
export type GaylordDetail = z.infer<typeof gaylordDetailSchema>;

export const scanFormRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  carrier: z.enum(CARRIERS),
  ship_date: z.string(),
  origin_zip: z.string(),
  /** Parcels on the form when it was last generated. */
  package_count: z.int(),
  gaylords: z.int(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  /** When the carrier took the first of its gaylords: the form is complete. */
  picked_up_at: z.nullable(z.string()),
});
export type ScanFormRow = z.infer<typeof scanFormRowSchema>;

/** Gaylords picked up today shown at most. */
export const GAYLORD_BOARD_PICKED_UP_LIMIT = 50;

/** What /fulfill/gaylord shows: open gaylords, closed ones awaiting pickup, today's SCAN forms. */
export const gaylordBoardSchema = z.object({
  open: z.array(gaylordRowSchema),
  closed: z.array(gaylordRowSchema),
  /** Picked up since the business day began, the latest first. */
  picked_up: z.array(gaylordRowSchema),
  /** Forms not yet picked up, and those of today's or a later ship date. */
  scan_forms: z.array(scanFormRowSchema),
});
export type GaylordBoard = z.infer<typeof gaylordBoardSchema>;

export const openGaylordSchema = z.object({
  service: z.enum(SHIPPING_SERVICES, 'Choose the carrier service the gaylord is for.'),
});
export type OpenGaylordInput = z.input<typeof openGaylordSchema>;

export const gaylordScanBodySchema = z.object({
  code: trackingCodeSchema,
  station: scanStationSchema,
});
export type GaylordScanInput = z.input<typeof gaylordScanBodySchema>;

/** What a gaylord answers for a parcel scanned into it. */
export const GAYLORD_SCAN_RESULTS = [
  'sorted',
  'already_in_gaylord',
  'other_gaylord',
  'wrong_carrier',
  'wrong_service',
  'voided',
  'scanned_out',
  'cancel_requested',
  'gaylord_closed',
  'unknown',
] as const;
export type GaylordScanResult = (typeof GAYLORD_SCAN_RESULTS)[number];

export const GAYLORD_SCAN_TONES: Record<
  GaylordScanResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  sorted: 'success',
  already_in_gaylord: 'info',
  other_gaylord: 'error',
  wrong_carrier: 'error',
  wrong_service: 'error',
  voided: 'error',
  scanned_out: 'error',
  cancel_requested: 'error',
  gaylord_closed: 'error',
  unknown: 'error',
};

export const gaylordScanAnswerSchema = z.object({
  result: z.enum(GAYLORD_SCAN_RESULTS),
  message: z.string(),
  code: z.string(),
  /** The moment of the answer, for the station's log. */
  at: z.string(),
  /** The parcel scanned, as it is after the scan; null for an unknown barcode. */
  package: z.nullable(packageRowSchema),
  /** The gaylord after the scan: its count and weight. */
  gaylord: gaylordRowSchema,
});
export type GaylordScanAnswer = z.infer<typeof gaylordScanAnswerSchema>;

export const takeOutOfGaylordSchema = z.object({ package_id: idNumber });
export type TakeOutOfGaylordInput = z.input<typeof takeOutOfGaylordSchema>;

export const closeGaylordSchema = z.object({
  count: z
    .number('Count the parcels in the gaylord.')
    .check(
      z.int('Count the parcels in the gaylord: a whole number.'),
      z.gte(1, 'A gaylord is closed with at least one parcel.'),
      z.lte(100_000, 'That is more parcels than a gaylord holds.'),
    ),
});
export type CloseGaylordInput = z.input<typeof closeGaylordSchema>;

export const generateScanFormSchema = z.object({
  carrier: z.enum(CARRIERS, 'Choose the carrier: usps or ups.'),
  /** The day the carrier takes the parcels; today (the business day) when not given. */
  ship_date: z.optional(isoDate('ship date')),
});
export type GenerateScanFormInput = z.input<typeof generateScanFormSchema>;

export const scanFormAnswerSchema = z.object({
  form: scanFormRowSchema,
  /** True when the form was made now; false when the gaylords joined the day's form. */
  created: z.boolean(),
  /** The codes of the gaylords put on the form now. */
  gaylords: z.array(z.string()),
});
export type ScanFormAnswer = z.infer<typeof scanFormAnswerSchema>;

/** A gaylord's 4x6 label: its code as a barcode, under its service's banner. */
export const gaylordLabelPrintable = labelPrintable('gaylord-label', ['4x6']);

/** A SCAN form: the parcels it lists, under one barcode, its number. */
export const scanFormPrintable = sheetPrintable('scan-form');

export const gaylordEndpoints = {
  board: defineEndpoint({
    method: 'GET',
    path: '/gaylords',
    summary: "Open gaylords, closed ones awaiting pickup, today's pickups and SCAN forms",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    response: gaylordBoardSchema,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/gaylords/:id',
    summary: 'A gaylord with its parcels',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    response: gaylordDetailSchema,
  }),
  open: defineEndpoint({
    method: 'POST',
    path: '/gaylords',
    summary: 'Open an outbound gaylord for a carrier service',
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    body: openGaylordSchema,
    response: gaylordRowSchema,
    successStatus: 201,
  }),
  label: printEndpoint({
    path: '/gaylords/:id/label',
    summary: "Print a gaylord's 4x6 label (GL code as a Code 128 barcode)",
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: gaylordLabelPrintable,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/gaylords/:id/scans',
    summary:
      'Scan a labelled parcel into an open gaylord of its carrier and service; a repeat changes nothing',
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    params: idParamsSchema,
    body: gaylordScanBodySchema,
    response: gaylordScanAnswerSchema,
  }),
  takeOut: defineEndpoint({
    method: 'POST',
    path: '/gaylords/:id/take-out',
    summary: 'Take a parcel out of an open gaylord: its label stays active',
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    params: idParamsSchema,
    body: takeOutOfGaylordSchema,
    response: gaylordDetailSchema,
  }),
  close: defineEndpoint({
    method: 'POST',
    path: '/gaylords/:id/close',
    summary: 'Close a gaylord, confirming the count of its parcels (422 when the count differs)',
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    params: idParamsSchema,
    body: closeGaylordSchema,
    response: gaylordRowSchema,
  }),
  pickUp: defineEndpoint({
    method: 'POST',
    path: '/gaylords/:id/pickup',
    summary:
      'Hand a closed gaylord to its carrier: its parcels scan out and their orders ship, as at the dock',
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    params: idParamsSchema,
    response: gaylordRowSchema,
  }),
  generateScanForm: defineEndpoint({
    method: 'POST',
    path: '/scan-forms',
    summary:
      "Put a carrier's closed gaylords on the SCAN form of their ship date and origin ZIP (one form each)",
    tag: 'Shipment',
    guard: GAYLORD_MANAGE_ACCESS,
    body: generateScanFormSchema,
    response: scanFormAnswerSchema,
  }),
  printScanForm: printEndpoint({
    path: '/scan-forms/:id/print',
    summary: 'Print a SCAN form: its parcels, and its number as one barcode',
    tag: 'Shipment',
    guard: ORDER_SHIPPING_ACCESS,
    params: idParamsSchema,
    printable: scanFormPrintable,
  }),
};
