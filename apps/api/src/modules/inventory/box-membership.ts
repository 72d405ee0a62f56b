import type { Transaction } from '../../db/db.js';
import { ConflictError } from '../../http/errors.js';

/**
 * Which inventory box a device is in, for the areas that show or move devices (the device
 * registry and its lifecycle): SQL over a device's `inventory_box_id`, and taking devices out.
 */

/** The code of the inventory box whose id is the SQL expression `boxId`. */
export const inventoryBoxCodeOf = (boxId: string) =>
  `(SELECT ib.code FROM inventory_boxes ib WHERE ib.id = ${boxId})`;

/**
 * The inventory box whose id is the SQL expression `boxId` as a device's card shows it
 * (`deviceInventoryBoxSchema`): its code, status and fill, and the location it is put away at.
 * Two key lookups.
 */
export const inventoryBoxPlaceOf = (boxId: string) =>
  `(SELECT json_build_object('id', ib.id, 'code', ib.code, 'status', ib.status, 'qty', ib.qty,
      'max_qty', ib.max_qty, 'location_id', ib.location_id,
      'location_code', (SELECT l.code FROM locations l WHERE l.id = ib.location_id))
    FROM inventory_boxes ib WHERE ib.id = ${boxId})`;

/** A box some devices left, with what it holds after. */
export type BoxLeft = { id: number; code: string; qty: number };

/**
 * Takes devices out of their inventory boxes (a device leaving the building leaves its box):
 * clears their box and counts each box they left again, in the caller's transaction; a box locked
 * by a running count is a 409 (the count would find the device missing). The caller has locked
 * the devices. The boxes are locked in id order before they are counted, so the count
 * sees every device another station put in them before it (and one putting a device in waits for
 * it); two runs over the same boxes cannot deadlock. Answers the boxes left.
 */
export async function takeOutOfInventoryBoxes(
  tx: Transaction,
  deviceIds: readonly number[],
): Promise<BoxLeft[]> {
  const left = await tx.query<{ box_id: number }>(
    `UPDATE devices d SET inventory_box_id = NULL
     FROM (SELECT id, inventory_box_id FROM devices
           WHERE id = ANY ($1::bigint[]) AND inventory_box_id IS NOT NULL) was
     WHERE d.id = was.id
     RETURNING was.inventory_box_id AS box_id`,
    [deviceIds],
  );
  if (left.length === 0) return [];
  const boxIds = [...new Set(left.map((row) => row.box_id))];
  const boxes = await tx.query<{ code: string; status: string }>(
    `SELECT code, status FROM inventory_boxes WHERE id = ANY ($1::bigint[])
     ORDER BY id FOR UPDATE`,
    [boxIds],
  );
  const counted = boxes.filter((box) => box.status === 'locked').map((box) => box.code);
  if (counted.length > 0) {
    throw new ConflictError(
      `${counted.join(', ')} ${counted.length > 1 ? 'are' : 'is'} locked by a count: finish the count before its devices leave.`,
    );
  }
  return tx.query<BoxLeft>(
    `UPDATE inventory_boxes b
     SET qty = (SELECT count(*)::int FROM devices d WHERE d.inventory_box_id = b.id),
       updated_at = now()
     WHERE b.id = ANY ($1::bigint[])
     RETURNING b.id, b.code, b.qty`,
    [boxIds],
  );
}
