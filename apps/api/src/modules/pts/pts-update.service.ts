import {
  canAccess,
  PRICE_UNDER_FLOOR_ACCESS,
  PTS_PREVIEW_ROWS,
  type PtsListingAction,
  type PtsPreview,
  type PtsUpdateBatch,
  type PtsUpdateBatchDetail,
  type ptsApplySchema,
  type ptsUpdateFilterSchema,
  type ptsUpdateRequestSchema,
} from '@inventory/contract';
import type * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { fieldError, NotFoundError } from '../../http/errors.js';
import { accessSubjectOf, type Acting, type Actor } from '../../http/principal.js';
import { isoTextSql } from '../../http/sql.js';
import { runTransitions } from '../../toolkit/lifecycle.js';
import { auditActor, recordAudit } from '../audit/index.js';
import {
  AVAILABLE_SQL,
  LISTING_SKU_SQL,
  OF_MODEL_SQL,
  settleListings,
  ptsListingStore,
} from './listings.service.js';

/**
 * The bulk push-to-sale update (DOMAIN.md 4.5). A change is one statement over every listing it
 * touches, whatever their number: the listings are chosen and locked in id order, the new
 * quantity, price and status computed, each row checked by the listing rules in SQL, and then
 * written with the batch's log. The preview is the same statement without the writes. A file of
 * changes (`pts-update-import.ts`) goes through the same statement.
 */

type Filter = z.output<typeof ptsUpdateFilterSchema>;
type BulkRequest = z.output<typeof ptsUpdateRequestSchema>;

/** What a change does to the listings it chose, as SQL over the locked rows (`k`). */
export type ChangeSql = {
  /** Joins and conditions that choose the listings from `pts_listings l`, with their params. */
  readonly from: string;
  readonly where: string;
  readonly params: unknown[];
  /** Columns of the chosen rows carried to the computations (a file's values). */
  readonly carried?: string;
  /** The stock to show and check, or NULL when the change does not need it. */
  readonly available: string;
  readonly qty: string;
  readonly price: string;
  /** The status asked for; the quantities then decide between live and sold out. */
  readonly status: string;
  /** Why the asked-for status cannot be reached, or NULL. */
  readonly statusError?: string;
};

/**
 * The checked changes as CTEs `locked`, `proposed` and `checked`: per listing its values before
 * and after, and the first rule it breaks (`error`, `error_field`). Rules: not below reserved +
 * sold; above the stock only on backorder; not under the floor without price.management.
 */
function checkedChanges(change: ChangeSql, underFloor: boolean, lock: boolean) {
  const n = change.params.length;
  const sql = `
    locked AS (
      SELECT l.id, l.variant_id, l.bundle_id, l.combo_id, l.channel, l.qty_pushed,
        l.qty_reserved + l.qty_sold AS committed, l.price_cents, l.floor_price_cents,
        l.allow_backorder, l.status${change.carried ? `, ${change.carried}` : ''}
      FROM pts_listings l ${change.from}
      WHERE l.status <> 'ended' AND ${change.where}
      ORDER BY l.id ${lock ? 'FOR UPDATE OF l' : ''}),
    computed AS (
      SELECT k.*, (${change.available})::bigint AS available FROM locked k),
    proposed AS (
      SELECT k.*, (${change.qty})::int AS qty_after, (${change.price})::bigint AS price_after,
        (${change.status}) AS asked_status, (${change.statusError ?? 'NULL::text'}) AS status_error
      FROM computed k),
    settled AS (
      SELECT p.*, CASE
          WHEN p.asked_status = 'live' AND NOT p.allow_backorder
               AND p.qty_after - p.committed <= 0 THEN 'sold_out'
          WHEN p.asked_status = 'sold_out'
               AND (p.allow_backorder OR p.qty_after - p.committed > 0) THEN 'live'
          ELSE p.asked_status END AS status_after
      FROM proposed p),
    checked AS (
      SELECT s.*,
        (s.qty_after <> s.qty_pushed OR s.price_after <> s.price_cents
         OR s.status_after <> s.status) AS changed,
        CASE
          WHEN s.status_error IS NOT NULL THEN s.status_error
          WHEN s.qty_after < s.committed THEN
            s.committed || ' reserved or sold: the quantity cannot go below ' || s.committed || '.'
          WHEN s.qty_after > s.qty_pushed AND s.qty_after > s.available AND NOT s.allow_backorder
            THEN 'Only ' || s.available || ' in stock: pushing ' || s.qty_after
                 || ' needs backorder allowed on the listing.'
          WHEN s.price_after < 0 THEN 'The price cannot go below $0.00.'
          WHEN s.price_after <> s.price_cents AND s.price_after < s.floor_price_cents
               AND NOT $${n + 1}::boolean
            THEN to_char(s.price_after / 100.0, 'FM$999999990.00') || ' is under the floor '
                 || to_char(s.floor_price_cents / 100.0, 'FM$999999990.00')
                 || ': that needs price.management.'
        END AS error,
        CASE
          WHEN s.status_error IS NOT NULL THEN 'status'
          WHEN s.qty_after < s.committed
               OR (s.qty_after > s.qty_pushed AND s.qty_after > s.available
                   AND NOT s.allow_backorder) THEN 'qty_pushed'
          ELSE 'price' END AS error_field
      FROM settled s)`;
  return { sql, params: [...change.params, underFloor] };
}

