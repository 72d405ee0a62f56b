import * as z from 'zod/mini';
import { PUTAWAY_ACCESS } from '../guards.js';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { DEVICE_STATUSES, HOLD_REASONS } from '../receiving/device-states.js';
import { scanBodyShape } from '../receiving/receiving-fields.js';
import { STATION_ACCESS } from '../roles.js';

/**
 * Inventory boxes (DOMAIN.md 2.2, 3.7, 4.2, 4.17): homogeneous boxes of ready-to-sell devices,
 * filled at the consolidation station, sealed with their "IB-" label and put away to a location.
 * Migration 0026.
 */

/** InventoryBox states (DOMAIN.md 3.7); `locked` while a count runs. */
export const INVENTORY_BOX_STATUSES = [
  'open',
  'sealed',
  'located',
  'partially_picked',
  'empty',
  'archived',
  'locked',
] as const;
export type InventoryBoxStatus = (typeof INVENTORY_BOX_STATUSES)[number];

/** The devices a box holds unless its worker sets another limit. */
export const DEFAULT_BOX_MAX_QTY = 20;
/** The most a box can be set to hold. */
export const MAX_BOX_QTY = 200;

/** What every view of an inventory box shows: its code, what it holds, its fill and place. */
export const inventoryBoxShape = {
  id: z.int(),
  code: z.string(),
  model_id: z.int(),
  model: z.string(),
  color_id: z.nullable(z.int()),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.string(),
  carrier_lock: z.nullable(z.string()),
  /** What it holds: kept by the scans that put devices in and take them out, never edited. */
  qty: z.int(),
  max_qty: z.int(),
  status: z.enum(INVENTORY_BOX_STATUSES),
  location_id: z.nullable(z.int()),
  location_code: z.nullable(z.string()),
  sealed_at: z.nullable(z.string()),
};

export const inventoryBoxSchema = z.object({
  ...inventoryBoxShape,
  sealed_by_name: z.nullable(z.string()),
  created_at: z.string(),
});
export type InventoryBox = z.infer<typeof inventoryBoxSchema>;

/** A device as the consolidation station shows it. */
export const consolidationDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  model: z.string(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.string()),
  carrier_lock: z.nullable(z.string()),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
});
export type ConsolidationDevice = z.infer<typeof consolidationDeviceSchema>;

/**
 * What a consolidation scan came to. Scanning a device names its box (`box_named`); scanning the
 * box then puts it in (`added`). The rest refuse, saying why.
 */
export const CONSOLIDATION_RESULTS = [
  'box_named',
  'added',
  'already_in_box',
  'in_other_box',
  'mismatch',
  'held',
  'not_ready',
  'box_closed',
  'box_full',
  'not_found',
] as const;
export type ConsolidationResult = (typeof CONSOLIDATION_RESULTS)[number];

/** The colour and sound of each result at the station. */
export const CONSOLIDATION_TONES: Record<
  ConsolidationResult,
  'success' | 'warning' | 'info' | 'error'
> = {
  box_named: 'info',
  added: 'success',
  already_in_box: 'info',
  in_other_box: 'error',
  mismatch: 'error',
  held: 'error',
  not_ready: 'error',
  box_closed: 'error',
  box_full: 'warning',
  not_found: 'error',
};

export const consolidationAnswerSchema = z.object({
  result: z.enum(CONSOLIDATION_RESULTS),
  /** What the station shows, in a sentence (the mismatch's reason included). */
  message: z.string(),
  code: z.string(),
  device: z.nullable(consolidationDeviceSchema),
  /** The box the device goes to (named), went to (added) or the box scanned. */
  box: z.nullable(inventoryBoxSchema),
});
export type ConsolidationAnswer = z.infer<typeof consolidationAnswerSchema>;

/** Scan a device: the server names the open box it goes to, opening one when none matches. */
export const consolidationScanEndpoint = defineEndpoint({
  method: 'POST',
  path: '/consolidation/scans',
  summary: 'Scan a graded device: the answer names the open inventory box that matches it',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationWorker,
  body: z.object(scanBodyShape),
  response: consolidationAnswerSchema,
});

