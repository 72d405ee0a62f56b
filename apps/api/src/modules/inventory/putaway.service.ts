import type { InventoryBox, UnassignReason } from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, NotFoundError } from '../../http/errors.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import { auditActor, recordAudit, recordAudits } from '../audit/index.js';
import {
  boxById,
  boxesWhere,
  boxIdByCode,
  findInventoryBox,
  labelCode,
  lockBox,
  lockLocation,
  placementRefusals,
} from './inventory-boxes.service.js';

/**
 * The putaway station's other modes (DOMAIN.md 4.2): a located box moved to another location, a
 * located box taken off its location, and a pallet of sealed boxes put in one location. Each runs
 * in the caller's transaction, locks its boxes before the location (as putaway does, so no
 * deadlock) and writes only the boxes' status and location: what a location holds follows by
 * migration 0032's triggers.
 */

/** A box by its scanned code, with where it is; 404 for none. */
export const putawayBoxByCode = async (db: Queryable, raw: string): Promise<InventoryBox> =>
  findInventoryBox(db, await boxIdByCode(db, raw));

const codeOfLocation = async (tx: Queryable, id: number) =>
  (await tx.query<{ code: string }>('SELECT code FROM locations WHERE id = $1', [id]))[0]!.code;

/**
 * Moves a located (or partly picked) box from the location the station read it in to another, by
 * the rules putaway follows for where a box goes. The box is locked, then the location: two people
 * moving the same box to two locations take turns, and the second is told the box is no longer
 * where they read it (or, moving it where it went, that it is there already). Audited
 * `inventory_box.moved` with both locations.
 */
export async function moveBox(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: { box_code: string; from_location_code: string; location_code: string },
): Promise<{ box: InventoryBox; from_location_code: string; already: boolean }> {
  const box = await lockBox(tx, await boxIdByCode(tx, input.box_code));
  const location = await lockLocation(tx, input.location_code);
  if (box.status === 'locked') {
    throw new ConflictError(`${box.code} is locked by a count: finish the count first.`);
  }
  if (box.location_id === null) {
    throw new ConflictError(
      box.status === 'sealed'
        ? `${box.code} is not put away yet: put it away first.`
        : `${box.code} is ${box.status.replace(/_/g, ' ')}: it has no location to move from.`,
    );
  }
  const from = await codeOfLocation(tx, box.location_id);
  if (box.location_id === location.id) {
    return { box: (await boxById(tx, box.id))!, from_location_code: from, already: true };
  }
  const expected = labelCode(input.from_location_code);
  if (from !== expected) {
    throw new ConflictError(
      `${box.code} is in ${from} now, not ${expected}: it was moved meanwhile. Scan it again.`,
    );
  }
  if (box.status !== 'located' && box.status !== 'partially_picked') {
    throw new ConflictError(`${box.code} is ${box.status}: only a box on a shelf is moved.`);
  }
  const refusals = await placementRefusals(tx, location, [box]);
  if (refusals.length > 0) throw new ConflictError(refusals.join(' '));
  await tx.query(
    `UPDATE inventory_boxes SET location_id = $2, located_at = now(), located_by = $3,
       updated_at = now() WHERE id = $1`,
    [box.id, location.id, actor.userId],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.moved',
    entityType: 'inventory_box',
    entityId: box.id,
    before: { location: from },
    after: { location: location.code },
  });
  return { box: (await boxById(tx, box.id))!, from_location_code: from, already: false };
}

/**
 * Takes a located box off its location (located → sealed, no location): it waits in the putaway
 * queue again. A partly picked box stays where it is (it is no longer the sealed box the queue
 * holds); a box being counted waits for its count. Audited `inventory_box.unassigned` with the
 * location it left and the reason.
 */
export async function unassignBox(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: { box_code: string; reason: UnassignReason; note?: string | undefined },
): Promise<{ box: InventoryBox; from_location_code: string | null; already: boolean }> {
  const note = input.note?.trim() || null;
  if (input.reason === 'other' && !note) {
    throw fieldError('note', 'Say why the box comes off its location.');
  }
  const box = await lockBox(tx, await boxIdByCode(tx, input.box_code));
  if (box.status === 'sealed') {
    return { box: (await boxById(tx, box.id))!, from_location_code: null, already: true };
  }
  if (box.status === 'locked') {
    throw new ConflictError(`${box.code} is locked by a count: finish the count first.`);
  }
  if (box.status === 'partially_picked') {
    throw new ConflictError(
      `${box.code} is partially picked: only a full box goes back to the putaway queue. Move it instead.`,
    );
  }
  if (box.status !== 'located') {
    throw new ConflictError(`${box.code} is ${box.status}: it has no location to come off.`);
  }
  const from = await codeOfLocation(tx, box.location_id!);
  await tx.query(
    `UPDATE inventory_boxes SET status = 'sealed', location_id = NULL, located_at = NULL,
       located_by = NULL, updated_at = now() WHERE id = $1`,
    [box.id],
  );
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'inventory_box.unassigned',
    entityType: 'inventory_box',
    entityId: box.id,
    before: { status: 'located', location: from },
    after: { status: 'sealed', location: null, reason: input.reason, note },
  });
  return { box: (await boxById(tx, box.id))!, from_location_code: from, already: false };
}

