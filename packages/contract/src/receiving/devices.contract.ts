import * as z from 'zod/mini';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { INVENTORY_BOX_STATUSES } from '../inventory/inventory-boxes.contract.js';
import { idParamsSchema } from '../list.js';
import { DEVICE_OSES } from '../master-data/models.contract.js';
import { PRODUCT_REQUEST_STATUSES, WIPE_METHODS } from '../production/production.contract.js';
import { defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { DEVICE_STATUSES, HOLD_REASONS } from './device-states.js';
import { DEVICE_CONDITIONS, DEVICE_GRADES } from './receiving-fields.js';

/** Who may look devices up and read the registry (DOMAIN.md 4.2, /devices/scan). */
export const DEVICE_SCAN_ACCESS = { permission: 'device.scan' } as const;

export const deviceSchema = z.object({
  id: z.int(),
  imei: z.nullable(z.string()),
  imei2: z.nullable(z.string()),
  meid: z.nullable(z.string()),
  serial: z.nullable(z.string()),
  /** The IMEI, or the MEID of a device without one. */
  identifier: z.string(),
  tac: z.nullable(z.string()),
  model_id: z.int(),
  /** The model's display name: brand and model. */
  model: z.string(),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  condition: z.nullable(z.enum(DEVICE_CONDITIONS)),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
  blacklist_state: z.enum(['clean', 'blocked', 'unknown']),
  warehouse_box_id: z.nullable(z.int()),
  inventory_box_id: z.nullable(z.int()),
  /** The code of the box the device is in: its inventory box ("IB-000042") or warehouse box ("WB-000123"), or null. */
  container: z.nullable(z.string()),
  invoice_id: z.nullable(z.int()),
  invoice_no: z.nullable(z.string()),
  vendor_id: z.nullable(z.int()),
  vendor: z.nullable(z.string()),
  unit_cost_cents: z.nullable(z.int()),
  received_at: z.string(),
  updated_at: z.string(),
});
export type Device = z.infer<typeof deviceSchema>;

/** The device registry: read-only, because a device changes only through named actions. */
export const deviceList = defineList({
  name: 'devices',
  singular: 'device',
  plural: 'Devices',
  tag: 'Devices',
  view: DEVICE_SCAN_ACCESS,
  item: deviceSchema,
  filters: {
    status: enumFilter(DEVICE_STATUSES),
    hold_reason: enumFilter(HOLD_REASONS),
    model_id: idFilter,
    vendor_id: idFilter,
    invoice_id: idFilter,
    warehouse_box_id: idFilter,
    /** Devices of the models of one operating system (the main dashboard's stock by OS). */
    os: enumFilter(DEVICE_OSES),
  },
  sorts: ['imei', 'received_at'],
  defaultSort: 'imei',
  exportColumns: [
    { key: 'imei', header: 'IMEI', example: '352836110000008' },
    { key: 'imei2', header: 'IMEI2', example: '' },
    { key: 'meid', header: 'MEID', example: '' },
    { key: 'serial', header: 'Serial', example: '' },
    { key: 'model', header: 'Model', example: 'Motorola Moto G Play 2023' },
    { key: 'color', header: 'Colour', example: 'Navy Blue' },
    { key: 'capacity_gb', header: 'Capacity GB', example: '32' },
    { key: 'condition', header: 'Condition', example: 'used' },
    { key: 'grade', header: 'Grade', example: 'B' },
    { key: 'status', header: 'Status', example: 'received' },
    { key: 'hold_reason', header: 'Hold', example: '' },
    { key: 'container', header: 'Box', example: 'WB-000001' },
    { key: 'invoice_no', header: 'Invoice', example: 'INV-1001' },
    { key: 'vendor', header: 'Vendor', example: 'Acme Recyclers' },
    { key: 'unit_cost_cents', header: 'Unit cost (cents)', example: '4500' },
    { key: 'received_at', header: 'Received', example: '' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});
export const deviceEndpoints = listEndpoints(deviceList);

export const deviceEventSchema = z.object({
  id: z.int(),
  at: z.string(),
  actor_name: z.nullable(z.string()),
  /** What happened: `received`, `held`, `hold_cleared`, `returned_to_vendor`, ... */
  type: z.string(),
  from_status: z.nullable(z.string()),
  to_status: z.nullable(z.string()),
  /** The container after the event, by code. */
  container: z.nullable(z.string()),
  ref_type: z.nullable(z.string()),
  ref_id: z.nullable(z.int()),
  station: z.nullable(z.string()),
  data: z.nullable(z.record(z.string(), z.unknown())),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;

/** What the vendor's manifest said of the device, beside what we found. */
export const deviceClaimSchema = z.object({
  invoice_imei_id: z.int(),
  match_status: z.string(),
  claimed_model: z.nullable(z.string()),
  decision: z.nullable(z.string()),
});

/** The inventory box a device is in (DOMAIN.md 4.2), with the location it is put away at. */
export const deviceInventoryBoxSchema = z.object({
  id: z.int(),
  code: z.string(),
  status: z.enum(INVENTORY_BOX_STATUSES),
  qty: z.int(),
  max_qty: z.int(),
  location_id: z.nullable(z.int()),
  location_code: z.nullable(z.string()),
});
export type DeviceInventoryBox = z.infer<typeof deviceInventoryBoxSchema>;

export const deviceCardSchema = z.object({
  device: deviceSchema,
  claim: z.nullable(deviceClaimSchema),
  /** The inventory box it is in, when consolidated. */
  inventory_box: z.nullable(deviceInventoryBoxSchema),
  /** Open blacklist entry, when the device is listed. */
  blacklist: z.nullable(
    z.object({ id: z.int(), source: z.string(), reason: z.string(), flagged_at: z.string() }),
  ),
  /** Newest first; the most recent 500. */
  events: z.array(deviceEventSchema),
});
export type DeviceCard = z.infer<typeof deviceCardSchema>;

export const deviceLookupSchema = z.object({
  /** The code as read: spaces and scanner noise dropped, hex upper-cased. */
  input: z.string(),
  /** Which identifier matched: the IMEI, the second IMEI, the MEID or the serial number. */
  matched_by: z.nullable(z.enum(['imei', 'imei2', 'meid', 'serial'])),
  card: z.nullable(deviceCardSchema),
  /** Why nothing was found, or why the code cannot be an identifier (check digit, IMEISV). */
  problem: z.nullable(z.string()),
});
export type DeviceLookup = z.infer<typeof deviceLookupSchema>;

export const deviceLookupEndpoint = defineEndpoint({
  method: 'GET',
  path: '/devices/lookup',
  summary: 'Find a device by IMEI, IMEI2, MEID or serial: its card and its whole timeline',
  tag: 'Devices',
  guard: DEVICE_SCAN_ACCESS,
  query: z.object({
    code: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Scan or type an IMEI, MEID or serial number.'),
        z.maxLength(64, 'This is too long for an IMEI, MEID or serial number.'),
      ),
  }),
  response: deviceLookupSchema,
});

export const deviceCardEndpoint = defineEndpoint({
  method: 'GET',
  path: '/devices/:id/card',
  summary: 'A device with its manifest claim, blacklist entry and timeline',
  tag: 'Devices',
  guard: DEVICE_SCAN_ACCESS,
  params: idParamsSchema,
  response: deviceCardSchema,
});

/** How many of a device's tests its card shows. */
export const CARD_TESTS = 20;

/** A test run of the device at the production station (DOMAIN.md 2.2, DeviceTest). */
export const deviceTestRecordSchema = z.object({
  id: z.int(),
  run_at: z.string(),
  tester: z.nullable(z.string()),
  tool: z.string(),
  /** `hold`: the test stopped on FRP, activation lock or a blacklist listing. */
  result: z.enum(['pass', 'fail', 'hold']),
  /** The checklist: each item and whether it passed. */
  items: z.record(z.string(), z.enum(['pass', 'fail'])),
  battery_health: z.nullable(z.int()),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  issue_codes: z.array(z.string()),
  cosmetic_notes: z.nullable(z.string()),
});
export type DeviceTestRecord = z.infer<typeof deviceTestRecordSchema>;

/** What production recorded of a device (DOMAIN.md 3.1, 4.17): the card's production part. */
export const deviceProductionSchema = z.object({
  /** The product request it was handed out under, and the worker who holds or held it. */
  request: z.nullable(
    z.object({ id: z.int(), number: z.string(), status: z.enum(PRODUCT_REQUEST_STATUSES) }),
  ),
  worker: z.nullable(z.string()),
  assigned_at: z.nullable(z.string()),
  graded_at: z.nullable(z.string()),
  graded_by: z.nullable(z.string()),
  wipe: z.nullable(
    z.object({
      method: z.enum(WIPE_METHODS),
      certificate: z.nullable(z.string()),
      wiped_at: z.nullable(z.string()),
    }),
  ),
  /** FRP or activation lock as the last test found it; null when never checked. */
  lock_on: z.nullable(z.boolean()),
  battery_health: z.nullable(z.int()),
  /** Newest first; the most recent CARD_TESTS. */
  tests: z.array(deviceTestRecordSchema),
});
export type DeviceProduction = z.infer<typeof deviceProductionSchema>;

export const deviceProductionEndpoint = defineEndpoint({
  method: 'GET',
  path: '/devices/:id/production',
  summary:
    "A device's production record: its request and worker, tests, wipe, locks, battery and grading",
  tag: 'Devices',
  guard: DEVICE_SCAN_ACCESS,
  params: idParamsSchema,
  response: deviceProductionSchema,
});

export const deviceLabelEndpoint = printEndpoint({
  path: '/devices/:id/label',
  summary:
    'A download link for the device label (2x1 inch, Code128 IMEI), as PDF or ZPL; the print is audited',
  tag: 'Devices',
  guard: DEVICE_SCAN_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('device-label', ['2x1']),
});
