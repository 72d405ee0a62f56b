import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { iccidSchema, imeiSchema } from '../identifiers.js';
import { idNumber } from '../list.js';
import { optionalText, requiredText } from '../master-data/fields.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import { isoDate } from '../receiving/receiving-fields.js';
import { DEVICE_STATUSES } from '../receiving/device-states.js';
import { downloadSchema, FILE_FORMATS } from '../resource.js';
import {
  PACKAGE_STATUSES,
  scanStationSchema,
  trackingCodeSchema,
} from '../shipment/packages.contract.js';
import { CARRIERS } from '../shipment/tracking-numbers.js';
import { SIM_STATUSES } from '../sim/sim-lifecycle.js';

/**
 * Unpacking returned parcels (DOMAIN.md 4.16 /shipment-management/unpack and its statistics, 5.3
 * step 2b) and the SIMs that come back (4.10 /RMA/sim). A parcel is scanned, its expected
 * contents shown, what was found is recorded with a disposition per device in one transaction:
 * devices back to `returned` (held when listed), SIMs to `returned`, the package unpacked and its
 * order returned as its lifecycle allows. A parcel nobody can match goes to the unidentified bin.
 */

const TAG = 'Unpack';
const UNPACK_ACCESS = { permission: 'unpack.process' } as const;
const UNPACK_STATISTICS_ACCESS = { permission: 'unpack.statistics' } as const;
const RMA_SIM_ACCESS = { permission: 'rma.sim' } as const;

// --- The parcel at the station ---

/** Why a parcel came back: sent back by the carrier, or back with no tracking news. */
export const UNPACK_REASONS = ['undeliverable', 'no_tracking'] as const;
export type UnpackReason = (typeof UNPACK_REASONS)[number];
export const UNPACK_REASON_TEXT: Record<UnpackReason, string> = {
  undeliverable: 'Undeliverable (returned to sender)',
  no_tracking: 'Came back without tracking',
};

export const UNPACK_OUTCOMES = ['match', 'mismatch', 'empty'] as const;
export type UnpackOutcome = (typeof UNPACK_OUTCOMES)[number];

/** What happens to a device found: kept for reuse (it waits on /RMA/reuse), repair, or hold. */
export const UNPACK_DISPOSITIONS = ['reuse', 'repair', 'hold'] as const;
export type UnpackDisposition = (typeof UNPACK_DISPOSITIONS)[number];
export const UNPACK_DISPOSITION_TEXT: Record<UnpackDisposition, string> = {
  reuse: 'Restock for reuse',
  repair: 'Repair',
  hold: 'Quarantine (hold)',
};

export const expectedDeviceSchema = z.object({
  device_id: z.int(),
  imei: z.string(),
  model: z.string(),
  status: z.enum(DEVICE_STATUSES),
});
export const expectedSimSchema = z.object({
  sim_id: z.int(),
  iccid: z.string(),
  status: z.enum(SIM_STATUSES),
  ever_active: z.boolean(),
});
export const expectedAccessorySchema = z.object({
  sku: z.string(),
  description: z.string(),
  qty: z.int(),
});

export const unpackItemSchema = z.object({
  kind: z.enum(['device', 'sim', 'accessory']),
  code: z.string(),
  expected_qty: z.int(),
  found_qty: z.int(),
  disposition: z.nullable(z.enum(UNPACK_DISPOSITIONS)),
  /** What became of it, in words (held as listed, a repair ticket, not ours). */
  note: z.nullable(z.string()),
});
export type UnpackItem = z.infer<typeof unpackItemSchema>;

export const unpackRecordSchema = z.object({
  id: z.int(),
  reason: z.enum(UNPACK_REASONS),
  outcome: z.enum(UNPACK_OUTCOMES),
  unpacked_at: z.string(),
  unpacked_by_name: z.nullable(z.string()),
  station: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  items: z.array(unpackItemSchema),
});
export type UnpackRecord = z.infer<typeof unpackRecordSchema>;

