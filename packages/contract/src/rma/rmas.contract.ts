import * as z from 'zod/mini';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { idNumber, idParamsSchema } from '../list.js';
import { optionalText } from '../master-data/fields.js';
import { DEVICE_GRADES, isoDate } from '../receiving/receiving-fields.js';
import { DEVICE_STATUSES } from '../receiving/device-states.js';
import { DEVICE_SCAN_ACCESS } from '../receiving/devices.contract.js';
import { booleanFilter, defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';
import { scanStationSchema, SHIPPING_SERVICES } from '../shipment/packages.contract.js';
import { CARRIERS } from '../shipment/tracking-numbers.js';
import { timelineEventSchema } from '../timeline.js';
import {
  RMA_INDEX_ACCESS,
  RMA_REASONS,
  RMA_REUSE_ACCESS,
  RMA_SCAN_ACCESS,
  RMA_STATUSES,
  RMA_SUPERVISE_ACCESS,
} from './rma-lifecycle.js';

/**
 * RMAs (DOMAIN.md 3.4, 4.10, 5.3; migration 0066): the list and record on /RMA (create from an
 * order or a device, authorise with a return label, reject, resolve, close), receiving on
 * /RMA/scan (find by return label or RMA number, scan the IMEIs, checklist and photos, route
 * each device), and the reuse queue on /RMA/reuse.
 */

/** Where receiving sends a device it took back. */
export const RMA_ROUTES = ['reuse', 'inspection', 'repair'] as const;
export type RmaRoute = (typeof RMA_ROUTES)[number];

export const RMA_RESOLUTIONS = ['replacement', 'refund', 'repair'] as const;
export type RmaResolution = (typeof RMA_RESOLUTIONS)[number];

/** What may come back with a device: receiving ticks what did. */
export const RMA_ACCESSORIES = ['charger', 'cable', 'box', 'sim_card', 'case', 'manual'] as const;
export type RmaAccessory = (typeof RMA_ACCESSORIES)[number];

/** An RMA as the list shows it. */
export const rmaRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  order_id: z.int(),
  order_number: z.string(),
  /** The subscriber's or retailer's name, masked. */
  customer: z.string(),
  imeis_text: z.string(),
  devices: z.int(),
  reason: z.enum(RMA_REASONS),
  warranty_ok: z.boolean(),
  status: z.enum(RMA_STATUSES),
  resolution: z.nullable(z.enum(RMA_RESOLUTIONS)),
  replacement_order_id: z.nullable(z.int()),
  replacement_order_number: z.nullable(z.string()),
  return_tracking: z.nullable(z.string()),
  mismatch_flagged: z.boolean(),
  created_at: z.string(),
});
export type RmaRow = z.infer<typeof rmaRowSchema>;

export const rmaList = defineList({
  name: 'rmas',
  singular: 'RMA',
  plural: 'RMAs',
  tag: 'RMA',
  view: RMA_INDEX_ACCESS,
  item: rmaRowSchema,
  filters: {
    status: enumFilter(RMA_STATUSES),
    reason: enumFilter(RMA_REASONS),
    /** RMAs whose receiving scanned an IMEI they do not expect. */
    mismatch: booleanFilter,
    order_id: idFilter,
    /** RMAs opened on or after this business day. */
    created_from: z.optional(isoDate('first day')),
    /** RMAs opened on or before this business day. */
    created_to: z.optional(isoDate('last day')),
  },
  sorts: ['created_at'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'number', header: 'RMA', example: 'RMA-0000012' },
    { key: 'order_number', header: 'Order', example: 'SO-0001234' },
    { key: 'customer', header: 'Customer', example: 'J*** D***' },
    { key: 'imeis_text', header: 'IMEIs', example: '356938035643809' },
    { key: 'reason', header: 'Reason', example: 'defective' },
    { key: 'warranty_ok', header: 'Under warranty', example: 'true' },
    { key: 'status', header: 'Status', example: 'authorized' },
    { key: 'resolution', header: 'Resolution', example: 'replacement' },
    { key: 'replacement_order_number', header: 'Replacement order', example: '' },
    { key: 'return_tracking', header: 'Return tracking', example: '' },
    { key: 'created_at', header: 'Created', example: '' },
  ],
});
export const rmaListEndpoints = listEndpoints(rmaList);

/** A device an RMA expects back. */
export const rmaLineSchema = z.object({
  device_id: z.int(),
  imei: z.string(),
  model: z.string(),
  device_status: z.enum(DEVICE_STATUSES),
  received_at: z.nullable(z.string()),
  received_by_name: z.nullable(z.string()),
  route: z.nullable(z.enum(RMA_ROUTES)),
  /** The RMA was closed short without it: the device stayed with the customer. */
  not_returned: z.boolean(),
});
export type RmaLine = z.infer<typeof rmaLineSchema>;

