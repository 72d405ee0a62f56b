import type { Queryable } from '../../db/db.js';

/**
 * Packages for the generated orders that have a parcel on its way or behind them (labelled,
 * shipped, delivered, returned, lost, by ground): one each, with a USPS IMpb tracking number made
 * from the order id (its mod-10 check digit computed in SQL), so the packages list and the dock
 * are tried at the size of the orders. The parcels scanned out went in gaylords: one a day,
 * picked up with that day's SCAN form; the newest labelled parcels (at most
 * GENERATED_WAITING_PARCELS) wait in a closed gaylord for their form and pickup. Set-based and
 * deterministic; run after `generateOrders`, and again for the orders made since (the reships'
 * and replacements' child orders): it labels only orders without a parcel.
 */
export async function generatePackages(db: Queryable): Promise<{ packages: number }> {
  const [row] = await db.query<{ packages: number }>(
    `WITH parcels AS (
       SELECT o.id, o.created_at, o.shipped_at,
         '94001' || (SELECT usps_mailer_id FROM shipping_settings)
           || lpad((o.id * 100 % 10000000000)::text, 10, '0') AS payload,
         CASE o.status WHEN 'labeled' THEN 'label_created' WHEN 'shipped' THEN 'scanned_out'
           ELSE o.status END AS status
       FROM orders o
       WHERE o.ship_method = 'ground'
         AND o.status IN ('labeled', 'shipped', 'delivered', 'returned', 'lost')
         AND NOT EXISTS (SELECT 1 FROM packages p WHERE p.order_id = o.id)
     ), made AS (
       INSERT INTO packages (order_id, carrier, service, tracking_number, weight_g, label_format,
         status, label_created_at, first_printed_at, scanned_out_at, updated_at)
       SELECT p.id, 'usps', 'usps_ground_advantage', p.payload || c.digit, 350 + p.id % 100, 'pdf',
         p.status, p.created_at + interval '3 hours', p.created_at + interval '3 hours',
         p.shipped_at, COALESCE(p.shipped_at, p.created_at + interval '3 hours')
       FROM parcels p
       CROSS JOIN LATERAL (
         SELECT ((10 - sum(substr(p.payload, i, 1)::int * CASE WHEN (21 - i) % 2 = 0 THEN 3 ELSE 1 END)
           % 10) % 10)::text AS digit
         FROM generate_series(1, 21) AS i
       ) c
       ORDER BY p.id
       RETURNING 1
     )
     SELECT count(*)::int AS packages FROM made`,
  );
  await generateLabelBatches(db);
  await generateGaylords(db);
  return { packages: row!.packages };
}

/**
 * A day's labels were one batch, run to its end: each parcel's order done as `created`, in
 * package order, so the label desk's batches and their runs are tried at the size of the orders.
 * The parcels without a batch are read once: on a later run the statistics say there are none,
 * and the planner would scan the packages again for each day.
 */
async function generateLabelBatches(db: Queryable): Promise<void> {
  await db.query(
    `WITH unbatched AS MATERIALIZED (
       SELECT id, order_id, label_created_at, tracking_number,
         (label_created_at AT TIME ZONE 'UTC')::date AS day
       FROM packages WHERE label_batch_id IS NULL
     ), days AS (
       SELECT min(label_created_at) AS first_label FROM unbatched GROUP BY day
     ), batches AS (
       INSERT INTO label_batches (format, created_at)
       SELECT 'pdf', first_label FROM days ORDER BY first_label
       RETURNING id, (created_at AT TIME ZONE 'UTC')::date AS day
     ), linked AS (
       SELECT b.id AS batch_id, p.id AS package_id, p.order_id, p.label_created_at,
         p.tracking_number,
         row_number() OVER (PARTITION BY b.id ORDER BY p.id)::int AS position
       FROM batches b JOIN unbatched p ON p.day = b.day
     ), marked AS (
       UPDATE packages p SET label_batch_id = l.batch_id FROM linked l WHERE p.id = l.package_id
     )
     INSERT INTO label_batch_orders (batch_id, order_id, position, result, message, package_id,
       done_at)
     SELECT batch_id, order_id, position, 'created', 'Label ' || tracking_number || ' created.',
       package_id, label_created_at
     FROM linked`,
  );
}