export const returnedParcelSchema = z.object({
  package_id: z.int(),
  tracking_number: z.string(),
  carrier: z.enum(CARRIERS),
  status: z.enum(PACKAGE_STATUSES),
  reason: z.enum(UNPACK_REASONS),
  order_id: z.int(),
  order_number: z.string(),
  order_status: z.enum(ORDER_STATUSES),
  client_carrier: z.nullable(z.string()),
  /** Where it was going, city and state. */
  place: z.string(),
  devices: z.array(expectedDeviceSchema),
  sims: z.array(expectedSimSchema),
  accessories: z.array(expectedAccessorySchema),
  /** Unpacked already: what was recorded. */
  unpack: z.nullable(unpackRecordSchema),
});
export type ReturnedParcel = z.infer<typeof returnedParcelSchema>;

export const parcelQuerySchema = z.object({ code: trackingCodeSchema });

const foundDeviceSchema = z.object({
  imei: imeiSchema,
  disposition: z.enum(UNPACK_DISPOSITIONS, 'Choose what happens to the device.'),
  /** Why it goes to repair, in words (the ticket's reported issue). */
  issue: optionalText('issue', 500),
});
const foundAccessorySchema = z.object({
  sku: requiredText('SKU', 64),
  qty: z.int('The quantity must be a whole number.').check(z.gte(1), z.lte(1000)),
});

export const unpackBodySchema = z.object({
  station: scanStationSchema,
  devices: z._default(z.array(foundDeviceSchema).check(z.maxLength(50, 'Too many devices.')), []),
  iccids: z._default(z.array(iccidSchema).check(z.maxLength(50, 'Too many SIMs.')), []),
  accessories: z._default(
    z.array(foundAccessorySchema).check(z.maxLength(50, 'Too many accessories.')),
    [],
  ),
  notes: optionalText('notes', 1000),
});
export type UnpackInput = z.input<typeof unpackBodySchema>;

// --- Unidentified parcels ---

export const unidentifiedParcelSchema = z.object({
  id: z.int(),
  code: z.string(),
  location: z.string(),
  contents: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  station: z.nullable(z.string()),
  found_at: z.string(),
  found_by_name: z.nullable(z.string()),
});
export type UnidentifiedParcel = z.infer<typeof unidentifiedParcelSchema>;

export const unidentifiedParcelBodySchema = z.object({
  code: requiredText('code on the parcel', 64),
  location: requiredText('bin or location', 60),
  contents: optionalText('contents', 1000),
  notes: optionalText('notes', 1000),
  station: scanStationSchema,
});
export type UnidentifiedParcelInput = z.input<typeof unidentifiedParcelBodySchema>;

export const unidentifiedSearchSchema = z.object({
  q: z.optional(z.string().check(z.trim(), z.maxLength(64, 'The search is too long.'))),
});

/** The newest unidentified parcels a search shows. */
export const UNIDENTIFIED_SHOWN = 100;

// --- Statistics ---

export const unpackStatisticsQuerySchema = z.object({
  from: isoDate('first day'),
  to: isoDate('last day'),
});
export type UnpackStatisticsQuery = z.infer<typeof unpackStatisticsQuerySchema>;

/** A range longer than this is refused (two years of days). */
export const UNPACK_STATISTICS_MAX_DAYS = 731;

const returnFiguresShape = {
  returns: z.int(),
  mismatches: z.int(),
  empties: z.int(),
};
export const unpackStatisticsSchema = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.object({ ...returnFiguresShape, shipped: z.int() }),
  /** Per day: returns against the orders shipped that day. */
  by_day: z.array(z.object({ day: z.string(), shipped: z.int(), ...returnFiguresShape })),
  by_carrier: z.array(z.object({ carrier: z.enum(CARRIERS), ...returnFiguresShape })),
  by_reason: z.array(z.object({ reason: z.enum(UNPACK_REASONS), ...returnFiguresShape })),
  by_client: z.array(z.object({ client_carrier: z.string(), ...returnFiguresShape })),
  /** Addresses that came back more than once, the latest in the range. */
  repeated_addresses: z.array(
    z.object({ address: z.string(), zip: z.string(), returns: z.int(), last_at: z.string() }),
  ),
});
export type UnpackStatistics = z.infer<typeof unpackStatisticsSchema>;

