import {
  canAccess,
  PRICE_UNDER_FLOOR_ACCESS,
  PTS_BACKORDER_ACCESS,
  ptsListingLifecycle,
  ptsListingList,
  type CreatePtsListingInput,
  type ManualListingAction,
  type PtsListing,
  type PtsListingAction,
  type PtsListingEvent,
  type PtsListingStatus,
  type SellableType,
  type UpdatePtsListingInput,
} from '@inventory/contract';
import type { Queryable, Transaction } from '../../db/db.js';
import { ConflictError, fieldError, ForbiddenError, NotFoundError } from '../../http/errors.js';
import { accessSubjectOf, type Acting, type Actor } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import {
  runTransition,
  runTransitions,
  timelineWriter,
  type LifecycleStore,
} from '../../toolkit/lifecycle.js';
import { findItem, type ListStore } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';

/**
 * Push-to-sale listings (DOMAIN.md 4.5): the list, a listing's creation and edits with their
 * rules, and its lifecycle. Quantity and price rules: pushed never below reserved + sold; pushed
 * above the matching stock only with backorder allowed (pts.allow-backorder); a price under the
 * floor only with price.management. Both permission rules answer 403.
 */

/** What names a listing in messages: its SKU and channel ("IP13-128-A on web"). */
export const LISTING_SKU_SQL = (alias: string) => `COALESCE(
  (SELECT sv.sku FROM product_variants sv WHERE sv.id = ${alias}.variant_id),
  (SELECT sb.sku FROM bundles sb WHERE sb.id = ${alias}.bundle_id),
  (SELECT sc.sku FROM combos sc WHERE sc.id = ${alias}.combo_id))`;

const LISTING_NAME_SQL = (alias: string) => `COALESCE(
  (SELECT concat_ws(' ', p.name, CASE WHEN v.capacity_gb IS NOT NULL THEN v.capacity_gb || ' GB' END,
      (SELECT co.name FROM colors co WHERE co.id = v.color_id), v.grade, v.carrier_lock)
   FROM product_variants v JOIN products p ON p.id = v.product_id WHERE v.id = ${alias}.variant_id),
  (SELECT b.name FROM bundles b WHERE b.id = ${alias}.bundle_id),
  (SELECT c.name FROM combos c WHERE c.id = ${alias}.combo_id))`;

/** A listing's sellable stock now (migration 0035's function). */
export const AVAILABLE_SQL = (alias: string) =>
  `pts_sellable_available(${alias}.variant_id, ${alias}.bundle_id, ${alias}.combo_id)`;

/**
 * The listings that sell a model: its product variants, and the bundles and combos with one of
 * them among their components or allowed variants. `$` stands for the model's parameter.
 */
export const OF_MODEL_SQL = (alias: string, parameter: string) => `(
  ${alias}.variant_id IN (SELECT v.id FROM product_variants v JOIN products p ON p.id = v.product_id
                          WHERE p.model_id = ${parameter})
  OR ${alias}.bundle_id IN (SELECT c.bundle_id FROM bundle_components c
                            JOIN product_variants v ON v.id = c.variant_id
                            JOIN products p ON p.id = v.product_id WHERE p.model_id = ${parameter})
  OR ${alias}.combo_id IN (SELECT sl.combo_id FROM combo_slots sl
                           JOIN combo_slot_variants sv ON sv.slot_id = sl.id
                           JOIN product_variants v ON v.id = sv.variant_id
                           JOIN products p ON p.id = v.product_id WHERE p.model_id = ${parameter}))`;

export const SELLABLE_TYPE_SQL = (alias: string) =>
  `CASE WHEN ${alias}.variant_id IS NOT NULL THEN 'variant'
        WHEN ${alias}.bundle_id IS NOT NULL THEN 'bundle' ELSE 'combo' END`;