/** A box of a pallet, locked. */
type PalletBox = { id: number; code: string; status: string; location_id: number | null };

/** Why a box of a pallet cannot be put away by its own state, or null when it is sealed. */
async function stateRefusal(tx: Queryable, box: PalletBox): Promise<string | null> {
  if (box.status === 'sealed') return null;
  if (box.status === 'open') return `${box.code} is open: seal it before putting it away.`;
  if (box.status === 'locked') return `${box.code} is locked by a count: finish the count first.`;
  const where = box.location_id === null ? '' : ` in ${await codeOfLocation(tx, box.location_id)}`;
  return `${box.code} is ${box.status.replace(/_/g, ' ')}${where} already.`;
}

/**
 * Puts a pallet of sealed boxes in one location, all or none. Its boxes are locked in id order,
 * then the location, so two pallets (or a pallet and a single putaway) racing for a location's
 * last places take turns and the location's capacity holds. A refusal names every box that cannot
 * go there and why, and the location's room when it cannot take them all. A box of the pallet
 * that is in the location already (the pallet scanned again) stays and is named `already`.
 * Audited `inventory_box.located` per box, with the pallet's size.
 */
export async function putAwayPallet(
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: { box_codes: readonly string[]; location_code: string },
): Promise<{ location_code: string; boxes: InventoryBox[]; already: string[] }> {
  const codes = input.box_codes.map(labelCode);
  const twice = codes.find((code, index) => codes.indexOf(code) !== index);
  if (twice) throw fieldError('box_codes', `${twice} is on the pallet twice.`);
  const boxes = await tx.query<PalletBox>(
    `SELECT id, code, status, location_id FROM inventory_boxes
     WHERE code = ANY ($1::text[]) ORDER BY id FOR UPDATE`,
    [codes],
  );
  if (boxes.length < codes.length) {
    const known = new Set(boxes.map((box) => box.code));
    const unknown = codes.filter((code) => !known.has(code));
    throw new NotFoundError(
      `No inventory box has the code${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}.`,
    );
  }
  const location = await lockLocation(tx, input.location_code);
  const byCode = new Map(boxes.map((box) => [box.code, box]));
  const scanned = codes.map((code) => byCode.get(code)!);
  const already = scanned.filter(
    (box) => box.location_id === location.id && box.status !== 'locked',
  );
  const placing = scanned.filter((box) => !already.includes(box));
  const refusals: string[] = [];
  for (const box of placing) {
    const refusal = await stateRefusal(tx, box);
    if (refusal) refusals.push(refusal);
  }
  const sealed = placing.filter((box) => box.status === 'sealed');
  if (sealed.length > 0) refusals.push(...(await placementRefusals(tx, location, sealed)));
  if (refusals.length > 0) {
    throw new ConflictError(`Nothing was put away in ${location.code}: ${refusals.join(' ')}`);
  }
  if (sealed.length > 0) {
    await tx.query(
      `UPDATE inventory_boxes SET status = 'located', location_id = $2, located_at = now(),
         located_by = $3, updated_at = now() WHERE id = ANY ($1::bigint[])`,
      [sealed.map((box) => box.id), location.id, actor.userId],
    );
    await recordAudits(
      tx,
      {
        ...auditActor(actor, meta),
        action: 'inventory_box.located',
        entityType: 'inventory_box',
      },
      sealed.map((box) => ({
        entityId: box.id,
        before: { status: 'sealed', location: null },
        after: { status: 'located', location: location.code, pallet: codes.length },
      })),
    );
  }
  return {
    location_code: location.code,
    boxes: await boxesWhere(
      tx,
      'ib.id = ANY ($1::bigint[])',
      [scanned.map((box) => box.id)],
      'array_position($1::bigint[], ib.id)',
    ),
    already: already.map((box) => box.code),
  };
}