export const RMA_SCAN_RESULTS = ['received', 'mismatch', 'already_received'] as const;
export type RmaScanResult = (typeof RMA_SCAN_RESULTS)[number];

export const RMA_SCAN_TONES: Record<RmaScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  received: 'success',
  mismatch: 'error',
  already_received: 'info',
};

export const rmaScanLogSchema = z.object({
  id: z.int(),
  at: z.string(),
  code: z.string(),
  result: z.enum(RMA_SCAN_RESULTS),
  station: z.nullable(z.string()),
  actor_name: z.string(),
});
export type RmaScanLog = z.infer<typeof rmaScanLogSchema>;

/** An RMA with its devices, return label, receiving's findings and timeline. */
export const rmaDetailSchema = z.object({
  rma: rmaRowSchema,
  note: z.nullable(z.string()),
  refund_cents: z.nullable(z.int()),
  accessories: z.array(z.enum(RMA_ACCESSORIES)),
  damage_note: z.nullable(z.string()),
  lines: z.array(rmaLineSchema),
  label: z.nullable(
    z.object({
      carrier: z.enum(CARRIERS),
      service: z.enum(SHIPPING_SERVICES),
      tracking_number: z.string(),
      created_at: z.string(),
    }),
  ),
  scans: z.array(rmaScanLogSchema),
  events: z.array(timelineEventSchema),
});
export type RmaDetail = z.infer<typeof rmaDetailSchema>;

const textCode = (message: string) =>
  z.string(message).check(z.trim(), z.minLength(1, message), z.maxLength(64, 'This is too long.'));

/** Opens an RMA from an order (every device it shipped, or one by IMEI) or from a device's IMEI. */
export const createRmaSchema = z.object({
  /** The order's number; without it, the order the IMEI last shipped on. */
  order_number: z.optional(textCode('Type the order number.')),
  imei: z.optional(textCode('Scan or type the IMEI.')),
  reason: z.enum(RMA_REASONS, 'Choose why it comes back.'),
  note: optionalText('note', 2000),
});
export type CreateRmaInput = z.infer<typeof createRmaSchema>;

export const RMA_TRANSITIONS = ['reject', 'mark_in_transit', 'cancel', 'close'] as const;

export const rmaTransitionSchema = z.object({
  action: z.enum(RMA_TRANSITIONS, 'Choose what to do.'),
  reason: optionalText('reason', 500),
});

export const authorizeRmaSchema = z.object({
  /** The service of the return label; ground by default. */
  service: z.optional(z.enum(SHIPPING_SERVICES)),
});

export const resolveRmaSchema = z.object({
  resolution: z.enum(RMA_RESOLUTIONS, 'Choose the resolution.'),
  /** A refund's amount. */
  refund_cents: z.optional(
    z
      .number('The refund must be a number of cents.')
      .check(z.int('The refund must be whole cents.'), z.gte(0, 'The refund cannot be negative.')),
  ),
});
export type ResolveRmaInput = z.infer<typeof resolveRmaSchema>;

export const rmaReceivingQuerySchema = z.object({
  code: textCode('Scan the return label or type the RMA number.'),
});

export const rmaScanSchema = z.object({
  code: textCode('Scan the IMEI.'),
  station: scanStationSchema,
});
export type RmaScanInput = z.infer<typeof rmaScanSchema>;

export const rmaScanAnswerSchema = z.object({
  result: z.enum(RMA_SCAN_RESULTS),
  words: z.string(),
  detail: rmaDetailSchema,
});
export type RmaScanAnswer = z.infer<typeof rmaScanAnswerSchema>;

export const rmaChecklistSchema = z.object({
  accessories: z.array(z.enum(RMA_ACCESSORIES, 'Unknown accessory.')),
  damage_note: optionalText('damage note', 2000),
});
export type RmaChecklistInput = z.infer<typeof rmaChecklistSchema>;

export const rmaRouteSchema = z.object({
  device_id: idNumber,
  route: z.enum(RMA_ROUTES, 'Choose where it goes.'),
  note: optionalText('note', 500),
});
export type RmaRouteInput = z.infer<typeof rmaRouteSchema>;

/** Required words of a supervisor's, kept on the RMA's timeline and in the audit log. */
const supervisorWords = (message: string) =>
  z
    .string(message)
    .check(
      z.trim(),
      z.minLength(1, message),
      z.maxLength(500, 'This is too long (at most 500 characters).'),
    );