const LISTING_COLUMNS = `l.id, ${SELLABLE_TYPE_SQL('l')} AS sellable_type,
  COALESCE(l.variant_id, l.bundle_id, l.combo_id) AS sellable_id,
  ${LISTING_SKU_SQL('l')} AS sku, ${LISTING_NAME_SQL('l')} AS name,
  (SELECT p.model_id FROM product_variants v JOIN products p ON p.id = v.product_id
   WHERE v.id = l.variant_id) AS model_id,
  l.channel, l.qty_pushed, l.qty_reserved, l.qty_sold,
  l.qty_pushed - l.qty_reserved - l.qty_sold AS qty_remaining,
  ${AVAILABLE_SQL('l')}::int AS available, l.qty_pushed > ${AVAILABLE_SQL('l')} AS over_available,
  l.price_cents::int AS price_cents, l.floor_price_cents::int AS floor_price_cents,
  l.allow_backorder, l.starts_at::date::text AS starts_on,
  (l.ends_at - interval '1 day')::date::text AS ends_on, l.status, l.visibility,
  ${isoTextSql('l.created_at')} AS created_at, ${isoTextSql('l.updated_at')} AS updated_at`;

/**
 * The list. Available stock is counted for the rows of the page only (the toolkit computes the
 * item's columns after the limit); no answers are kept, since stock changes with every scan.
 */
export const ptsListingListStore: ListStore<typeof ptsListingList> = {
  contract: ptsListingList,
  list: {
    from: 'pts_listings l',
    id: 'l.id',
    columns: LISTING_COLUMNS,
    sorts: {
      id: { sql: 'l.id', type: 'bigint' },
      updated_at: { sql: 'l.updated_at', type: 'timestamptz' },
      price_cents: { sql: 'l.price_cents', type: 'bigint' },
    },
    search: (pattern, term) =>
      /^\d+$/.test(term)
        ? ['l.id = ?', Number(term)]
        : [
            `(l.variant_id IN (SELECT id FROM product_variants WHERE sku ILIKE ?)
              OR l.bundle_id IN (SELECT id FROM bundles WHERE sku ILIKE ? OR name ILIKE ?)
              OR l.combo_id IN (SELECT id FROM combos WHERE sku ILIKE ? OR name ILIKE ?))`,
            pattern,
            pattern,
            pattern,
            pattern,
            pattern,
          ],
    filters: (query) => [
      query.channel !== undefined && ['l.channel = ?', query.channel],
      query.status !== undefined && ['l.status = ?', query.status],
      query.sellable_type !== undefined && [`l.${query.sellable_type}_id IS NOT NULL`],
      query.model_id !== undefined && [
        OF_MODEL_SQL('l', '?'),
        query.model_id,
        query.model_id,
        query.model_id,
      ],
    ],
  },
};

/** The listing in the list's shape. */
export const listingById = (db: Queryable, id: number): Promise<PtsListing> =>
  findItem(ptsListingListStore, db, id);

export const ptsListingStore: LifecycleStore<PtsListingStatus, PtsListingAction, never> = {
  lifecycle: ptsListingLifecycle,
  table: 'pts_listings',
  label: `${LISTING_SKU_SQL('pts_listings')} || ' on ' || channel`,
  writeEvents: timelineWriter('pts_listing_events', 'listing_id'),
};

/** Writes one event on a listing's timeline that is no step of its lifecycle (created, changed). */
export const writeListingEvent = (
  tx: Transaction,
  actor: Actor,
  listingId: number,
  type: string,
  data: Record<string, unknown>,
) =>
  tx.query(
    `INSERT INTO pts_listing_events (listing_id, actor_id, actor_name, type, data)
     VALUES ($1, $2, $3, $4, $5::jsonb)`,
    [listingId, actor.userId, actor.userName, type, JSON.stringify(data)],
  );

/**
 * Keeps live and sold out in step with the quantities, for the listings given: a live listing
 * with nothing remaining (and no backorder) is sold out, a sold-out one with units again is live.
 * Each move is a lifecycle step with its event and audit entry.
 */
