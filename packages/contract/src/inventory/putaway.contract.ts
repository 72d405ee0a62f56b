import * as z from 'zod/mini';
import { defineEndpoint } from '../endpoint.js';
import { PUTAWAY_ACCESS } from '../guards.js';
import { inventoryBoxSchema, PALLET_MAX_BOXES } from './inventory-boxes.contract.js';

/**
 * The putaway station's other modes (DOMAIN.md 4.2, /inventory-box/location/assign-location and
 * the "move a box X → Y by scan" of /inventory-box/location/update-location): a located box moved
 * to another location, a located box taken off its shelf back to the putaway queue, and a pallet
 * of sealed boxes put in one location at once. Each is one transaction under the putaway guard.
 */

const boxCodeSchema = z
  .string('Scan the box.')
  .check(z.minLength(1, 'Scan the box.'), z.maxLength(40, 'This is no box code.'));

const locationCodeSchema = z
  .string('Scan the location.')
  .check(z.minLength(1, 'Scan the location.'), z.maxLength(40, 'This is no location code.'));

/** A box by its scanned code, with where it is (404 for none). */
export const putawayBoxEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway/boxes',
  summary: 'An inventory box by its scanned code, with its status and location',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({ box_code: boxCodeSchema }),
  response: inventoryBoxSchema,
});

/**
 * Move a located box from the location it was scanned in to another: the target follows
 * putaway's rules (active, under its capacity, the quarantine zone for boxes holding a device on
 * hold and only for them). A box that is no longer where it was scanned (someone moved it
 * meanwhile) is a 409; one in the target already answers `already`.
 */
export const boxMoveEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway/moves',
  summary: 'Move a located inventory box to another active location with room',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({
    box_code: boxCodeSchema,
    /** Where the box is as the station read it: the move is refused if it is elsewhere now. */
    from_location_code: z
      .string('Scan the box first: where it is comes with it.')
      .check(
        z.minLength(1, 'Scan the box first: where it is comes with it.'),
        z.maxLength(40, 'This is no location code.'),
      ),
    location_code: locationCodeSchema,
  }),
  response: z.object({
    box: inventoryBoxSchema,
    /** Where the box was before the move (where it is, when `already`). */
    from_location_code: z.string(),
    /** The box was in this location already: nothing changed. */
    already: z.boolean(),
  }),
});

/** Why a located box comes off its shelf back to the putaway queue. */
export const UNASSIGN_REASONS = ['count', 'mistake', 'damaged', 'other'] as const;
export type UnassignReason = (typeof UNASSIGN_REASONS)[number];

/** Each reason in words. */
export const UNASSIGN_REASON_WORDS: Record<UnassignReason, string> = {
  count: 'Taken off for a count',
  mistake: 'Put away by mistake',
  damaged: 'Box damaged',
  other: 'Other (say why)',
};

/** The longest note on an unassignment. */
export const UNASSIGN_NOTE_MAX = 200;

/**
 * Take a located box off its location: located → sealed, no location; it waits in the putaway
 * queue again. `other` needs a note. A sealed box with no location answers `already`.
 */
export const boxUnassignEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway/unassignments',
  summary: 'Take a located inventory box off its location, back to sealed, with the reason',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({
    box_code: boxCodeSchema,
    reason: z.enum(UNASSIGN_REASONS, 'Choose why the box comes off its location.'),
    note: z.optional(
      z
        .string()
        .check(
          z.trim(),
          z.maxLength(
            UNASSIGN_NOTE_MAX,
            `The note is too long (at most ${UNASSIGN_NOTE_MAX} characters).`,
          ),
        ),
    ),
  }),
  response: z.object({
    box: inventoryBoxSchema,
    /** The location the box left; null when it had none (`already`). */
    from_location_code: z.nullable(z.string()),
    /** The box had no location already: nothing changed. */
    already: z.boolean(),
  }),
});

/**
 * Put a pallet of sealed boxes in one location, all or none: a 409 names each box that cannot go
 * there and why, and the location's room when it cannot take them all. Boxes of the pallet that
 * are in the location already stay, named in `already`.
 */
export const palletPutawayEndpoint = defineEndpoint({
  method: 'POST',
  path: '/putaway/pallets',
  summary: 'Put a pallet of sealed inventory boxes (at most 50) away to one location, all or none',
  tag: 'Inventory',
  guard: PUTAWAY_ACCESS,
  body: z.object({
    box_codes: z
      .array(boxCodeSchema, 'Scan the boxes of the pallet.')
      .check(
        z.minLength(1, 'Scan the boxes of the pallet.'),
        z.maxLength(PALLET_MAX_BOXES, `A pallet holds at most ${PALLET_MAX_BOXES} boxes.`),
      ),
    location_code: locationCodeSchema,
  }),
  response: z.object({
    location_code: z.string(),
    /** Every box of the pallet, as it is now, in the order scanned. */
    boxes: z.array(inventoryBoxSchema),
    /** The codes of the boxes that were in the location already. */
    already: z.array(z.string()),
  }),
});