const ROW_JSON = `json_build_object('listing_id', c.id, 'sku', ${LISTING_SKU_SQL('c')}, 'channel', c.channel,
  'available', c.available, 'committed', c.committed,
  'before', json_build_object('qty_pushed', c.qty_pushed, 'price_cents', c.price_cents,
    'status', c.status),
  'after', json_build_object('qty_pushed', c.qty_after, 'price_cents', c.price_after,
    'status', c.status_after),
  'error', c.error)`;

const mayGoUnderFloor = (actor: Actor) =>
  canAccess(accessSubjectOf(actor), PRICE_UNDER_FLOOR_ACCESS);

/** The before and after of a change: counts over every listing, the first rows in detail. */
export async function previewChange(
  db: Queryable,
  actor: Actor,
  change: ChangeSql,
  lock = false,
): Promise<PtsPreview> {
  const checked = checkedChanges(change, mayGoUnderFloor(actor), lock);
  const [preview] = await db.query<PtsPreview>(
    `WITH ${checked.sql}
     SELECT count(*)::int AS matched,
       count(*) FILTER (WHERE error IS NULL AND changed)::int AS changed,
       count(*) FILTER (WHERE error IS NULL AND NOT changed)::int AS unchanged,
       count(*) FILTER (WHERE error IS NOT NULL)::int AS errors,
       (SELECT COALESCE(json_agg(r.row ORDER BY r.in_error DESC, r.id), '[]')
        FROM (SELECT ${ROW_JSON} AS row, c.error IS NOT NULL AS in_error, c.id FROM checked c
              WHERE c.error IS NOT NULL OR c.changed
              ORDER BY c.error IS NOT NULL DESC, c.id LIMIT ${PTS_PREVIEW_ROWS}) r) AS rows
     FROM checked`,
    checked.params,
  );
  return preview!;
}

/**
 * The rows in error of a change, each with its listing and the field at fault (`qty_pushed`,
 * `price`, `status`), for a file's dry run.
 */
export async function checkedRowErrors(db: Queryable, change: ChangeSql, underFloor: boolean) {
  const checked = checkedChanges(change, underFloor, false);
  return db.query<{ id: number; error: string; error_field: string }>(
    `WITH ${checked.sql} SELECT id, error, error_field FROM checked WHERE error IS NOT NULL`,
    checked.params,
  );
}

/** The lifecycle action that takes a listing from one status to the one asked for. */
const ACTION_TO: Record<string, PtsListingAction | undefined> = {
  'draft>live': 'publish',
  'paused>live': 'resume',
  'live>paused': 'pause',
  'sold_out>paused': 'pause',
  'draft>ended': 'end',
  'live>ended': 'end',
  'paused>ended': 'end',
  'sold_out>ended': 'end',
};

/**
 * Applies a change in the caller's transaction: one statement locks and checks every listing,
 * writes the quantities and prices, and logs the batch with each listing before and after; the
 * status moves run as lifecycle steps (events and audit entries, a few statements for all).
 * Rows in error refuse the whole change (422) unless `skipErrors`; nothing changed is a 422 too.
 */
