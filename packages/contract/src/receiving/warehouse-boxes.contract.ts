import * as z from 'zod/mini';
import { labelPrintable, printEndpoint, sheetPrintable } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText, wholeNumber } from '../master-data/fields.js';
import { STATION_ACCESS } from '../roles.js';
import {
  defineList,
  downloadSchema,
  enumFilter,
  idFilter,
  listEndpoints,
  writeEndpoints,
} from '../resource.js';
import { DEVICE_STATUSES, HOLD_REASONS } from './device-states.js';
import { pickerEndpoint } from './invoices.contract.js';
import { scanBodyShape } from './receiving-fields.js';

/** Warehouse box states (DOMAIN.md 3.7). */
export const WAREHOUSE_BOX_STATUSES = [
  'receiving',
  'received',
  'staged',
  'requested',
  'in_production',
  'emptied',
] as const;
export type WarehouseBoxStatus = (typeof WAREHOUSE_BOX_STATUSES)[number];

/** The station's page (DOMAIN.md 6.3): Warehouse Sorting or Invoice Management. */
export const WAREHOUSE_BOX_ACCESS = STATION_ACCESS.warehouseBox;
/** Scanning, and opening and closing boxes, need `warehouse-box.scan` as well (DOMAIN.md 6.3). */
export const WAREHOUSE_BOX_SCAN_ACCESS = {
  ...STATION_ACCESS.warehouseBox,
  andPermission: 'warehouse-box.scan',
} as const;
/** Closing a box whose count differs from what was expected, and reopening a closed one. */
export const WAREHOUSE_BOX_OVERRIDE_PERMISSION = 'warehouse-box.override';
export const WAREHOUSE_BOX_DASHBOARD_ACCESS = STATION_ACCESS.warehouseBoxDashboard;

