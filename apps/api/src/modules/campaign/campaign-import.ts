import {
  addressKey,
  campaignImport,
  campaignImportOptionsSchema,
  campaignRowSchema,
  type CampaignDemand,
  type CampaignImportSummary,
  type FieldErrors,
  type UsAddress,
} from '@inventory/contract';
import * as z from 'zod/mini';
import type { Queryable, Transaction } from '../../db/db.js';
import { fieldErrorsOf } from '../../http/endpoint.js';
import { ValidationError } from '../../http/errors.js';
import type { ImportStore, Prepared, WriteFieldsOf, WriteInput } from '../../toolkit/resource.js';
import type { Writer } from '../../toolkit/stores.js';
import { auditActor, recordAudit } from '../audit/index.js';
import { createOrder, serviceAddressProblems } from '../order/index.js';
import { availableStock, sellablesBySku, type SellableKind } from '../pts/index.js';

/**
 * The campaign file (`/order/express-orders/import-file-campaign`): the toolkit's upload, dry run
 * and commit, with the campaign's name, client carrier, programme and channel as the batch's
 * options. Every row is checked in a few statements whatever the file's size: the name, the
 * address by the order area's own ZIP/state check, the SKU on a live listing of the channel,
 * duplicates in the file (reference by the toolkit, subscriber and address here) and in the
 * system (the carrier's orders). The commit creates the campaign and one order per row through
 * the order intake, which validates each again and may hold it (stock, one benefit).
 */

type FileRow = WriteFieldsOf<typeof campaignRowSchema>;
type Options = z.output<typeof campaignImportOptionsSchema>;

/** A right row, as the commit makes its order. */
type CampaignRecord = {
  external_ref: string;
  first_name: string;
  last_name: string;
  line1: string;
  city: string;
  state: UsAddress['state'];
  zip: string;
  phone: string | null;
  sku: string;
  sellable_kind: SellableKind;
  sellable_id: number;
  sellable_name: string;
  listing_id: number;
  price_cents: number;
  listing_remaining: number | null;
  qty: number;
  notes: string | null;
};

/** The options as the check sent them or the batch kept them; a 422 on `options.*` otherwise. */
function optionsOf(options: unknown): Options {
  const parsed = z.safeParse(campaignImportOptionsSchema, options ?? {});
  if (!parsed.success) {
    const fields = fieldErrorsOf(parsed.error);
    throw new ValidationError(
      Object.fromEntries(Object.entries(fields).map(([field, m]) => [`options.${field}`, m])),
    );
  }
  return parsed.data;
}

async function checkCarrier(db: Queryable, carrierId: number) {
  const [carrier] = await db.query(
    `SELECT 1 FROM vendors WHERE id = $1 AND type = 'carrier-client' AND active`,
    [carrierId],
  );
  if (!carrier) {
    throw new ValidationError({
      'options.client_carrier_id': ['Choose an active client carrier.'],
    });
  }
}

/** The subscriber as the file names them: "first … last", upper case for comparing. */
const comparableName = (name: string) => name.trim().replace(/\s+/g, ' ').toUpperCase();

type Listing = {
  id: number;
  variant_id: number | null;
  bundle_id: number | null;
  combo_id: number | null;
  price_cents: number;
  remaining: number | null;
};

/** The live listings of the channel selling these sellables now, keyed `kind:id`. */
async function liveListings(db: Queryable, channel: string, refs: { kind: string; id: number }[]) {
  const idsOf = (kind: string) => refs.filter((ref) => ref.kind === kind).map((ref) => ref.id);
  const rows = await db.query<Listing>(
    `SELECT id::int AS id, variant_id::int AS variant_id, bundle_id::int AS bundle_id,
       combo_id::int AS combo_id, price_cents::int AS price_cents,
       CASE WHEN allow_backorder THEN NULL ELSE qty_pushed - qty_reserved - qty_sold END AS remaining
     FROM pts_listings
     WHERE channel = $1 AND status = 'live'
       AND (starts_at IS NULL OR starts_at <= now()) AND (ends_at IS NULL OR ends_at > now())
       AND (variant_id = ANY ($2::bigint[]) OR bundle_id = ANY ($3::bigint[])
         OR combo_id = ANY ($4::bigint[]))`,
    [channel, idsOf('variant'), idsOf('bundle'), idsOf('combo')],
  );
  return new Map(
    rows.map((row) => {
      const key =
        row.variant_id !== null
          ? `variant:${row.variant_id}`
          : row.bundle_id !== null
            ? `bundle:${row.bundle_id}`
            : `combo:${row.combo_id}`;
      return [key, row] as const;
    }),
  );
}