export async function applyChange(
  tx: Transaction,
  context: Acting,
  change: ChangeSql,
  log: { source: 'bulk' | 'file'; request: unknown; summary: string; skipErrors: boolean },
): Promise<PtsUpdateBatch> {
  const { actor, meta } = context;
  const checked = checkedChanges(change, mayGoUnderFloor(actor), true);
  const n = checked.params.length;
  const [result] = await tx.query<{
    batch_id: number | null;
    errors: number;
    first_error: string | null;
    moves: [number, string, string][] | null;
  }>(
    `WITH ${checked.sql},
     chosen AS (
       SELECT * FROM checked WHERE changed AND error IS NULL
         AND ($${n + 1}::boolean OR NOT EXISTS (SELECT 1 FROM checked WHERE error IS NOT NULL))),
     batch AS (
       INSERT INTO pts_update_batches (source, request, summary, listing_count, created_by)
       SELECT $${n + 2}, $${n + 3}::jsonb, $${n + 4}, count(*), $${n + 5} FROM chosen
       HAVING count(*) > 0
       RETURNING id),
     written AS (
       UPDATE pts_listings l SET qty_pushed = c.qty_after, price_cents = c.price_after,
         updated_at = now(), updated_by = $${n + 5}
       FROM chosen c
       WHERE l.id = c.id AND (c.qty_after <> c.qty_pushed OR c.price_after <> c.price_cents)
       RETURNING l.id),
     logged AS (
       INSERT INTO pts_update_batch_rows (batch_id, listing_id, qty_before, qty_after,
         price_before_cents, price_after_cents, status_before, status_after)
       SELECT b.id, c.id, c.qty_pushed, c.qty_after, c.price_cents, c.price_after, c.status,
         c.status_after
       FROM chosen c CROSS JOIN batch b
       RETURNING listing_id)
     SELECT (SELECT id FROM batch) AS batch_id,
       (SELECT count(*) FROM checked WHERE error IS NOT NULL)::int AS errors,
       (SELECT ${LISTING_SKU_SQL('c')} || ' on ' || c.channel || ': ' || c.error FROM checked c
        WHERE c.error IS NOT NULL ORDER BY c.id LIMIT 1) AS first_error,
       (SELECT json_agg(json_build_array(c.id, c.status, c.asked_status)) FROM chosen c
        WHERE c.asked_status <> c.status) AS moves`,
    [
      ...checked.params,
      log.skipErrors,
      log.source,
      JSON.stringify(log.request),
      log.summary,
      actor.userId,
    ],
  );
  if (result!.errors > 0 && !log.skipErrors) {
    throw fieldError(
      'listings',
      `${result!.errors} ${result!.errors === 1 ? 'listing cannot' : 'listings cannot'} take this change (${result!.first_error}): nothing was changed. Narrow the choice or skip them.`,
    );
  }
  const batchId = result!.batch_id;
  if (batchId === null) {
    throw fieldError('listings', 'None of the chosen listings would change: nothing to apply.');
  }
  const byAction = new Map<PtsListingAction, number[]>();
  for (const [id, from, to] of result!.moves ?? []) {
    const action = ACTION_TO[`${from}>${to}`];
    if (action) byAction.set(action, [...(byAction.get(action) ?? []), Number(id)]);
  }
  for (const [action, ids] of byAction) {
    await runTransitions(tx, ptsListingStore, {
      ids,
      action,
      actor,
      meta,
      data: { batch: batchId },
    });
  }
  await settleListings(
    tx,
    context,
    (
      await tx.query<{ listing_id: number }>(
        'SELECT listing_id FROM pts_update_batch_rows WHERE batch_id = $1',
        [batchId],
      )
    ).map((row) => Number(row.listing_id)),
  );
  const batch = await batchById(tx, batchId);
  await recordAudit(tx, {
    ...auditActor(actor, meta),
    action: 'pts_update.applied',
    entityType: 'pts_update_batch',
    entityId: batchId,
    after: { source: log.source, summary: log.summary, listings: batch.listing_count },
  });
  return batch;
}