export const warehouseBoxSchema = z.object({
  id: z.int(),
  code: z.string(),
  invoice_id: z.int(),
  invoice_no: z.string(),
  vendor_id: z.int(),
  vendor: z.string(),
  inbound_shipment_id: z.nullable(z.int()),
  /** The shipment the carton came on, as its picker names it: tracking, vendor, invoice. */
  inbound_shipment: z.nullable(z.string()),
  vendor_label: z.nullable(z.string()),
  expected_model_id: z.nullable(z.int()),
  expected_model: z.nullable(z.string()),
  qty_expected: z.nullable(z.int()),
  qty_scanned: z.int(),
  /** Devices in the box that were unexpected, of another model than claimed, or held. */
  discrepancies: z.int(),
  status: z.enum(WAREHOUSE_BOX_STATUSES),
  staging_location: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
  closed_by_name: z.nullable(z.string()),
  close_override_reason: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WarehouseBox = z.infer<typeof warehouseBoxSchema>;

const boxFields = {
  invoice_id: entityId('invoice'),
  inbound_shipment_id: z._default(z.nullable(entityId('inbound shipment')), null),
  vendor_label: optionalText('vendor label', 100),
  expected_model_id: z._default(z.nullable(entityId('model')), null),
  qty_expected: z._default(z.nullable(wholeNumber('expected quantity', 1, 10_000)), null),
};
export const createWarehouseBoxSchema = z.object(boxFields);
export type CreateWarehouseBoxInput = z.input<typeof createWarehouseBoxSchema>;
export const updateWarehouseBoxSchema = z.partial(z.object(boxFields));
export type UpdateWarehouseBoxInput = z.input<typeof updateWarehouseBoxSchema>;

export const warehouseBoxList = defineList({
  name: 'warehouse-boxes',
  singular: 'warehouse box',
  plural: 'Warehouse boxes',
  tag: 'Receiving',
  view: WAREHOUSE_BOX_ACCESS,
  item: warehouseBoxSchema,
  filters: {
    status: enumFilter(WAREHOUSE_BOX_STATUSES),
    invoice_id: idFilter,
    vendor_id: idFilter,
  },
  sorts: ['created_at', 'code'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'code', header: 'Box', example: 'WB-000001' },
    { key: 'invoice_no', header: 'Invoice no', example: 'INV-1001' },
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'vendor_label', header: 'Vendor label', example: 'CARTON 7/12' },
    { key: 'expected_model', header: 'Expected model', example: 'Samsung Galaxy A15' },
    { key: 'qty_expected', header: 'Expected', example: '50' },
    { key: 'qty_scanned', header: 'Scanned', example: '50' },
    { key: 'discrepancies', header: 'Discrepancies', example: '0' },
    { key: 'status', header: 'Status', example: 'received' },
    { key: 'staging_location', header: 'Staging', example: 'STG-03' },
    { key: 'closed_at', header: 'Closed', example: '' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});

/** The form writes of warehouse boxes: create, update, delete. */
export const warehouseBoxForm = {
  name: warehouseBoxList.name,
  singular: warehouseBoxList.singular,
  tag: warehouseBoxList.tag,
  manage: WAREHOUSE_BOX_SCAN_ACCESS,
  item: warehouseBoxSchema,
  create: createWarehouseBoxSchema,
  update: updateWarehouseBoxSchema,
};

export const warehouseBoxEndpoints = {
  ...listEndpoints(warehouseBoxList),
  ...writeEndpoints(warehouseBoxForm),
};

/** What a receiving scan can answer (docs/decisions/0008, migrations 0009 and 0014). */
export const RECEIVE_SCAN_RESULTS = [
  'added',
  'model_mismatch',
  'unexpected',
  'blacklisted',
  'already_in_box',
  'quarantined',
  'in_other_box',
  'in_registry',
  'other_invoice',
  'unknown_tac',
  'meid_unknown',
  'bad_check_digit',
  'imeisv',
  'not_an_identifier',
] as const;
export type ReceiveScanResult = (typeof RECEIVE_SCAN_RESULTS)[number];

/** The colour and sound of each result at the station: green, amber, blue or red. */
export const SCAN_TONES: Record<ReceiveScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  added: 'success',
  model_mismatch: 'warning',
  unexpected: 'warning',
  blacklisted: 'error',
  already_in_box: 'info',
  quarantined: 'error',
  in_other_box: 'error',
  in_registry: 'error',
  other_invoice: 'error',
  unknown_tac: 'error',
  meid_unknown: 'error',
  bad_check_digit: 'error',
  imeisv: 'error',
  not_an_identifier: 'error',
};

/** Results after which the device is in the box (a blacklisted one is in quarantine). */
export const RECEIVED_RESULTS: readonly ReceiveScanResult[] = [
  'added',
  'model_mismatch',
  'unexpected',
];

export const scannedDeviceSchema = z.object({
  id: z.int(),
  imei: z.nullable(z.string()),
  imei2: z.nullable(z.string()),
  meid: z.nullable(z.string()),
  model: z.string(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
});
export type ScannedDevice = z.infer<typeof scannedDeviceSchema>;

/** A device as a box lists it: scanned, with when it was received. */
export const receivedDeviceSchema = z.extend(scannedDeviceSchema, { received_at: z.string() });
export type ReceivedDevice = z.infer<typeof receivedDeviceSchema>;

/** A device in a box: how the scan that received it answered, and whether it can be undone. */
export const boxDeviceSchema = z.extend(receivedDeviceSchema, {
  result: z.enum(RECEIVE_SCAN_RESULTS),
  /** Nothing else has happened to it since: the scan can be undone. */
  undoable: z.boolean(),
});
export type BoxDevice = z.infer<typeof boxDeviceSchema>;

/** A box's counts after a scan or an undo, as the box row has them. */
export const boxCountsSchema = z.object({
  id: z.int(),
  code: z.string(),
  status: z.enum(WAREHOUSE_BOX_STATUSES),
  qty_scanned: z.int(),
  qty_expected: z.nullable(z.int()),
  discrepancies: z.int(),
});
export type BoxCounts = z.infer<typeof boxCountsSchema>;

export const receiveScanSchema = z.object({
  result: z.enum(RECEIVE_SCAN_RESULTS),
  /** What the station shows, in a sentence. */
  message: z.string(),
  /** The code as read (scanner noise dropped). */
  code: z.string(),
  /**
   * The device the code names, when it is in the registry. `undoable` says it is in this box and
   * its scan can still be undone.
   */
  device: z.nullable(z.extend(receivedDeviceSchema, { undoable: z.boolean() })),
  box: boxCountsSchema,
  /** The TAC to learn, for `unknown_tac`. */
  tac: z.nullable(z.string()),
  /** The scan's row in the box's scan log: its id, moment, station and person. */
  log_id: z.int(),
  at: z.string(),
  station: z.nullable(z.string()),
  user_name: z.nullable(z.string()),
});
export type ReceiveScan = z.infer<typeof receiveScanSchema>;

export const receiveScanEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/:id/scans',
  summary: 'Scan an IMEI or MEID into a box: the device is received, or the answer says why not',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_SCAN_ACCESS,
  params: idParamsSchema,
  body: z.object(scanBodyShape),
  response: receiveScanSchema,
});

/** Results after which nothing was received: what a supervisor reviews of a clerk's scans. */
export const REFUSED_SCAN_RESULTS: readonly ReceiveScanResult[] = RECEIVE_SCAN_RESULTS.filter(
  (result) => SCAN_TONES[result] === 'error' && result !== 'blacklisted',
);