/** Labelled parcels the generated closed gaylord holds at most. */
const GENERATED_WAITING_PARCELS = 20;

async function generateGaylords(db: Queryable): Promise<void> {
  // The parcels scanned out and in no gaylord, read once: the statistics of a later run say there
  // are none, and the planner would scan the packages again for each day.
  const loose = `loose AS MATERIALIZED (
       SELECT id, scanned_out_at, (scanned_out_at AT TIME ZONE 'UTC')::date AS day FROM packages
       WHERE scanned_out_at IS NOT NULL AND gaylord_id IS NULL
         AND service = 'usps_ground_advantage' AND status <> 'voided')`;
  // Parcels scanned out on a day that has its form already (a later run): in that day's gaylord.
  await db.query(
    `WITH ${loose},
     day_gaylords AS MATERIALIZED (
       SELECT f.id AS form_id, f.ship_date, min(g.id) AS gaylord_id
       FROM scan_forms f JOIN gaylords g ON g.scan_form_id = f.id
       WHERE f.carrier = 'usps' AND f.origin_zip = (SELECT ship_from_zip FROM shipping_settings)
       GROUP BY f.id, f.ship_date),
     joined AS (
       UPDATE packages p SET gaylord_id = d.gaylord_id
       FROM loose l JOIN day_gaylords d ON d.ship_date = l.day
       WHERE p.id = l.id
       RETURNING d.form_id)
     UPDATE scan_forms f SET package_count = f.package_count + j.n
     FROM (SELECT form_id, count(*)::int AS n FROM joined GROUP BY form_id) j
     WHERE f.id = j.form_id`,
  );
  // A day's parcels scanned out: one gaylord, closed, on the day's SCAN form, picked up.
  await db.query(
    `WITH ${loose},
     days AS (
       SELECT day, min(scanned_out_at) AS first_out, count(*)::int AS n FROM loose GROUP BY day
     ), forms AS (
       INSERT INTO scan_forms (carrier, ship_date, origin_zip, package_count, created_at,
         picked_up_at, updated_at)
       SELECT 'usps', d.day, (SELECT ship_from_zip FROM shipping_settings), d.n,
         d.first_out - interval '1 hour', d.first_out, d.first_out
       FROM days d ORDER BY d.day
       ON CONFLICT (carrier, ship_date, origin_zip) DO NOTHING
       RETURNING id, ship_date, created_at, picked_up_at
     ), made AS (
       INSERT INTO gaylords (carrier, service, status, opened_at, closed_at, picked_up_at,
         scan_form_id, updated_at)
       SELECT 'usps', 'usps_ground_advantage', 'picked_up', f.created_at - interval '8 hours',
         f.created_at - interval '30 minutes', f.picked_up_at, f.id, f.picked_up_at
       FROM forms f ORDER BY f.ship_date
       RETURNING id, scan_form_id
     )
     UPDATE packages p SET gaylord_id = made.id
     FROM made JOIN forms f ON f.id = made.scan_form_id JOIN loose l ON l.day = f.ship_date
     WHERE p.id = l.id`,
  );
  // The newest labelled parcels, sorted into a gaylord closed and awaiting its form and pickup
  // (one such gaylord: a later run leaves its labelled parcels unsorted).
  await db.query(
    `WITH chosen AS (
       SELECT p.id, p.label_created_at FROM packages p
       WHERE p.status = 'label_created' AND p.service = 'usps_ground_advantage'
         AND NOT EXISTS (SELECT 1 FROM gaylords g WHERE g.status = 'closed'
                         AND g.scan_form_id IS NULL)
       ORDER BY p.id DESC LIMIT $1
     ), made AS (
       INSERT INTO gaylords (carrier, service, status, opened_at, closed_at, updated_at)
       SELECT 'usps', 'usps_ground_advantage', 'closed', max(label_created_at) + interval '30 minutes',
         max(label_created_at) + interval '2 hours', max(label_created_at) + interval '2 hours'
       FROM chosen HAVING count(*) > 0
       RETURNING id
     )
     UPDATE packages p SET status = 'in_gaylord', gaylord_id = made.id
     FROM made WHERE p.id IN (SELECT id FROM chosen)`,
    [GENERATED_WAITING_PARCELS],
  );
}