/** The carrier's orders already holding these references, and subscribers at these addresses. */
async function existingOrders(
  db: Queryable,
  carrierId: number,
  refs: readonly string[],
  addressKeys: readonly string[],
) {
  const [byRef, byAddress] = await Promise.all([
    db.query<{ external_ref: string; number: string }>(
      `SELECT external_ref, number FROM orders
       WHERE client_carrier_id = $1 AND external_ref = ANY ($2::text[])`,
      [carrierId, refs],
    ),
    db.query<{ key: string; number: string }>(
      `SELECT s.service_address_key || '|' ||
           upper(regexp_replace(trim(s.first_name || ' ' || s.last_name), '\\s+', ' ', 'g')) AS key,
         min(o.number) AS number
       FROM subscribers s JOIN orders o ON o.subscriber_id = s.id
       WHERE s.client_carrier_id = $1 AND s.service_address_key = ANY ($2::text[])
         AND o.client_carrier_id = $1 AND o.status NOT IN ('cancelled', 'closed')
       GROUP BY 1`,
      [carrierId, addressKeys],
    ),
  ]);
  return {
    byRef: new Map(byRef.map((row) => [row.external_ref, row.number])),
    byAddress: new Map(byAddress.map((row) => [row.key, row.number])),
  };
}

/** Checks every row as the commit will, in four statements whatever the file's size. */
async function prepareRows(
  inputs: readonly WriteInput<FileRow>[],
  db: Queryable,
  rawOptions: unknown,
): Promise<Prepared[]> {
  const options = optionsOf(rawOptions);
  await checkCarrier(db, options.client_carrier_id);
  const sellables = await sellablesBySku(
    db,
    inputs.map(({ input }) => input.sku ?? ''),
  );
  const listings = await liveListings(db, options.channel, [...sellables.values()]);
  const keyOf = (input: FileRow) =>
    addressKey({ line1: input.address ?? '', line2: null, zip: input.zip ?? '' });
  const existing = await existingOrders(
    db,
    options.client_carrier_id,
    inputs.map(({ input }) => input.external_ref ?? ''),
    inputs.map(({ input }) => keyOf(input)),
  );
  const firstOfSubscriber = new Map<string, string>();

  return inputs.map(({ input }): Prepared => {
    const errors: FieldErrors = {};
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    const name = comparableName(input.name ?? '');
    const words = (input.name ?? '').trim().split(/\s+/);
    if (words.length < 2) add('name', 'Write the first and last name.');

    const address = {
      line1: input.address ?? '',
      line2: null,
      city: input.city ?? '',
      state: input.state!,
      zip: input.zip ?? '',
    };
    for (const [field, messages] of Object.entries(serviceAddressProblems(address))) {
      for (const message of messages) add(field === 'line1' ? 'address' : field, message);
    }

    const sku = (input.sku ?? '').trim().toUpperCase();
    const sellable = sellables.get(sku);
    const listing = sellable && listings.get(`${sellable.kind}:${sellable.id}`);
    if (!sellable) add('sku', `There is no product, bundle or combo with SKU ${sku}.`);
    else if (!listing) {
      add('sku', `${sku} has no live listing on the ${options.channel} channel.`);
    }

    const ref = input.external_ref ?? '';
    const known = existing.byRef.get(ref);
    if (known) add('external_ref', `The carrier's order ${ref} is received already: ${known}.`);
    const subscriberKey = `${keyOf(input)}|${name}`;
    const open = existing.byAddress.get(subscriberKey);
    if (open) add('name', `${input.name} at this address has an open order already: ${open}.`);
    const earlier = firstOfSubscriber.get(subscriberKey);
    if (earlier !== undefined) {
      add('name', `Same subscriber and address as the row with reference ${earlier}.`);
    } else firstOfSubscriber.set(subscriberKey, ref);

    if (Object.keys(errors).length > 0 || !sellable || !listing) return { errors };
    const record: CampaignRecord = {
      external_ref: ref,
      first_name: words.slice(0, -1).join(' '),
      last_name: words.at(-1)!,
      line1: address.line1,
      city: address.city,
      state: address.state,
      zip: address.zip,
      phone: input.phone ?? null,
      sku: sellable.sku,
      sellable_kind: sellable.kind,
      sellable_id: sellable.id,
      sellable_name: sellable.name,
      listing_id: listing.id,
      price_cents: listing.price_cents,
      listing_remaining: listing.remaining,
      qty: input.qty!,
      notes: input.notes ?? null,
    };
    return { values: record };
  });
}