/** The bulk request as a change: the filter's listings, the operation's new values. */
export function bulkChange(request: BulkRequest): ChangeSql {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (value: unknown) => `$${params.push(value)}`;
  const { filter } = request as { filter: Filter };
  if (filter.channel) conditions.push(`l.channel = ${add(filter.channel)}`);
  if (filter.status) conditions.push(`l.status = ${add(filter.status)}`);
  if (filter.sellable_type) conditions.push(`l.${filter.sellable_type}_id IS NOT NULL`);
  if (filter.model_id !== undefined) {
    conditions.push(OF_MODEL_SQL('l', `${add(filter.model_id)}::bigint`));
  }
  if (filter.listing_ids) conditions.push(`l.id = ANY (${add(filter.listing_ids)}::bigint[])`);
  // The value is a parameter only of the operations that read it: an unused one has no type.
  const v = () => add(request.value ?? 0);
  const keep = { qty: 'k.qty_pushed', price: 'k.price_cents', status: 'k.status' };
  const op = (() => {
    switch (request.operation) {
      case 'qty_percent':
        return { ...keep, qty: `floor(k.available * ${v()}::numeric / 100)` };
      case 'price_percent':
        return { ...keep, price: `round(k.price_cents * (100 + ${v()}::numeric) / 100)` };
      case 'price_amount':
        return { ...keep, price: `k.price_cents + ${v()}::bigint` };
      case 'price_set':
        return { ...keep, price: `${v()}::bigint` };
      case 'pause':
        return {
          ...keep,
          status: `CASE WHEN k.status IN ('live', 'sold_out') THEN 'paused' ELSE k.status END`,
        };
      case 'resume':
        return { ...keep, status: `CASE WHEN k.status = 'paused' THEN 'live' ELSE k.status END` };
    }
  })();
  return {
    from: '',
    where: conditions.length > 0 ? conditions.join(' AND ') : 'true',
    params,
    available: request.operation === 'qty_percent' ? AVAILABLE_SQL('k') : 'NULL::bigint',
    ...op,
  };
}

const money = (cents: number) => `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toFixed(2)}`;

/** The change in words, for the log: "Price -10 % (web, live)". */
export function bulkSummary(request: BulkRequest): string {
  const value = request.value ?? 0;
  const what = {
    qty_percent: `Quantity = ${value} % of available`,
    price_percent: `Price ${value >= 0 ? '+' : ''}${value} %`,
    price_amount: `Price ${value >= 0 ? '+' : ''}${money(value)}`,
    price_set: `Price = ${money(value)}`,
    pause: 'Pause',
    resume: 'Resume',
  }[request.operation];
  const { filter } = request as { filter: Filter };
  const scope = [
    filter.model_id !== undefined && `model ${filter.model_id}`,
    filter.channel,
    filter.status?.replace('_', ' '),
    filter.sellable_type && `${filter.sellable_type}s`,
    filter.listing_ids && `${filter.listing_ids.length} listings chosen`,
  ].filter(Boolean);
  return `${what}${scope.length > 0 ? ` (${scope.join(', ')})` : ' (all open listings)'}`;
}

export const applyBulkChange = (
  tx: Transaction,
  context: Acting,
  request: z.output<typeof ptsApplySchema>,
) =>
  applyChange(tx, context, bulkChange(request), {
    source: 'bulk',
    request: { filter: request.filter, operation: request.operation, value: request.value },
    summary: bulkSummary(request),
    skipErrors: request.skip_errors,
  });

const BATCH_COLUMNS = `b.id, b.source, b.summary, b.listing_count,
  ${isoTextSql('b.created_at')} AS created_at, u.name AS created_by_name`;

async function batchById(db: Queryable, id: number): Promise<PtsUpdateBatch> {
  const [batch] = await db.query<PtsUpdateBatch>(
    `SELECT ${BATCH_COLUMNS} FROM pts_update_batches b LEFT JOIN users u ON u.id = b.created_by
     WHERE b.id = $1`,
    [id],
  );
  if (!batch) throw new NotFoundError(`There is no applied change ${id}.`);
  return batch;
}

/** The last 100 applied changes, newest first. */
export const listBatches = (db: Queryable) =>
  db.query<PtsUpdateBatch>(
    `SELECT ${BATCH_COLUMNS} FROM pts_update_batches b LEFT JOIN users u ON u.id = b.created_by
     ORDER BY b.created_at DESC, b.id DESC LIMIT 100`,
  );

/** One applied change with its first 1000 listings before and after. */
export async function batchDetail(db: Queryable, id: number): Promise<PtsUpdateBatchDetail> {
  const batch = await batchById(db, id);
  const rows = await db.query<PtsUpdateBatchDetail['rows'][number]>(
    `SELECT r.listing_id, ${LISTING_SKU_SQL('l')} AS sku, l.channel,
       json_build_object('qty_pushed', r.qty_before, 'price_cents', r.price_before_cents,
         'status', r.status_before) AS before,
       json_build_object('qty_pushed', r.qty_after, 'price_cents', r.price_after_cents,
         'status', r.status_after) AS after
     FROM pts_update_batch_rows r JOIN pts_listings l ON l.id = r.listing_id
     WHERE r.batch_id = $1 ORDER BY r.listing_id LIMIT 1000`,
    [id],
  );
  return { batch, rows };
}