export const UNPACK_STATISTICS_TABLES = [
  'by_day',
  'by_carrier',
  'by_reason',
  'by_client',
  'repeated_addresses',
] as const;
export type UnpackStatisticsTable = (typeof UNPACK_STATISTICS_TABLES)[number];

/** Each table of the page as a file: its title and columns (UX.md: every table exports). */
export const UNPACK_STATISTICS_FILES: Record<
  UnpackStatisticsTable,
  { title: string; columns: { key: string; header: string; example: string }[] }
> = {
  by_day: {
    title: 'Returns by day',
    columns: [
      { key: 'day', header: 'Day', example: '2026-03-02' },
      { key: 'shipped', header: 'Orders shipped', example: '420' },
      { key: 'returns', header: 'Returns', example: '6' },
      { key: 'rate', header: 'Return rate %', example: '1.4' },
      { key: 'mismatches', header: 'Mismatches', example: '1' },
      { key: 'empties', header: 'Empty', example: '0' },
    ],
  },
  by_carrier: {
    title: 'Returns by carrier',
    columns: [
      { key: 'carrier', header: 'Carrier', example: 'usps' },
      { key: 'returns', header: 'Returns', example: '6' },
      { key: 'mismatches', header: 'Mismatches', example: '1' },
      { key: 'empties', header: 'Empty', example: '0' },
    ],
  },
  by_reason: {
    title: 'Returns by reason',
    columns: [
      { key: 'reason', header: 'Reason', example: 'undeliverable' },
      { key: 'returns', header: 'Returns', example: '6' },
      { key: 'mismatches', header: 'Mismatches', example: '1' },
      { key: 'empties', header: 'Empty', example: '0' },
    ],
  },
  by_client: {
    title: 'Returns by client carrier',
    columns: [
      { key: 'client_carrier', header: 'Client carrier', example: 'SafeLink' },
      { key: 'returns', header: 'Returns', example: '6' },
      { key: 'mismatches', header: 'Mismatches', example: '1' },
      { key: 'empties', header: 'Empty', example: '0' },
    ],
  },
  repeated_addresses: {
    title: 'Repeated addresses',
    columns: [
      { key: 'address', header: 'Address', example: '12 MAIN ST' },
      { key: 'zip', header: 'ZIP', example: '75247' },
      { key: 'returns', header: 'Returns', example: '3' },
      { key: 'last_at', header: 'Last return', example: '2026-03-02T10:00:00Z' },
    ],
  },
};

export const unpackStatisticsExportSchema = z.object({
  from: isoDate('first day'),
  to: isoDate('last day'),
  table: z.enum(UNPACK_STATISTICS_TABLES, 'Choose the table to export.'),
  format: z._default(z.enum(FILE_FORMATS), 'csv'),
});

// --- Returned SIMs (/RMA/sim) ---

export const RETURNED_SIM_SOURCES = ['parcel', 'sim_return'] as const;
export const returnedSimSchema = z.object({
  id: z.int(),
  iccid: z.string(),
  client_carrier: z.string(),
  /** Where it came back: an unpacked parcel, or a SIM return (decided on /sim/return). */
  source: z.enum(RETURNED_SIM_SOURCES),
  reference: z.nullable(z.string()),
  order_number: z.nullable(z.string()),
  last_detect_state: z.nullable(z.string()),
  ever_active: z.boolean(),
  returned_at: z.string(),
});
export type ReturnedSim = z.infer<typeof returnedSimSchema>;

/** The newest returned SIMs the page shows. */
export const RETURNED_SIMS_SHOWN = 200;