/** The right rows' demand per SKU against the listing's remaining units and the stock. */
async function summarize(
  records: readonly Record<string, unknown>[],
  db: Queryable,
): Promise<CampaignImportSummary> {
  const rows = records as unknown as CampaignRecord[];
  const bySku = new Map<string, { first: CampaignRecord; rows: number; units: number }>();
  for (const row of rows) {
    const entry = bySku.get(row.sku) ?? { first: row, rows: 0, units: 0 };
    entry.rows += 1;
    entry.units += row.qty;
    bySku.set(row.sku, entry);
  }
  const stock = await availableStock(
    db,
    [...bySku.values()].map(({ first }) => ({ kind: first.sellable_kind, id: first.sellable_id })),
  );
  const demand: CampaignDemand[] = [...bySku.values()]
    .map(({ first, rows: count, units }) => {
      const inStock = stock.get(`${first.sellable_kind}:${first.sellable_id}`) ?? 0;
      const can = Math.min(first.listing_remaining ?? Number.POSITIVE_INFINITY, inStock);
      return {
        sku: first.sku,
        name: first.sellable_name,
        listing_id: first.listing_id,
        price_cents: first.price_cents,
        rows: count,
        units,
        listing_remaining: first.listing_remaining,
        stock: inStock,
        short: Math.max(units - Math.max(can, 0), 0),
      };
    })
    .sort((a, b) => b.short - a.short || a.sku.localeCompare(b.sku));
  return {
    demand,
    units: rows.reduce((sum, row) => sum + row.qty, 0),
    total_cents: rows.reduce((sum, row) => sum + row.qty * row.price_cents, 0),
  };
}

/** The campaign and one order per right row, in the commit's transaction. */
async function writeCampaign(
  records: readonly Record<string, unknown>[],
  tx: Transaction,
  writer: Writer,
  rawOptions: unknown,
  batch: { readonly id: number; readonly fileName: string },
) {
  const options = optionsOf(rawOptions);
  const [campaign] = await tx.query<{ id: number }>(
    `INSERT INTO campaigns (name, client_carrier_id, program, fulfilment_type, channel,
       import_batch_id, order_count, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id::int AS id`,
    [
      options.name,
      options.client_carrier_id,
      options.program,
      options.fulfilment_type,
      options.channel,
      batch.id,
      records.length,
      writer.actor.userId,
    ],
  );
  const held: string[] = [];
  for (const row of records as unknown as CampaignRecord[]) {
    const name = `${row.first_name} ${row.last_name}`;
    const address = {
      line1: row.line1,
      line2: null,
      city: row.city,
      state: row.state,
      zip: row.zip,
    };
    const order = await createOrder(tx, writer, {
      source: 'campaign',
      fulfilmentType: options.fulfilment_type,
      clientCarrierId: options.client_carrier_id,
      program: options.program,
      customer: {
        subscriber: {
          externalId: row.external_ref,
          firstName: row.first_name,
          lastName: row.last_name,
          phone: row.phone,
          serviceAddress: address,
        },
      },
      shipTo: { ...address, name, company: null, phone: row.phone },
      externalRef: row.external_ref,
      campaignId: campaign!.id,
      notes: row.notes,
      lines: [
        {
          sellable: { kind: row.sellable_kind, id: row.sellable_id },
          listingId: row.listing_id,
          qty: row.qty,
          unitPriceCents: row.price_cents,
        },
      ],
    });
    if (order.status === 'on_hold') held.push(order.number);
  }
  await recordAudit(tx, {
    ...auditActor(writer.actor, writer.meta),
    action: 'campaign.created',
    entityType: 'campaign',
    entityId: campaign!.id,
    after: {
      name: options.name,
      client_carrier_id: options.client_carrier_id,
      program: options.program,
      channel: options.channel,
      file: batch.fileName,
      orders: records.length,
      on_hold: held.length,
    },
  });
  return { created: records.length, updated: 0 };
}

export const campaignImportStore: ImportStore<typeof campaignRowSchema> = {
  contract: campaignImport,
  table: 'orders',
  entity: 'campaign',
  imports: {
    rowSchema: campaignRowSchema,
    withOptions: { prepare: prepareRows, summarize },
    writer: {
      // A reference twice in a file is the toolkit's "Repeats row N".
      fields: ['external_ref'],
      countExisting: async () => 0,
      write: writeCampaign,
    },
  },
};