/** Scan the box to confirm: the device is consolidated into it (graded or reuse to in stock). */
export const consolidationPlacementEndpoint = defineEndpoint({
  method: 'POST',
  path: '/consolidation/placements',
  summary: 'Put a device into an inventory box: refused with the reason when it does not match',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationWorker,
  body: z.object({
    ...scanBodyShape,
    box_code: z
      .string('Scan the box.')
      .check(z.minLength(1, 'Scan the box.'), z.maxLength(40, 'This is no box code.')),
  }),
  response: consolidationAnswerSchema,
});

export const inventoryBoxParamsSchema = idParamsSchema;

/** Seal an open box (its label is printed next); sealing a sealed box answers it as it is. */
export const sealInventoryBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inventory-boxes/:id/seal',
  summary: 'Seal an open inventory box with at least one device',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationWorker,
  params: idParamsSchema,
  response: inventoryBoxSchema,
});

/** The devices an open box holds at most; never fewer than it holds. */
export const setBoxMaxQtyEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/inventory-boxes/:id/max-qty',
  summary: 'Set how many devices an open inventory box holds at most',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationWorker,
  params: idParamsSchema,
  body: z.object({
    max_qty: z
      .int('Give a whole number.')
      .check(
        z.gte(1, 'A box holds at least 1 device.'),
        z.lte(MAX_BOX_QTY, `A box holds at most ${MAX_BOX_QTY} devices.`),
      ),
  }),
  response: inventoryBoxSchema,
});

/** Who prints an IB label: the consolidation station seals, the boxes page reprints. */
export const INVENTORY_BOX_LABEL_ACCESS = {
  permission: 'roles',
  roles: [
    ...new Set([
      ...STATION_ACCESS.consolidationWorker.roles,
      ...STATION_ACCESS.consolidationBox.roles,
    ]),
  ],
} as const;

/** The IB label (4x6 for the carton, 2x1 for a small box), Code128 box code. */
export const inventoryBoxLabelEndpoint = printEndpoint({
  path: '/inventory-boxes/:id/label',
  summary: 'A download link for the inventory box label (Code128 box code), as PDF or ZPL',
  tag: 'Inventory',
  guard: INVENTORY_BOX_LABEL_ACCESS,
  params: idParamsSchema,
  printable: labelPrintable('inventory-box-label', ['4x6', '2x1']),
});

/** The open boxes a consolidation station works on, fullest first. */
export const openInventoryBoxesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/consolidation/open-boxes',
  summary: 'Open inventory boxes with their fill',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationWorker,
  response: z.array(inventoryBoxSchema),
});

// Putaway (DOMAIN.md 4.2, /inventory-box/location/assign-location).

/** The most boxes the putaway queue shows. */
export const PUTAWAY_QUEUE_LIMIT = 200;

/** The most boxes one pallet puts away (putaway.contract.ts). */
export const PALLET_MAX_BOXES = 50;

export const putawayQueueEndpoint = defineEndpoint({
  method: 'GET',
  path: '/putaway/queue',
  summary: 'Sealed inventory boxes without a location, oldest sealed first',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  response: z.array(inventoryBoxSchema),
});

const boxCodeSchema = z
  .string('Scan the box.')
  .check(z.minLength(1, 'Scan the box.'), z.maxLength(40, 'This is no box code.'));

export const putawaySuggestionSchema = z.object({
  box: inventoryBoxSchema,
  /** Where it should go; null when no active location has room. */
  location: z.nullable(
    z.object({ id: z.int(), code: z.string(), zone_code: z.string(), quarantine: z.boolean() }),
  ),
  /** Why this location (or why none). */
  reason: z.string(),
});
export type PutawaySuggestion = z.infer<typeof putawaySuggestionSchema>;