/** A supervisor clears receiving's mismatch flag, saying what was found. */
export const clearRmaMismatchSchema = z.object({
  note: supervisorWords('Say what was found (for example: another phone, set aside).'),
});
export type ClearRmaMismatchInput = z.infer<typeof clearRmaMismatchSchema>;

/** A supervisor closes a received RMA whose other devices never came back, saying why. */
export const closeRmaShortSchema = z.object({
  reason: supervisorWords('Say why the RMA is closed without the missing devices.'),
});
export type CloseRmaShortInput = z.infer<typeof closeRmaShortSchema>;

/** An RMA's return label, 4x6: the carrier's file, or ours. */
export const rmaReturnLabelPrintable = labelPrintable('rma-return-label', ['4x6']);

export const rmaAttachments = defineAttachments({
  kind: 'rma',
  path: '/rmas',
  singular: 'RMA',
  tag: 'RMA',
  view: RMA_SCAN_ACCESS,
  manage: RMA_SCAN_ACCESS,
});
export const rmaAttachmentEndpoints = attachmentEndpoints(rmaAttachments);

export const rmaEndpoints = {
  create: defineEndpoint({
    method: 'POST',
    path: '/rmas',
    summary:
      'Open an RMA on an order (the device named, or every device it shipped) or on a device by IMEI; 409 when a device is on an open RMA',
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    body: createRmaSchema,
    response: rmaDetailSchema,
    successStatus: 201,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/rmas/:id/detail',
    summary: 'An RMA with its devices, return label, receiving scans and timeline',
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    params: idParamsSchema,
    response: rmaDetailSchema,
  }),
  authorize: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/authorize',
    summary:
      "Authorise a requested RMA: buys a return label from the customer's address to the warehouse",
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    params: idParamsSchema,
    body: authorizeRmaSchema,
    response: rmaDetailSchema,
  }),
  transition: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/transitions',
    summary: 'Reject, mark in transit, cancel (before it is received) or close an RMA',
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    params: idParamsSchema,
    body: rmaTransitionSchema,
    response: rmaDetailSchema,
  }),
  resolve: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/resolution',
    summary:
      'Resolve an inspected RMA: a replacement order (to /fulfill/replacement), a refund or a repair',
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    params: idParamsSchema,
    body: resolveRmaSchema,
    response: rmaDetailSchema,
  }),
  printLabel: printEndpoint({
    path: '/rmas/:id/return-label',
    summary: "Print an authorised RMA's return label",
    tag: 'RMA',
    guard: RMA_INDEX_ACCESS,
    params: idParamsSchema,
    printable: rmaReturnLabelPrintable,
  }),
  receiving: defineEndpoint({
    method: 'GET',
    path: '/rma-receiving',
    summary: 'Find an RMA to receive by its return label tracking number or its RMA number',
    tag: 'RMA',
    guard: RMA_SCAN_ACCESS,
    query: rmaReceivingQuerySchema,
    response: rmaDetailSchema,
  }),
  scan: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/scans',
    summary:
      'Scan a returned IMEI: a device on the RMA is received (returned); another is a mismatch flagged for a supervisor',
    tag: 'RMA',
    guard: RMA_SCAN_ACCESS,
    params: idParamsSchema,
    body: rmaScanSchema,
    response: rmaScanAnswerSchema,
  }),
  checklist: defineEndpoint({
    method: 'PUT',
    path: '/rmas/:id/checklist',
    summary: 'Record what came back with the devices and the damage seen',
    tag: 'RMA',
    guard: RMA_SCAN_ACCESS,
    params: idParamsSchema,
    body: rmaChecklistSchema,
    response: rmaDetailSchema,
  }),
  route: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/routes',
    summary:
      'Send a received device to reuse, inspection or repair; the RMA is inspected when every device is routed',
    tag: 'RMA',
    guard: RMA_SCAN_ACCESS,
    params: idParamsSchema,
    body: rmaRouteSchema,
    response: rmaDetailSchema,
  }),
  clearMismatch: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/mismatch-clearance',
    summary:
      "A supervisor clears receiving's mismatch flag with a note of what was found; 409 when the RMA is not flagged",
    tag: 'RMA',
    guard: RMA_SUPERVISE_ACCESS,
    params: idParamsSchema,
    body: clearRmaMismatchSchema,
    response: rmaDetailSchema,
  }),
  closeShort: defineEndpoint({
    method: 'POST',
    path: '/rmas/:id/short-closure',
    summary:
      'A supervisor closes a received RMA whose other devices never came back, with the reason: those lines are not returned, the devices stay with the customer',
    tag: 'RMA',
    guard: RMA_SUPERVISE_ACCESS,
    params: idParamsSchema,
    body: closeRmaShortSchema,
    response: rmaDetailSchema,
  }),
};