export async function settleListings(
  tx: Transaction,
  { actor, meta }: Acting,
  ids: readonly number[],
): Promise<void> {
  if (ids.length === 0) return;
  const [moves] = await tx.query<{ sell_out: number[]; restock: number[] }>(
    `SELECT
       COALESCE(array_agg(id) FILTER (WHERE status = 'live' AND NOT allow_backorder
                AND qty_pushed - qty_reserved - qty_sold <= 0), '{}') AS sell_out,
       COALESCE(array_agg(id) FILTER (WHERE status = 'sold_out' AND (allow_backorder
                OR qty_pushed - qty_reserved - qty_sold > 0)), '{}') AS restock
     FROM pts_listings WHERE id = ANY ($1::bigint[]) AND status IN ('live', 'sold_out')`,
    [ids],
  );
  const data = { cause: 'quantity' };
  for (const action of ['sell_out', 'restock'] as const) {
    const moved = (moves?.[action] ?? []).map(Number);
    if (moved.length > 0) {
      await runTransitions(tx, ptsListingStore, {
        ids: moved,
        action,
        actor,
        meta,
        data,
        skipRefused: true,
      });
    }
  }
}

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

type Terms = {
  qty_pushed: number;
  committed: number;
  available: number;
  price_cents: number;
  floor_price_cents: number;
  allow_backorder: boolean;
};

/**
 * The rules a listing's terms follow (DOMAIN.md 4.5). `changed` says which terms the request
 * sets: a rule is checked when its terms change, so an edit of the dates of a listing a manager
 * put under its floor is not refused for it.
 */
function checkTerms(
  actor: Actor,
  terms: Terms,
  changed: { qty: boolean; price: boolean; backorderOn: boolean; backorderOff: boolean },
) {
  const subject = accessSubjectOf(actor);
  if (changed.backorderOn && !canAccess(subject, PTS_BACKORDER_ACCESS)) {
    throw new ForbiddenError(
      PTS_BACKORDER_ACCESS,
      'Pushing more than the stock (backorder) is a manager’s call.',
    );
  }
  if (changed.qty && terms.qty_pushed < terms.committed) {
    throw fieldError(
      'qty_pushed',
      `${terms.committed} ${terms.committed === 1 ? 'unit is' : 'units are'} reserved or sold: push at least ${terms.committed}.`,
    );
  }
  if (
    (changed.qty || changed.backorderOff) &&
    !terms.allow_backorder &&
    terms.qty_pushed > terms.available
  ) {
    throw fieldError(
      'qty_pushed',
      `Only ${terms.available} in stock match this sellable: push at most ${terms.available}, or allow backorder.`,
    );
  }
  if (
    changed.price &&
    terms.price_cents < terms.floor_price_cents &&
    !canAccess(subject, PRICE_UNDER_FLOOR_ACCESS)
  ) {
    throw new ForbiddenError(
      PRICE_UNDER_FLOOR_ACCESS,
      `The price ${dollars(terms.price_cents)} is under the floor ${dollars(terms.floor_price_cents)}.`,
    );
  }
}

const SELLABLE_TABLES: Record<SellableType, string> = {
  variant: 'product_variants',
  bundle: 'bundles',
  combo: 'combos',
};

/** A sellable's id by its type and SKU, and the stock it has now; a 422 on `sku` when none. */
async function sellableBySku(db: Queryable, type: SellableType, sku: string) {
  const [found] = await db.query<{ id: number }>(
    `SELECT id FROM ${SELLABLE_TABLES[type]} WHERE sku = $1`,
    [sku.toUpperCase()],
  );
  if (!found) throw fieldError('sku', `No ${type} has the SKU ${sku.toUpperCase()}.`);
  const ids = { variant: null, bundle: null, combo: null, [type]: found.id } as Record<
    SellableType,
    number | null
  >;
  const [stock] = await db.query<{ available: number }>(
    'SELECT pts_sellable_available($1, $2, $3)::int AS available',
    [ids.variant, ids.bundle, ids.combo],
  );
  return { ids, available: stock?.available ?? 0 };
}