/** One scan at a box as the server logged it, refused or not (migration 0015). */
export const scanLogEntrySchema = z.object({
  id: z.int(),
  at: z.string(),
  /** The station's name as the browser sent it; null when it had none. */
  station: z.nullable(z.string()),
  user_name: z.nullable(z.string()),
  code: z.string(),
  result: z.enum(RECEIVE_SCAN_RESULTS),
  /** The sentence the station showed. */
  message: z.string(),
  /** The TAC to learn, for `unknown_tac`. */
  tac: z.nullable(z.string()),
});
export type ScanLogEntry = z.infer<typeof scanLogEntrySchema>;

/** The most entries one page of a box's scan log holds. */
export const SCAN_LOG_PAGE_LIMIT = 500;

export const scanLogQuerySchema = z.object({
  station: z.optional(z.string().check(z.maxLength(60, 'The station name is too long.'))),
  /** One result, or `refused` for every result of REFUSED_SCAN_RESULTS. */
  result: z.optional(z.enum([...RECEIVE_SCAN_RESULTS, 'refused'] as const)),
  /** The id of the last entry of the page before: the page goes on from there, older. */
  before: idFilter,
  limit: z._default(
    z.coerce
      .number()
      .check(
        z.int('The limit must be a whole number.'),
        z.gte(1, 'The limit must be at least 1.'),
        z.lte(SCAN_LOG_PAGE_LIMIT, `The limit must be at most ${SCAN_LOG_PAGE_LIMIT}.`),
      ),
    100,
  ),
});
export type ScanLogQuery = z.output<typeof scanLogQuerySchema>;

export const scanLogSchema = z.object({
  entries: z.array(scanLogEntrySchema),
  /** The `before` of the next, older page; null on the last page. */
  next_before: z.nullable(z.int()),
});
export type ScanLog = z.infer<typeof scanLogSchema>;

export const scanLogEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse-boxes/:id/scans',
  summary:
    "A box's scan log, newest first: every scan at any station, refused ones included, by station and result",
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_ACCESS,
  params: idParamsSchema,
  query: scanLogQuerySchema,
  response: scanLogSchema,
});

/** A box's devices as the station lists them, newest first. */
export const boxContentSchema = z.object({
  box: warehouseBoxSchema,
  devices: z.array(boxDeviceSchema),
  /**
   * Devices scanned at this box that went to quarantine instead (on hold, in no box), newest
   * first: not in the box, nor in its counts.
   */
  quarantined: z.array(receivedDeviceSchema),
});
export type BoxContent = z.infer<typeof boxContentSchema>;

export const boxContentEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse-boxes/:id/content',
  summary: 'A box with its devices, newest first: what a station shows after a reload',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_ACCESS,
  params: idParamsSchema,
  response: boxContentSchema,
});

export const undoScanEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/:id/scans/undo',
  summary: 'Take back a device scanned into this box by mistake, when nothing else happened to it',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_SCAN_ACCESS,
  params: idParamsSchema,
  body: z.object({ device_id: entityId('device') }),
  response: boxCountsSchema,
});

export const closeBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/:id/close',
  summary:
    'Close a box; when its count differs from the expected one, a manager closes it with a reason',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_SCAN_ACCESS,
  params: idParamsSchema,
  body: z.object({ override_reason: optionalText('reason', 500) }),
  response: warehouseBoxSchema,
});

export const reopenBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/:id/reopen',
  summary: 'Reopen a closed box to scan more into it: a manager step',
  tag: 'Receiving',
  guard: { ...WAREHOUSE_BOX_ACCESS, andPermission: WAREHOUSE_BOX_OVERRIDE_PERMISSION },
  params: idParamsSchema,
  response: warehouseBoxSchema,
});

export const stageBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/:id/stage',
  summary: 'Put a closed box at a staging location',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_SCAN_ACCESS,
  params: idParamsSchema,
  body: z.object({
    location: z
      .string('Scan or type the staging location.')
      .check(
        z.trim(),
        z.minLength(1, 'Scan or type the staging location.'),
        z.maxLength(40, 'A location code is at most 40 characters.'),
      ),
  }),
  response: warehouseBoxSchema,
});

export const boxLabelEndpoint = printEndpoint({
  path: '/warehouse-boxes/:id/label',
  summary: 'A download link for the box label (4x6 inch, Code128 box code), as PDF or ZPL',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('warehouse-box-label', ['4x6']),
});

/** DOMAIN.md 4.17 "print content list": what a box holds, to travel with it. */
export const boxContentListEndpoint = printEndpoint({
  path: '/warehouse-boxes/:id/content-list',
  summary: "A download link for the box's content list (PDF): its devices by IMEI with model",
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_ACCESS,
  params: idParamsSchema,
  printable: sheetPrintable('warehouse-box-content-list'),
});

