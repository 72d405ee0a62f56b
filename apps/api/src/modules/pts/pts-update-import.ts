import { ptsListingImport, ptsListingImportRowSchema, type FieldErrors } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import type { ImportStore, Prepared, WriteFieldsOf, WriteInput } from '../../toolkit/resource.js';
import { AVAILABLE_SQL } from './listings.service.js';
import { applyChange, checkedRowErrors, type ChangeSql } from './pts-update.service.js';

/**
 * The file of listing changes (`/push-to-sale/update`, "Import a file"): the toolkit's upload, dry
 * run and commit, with the rows resolved and checked in a few statements whatever the file's size
 * and written by the bulk update's one statement, logged as a batch with each listing before and
 * after. The dry run cannot know who commits, so the floor price is checked at the commit (a
 * price under the floor without price.management refuses it, naming the row).
 */

type FileRow = WriteFieldsOf<typeof ptsListingImportRowSchema>;

/** A checked row: the listing and the values it sets (null keeps the listing's). */
type ListingChange = {
  listing_id: number;
  qty_pushed: number | null;
  price_cents: number | null;
  status: string | null;
};

/** The file's rows as a change of the bulk update. */
export function fileChange(changes: readonly Record<string, unknown>[]): ChangeSql {
  return {
    from: `JOIN json_to_recordset($1::json)
             AS f (listing_id bigint, qty_pushed int, price_cents bigint, status text)
             ON f.listing_id = l.id`,
    where: 'true',
    params: [JSON.stringify(changes)],
    carried: 'f.qty_pushed AS file_qty, f.price_cents AS file_price, f.status AS file_status',
    // Stock is counted only where the quantity goes up: the only rows it can refuse.
    available: `CASE WHEN k.file_qty > k.qty_pushed THEN ${AVAILABLE_SQL('k')} END`,
    qty: 'COALESCE(k.file_qty, k.qty_pushed)',
    price: 'COALESCE(k.file_price, k.price_cents)',
    status: `CASE k.file_status
        WHEN 'live' THEN CASE WHEN k.status IN ('draft', 'paused') THEN 'live' ELSE k.status END
        WHEN 'paused' THEN CASE WHEN k.status IN ('live', 'sold_out') THEN 'paused' ELSE k.status END
        WHEN 'ended' THEN 'ended'
        ELSE k.status END`,
    statusError: `CASE WHEN k.file_status = 'paused' AND k.status = 'draft'
        THEN 'A draft listing cannot pause: publish it or end it.' END`,
  };
}

type Resolved = {
  n: number;
  id: number | null;
  status: string | null;
  matches: number[] | null;
};

/** Every row's listing, by id or by SKU and channel, in one statement. */
const resolveListings = (
  db: Queryable,
  rows: { n: number; listing_id: number | null; sku: string | null; channel: string | null }[],
) =>
  db.query<Resolved>(
    `SELECT r.n, l.id, l.status,
       CASE WHEN r.listing_id IS NULL THEN (
         SELECT array_agg(o.id ORDER BY o.id) FROM pts_listings o
         WHERE o.channel = r.channel AND o.status <> 'ended'
           AND (o.variant_id IN (SELECT id FROM product_variants WHERE sku = upper(r.sku))
             OR o.bundle_id IN (SELECT id FROM bundles WHERE sku = upper(r.sku))
             OR o.combo_id IN (SELECT id FROM combos WHERE sku = upper(r.sku)))) END AS matches
     FROM json_to_recordset($1::json) AS r (n int, listing_id bigint, sku text, channel text)
     LEFT JOIN pts_listings l ON l.id = r.listing_id
     ORDER BY r.n`,
    [JSON.stringify(rows)],
  );

/** Resolves each row's listing and checks it by the listing rules, as the commit will. */
async function prepareChanges(
  inputs: readonly WriteInput<FileRow>[],
  db: Queryable,
): Promise<Prepared[]> {
  const rows = inputs.map(({ input }, n) => ({
    n,
    listing_id: input.listing_id ?? null,
    sku: input.sku ?? null,
    channel: input.channel ?? null,
  }));
  const resolved = await resolveListings(db, rows);
  const errors: FieldErrors[] = inputs.map(() => ({}));
  const changes: (ListingChange | null)[] = resolved.map((found) => {
    const { input } = inputs[found.n]!;
    const fail = (field: string, message: string) => {
      errors[found.n] = { [field]: [message] };
      return null;
    };
    let id: number;
    if (input.listing_id !== undefined) {
      if (found.id === null) return fail('listing_id', `There is no listing ${input.listing_id}.`);
      if (found.status === 'ended') {
        return fail('listing_id', `Listing ${input.listing_id} has ended: it cannot change.`);
      }
      id = Number(found.id);
    } else {
      const matches = found.matches ?? [];
      const where = `${input.sku!.toUpperCase()} on the ${input.channel} channel`;
      if (matches.length === 0) return fail('sku', `No open listing of ${where}.`);
      if (matches.length > 1) {
        return fail('sku', `${where} names more than one listing: give the listing ID.`);
      }
      id = Number(matches[0]);
    }
    return {
      listing_id: id,
      qty_pushed: input.qty_pushed ?? null,
      price_cents: input.price === undefined ? null : Math.round(input.price * 100),
      status: input.status ?? null,
    };
  });
  const valid = changes.filter((change): change is ListingChange => change !== null);
  // The dry run lets a price under the floor pass: the commit checks it with the committer's rights.
  const refused = await checkedRowErrors(db, fileChange(valid), true);
  const byListing = new Map(refused.map((row) => [Number(row.id), row]));
  return changes.map((change, n) => {
    if (!change) return { errors: errors[n]! };
    const refusal = byListing.get(change.listing_id);
    if (refusal) {
      return { errors: { [refusal.error_field]: [refusal.error] } };
    }
    return { values: change };
  });
}

export const ptsListingImportStore: ImportStore<typeof ptsListingImportRowSchema> = {
  contract: ptsListingImport,
  table: 'pts_listings',
  entity: 'pts_listing',
  prepare: prepareChanges,
  imports: {
    rowSchema: ptsListingImportRowSchema,
    writer: {
      fields: ['listing_id'],
      countExisting: async (records) => records.length,
      write: async (records, tx, { actor, meta }) => {
        const batch = await applyChange(tx, { actor, meta }, fileChange(records), {
          source: 'file',
          request: { rows: records.length },
          summary: `From a file: ${records.length} ${records.length === 1 ? 'row' : 'rows'}`,
          skipErrors: false,
        });
        return { created: 0, updated: batch.listing_count };
      },
    },
  },
};