const DATE_COLUMNS = {
  starts_at: (parameter: string) => `${parameter}::date::timestamptz`,
  ends_at: (parameter: string) => `(${parameter}::date + 1)::timestamptz`,
};

/** Creates a draft listing; the sellable and channel have no other open listing (409). */
export async function createListing(
  tx: Transaction,
  { actor, meta }: Acting,
  input: CreatePtsListingInput,
): Promise<PtsListing> {
  const { ids, available } = await sellableBySku(tx, input.sellable_type, input.sku);
  const terms = {
    qty_pushed: input.qty_pushed,
    committed: 0,
    available,
    price_cents: input.price_cents,
    floor_price_cents: input.floor_price_cents ?? 0,
    allow_backorder: input.allow_backorder ?? false,
  };
  checkTerms(actor, terms, {
    qty: true,
    price: true,
    backorderOn: terms.allow_backorder,
    backorderOff: false,
  });
  const [open] = await tx.query<{ id: number; status: string }>(
    `SELECT id, status FROM pts_listings
     WHERE COALESCE(variant_id, 0) = COALESCE($1::bigint, 0)
       AND COALESCE(bundle_id, 0) = COALESCE($2::bigint, 0)
       AND COALESCE(combo_id, 0) = COALESCE($3::bigint, 0)
       AND channel = $4 AND status <> 'ended'`,
    [ids.variant, ids.bundle, ids.combo, input.channel],
  );
  const taken = () =>
    new ConflictError(
      `${input.sku.toUpperCase()} is listed on the ${input.channel} channel already${open ? ` (listing ${open.id}, ${open.status.replace('_', ' ')})` : ''}: change that listing, or end it first.`,
    );
  if (open) throw taken();
  const [created] = await tx
    .query<{ id: number }>(
      `INSERT INTO pts_listings (variant_id, bundle_id, combo_id, channel, qty_pushed, price_cents,
         floor_price_cents, allow_backorder, starts_at, ends_at, visibility, created_by, updated_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, ${DATE_COLUMNS.starts_at('$9')},
         ${DATE_COLUMNS.ends_at('$10')}, $11, $12, $12)
       RETURNING id`,
      [
        ids.variant,
        ids.bundle,
        ids.combo,
        input.channel,
        terms.qty_pushed,
        terms.price_cents,
        terms.floor_price_cents,
        terms.allow_backorder,
        input.starts_on ?? null,
        input.ends_on ?? null,
        input.visibility ?? [],
        actor.userId,
      ],
    )
    .catch((error: unknown) => {
      // Two creations of the same listing at once: the partial unique index decides.
      if ((error as { code?: string }).code === '23505') throw taken();
      throw error;
    });
  const listing = await listingById(tx, created!.id);
  await writeListingEvent(tx, actor, listing.id, 'created', { channel: listing.channel });
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'pts_listing.created',
    entityType: 'pts_listing',
    entityId: listing.id,
    after: listing,
  });
  return listing;
}

type LockedListing = {
  status: PtsListingStatus;
  qty_pushed: number;
  committed: number;
  available: number;
  price_cents: number;
  floor_price_cents: number;
  allow_backorder: boolean;
};

/** The terms a changed listing keeps from before (the editable columns) for the audit. */
const TERMS_AUDITED = [
  'qty_pushed',
  'price_cents',
  'floor_price_cents',
  'allow_backorder',
  'starts_on',
  'ends_on',
  'visibility',
] as const;