export const boxInvoiceOptionsEndpoint = pickerEndpoint(
  '/warehouse-boxes/invoice-options',
  'invoices not closed',
  WAREHOUSE_BOX_ACCESS,
);
export const boxVendorOptionsEndpoint = pickerEndpoint(
  '/warehouse-boxes/vendor-options',
  'vendors',
  WAREHOUSE_BOX_ACCESS,
);
export const boxShipmentOptionsEndpoint = pickerEndpoint(
  '/warehouse-boxes/shipment-options',
  'inbound shipments not received yet',
  WAREHOUSE_BOX_ACCESS,
);
export const boxModelOptionsEndpoint = pickerEndpoint(
  '/warehouse-boxes/model-options',
  'active models',
  WAREHOUSE_BOX_ACCESS,
);

const countByStatus = z.object({ status: z.string(), boxes: z.int(), devices: z.int() });
const unprocessedGroup = z.object({
  id: z.int(),
  label: z.string(),
  devices: z.int(),
  oldest_received_at: z.string(),
});

/** The unprocessed stock's age buckets, in days since receipt. */
export const AGE_BUCKETS = [
  { label: '0-1 days', from: 0, to: 2 },
  { label: '2-3 days', from: 2, to: 4 },
  { label: '4-7 days', from: 4, to: 8 },
  { label: '8-14 days', from: 8, to: 15 },
  { label: '15-30 days', from: 15, to: 31 },
  { label: 'over 30 days', from: 31, to: null },
] as const;

export const warehouseBoxDashboardSchema = z.object({
  boxes_by_status: z.array(countByStatus),
  received_today: z.int(),
  received_this_week: z.int(),
  /** Devices received and not yet in production, by age. */
  unprocessed_by_age: z.array(z.object({ label: z.string(), devices: z.int() })),
  unprocessed_by_vendor: z.array(unprocessedGroup),
  unprocessed_by_invoice: z.array(unprocessedGroup),
  /** Across invoices not closed yet. */
  discrepancies: z.object({
    missing: z.int(),
    unexpected: z.int(),
    duplicate: z.int(),
    mismatched: z.int(),
    undecided: z.int(),
  }),
});
export type WarehouseBoxDashboard = z.infer<typeof warehouseBoxDashboardSchema>;

/** The browser's time zone (IANA name), so that "today" is the warehouse's day. */
export const timeZoneSchema = z.optional(
  z.string().check(
    z.maxLength(64, 'Unknown time zone.'),
    z.refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'Unknown time zone.' },
    ),
  ),
);

export const warehouseBoxDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse-boxes/dashboard',
  summary:
    'Boxes by status, units received today and this week, unprocessed stock by age, vendor and invoice',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_DASHBOARD_ACCESS,
  query: z.object({ tz: timeZoneSchema }),
  response: warehouseBoxDashboardSchema,
});

export const modelPipelineSchema = z.object({
  model_id: z.int(),
  model: z.string(),
  /** Waiting for production (status received). */
  received: z.int(),
  /** In boxes asked for by a product request. */
  requested: z.int(),
  in_production: z.int(),
  /** Graded, and everything downstream of grading (in stock, sold, ...). */
  graded: z.int(),
  /** Failed QC, in repair, scrapped or harvested for parts. */
  failed: z.int(),
  held: z.int(),
  /** graded / (graded + failed), as a percentage; null before anything is processed. */
  yield_pct: z.nullable(z.number()),
});
export type ModelPipeline = z.infer<typeof modelPipelineSchema>;

export const modelDashboardQuerySchema = z.object({ vendor_id: idFilter });

export const modelDashboardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/warehouse-boxes/dashboard/models',
  summary:
    'Per model (and optionally one vendor): received, requested, in production, graded, failed, yield',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_DASHBOARD_ACCESS,
  query: modelDashboardQuerySchema,
  response: z.array(modelPipelineSchema),
});

export const modelDashboardExportEndpoint = defineEndpoint({
  method: 'POST',
  path: '/warehouse-boxes/dashboard/models/exports',
  summary: 'A download link for the per-model figures as CSV or XLSX',
  tag: 'Receiving',
  guard: WAREHOUSE_BOX_DASHBOARD_ACCESS,
  body: z.object({
    vendor_id: idFilter,
    format: z._default(z.enum(['csv', 'xlsx']), 'csv'),
  }),
  response: downloadSchema,
  successStatus: 201,
});

export const dashboardVendorOptionsEndpoint = pickerEndpoint(
  '/warehouse-boxes/dashboard/vendor-options',
  'vendors',
  WAREHOUSE_BOX_DASHBOARD_ACCESS,
);
