import type { Queryable } from '../../db/db.js';
import { generateChildOrders } from '../order/index.js';

/** Delivered devices that come back under an RMA, by default: 3 in 100. */
export const RMA_SHARE = 0.03;

export type GenerateRmasOptions = {
  /** RMAs to open; by default RMA_SHARE of the delivered devices, at most all of them. */
  readonly rmas?: number;
  readonly anchor: Date;
  readonly actor: number | null;
};

/**
 * A year of RMAs for the generated registry (run after `generateUnits`): devices delivered on an
 * order, picked by a hash of their unit, are asked back a few days to two months after delivery,
 * within the warranty. RMAs opened more than a month before `anchor` have ended: most closed
 * (refunded, or repaired when receiving routed the device to repair), some rejected or cancelled;
 * newer ones are spread over the lifecycle (requested, authorised with a return label, in
 * transit, received, inspected, refunded, replacement sent, in repair). One in four resolved
 * without a repair gets a replacement: its order is made first (`generateChildOrders`, a child of
 * the original order, as the resolution makes it), then the RMA naming it. A device received is
 * `returned`: routed to repair, the repair generator raises its ticket; routed to reuse or
 * inspection, it waits on the reuse queue, or, its RMA closed, was approved for reuse (`reuse`,
 * reuse count 1). Every step is on the RMA's timeline and the device's as the RMA pages write
 * them, with the return label and the receiving scans (one RMA in fifty had a stray IMEI
 * flagged). Set-based, deterministic; answers the RMAs.
 */