/** Changes a listing's terms; an ended one is closed (409). */
export async function updateListing(
  tx: Transaction,
  context: Acting,
  id: number,
  input: UpdatePtsListingInput,
): Promise<PtsListing> {
  const { actor, meta } = context;
  const [locked] = await tx.query<LockedListing>(
    `SELECT status, qty_pushed, qty_reserved + qty_sold AS committed,
       ${AVAILABLE_SQL('l')}::int AS available, price_cents::int AS price_cents,
       floor_price_cents::int AS floor_price_cents, allow_backorder
     FROM pts_listings l WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (!locked) throw new NotFoundError(`There is no listing with id ${id}.`);
  if (locked.status === 'ended') throw new ConflictError('An ended listing cannot change.');
  const before = await listingById(tx, id);
  const terms = {
    qty_pushed: input.qty_pushed ?? locked.qty_pushed,
    committed: locked.committed,
    available: locked.available,
    price_cents: input.price_cents ?? locked.price_cents,
    floor_price_cents: input.floor_price_cents ?? locked.floor_price_cents,
    allow_backorder: input.allow_backorder ?? locked.allow_backorder,
  };
  checkTerms(actor, terms, {
    qty: terms.qty_pushed !== locked.qty_pushed,
    price:
      terms.price_cents !== locked.price_cents ||
      terms.floor_price_cents !== locked.floor_price_cents,
    backorderOn: terms.allow_backorder && !locked.allow_backorder,
    backorderOff: !terms.allow_backorder && locked.allow_backorder,
  });
  // Reservations made on backorder stay: turning it off must not leave more committed than pushed.
  if (!terms.allow_backorder && terms.committed > terms.qty_pushed) {
    throw fieldError(
      'allow_backorder',
      `${terms.committed} units are reserved or sold: push at least ${terms.committed} before turning backorder off.`,
    );
  }
  const starts = input.starts_on === undefined ? before.starts_on : input.starts_on;
  const ends = input.ends_on === undefined ? before.ends_on : input.ends_on;
  if (starts && ends && ends < starts) {
    throw fieldError('ends_on', 'The last day cannot be before the first.');
  }
  await tx.query(
    `UPDATE pts_listings SET qty_pushed = $2, price_cents = $3, floor_price_cents = $4,
       allow_backorder = $5, starts_at = ${DATE_COLUMNS.starts_at('$6')},
       ends_at = ${DATE_COLUMNS.ends_at('$7')}, visibility = $8, updated_at = now(), updated_by = $9
     WHERE id = $1`,
    [
      id,
      terms.qty_pushed,
      terms.price_cents,
      terms.floor_price_cents,
      terms.allow_backorder,
      starts,
      ends,
      input.visibility ?? before.visibility,
      actor.userId,
    ],
  );
  await settleListings(tx, context, [id]);
  const after = await listingById(tx, id);
  const changes = Object.fromEntries(
    TERMS_AUDITED.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key])).map(
      (key) => [key, { before: before[key], after: after[key] }],
    ),
  );
  await writeListingEvent(tx, actor, id, 'changed', changes);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'pts_listing.updated',
    entityType: 'pts_listing',
    entityId: id,
    before,
    after,
  });
  return after;
}

/** Runs a person's action on a listing; resuming or publishing what has nothing left sells it out. */
export async function runListingAction(
  tx: Transaction,
  context: Acting,
  id: number,
  action: ManualListingAction,
  reason: string | undefined,
): Promise<PtsListing> {
  await runTransition(tx, ptsListingStore, { id, action, ...context, reason });
  await settleListings(tx, context, [id]);
  return listingById(tx, id);
}

/** A listing's timeline, newest first. */
export async function listingEvents(db: Queryable, id: number): Promise<PtsListingEvent[]> {
  await listingById(db, id);
  return db.query<PtsListingEvent>(
    `SELECT id, ${isoTextSql('at')} AS at, actor_name, type, from_status, to_status, data
     FROM pts_listing_events WHERE listing_id = $1 ORDER BY id DESC LIMIT 200`,
    [id],
  );
}
