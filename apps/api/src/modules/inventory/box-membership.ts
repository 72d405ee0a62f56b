import { beforeCommit, type Transaction } from '../../db/db.js';
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

/**
 * Takes devices out of their inventory boxes (a device leaving the building leaves its box):
 * clears their box now and counts each box they left again at the end of the caller's
 * transaction; a box locked by a running count is then a 409 (the count would find the device
 * missing) and nothing the transaction did stays. The caller has locked the devices. The boxes
 * are locked in id order before they are counted, so the count sees every device another station
 * took out before it (and one putting a device in waits for it); two runs over the same boxes
 * cannot deadlock. Counting at the end keeps the box row locked from there to the commit only:
 * every picker of a batch takes from the same oldest box, and a lock held for the whole pick
 * made them wait in turn (the pick scan's bench gate, decision 0043).
 */
export async function takeOutOfInventoryBoxes(
  tx: Transaction,
  deviceIds: readonly number[],
): Promise<void> {
  const left = await tx.query<{ box_id: number }>(
    `UPDATE devices d SET inventory_box_id = NULL
     FROM (SELECT id, inventory_box_id FROM devices
           WHERE id = ANY ($1::bigint[]) AND inventory_box_id IS NOT NULL) was
     WHERE d.id = was.id
     RETURNING was.inventory_box_id AS box_id`,
    [deviceIds],
  );
  if (left.length === 0) return;
  const boxesLeft = beforeCommit(tx, 'inventory boxes left', () => {
    const boxIds = new Set<number>();
    return { state: boxIds, run: () => countBoxesLeft(tx, [...boxIds]) };
  });
  for (const row of left) boxesLeft.add(row.box_id);
}

async function countBoxesLeft(tx: Transaction, boxIds: readonly number[]) {
  // NO KEY UPDATE: the transaction may hold a key share on the box already (a picked unit
  // names the box it came from), and so may another picker's; FOR UPDATE would wait on theirs.
  const boxes = await tx.query<{ code: string; status: string }>(
    `SELECT code, status FROM inventory_boxes WHERE id = ANY ($1::bigint[])
     ORDER BY id FOR NO KEY UPDATE`,
    [boxIds],
  );
  const counted = boxes.filter((box) => box.status === 'locked').map((box) => box.code);
  if (counted.length > 0) {
    throw new ConflictError(
      `${counted.join(', ')} ${counted.length > 1 ? 'are' : 'is'} locked by a count: finish the count before its devices leave.`,
    );
  }
  await tx.query(
    `UPDATE inventory_boxes b
     SET qty = (SELECT count(*)::int FROM devices d WHERE d.inventory_box_id = b.id),
       updated_at = now()
     WHERE b.id = ANY ($1::bigint[])`,
    [boxIds],
  );
}

/** Devices going back into the boxes they came from: per box, those it takes, and the rest. */
export type PutBack = {
  readonly byBox: ReadonlyMap<number, number[]>;
  /** Devices whose box takes them no more (archived, emptied, full): in stock in no box. */
  readonly boxless: number[];
  /** Counts the boxes again once the devices are in them (after their step). */
  readonly recount: () => Promise<unknown>;
};

/**
 * Where unpicked devices go (DOMAIN.md 3.1 `picked` → `in_stock`, "unit back to its box"): the
 * boxes are locked in id order; a box locked by a running count is a 409 (the count would find
 * an extra unit); a box that is still working stock (sealed, located, partly picked) with room
 * takes its devices back. The caller moves the devices with their step, then calls `recount`.
 */
export async function putBackIntoInventoryBoxes(
  tx: Transaction,
  devices: readonly { deviceId: number; boxId: number | null }[],
): Promise<PutBack> {
  const boxIds = [
    ...new Set(devices.flatMap((device) => (device.boxId === null ? [] : [device.boxId]))),
  ];
  const boxes = await tx.query<{
    id: number;
    code: string;
    status: string;
    qty: number;
    max_qty: number;
  }>(
    `SELECT id::int AS id, code, status, qty, max_qty FROM inventory_boxes
     WHERE id = ANY ($1::bigint[]) ORDER BY id FOR NO KEY UPDATE`,
    [boxIds],
  );
  const counted = boxes.filter((box) => box.status === 'locked').map((box) => box.code);
  if (counted.length > 0) {
    throw new ConflictError(
      `${counted.join(', ')} ${counted.length > 1 ? 'are' : 'is'} locked by a count: finish the count before devices go back.`,
    );
  }
  const room = new Map(
    boxes
      .filter((box) => ['sealed', 'located', 'partially_picked'].includes(box.status))
      .map((box) => [box.id, box.max_qty - box.qty]),
  );
  const byBox = new Map<number, number[]>();
  const boxless: number[] = [];
  for (const { deviceId, boxId } of devices) {
    const left = boxId === null ? 0 : (room.get(boxId) ?? 0);
    if (boxId === null || left <= 0) {
      boxless.push(deviceId);
      continue;
    }
    room.set(boxId, left - 1);
    byBox.set(boxId, [...(byBox.get(boxId) ?? []), deviceId]);
  }
  return {
    byBox,
    boxless,
    recount: () =>
      tx.query(
        `UPDATE inventory_boxes b
         SET qty = (SELECT count(*)::int FROM devices d WHERE d.inventory_box_id = b.id),
           updated_at = now()
         WHERE b.id = ANY ($1::bigint[])`,
        [[...byBox.keys()]],
      ),
  };
}
