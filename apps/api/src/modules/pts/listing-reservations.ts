import type { Transaction } from '../../db/db.js';
import { ConflictError, NotFoundError } from '../../http/errors.js';
import type { Acting } from '../../http/principal.js';
import { settleListings } from './listings.service.js';

/**
 * What order intake does to a listing's counts (DOMAIN.md 4.6, 3: a checkout, an approved offer, a
 * carrier order reserves; a cancellation releases; a shipment sells). Each is one guarded UPDATE
 * in the caller's transaction: the row's lock makes racing reservations take turns, and each
 * re-reads the counts the one before it left, so no number of them at once reserves more than was
 * pushed (`listing-reservations.concurrency.test.ts`). A listing whose last unit is reserved is
 * sold out in the same transaction, and live again when units come back.
 */

/** Why a listing refused a reservation. */
export type ReservationRefusal = 'not_live' | 'not_started' | 'ended' | 'not_enough';

/** A refusal (409) with its reason for the caller's own answer. */
export class ListingReservationError extends ConflictError {
  constructor(
    readonly reason: ReservationRefusal | 'not_reserved',
    message: string,
  ) {
    super(message);
  }
}

/** A listing's counts after a change. */
export type ListingCounts = {
  listing_id: number;
  qty_pushed: number;
  qty_reserved: number;
  qty_sold: number;
  qty_remaining: number;
};

/** What an order line says about itself on the listing's timeline: `{type: 'order', id: 12}`. */
export type ReservationRef = { readonly type: string; readonly id: number | null };

const COUNTS = `id AS listing_id, qty_pushed, qty_reserved, qty_sold,
  qty_pushed - qty_reserved - qty_sold AS qty_remaining`;

function checkQty(qty: number) {
  if (!Number.isInteger(qty) || qty < 1) {
    throw new Error(`A listing's quantity changes by a whole number of at least 1, not ${qty}.`);
  }
}

async function writeCountEvent(
  tx: Transaction,
  { actor }: Acting,
  listingId: number,
  type: string,
  qty: number,
  ref: ReservationRef | undefined,
) {
  await tx.query(
    `INSERT INTO pts_listing_events (listing_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [listingId, actor.userId, actor.userName, type, JSON.stringify({ qty, ...(ref && { ref }) })],
  );
}

/** Why the listing took no reservation: read after the guarded update found nothing to change. */
async function refusal(tx: Transaction, listingId: number, qty: number): Promise<never> {
  const [listing] = await tx.query<{
    status: string;
    not_started: boolean;
    ended: boolean;
    remaining: number;
  }>(
    `SELECT status, COALESCE(starts_at > now(), false) AS not_started,
       COALESCE(ends_at <= now(), false) AS ended,
       qty_pushed - qty_reserved - qty_sold AS remaining
     FROM pts_listings WHERE id = $1`,
    [listingId],
  );
  if (!listing) throw new NotFoundError(`There is no listing with id ${listingId}.`);
  if (listing.status === 'sold_out') {
    throw new ListingReservationError('not_enough', `Listing ${listingId} is sold out.`);
  }
  if (listing.status !== 'live') {
    throw new ListingReservationError(
      'not_live',
      `Listing ${listingId} is ${listing.status.replace('_', ' ')}, not on sale.`,
    );
  }
  if (listing.not_started) {
    throw new ListingReservationError('not_started', `Listing ${listingId} is not on sale yet.`);
  }
  if (listing.ended) {
    throw new ListingReservationError('ended', `Listing ${listingId}'s sale has ended.`);
  }
  throw new ListingReservationError(
    'not_enough',
    `Listing ${listingId} has ${Math.max(listing.remaining, 0)} left, not ${qty}.`,
  );
}

/**
 * Reserves `qty` units of a live listing within its dates, while as many remain (or on
 * backorder). Refuses with a ListingReservationError (409) saying why.
 */
export async function reserveListing(
  tx: Transaction,
  actor: Acting,
  listingId: number,
  qty: number,
  ref?: ReservationRef,
): Promise<ListingCounts> {
  checkQty(qty);
  const [counts] = await tx.query<ListingCounts>(
    `UPDATE pts_listings SET qty_reserved = qty_reserved + $2, updated_at = now()
     WHERE id = $1 AND status = 'live'
       AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())
       AND (allow_backorder OR qty_reserved + qty_sold + $2 <= qty_pushed)
     RETURNING ${COUNTS}`,
    [listingId, qty],
  );
  if (!counts) return refusal(tx, listingId, qty);
  await writeCountEvent(tx, actor, listingId, 'reserved', qty, ref);
  if (counts.qty_remaining <= 0) await settleListings(tx, actor, [listingId]);
  return counts;
}

async function takeReserved(
  tx: Transaction,
  actor: Acting,
  listingId: number,
  qty: number,
  sold: boolean,
  ref: ReservationRef | undefined,
): Promise<ListingCounts> {
  checkQty(qty);
  const [counts] = await tx.query<ListingCounts>(
    `UPDATE pts_listings SET qty_reserved = qty_reserved - $2,
       qty_sold = qty_sold + ${sold ? '$2' : '0'}, updated_at = now()
     WHERE id = $1 AND qty_reserved >= $2
     RETURNING ${COUNTS}`,
    [listingId, qty],
  );
  if (!counts) {
    const [listing] = await tx.query<{ qty_reserved: number }>(
      'SELECT qty_reserved FROM pts_listings WHERE id = $1',
      [listingId],
    );
    if (!listing) throw new NotFoundError(`There is no listing with id ${listingId}.`);
    throw new ListingReservationError(
      'not_reserved',
      `Listing ${listingId} has ${listing.qty_reserved} reserved, not ${qty}.`,
    );
  }
  await writeCountEvent(tx, actor, listingId, sold ? 'sold' : 'released', qty, ref);
  if (!sold) await settleListings(tx, actor, [listingId]);
  return counts;
}

/** Gives back `qty` reserved units (a cancelled or expired order); a sold-out listing sells again. */
export const releaseListing = (
  tx: Transaction,
  actor: Acting,
  listingId: number,
  qty: number,
  ref?: ReservationRef,
) => takeReserved(tx, actor, listingId, qty, false, ref);

/** Turns `qty` reserved units into sold ones (the order shipped); remaining is unchanged. */
export const sellReservedListing = (
  tx: Transaction,
  actor: Acting,
  listingId: number,
  qty: number,
  ref?: ReservationRef,
) => takeReserved(tx, actor, listingId, qty, true, ref);