// --- The reuse queue ---

/** Where a device in the reuse queue came from. */
export const REUSE_SOURCES = ['rma', 'repair', 'return'] as const;

export const reuseRowSchema = z.object({
  /** The device's id. */
  id: z.int(),
  imei: z.string(),
  model: z.string(),
  status: z.enum(['returned', 'repaired']),
  source: z.enum(REUSE_SOURCES),
  rma_number: z.nullable(z.string()),
  grade: z.nullable(z.enum(DEVICE_GRADES)),
  reuse_count: z.int(),
  reuse_limit: z.int(),
  last_decision: z.nullable(z.string()),
  waiting_since: z.string(),
});
export type ReuseRow = z.infer<typeof reuseRowSchema>;

export const reuseList = defineList({
  name: 'reuse-queue',
  singular: 'device',
  plural: 'Devices waiting for reuse',
  tag: 'RMA',
  view: RMA_REUSE_ACCESS,
  item: reuseRowSchema,
  filters: { status: enumFilter(['returned', 'repaired']) },
  sorts: ['waiting_since'],
  defaultSort: 'waiting_since',
  exportColumns: [
    { key: 'imei', header: 'IMEI', example: '356938035643809' },
    { key: 'model', header: 'Model', example: 'Apple iPhone 12' },
    { key: 'status', header: 'Status', example: 'returned' },
    { key: 'source', header: 'Source', example: 'rma' },
    { key: 'rma_number', header: 'RMA', example: 'RMA-0000012' },
    { key: 'grade', header: 'Grade', example: 'A' },
    { key: 'reuse_count', header: 'Reused', example: '0' },
    { key: 'waiting_since', header: 'Waiting since', example: '' },
  ],
});
export const reuseListEndpoints = listEndpoints(reuseList);

export const REUSE_DECISIONS = ['approved', 'repair', 'scrap', 'vendor'] as const;
export type ReuseDecision = (typeof REUSE_DECISIONS)[number];

export const reuseDecisionSchema = z.object({
  decision: z.enum(REUSE_DECISIONS, 'Choose approve, repair, scrap or vendor.'),
  wipe_method: z
    .string('Say how it was wiped again.')
    .check(
      z.trim(),
      z.minLength(1, 'Say how it was wiped again.'),
      z.maxLength(100, 'The wipe method is too long.'),
    ),
  wipe_certificate: optionalText('wipe certificate', 200),
  /** Required to approve. */
  grade: z.optional(z.enum(DEVICE_GRADES, 'Choose a grade.')),
  note: optionalText('note', 2000),
});
export type ReuseDecisionInput = z.infer<typeof reuseDecisionSchema>;

export const reuseDecisionAnswerSchema = z.object({
  device_id: z.int(),
  decision: z.enum(REUSE_DECISIONS),
  status: z.enum(DEVICE_STATUSES),
  blacklist_state: z.enum(['clean', 'blocked', 'unknown']),
  reuse_count: z.int(),
});
export type ReuseDecisionAnswer = z.infer<typeof reuseDecisionAnswerSchema>;

export const reuseEndpoints = {
  decide: defineEndpoint({
    method: 'POST',
    path: '/rma-reuse/:id/decision',
    summary:
      'Re-inspect a returned or repaired device (new wipe, blacklist re-check, grade) and approve it into consolidation or send it to repair, scrap or its vendor',
    tag: 'RMA',
    guard: RMA_REUSE_ACCESS,
    params: idParamsSchema,
    body: reuseDecisionSchema,
    response: reuseDecisionAnswerSchema,
  }),
};

/** A device's RMAs as its card lists them, newest first. */
export const deviceRmaSchema = z.object({
  id: z.int(),
  number: z.string(),
  order_number: z.string(),
  reason: z.enum(RMA_REASONS),
  status: z.enum(RMA_STATUSES),
  resolution: z.nullable(z.enum(RMA_RESOLUTIONS)),
  received_at: z.nullable(z.string()),
  route: z.nullable(z.enum(RMA_ROUTES)),
  created_at: z.string(),
});
export type DeviceRma = z.infer<typeof deviceRmaSchema>;

/** The card's own read, beside the lookup (whose speed gate it leaves alone). */
export const deviceRmasEndpoint = defineEndpoint({
  method: 'GET',
  path: '/devices/:id/rmas',
  summary: "A device's RMAs, newest first",
  tag: 'RMA',
  guard: DEVICE_SCAN_ACCESS,
  params: idParamsSchema,
  response: z.array(deviceRmaSchema),
});