/** Scan a box: the server suggests where it goes (with a pallet, where they all go). */
export const putawaySuggestionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway/suggestions',
  summary:
    'Suggest a location for a sealed box: its model and grade’s zone first, then the nearest empty bin',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({
    box_code: boxCodeSchema,
    /** The boxes the location must have room for: the pallet's, this one included (1 alone). */
    room_for: z.optional(
      z
        .int('Give a whole number of boxes.')
        .check(
          z.gte(1, 'Room for at least 1 box.'),
          z.lte(PALLET_MAX_BOXES, `A pallet holds at most ${PALLET_MAX_BOXES} boxes.`),
        ),
    ),
  }),
  response: putawaySuggestionSchema,
});

/** Put a sealed box in a location: sealed → located. */
export const putawayEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway',
  summary: 'Put a sealed inventory box away to an active location with room',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({
    box_code: boxCodeSchema,
    location_code: z
      .string('Scan the location.')
      .check(z.minLength(1, 'Scan the location.'), z.maxLength(40, 'This is no location code.')),
  }),
  response: z.object({
    box: inventoryBoxSchema,
    /** The box was in this location already: nothing changed. */
    already: z.boolean(),
  }),
});

// Consolidation boxes and overview (DOMAIN.md 4.17, /consolidation/box and /consolidation).

/** The most boxes the consolidation boxes page shows, newest first. */
export const CONSOLIDATION_BOXES_LIMIT = 200;

export const consolidationBoxesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/consolidation/boxes',
  summary: 'The newest inventory boxes with their fill, of one status or all',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationBox,
  query: z.object({ status: z.optional(z.enum(['open', 'sealed', 'located'])) }),
  response: z.array(inventoryBoxSchema),
});

/** Reopening a sealed box takes the leader's permission as well as the page (DOMAIN.md 6.3). */
export const BOX_REOPEN_PERMISSION = 'box.reopen';

export const reopenInventoryBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inventory-boxes/:id/reopen',
  summary: 'Reopen a sealed inventory box that is not put away yet',
  tag: 'Inventory',
  guard: { ...STATION_ACCESS.consolidationBox, andPermission: BOX_REOPEN_PERMISSION },
  params: idParamsSchema,
  response: inventoryBoxSchema,
});

export const consolidationGroupSchema = z.object({
  model_id: z.int(),
  model: z.string(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.string(),
  carrier_lock: z.nullable(z.string()),
  /** Graded or reuse devices of this kind in no box yet. */
  devices: z.int(),
});
export type ConsolidationGroup = z.infer<typeof consolidationGroupSchema>;

export const consolidationOverviewEndpoint = defineEndpoint({
  method: 'GET',
  path: '/consolidation/overview',
  summary:
    'Graded and reuse devices waiting, by model, colour, capacity, grade and lock; the open boxes',
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidation,
  response: z.object({
    waiting: z.array(consolidationGroupSchema),
    open_boxes: z.array(inventoryBoxSchema),
  }),
});

/** The steps of a device the inquiry shows, newest first. */
export const INQUIRY_EVENTS = 50;

export const deviceInquirySchema = z.object({
  device: consolidationDeviceSchema,
  /** The warehouse box it is in, until consolidation takes it out. */
  warehouse_box: z.nullable(z.string()),
  box: z.nullable(inventoryBoxSchema),
  events: z.array(
    z.object({
      at: z.string(),
      type: z.string(),
      from_status: z.nullable(z.string()),
      to_status: z.nullable(z.string()),
      container: z.nullable(z.string()),
      actor_name: z.nullable(z.string()),
    }),
  ),
});
export type DeviceInquiry = z.infer<typeof deviceInquirySchema>;

/** Read-only: a device's stage, grade, box and location, and its steps (DOMAIN.md 4.17). */
export const deviceInquiryEndpoint = defineEndpoint({
  method: 'POST',
  path: '/consolidation/inquiries',
  summary: "A device's stage, grade, box, location and latest steps, by a scanned code",
  tag: 'Inventory',
  guard: STATION_ACCESS.consolidationInquireDevice,
  body: z.object({ code: scanBodyShape.code }),
  response: deviceInquirySchema,
});