export async function generateRmas(
  db: Queryable,
  options: GenerateRmasOptions,
): Promise<{ rmas: number }> {
  const [eligible] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM order_line_units u JOIN devices d ON d.id = u.device_id
     WHERE u.status = 'shipped' AND d.status = 'delivered'`,
  );
  const rmas = Math.min(
    eligible!.n,
    Math.max(0, Math.floor(options.rmas ?? eligible!.n * RMA_SHARE)),
  );
  if (rmas === 0) return { rmas: 0 };
  const plan = rmaPlan(rmas, `'${options.anchor.toISOString()}'`);
  await generateChildOrders(db, {
    source: 'replacement',
    wanted: `WITH ${plan}
      SELECT order_id AS parent_order_id, at + interval '5 days' AS at, NULL::jsonb AS ship_to,
        'Replacement' AS notes
      FROM reached WHERE resolution = 'replacement'`,
    anchor: options.anchor,
    actor: options.actor,
  });
  const [row] = await db.query<{ rmas: number }>(
    `WITH ${plan},
     resolved AS (
       SELECT reached.*, n.id AS replacement_order_id, n.number AS replacement_number
       FROM reached
       LEFT JOIN orders n ON n.parent_order_id = reached.order_id AND n.source = 'replacement'
         AND reached.resolution = 'replacement'),
     made AS (
       INSERT INTO rmas (order_id, reason, warranty_ok, status, resolution, refund_cents,
         replacement_order_id, mismatch_flagged, accessories, created_at, created_by, updated_at,
         authorized_at, received_at, closed_at)
       SELECT order_id, reason, true,
         CASE WHEN status = 'closed' THEN 'closed' WHEN status IN ('refunded', 'repair')
           THEN (${RESOLVED_STATUS}) ELSE status END,
         resolution, CASE WHEN resolution = 'refund' THEN total_cents END, replacement_order_id,
         stage >= 3 AND h % 50 = 7,
         CASE WHEN stage >= 3 AND h % 4 <> 0 THEN ARRAY['charger'] ELSE '{}' END,
         at, $1,
         at + CASE WHEN status = 'rejected' THEN interval '4 hours' WHEN status = 'cancelled'
           THEN interval '2 days' ELSE (ARRAY[interval '0', interval '4 hours', interval '1 day',
           interval '4 days', interval '4 days 2 hours', interval '5 days', interval '6 days'])[stage + 1] END,
         CASE WHEN stage >= 1 THEN at + interval '4 hours' END,
         CASE WHEN stage >= 3 THEN at + interval '4 days' END,
         CASE WHEN status = 'rejected' THEN at + interval '4 hours'
           WHEN status = 'cancelled' THEN at + interval '2 days'
           WHEN status = 'closed' THEN at + interval '6 days' END
       FROM resolved ORDER BY at, unit_id
       RETURNING id, number, order_id, status, resolution, mismatch_flagged, created_at),
     -- The replacement order names its RMA, as the resolution writes it.
     noted AS (
       UPDATE orders o SET notes = 'Replacement for ' || m.number
       FROM made m JOIN resolved r USING (order_id)
       WHERE o.id = r.replacement_order_id
       RETURNING o.id),
     rows AS (
       SELECT m.id AS rma_id, m.number, m.status AS rma_status, m.mismatch_flagged, r.*
       FROM made m JOIN resolved r USING (order_id)),
     lines AS (
       INSERT INTO rma_lines (rma_id, device_id, order_line_unit_id, open, received_at,
         received_by, route)
       SELECT rma_id, device_id, unit_id, rma_status NOT IN ('closed', 'rejected', 'cancelled'),
         CASE WHEN stage >= 3 THEN at + interval '4 days' END, CASE WHEN stage >= 3 THEN $1 END,
         CASE WHEN stage >= 4 THEN route END
       FROM rows
       RETURNING id),
     labels AS (
       INSERT INTO rma_return_labels (rma_id, carrier, service, tracking_number, created_at)
       SELECT rma_id, 'usps', 'usps_ground_advantage', '9205' || lpad(rma_id::text, 18, '0'),
         at + interval '4 hours'
       FROM rows WHERE stage >= 1
       RETURNING rma_id),
     scans AS (
       INSERT INTO rma_scans (rma_id, code, device_id, result, station, at, actor_id, actor_name)
       SELECT rma_id, identifier, device_id, 'received', 'rma-' || (h % 2 + 1),
         at + interval '4 days', $1, 'generator'
       FROM rows WHERE stage >= 3
       UNION ALL
       SELECT rma_id, '35' || lpad((h % 10000000000000)::text, 13, '0'), NULL, 'mismatch',
         'rma-' || (h % 2 + 1), at + interval '4 days 5 minutes', $1, 'generator'
       FROM rows WHERE mismatch_flagged
       RETURNING id),
     steps AS (
       SELECT r.rma_id, r.device_id, s.*
       FROM rows r
       CROSS JOIN LATERAL (VALUES
         (r.at, 'requested', NULL, 'requested', 'rma_requested',
          jsonb_build_object('rma', r.number, 'order', r.order_number, 'reason', r.reason,
            'note', NULL), true),
         (r.at + interval '4 hours', 'rejected', 'requested', 'rejected', 'rma_rejected',
          jsonb_build_object('rma', r.number, 'reason', 'Outside what the warranty covers.'),
          r.rma_status = 'rejected'),
         (r.at + interval '4 hours', 'authorized', 'requested', 'authorized', 'rma_authorized',
          jsonb_build_object('rma', r.number, 'carrier', 'usps',
            'tracking', '9205' || lpad(r.rma_id::text, 18, '0')), r.stage >= 1),
         (r.at + interval '2 days', 'cancelled', 'authorized', 'cancelled', 'rma_cancelled',
          jsonb_build_object('rma', r.number), r.rma_status = 'cancelled'),
         (r.at + interval '1 day', 'in_transit', 'authorized', 'in_transit', 'rma_in_transit',
          jsonb_build_object('rma', r.number), r.stage >= 2),
         (r.at + interval '4 days', 'received', 'in_transit', 'received', NULL,
          jsonb_build_object('rma', r.number, 'station', 'rma-' || (r.h % 2 + 1)), r.stage >= 3),
         (r.at + interval '4 days 5 minutes', 'mismatch_flagged', NULL, NULL, NULL,
          jsonb_build_object('code', '35' || lpad((r.h % 10000000000000)::text, 13, '0'),
            'station', 'rma-' || (r.h % 2 + 1)), r.mismatch_flagged),
         (r.at + interval '4 days 2 hours', 'inspected', 'received', 'inspected',
          CASE WHEN r.route <> 'repair' THEN 'rma_routed' END,
          jsonb_build_object('rma', r.number, 'route', r.route), r.stage >= 4),
         (r.at + interval '5 days', CASE r.resolution WHEN 'repair' THEN 'repair_chosen'
            WHEN 'replacement' THEN 'replacement_ordered' ELSE 'refunded' END, 'inspected',
          ${RESOLVED_STATUS.replaceAll('resolution', 'r.resolution')}, 'rma_resolved',
          jsonb_build_object('rma', r.number, 'resolution', r.resolution)
            || CASE WHEN r.replacement_number IS NOT NULL
              THEN jsonb_build_object('replacement_order', r.replacement_number) ELSE '{}' END,
          r.stage >= 5),
         (r.at + interval '6 days', 'closed', ${RESOLVED_STATUS.replaceAll('resolution', 'r.resolution')},
          'closed', 'rma_closed', jsonb_build_object('rma', r.number), r.stage >= 6)
       ) AS s (at, type, from_status, to_status, device_type, data, happened)
       WHERE s.happened),
     timeline AS (
       INSERT INTO rma_events (rma_id, at, actor_id, actor_name, type, from_status, to_status, data)
       SELECT rma_id, at, $1, 'generator', type, from_status, to_status,
         CASE WHEN type = 'inspected' THEN jsonb_build_object('rma', data ->> 'rma') ELSE data END
       FROM steps ORDER BY rma_id, at
       RETURNING id),
     -- The device's timeline: the RMA's steps, its receipt back and, its RMA closed without a
     -- repair, its approval for reuse.
     device_steps AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, from_status,
         to_status, ref_type, ref_id, station, data)
       SELECT device_id, at, $1, 'generator', device_type, NULL, NULL, 'rma', rma_id, NULL, data
       FROM steps WHERE device_type IS NOT NULL
       UNION ALL
       SELECT device_id, at + interval '4 days', $1, 'generator', 'returned', 'delivered',
         'returned', 'rma', rma_id, 'rma-' || (h % 2 + 1), jsonb_build_object('rma', number)
       FROM rows WHERE stage >= 3
       UNION ALL
       SELECT device_id, at + interval '8 days', $1, 'generator', 'reuse_approved', 'returned',
         'reuse', NULL, NULL, 'reuse', jsonb_build_object('grade', 'B')
       FROM rows WHERE rma_status = 'closed' AND route <> 'repair'
       RETURNING id),
     inspections AS (
       INSERT INTO device_reuse_inspections (device_id, wipe_method, blacklist_state, grade,
         decision, at, actor_id)
       SELECT device_id, 'NIST 800-88 purge', 'clean', 'B', 'approved', at + interval '8 days', $1
       FROM rows WHERE rma_status = 'closed' AND route <> 'repair'
       RETURNING id),
     back AS (
       UPDATE devices d
       SET status = CASE WHEN r.rma_status = 'closed' AND r.route <> 'repair' THEN 'reuse'
           ELSE 'returned' END,
         grade = CASE WHEN r.rma_status = 'closed' AND r.route <> 'repair' THEN 'B' ELSE d.grade END,
         reuse_count = d.reuse_count
           + (r.rma_status = 'closed' AND r.route <> 'repair')::int,
         updated_at = r.at + CASE WHEN r.rma_status = 'closed' AND r.route <> 'repair'
           THEN interval '8 days' ELSE interval '4 days' END
       FROM rows r WHERE d.id = r.device_id AND r.stage >= 3
       RETURNING d.id)
     SELECT (SELECT count(*)::int FROM made) AS rmas,
       (SELECT count(*) FROM lines) + (SELECT count(*) FROM labels) + (SELECT count(*) FROM scans)
         + (SELECT count(*) FROM timeline) + (SELECT count(*) FROM device_steps)
         + (SELECT count(*) FROM inspections) + (SELECT count(*) FROM back)
         + (SELECT count(*) FROM noted) AS written`,
    [options.actor],
  );
  return { rmas: row!.rmas };
}

/** The status an RMA's resolution leaves it in, over its `resolution`. */
const RESOLVED_STATUS = `CASE resolution WHEN 'repair' THEN 'repair'
  WHEN 'replacement' THEN 'replacement_sent' ELSE 'refunded' END`;

/**
 * The RMAs to open, as CTEs ending in `reached`: which delivered units (`rmas` of them, picked by
 * a hash), when, why, how far each got and how it was resolved. Read twice, by the replacement
 * orders and by the RMAs; neither changes what it picks (it reads delivered units, and the
 * replacements have none).
 */
function rmaPlan(rmas: number, anchor: string): string {
  return `picked AS (
       SELECT u.id AS unit_id, d.id AS device_id, d.identifier, o.id AS order_id, o.number AS
         order_number, o.total_cents, h,
         LEAST(p.delivered_at + make_interval(days => 2 + (h % 60)::int, hours => (h % 24)::int),
           ${anchor}::timestamptz - make_interval(days => (h % 5)::int, hours => 2 + (h % 20)::int)) AS at
       FROM order_line_units u
       JOIN devices d ON d.id = u.device_id AND d.status = 'delivered'
       JOIN order_lines l ON l.id = u.order_line_id
       JOIN orders o ON o.id = l.order_id
       JOIN packages p ON p.order_id = o.id AND p.delivered_at IS NOT NULL
       CROSS JOIN LATERAL (SELECT (u.id * 2654435761 + 40503) % 2147483647 AS h) x
       WHERE u.status = 'shipped'
       ORDER BY h, u.id LIMIT ${rmas}),
     staged AS (
       SELECT picked.*,
         (ARRAY['defective', 'defective', 'defective', 'customer_return', 'wrong_item',
           'damaged_in_transit', 'cancelled_after_shipping'])[h % 7 + 1] AS reason,
         (ARRAY['repair', 'reuse', 'inspection'])[h / 7 % 3 + 1] AS route,
         CASE WHEN at < ${anchor}::timestamptz - interval '30 days' THEN
           (ARRAY['closed', 'closed', 'closed', 'closed', 'closed', 'closed', 'closed', 'closed',
             'rejected', 'cancelled'])[h / 21 % 10 + 1]
         ELSE (ARRAY['requested', 'authorized', 'in_transit', 'received', 'inspected', 'refunded',
           'repair'])[h / 21 % 7 + 1] END AS status
       FROM picked),
     -- How far each got: 1 authorised, 2 in transit, 3 received, 4 inspected, 5 resolved,
     -- 6 closed; a rejected one ended at its request, a cancelled one once authorised.
     reached AS (
       SELECT staged.*,
         CASE status WHEN 'requested' THEN 0 WHEN 'rejected' THEN 0 WHEN 'authorized' THEN 1
           WHEN 'cancelled' THEN 1 WHEN 'in_transit' THEN 2 WHEN 'received' THEN 3
           WHEN 'inspected' THEN 4 WHEN 'closed' THEN 6 ELSE 5 END AS stage,
         CASE WHEN status IN ('refunded', 'repair', 'closed')
           THEN CASE WHEN route = 'repair' THEN 'repair' WHEN h / 210 % 4 = 0 THEN 'replacement'
             ELSE 'refund' END END AS resolution
       FROM staged)`;
}
