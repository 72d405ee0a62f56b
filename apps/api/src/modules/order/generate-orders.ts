import type { Queryable } from '../../db/db.js';
import { generatedPlaceSql } from '../retail/index.js';

export type GenerateOrdersOptions = {
  /** Orders spread over the year before the anchor. */
  readonly orders: number;
  /** The newest order's day; by default today at 00:00 UTC. */
  readonly anchor?: Date;
};

export type GenerateOrdersSummary = { readonly orders: number; readonly subscribers: number };

/** Orders per statement: the day-count trigger reads each statement's rows as one set. */
const CHUNK = 50_000;

/**
 * A year of orders for the data generator (npm run db:generate), after the catalogue and the
 * retailers: six in ten from the carriers' API (a subscriber each, Lifeline mostly), campaigns,
 * web and retailer orders, support orders and accepted offers; the older ones delivered (some
 * cancelled, returned or lost), the last ten days spread over the open statuses with a backlog on
 * hold. Each has its ship-to, one line of a listed variant, and its receipt on the timeline; the
 * listings' reserved and sold quantities are then set from the lines. Written through the tables'
 * own triggers (numbers, business days, the daily report's counts). Set-based, in chunks.
 */
export async function generateOrders(
  db: Queryable,
  options: GenerateOrdersOptions,
): Promise<GenerateOrdersSummary> {
  const total = Math.max(0, Math.floor(options.orders));
  const [ready] = await db.query<{ carriers: number[]; retailers: number; variants: number }>(
    `SELECT ARRAY(SELECT id FROM vendors WHERE type = 'carrier-client' AND active ORDER BY id)
         AS carriers,
       (SELECT count(*)::int FROM retailers) AS retailers,
       (SELECT count(*)::int FROM product_variants) AS variants`,
  );
  if (total === 0 || ready!.carriers.length === 0 || ready!.retailers === 0 || !ready!.variants) {
    return { orders: 0, subscribers: 0 };
  }
  const anchorDate = options.anchor ?? new Date(new Date().toISOString().slice(0, 10));
  const [admin] = await db.query<{ id: number }>('SELECT min(id) AS id FROM users');
  const place = generatedPlaceSql('g');
  for (let first = 0; first < total; first += CHUNK) {
    const last = Math.min(total, first + CHUNK) - 1;
    await db.query(
      `WITH gen AS (
         SELECT g,
           $3::timestamptz - interval '365 days' * ($4::int - g) / $4::int
             + ((g * 7919) % 36000) * interval '1 second' AS at,
           CASE WHEN g % 20 < 12 THEN 'carrier_api' WHEN g % 20 < 15 THEN 'campaign'
             WHEN g % 20 < 17 THEN 'web' WHEN g % 20 = 17 THEN 'retailer'
             WHEN g % 20 = 18 THEN 'support' ELSE 'offer' END AS source,
           (g * 37 + g / 100) % 100 AS r
         FROM generate_series($1::int, $2::int) AS g),
       typed AS (
         SELECT gen.*, extract(day FROM $3::timestamptz - at) AS age,
           CASE source
             WHEN 'carrier_api' THEN (ARRAY['new_lifeline', 'new_lifeline', 'new_lifeline',
               'new_lifeline', 'new_lifeline', 'new_lifeline', 'new_lifeline', 'ota',
               'existing_customer', 'prepaid'])[(g / 20) % 10 + 1]
             WHEN 'campaign' THEN 'prepaid' WHEN 'support' THEN 'support' ELSE 'wholesale' END
             AS fulfilment_type,
           source IN ('carrier_api', 'campaign', 'support') AS for_subscriber,
           ($5::bigint[])[g % cardinality($5::bigint[]) + 1] AS carrier_id
         FROM gen),
       stated AS (
         SELECT typed.*,
           CASE WHEN age > 10 THEN
             CASE WHEN r < 5 THEN 'cancelled' WHEN r < 7 THEN 'returned' WHEN r = 7 THEN 'lost'
               ELSE 'delivered' END
           ELSE
             CASE WHEN r < 8 THEN 'on_hold' WHEN r < 20 THEN 'ready' WHEN r < 30 THEN 'assigned'
               WHEN r < 38 THEN 'in_progress' WHEN r < 45 THEN 'fulfilled'
               WHEN r < 52 THEN 'labeled' WHEN r < 80 THEN 'shipped' WHEN r < 83 THEN 'cancelled'
               ELSE CASE WHEN age > 3 THEN 'delivered' ELSE 'shipped' END END
           END AS status,
           CASE WHEN fulfilment_type = 'prepaid' THEN 'prepaid' WHEN g % 10 = 3 THEN 'tribal'
             ELSE 'lifeline' END AS program
         FROM typed),
       subs AS (
         INSERT INTO subscribers (client_carrier_id, program, external_id, first_name, last_name,
           phone, service_line1, service_city, service_state, service_zip, service_address_key,
           created_at, updated_at)
         SELECT carrier_id, program, 'SUB-' || g, 'FIRST' || g, 'LAST' || g,
           '+1 555 ' || lpad((g % 10000000)::text, 7, '0'), g || ' MAIN ST',
           ${place.city}, ${place.state}, ${place.zip}, g || ' MAIN ST||' || ${place.zip}, at, at
         FROM stated WHERE for_subscriber
         RETURNING id, substring(external_id FROM 5)::int AS g),
       made AS (
         INSERT INTO orders (source, fulfilment_type, client_carrier_id, program, subscriber_id,
           retailer_id, ship_method, priority, sla_due_at, status, hold_reason, status_before_hold,
           hold_note, external_ref, subtotal_cents, shipping_cents, total_cents, created_at,
           created_by, updated_at, approved_at, shipped_at, cancelled_at, payment_status,
           plan_name)
         SELECT s.source, s.fulfilment_type, CASE WHEN s.for_subscriber THEN s.carrier_id END,
           CASE WHEN s.for_subscriber THEN s.program END, subs.id,
           CASE WHEN NOT s.for_subscriber THEN (SELECT min(id) FROM retailers) + s.g % $6::int END,
           CASE WHEN s.fulfilment_type = 'wholesale' THEN 'freight' ELSE 'ground' END,
           CASE WHEN s.g % 50 = 0 THEN 'high' ELSE 'normal' END, s.at + interval '2 days',
           s.status,
           CASE WHEN s.status = 'on_hold' THEN (ARRAY['no_stock', 'address', 'duplicate_benefit',
             'fraud_review'])[s.g % 4 + 1] END,
           CASE WHEN s.status = 'on_hold' THEN 'pending' END,
           CASE WHEN s.status = 'on_hold' THEN 'Found at intake.' END,
           CASE WHEN s.source = 'carrier_api' THEN 'ENR-' || s.g END,
           p.price, 0, p.price, s.at, $7, s.at,
           CASE WHEN s.status = 'on_hold' OR (s.status = 'cancelled' AND s.r % 2 = 0) THEN NULL
             ELSE s.at + interval '10 minutes' END,
           CASE WHEN s.status IN ('shipped', 'delivered', 'returned', 'lost')
             THEN s.at + (s.g % 3) * interval '1 day' + interval '4 hours' END,
           CASE WHEN s.status = 'cancelled' THEN s.at + interval '1 hour' END,
           -- Prepaid: captured once past the backlog (picked only then), refunded when cancelled
           -- or returned (declined when it was never approved), some held ones only authorised.
           CASE WHEN s.fulfilment_type = 'prepaid' THEN
             CASE WHEN s.status = 'cancelled' AND s.r % 2 = 0 THEN 'failed'
               WHEN s.status IN ('cancelled', 'returned') THEN 'refunded'
               WHEN s.status = 'on_hold' AND s.g % 2 = 0 THEN 'authorized'
               ELSE 'captured' END END,
           CASE WHEN s.fulfilment_type = 'prepaid' THEN (ARRAY['Prepaid Unlimited 30',
             'Prepaid 10 GB 30', 'Prepaid Talk & Text 30'])[s.g % 3 + 1] END
         FROM stated s
         LEFT JOIN subs ON subs.g = s.g
         CROSS JOIN LATERAL (SELECT CASE WHEN s.fulfilment_type = 'wholesale'
           THEN (s.g % 20 + 5) * 9900 ELSE 1000 + (s.g % 5) * 500 END AS price) p
         RETURNING id, subscriber_id, retailer_id, status, fulfilment_type, subtotal_cents,
           created_at),
       ship_to AS (
         INSERT INTO order_ship_to (order_id, name, company, line1, city, state, zip, phone)
         SELECT m.id,
           COALESCE(sub.first_name || ' ' || sub.last_name, 'Receiving dock'),
           CASE WHEN m.retailer_id IS NOT NULL THEN 'Retailer ' || m.retailer_id END,
           COALESCE(sub.service_line1, ra.line1, '1 COMMERCE ST'),
           COALESCE(sub.service_city, ra.city, 'DALLAS'), COALESCE(sub.service_state, ra.state, 'TX'),
           COALESCE(sub.service_zip, ra.zip, '75201'), sub.phone
         FROM made m
         LEFT JOIN subscribers sub ON sub.id = m.subscriber_id
         LEFT JOIN retailer_addresses ra ON ra.retailer_id = m.retailer_id AND ra.is_default),
       lines AS (
         INSERT INTO order_lines (order_id, position, variant_id, sku, description, listing_id, qty,
           qty_reserved, unit_price_cents, status, created_at)
         SELECT m.id, 1, v.id, v.sku, pr.name || ' ' || v.grade, l.id, q.qty,
           CASE WHEN m.status IN ('ready', 'assigned', 'in_progress', 'fulfilled', 'labeled')
             THEN q.qty ELSE 0 END,
           m.subtotal_cents / q.qty,
           CASE WHEN m.status = 'cancelled' THEN 'cancelled'
             WHEN m.status IN ('shipped', 'delivered', 'returned', 'lost') THEN 'shipped'
             WHEN m.status IN ('in_progress', 'fulfilled') THEN 'picked'
             WHEN m.status = 'labeled' THEN 'packed' WHEN m.status = 'assigned' THEN 'allocated'
             ELSE 'open' END,
           m.created_at
         FROM made m
         CROSS JOIN LATERAL (SELECT CASE WHEN m.fulfilment_type = 'wholesale'
           THEN m.subtotal_cents / 9900 ELSE 1 END AS qty) q
         JOIN product_variants v ON v.id = (SELECT min(id) FROM product_variants)
           + (m.id * 7) % $8::int
         JOIN products pr ON pr.id = v.product_id
         LEFT JOIN pts_listings l ON l.variant_id = v.id AND l.channel = 'web')
       INSERT INTO order_events (order_id, at, actor_id, actor_name, type, to_status, data)
       SELECT m.id, m.created_at, $7, 'generator', 'received', 'pending',
         jsonb_build_object('source', 'generated')
       FROM made m`,
      [
        first,
        last,
        anchorDate.toISOString(),
        total,
        ready!.carriers,
        ready!.retailers,
        admin?.id ?? null,
        ready!.variants,
      ],
    );
  }
  await countListingQuantities(db);
  const [counts] = await db.query<{ orders: number; subscribers: number }>(
    `SELECT (SELECT count(*)::int FROM orders) AS orders,
       (SELECT count(*)::int FROM subscribers) AS subscribers`,
  );
  return counts!;
}

/**
 * What the order lines hold of each listing: reserved while open, sold once shipped. Run again
 * after generated orders are added (the reships' child orders keep their original's listing).
 */
export async function countListingQuantities(db: Queryable): Promise<void> {
  await db.query(
    `UPDATE pts_listings l SET qty_reserved = x.reserved, qty_sold = x.sold,
       qty_pushed = GREATEST(l.qty_pushed, x.reserved + x.sold)
     FROM (SELECT listing_id, sum(qty_reserved)::int AS reserved,
             COALESCE(sum(qty) FILTER (WHERE status = 'shipped'), 0)::int AS sold
           FROM order_lines WHERE listing_id IS NOT NULL GROUP BY listing_id) x
     WHERE l.id = x.listing_id`,
  );
}
