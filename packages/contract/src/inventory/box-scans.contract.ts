import * as z from 'zod/mini';
import { BOX_SCAN_ACCESS } from '../guards.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema } from '../list.js';
import { DEVICE_STATUSES, HOLD_REASONS } from '../receiving/device-states.js';
import { scanBodyShape } from '../receiving/receiving-fields.js';
import { inventoryBoxSchema } from './inventory-boxes.contract.js';

/**
 * The box scan station (DOMAIN.md 4.2, /inventory-box/scan-device): devices put into, taken out
 * of and moved between inventory boxes, and a box's count verified, keyboard only. Each scan is
 * one transaction: a container change through a named device action (the status stays), the box's
 * qty counted again, or a count's scan.
 */

/** A sealed box is reopened at the station by someone who holds box.reopen as well. */
export const BOX_SCAN_REOPEN_ACCESS = {
  permission: 'box.scan-device',
  andPermission: 'box.reopen',
} as const;

/**
 * What a scan does: `add` puts a device in no box into the box; `remove` takes one out; `move`
 * takes one from a box into another; `verify` counts the box's devices (a count must be running).
 */
export const BOX_SCAN_MODES = ['add', 'remove', 'move', 'verify'] as const;
export type BoxScanMode = (typeof BOX_SCAN_MODES)[number];

/**
 * What a scan came to. The first four did what the mode says; `duplicate` says it was done
 * already; the rest refuse, saying why.
 */
export const BOX_SCAN_RESULTS = [
  'added',
  'removed',
  'moved',
  'counted',
  'extra',
  'duplicate',
  'mismatch',
  'held',
  'reserved',
  'not_in_stock',
  'in_other_box',
  'not_in_box',
  'box_full',
  'not_found',
] as const;
export type BoxScanResult = (typeof BOX_SCAN_RESULTS)[number];

/** The colour and sound of each result at the station. */
export const BOX_SCAN_TONES: Record<BoxScanResult, 'success' | 'warning' | 'info' | 'error'> = {
  added: 'success',
  removed: 'success',
  moved: 'success',
  counted: 'success',
  extra: 'warning',
  duplicate: 'info',
  mismatch: 'error',
  held: 'error',
  reserved: 'error',
  not_in_stock: 'error',
  in_other_box: 'error',
  not_in_box: 'error',
  box_full: 'warning',
  not_found: 'error',
};

/** A device scanned by a count that was not in its box, with the box it was in. */
export const countExtraSchema = z.object({
  identifier: z.string(),
  box_code: z.nullable(z.string()),
});

/** A count of one box: running until the verify mode finishes it. */
export const inventoryBoxCountSchema = z.object({
  id: z.int(),
  box_id: z.int(),
  box_code: z.string(),
  /** The devices the box held when the count started. */
  expected: z.int(),
  started_at: z.string(),
  started_by_name: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  finished_by_name: z.nullable(z.string()),
  /** The box's devices scanned, newest first. */
  counted: z.array(z.string()),
  /** The box's devices not scanned (so far, while the count runs). */
  missing: z.array(z.string()),
  /** Devices scanned that are not in the box, newest first. */
  extra: z.array(countExtraSchema),
});
export type InventoryBoxCount = z.infer<typeof inventoryBoxCountSchema>;

/** A device as the station lists it in a box. */
export const stationDeviceSchema = z.object({
  id: z.int(),
  identifier: z.string(),
  model: z.string(),
  color: z.nullable(z.string()),
  capacity_gb: z.nullable(z.int()),
  grade: z.nullable(z.string()),
  carrier_lock: z.nullable(z.string()),
  status: z.enum(DEVICE_STATUSES),
  hold_reason: z.nullable(z.enum(HOLD_REASONS)),
  box_code: z.nullable(z.string()),
});
export type StationDevice = z.infer<typeof stationDeviceSchema>;

/** A box as the station works on it: the box, what it holds, and its running count. */
export const stationBoxSchema = z.object({
  box: inventoryBoxSchema,
  /** Its devices by IMEI (a box holds at most 200). */
  devices: z.array(stationDeviceSchema),
  count: z.nullable(inventoryBoxCountSchema),
});
export type StationBox = z.infer<typeof stationBoxSchema>;

const boxCode = (missing: string) =>
  z.string(missing).check(z.minLength(1, missing), z.maxLength(40, 'This is no box code.'));

/** Look up a box by its scanned code for the station (404 for none). */
export const stationBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/box-scans/boxes',
  summary: 'A box the scan station works on, by its scanned code: what it holds and its count',
  tag: 'Inventory',
  guard: BOX_SCAN_ACCESS,
  body: z.object({ box_code: boxCode('Scan the box.') }),
  response: stationBoxSchema,
});

export const boxScanBodySchema = z.object({
  ...scanBodyShape,
  mode: z.enum(BOX_SCAN_MODES, 'Choose add, remove, move or verify.'),
  /** The box the device goes into (add, move), comes out of (remove) or is counted in (verify). */
  box_code: boxCode('Scan the box.'),
  /** The box the device comes out of, in move mode. */
  from_box_code: z.optional(boxCode('Scan the box to take the device from.')),
});
export type BoxScanInput = z.input<typeof boxScanBodySchema>;

export const boxScanAnswerSchema = z.object({
  result: z.enum(BOX_SCAN_RESULTS),
  /** What the station shows, in a sentence (a mismatch's differences included). */
  message: z.string(),
  code: z.string(),
  device: z.nullable(stationDeviceSchema),
  /** The box scanned into, out of or counted, as it is after the scan. */
  box: inventoryBoxSchema,
  /** In move mode, the box taken from, as it is after the scan. */
  from_box: z.nullable(inventoryBoxSchema),
  /** In verify mode, the count as it is after the scan. */
  count: z.nullable(inventoryBoxCountSchema),
});
export type BoxScanAnswer = z.infer<typeof boxScanAnswerSchema>;

/**
 * One scan at the station: 200 with the result; 404 for a box code no box has; 409 when the box
 * cannot change now (sealed: reopen it; locked by a count; emptied or archived) or, verifying,
 * when no count runs on it; 422 for a move without its box to take from.
 */
export const boxScanEndpoint = defineEndpoint({
  method: 'POST',
  path: '/box-scans',
  summary: 'Scan a device at the box station: add, remove, move or verify',
  tag: 'Inventory',
  guard: BOX_SCAN_ACCESS,
  body: boxScanBodySchema,
  response: boxScanAnswerSchema,
});

/** Reopen a sealed box at the station, to change what it holds (box.reopen). */
export const stationReopenEndpoint = defineEndpoint({
  method: 'POST',
  path: '/box-scans/reopenings',
  summary: 'Reopen a sealed inventory box that is not put away, at the box scan station',
  tag: 'Inventory',
  guard: BOX_SCAN_REOPEN_ACCESS,
  body: z.object({ box_code: boxCode('Scan the box.') }),
  response: stationBoxSchema,
});

/** Finish a running count: what was missing and extra, and the box unlocked. */
export const finishBoxCountEndpoint = defineEndpoint({
  method: 'POST',
  path: '/inventory-box-counts/:id/finish',
  summary: 'Finish a count of an inventory box: report its missing and extra devices, unlock it',
  tag: 'Inventory',
  guard: BOX_SCAN_ACCESS,
  params: idParamsSchema,
  response: stationBoxSchema,
});