export const RETURNED_SIM_ACTIONS = ['restock', 'destroy'] as const;
export const returnedSimDecisionSchema = z.object({
  action: z.enum(RETURNED_SIM_ACTIONS, 'Choose restock or destroy.'),
  sim_ids: z
    .array(z.int())
    .check(z.minLength(1, 'Choose the SIMs.'), z.maxLength(200, 'At most 200 SIMs at once.')),
  reason: optionalText('reason', 500),
});
export type ReturnedSimDecision = z.input<typeof returnedSimDecisionSchema>;

export const unpackEndpoints = {
  parcel: defineEndpoint({
    method: 'GET',
    path: '/unpack/parcels',
    summary: 'A returned parcel by tracking number or label: its order and what it should hold',
    tag: TAG,
    guard: UNPACK_ACCESS,
    query: parcelQuerySchema,
    response: returnedParcelSchema,
  }),
  unpack: defineEndpoint({
    method: 'POST',
    path: '/unpack/parcels/:id/unpacks',
    summary: 'Record what a returned parcel held and what happens to each device',
    tag: TAG,
    guard: UNPACK_ACCESS,
    params: z.object({ id: idNumber }),
    body: unpackBodySchema,
    response: returnedParcelSchema,
    successStatus: 201,
  }),
  unidentified: defineEndpoint({
    method: 'GET',
    path: '/unpack/unidentified',
    summary: 'Parcels nobody could identify, newest first, by code, bin or words',
    tag: TAG,
    guard: UNPACK_ACCESS,
    query: unidentifiedSearchSchema,
    response: z.array(unidentifiedParcelSchema),
  }),
  addUnidentified: defineEndpoint({
    method: 'POST',
    path: '/unpack/unidentified',
    summary: 'Put a parcel nobody can identify aside in a bin, with what it holds',
    tag: TAG,
    guard: UNPACK_ACCESS,
    body: unidentifiedParcelBodySchema,
    response: unidentifiedParcelSchema,
    successStatus: 201,
  }),
  statistics: defineEndpoint({
    method: 'GET',
    path: '/unpack/statistics',
    summary: 'Returns by day, carrier, reason and client carrier, and repeated addresses',
    tag: TAG,
    guard: UNPACK_STATISTICS_ACCESS,
    query: unpackStatisticsQuerySchema,
    response: unpackStatisticsSchema,
  }),
  statisticsExport: defineEndpoint({
    method: 'POST',
    path: '/unpack/statistics/exports',
    summary: 'A download link for one table of the unpack statistics',
    tag: TAG,
    guard: UNPACK_STATISTICS_ACCESS,
    body: unpackStatisticsExportSchema,
    response: downloadSchema,
    successStatus: 201,
  }),
  returnedSims: defineEndpoint({
    method: 'GET',
    path: '/rma/sims',
    summary: 'SIMs that came back and wait for a decision, newest first',
    tag: TAG,
    guard: RMA_SIM_ACCESS,
    response: z.array(returnedSimSchema),
  }),
  decideSims: defineEndpoint({
    method: 'POST',
    path: '/rma/sims/decisions',
    summary: 'Restock (never active only) or destroy SIMs that came back in parcels',
    tag: TAG,
    guard: RMA_SIM_ACCESS,
    body: returnedSimDecisionSchema,
    response: z.object({ moved: z.int() }),
  }),
  deactivationExport: defineEndpoint({
    method: 'POST',
    path: '/rma/sims/deactivations',
    summary: 'A download link for the ICCIDs the carrier should deactivate',
    tag: TAG,
    guard: RMA_SIM_ACCESS,
    body: z.object({ format: z._default(z.enum(FILE_FORMATS), 'csv') }),
    response: downloadSchema,
    successStatus: 201,
  }),
};

/** The carrier's deactivation file. */
export const DEACTIVATION_FILE = {
  title: 'SIMs to deactivate',
  columns: [
    { key: 'iccid', header: 'ICCID', example: '8901260123456789012' },
    { key: 'client_carrier', header: 'Client carrier', example: 'SafeLink' },
    { key: 'last_detect_state', header: 'Last seen', example: 'active' },
    { key: 'status', header: 'Status', example: 'destroyed' },
  ],
};
