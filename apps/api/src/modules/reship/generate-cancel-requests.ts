import type { Queryable } from '../../db/db.js';

/** Why the customers asked to cancel: the request's reason and, for a return, its RMA's note. */
const REASONS = `ARRAY['The customer no longer wants the phone.', 'Duplicate order.',
  'The subscriber moved out of the service area.', 'Ordered the wrong model.']`;

/**
 * Cancellation requests for the generated orders (run after `generateTracking`: a shipped order's
 * parcel must be on its way), about 1.5 % of the orders:
 * - a quarter of the cancelled orders were cancelled by a request before their label: asked
 *   twenty minutes before, approved (a client carrier's by itself) and carried out at the
 *   cancellation, the order's timeline saying so;
 * - one delivered order in four hundred had a request while its parcel was on its way, denied;
 * - of the open orders, one in twenty-five has a request waiting at the stage it is in, and one
 *   shipped order in twenty-five had its parcel intercept asked of the carrier, the request waiting
 *   for the parcel to come back;
 * - one in ten orders that shipped devices in the last sixty days (those on no open RMA) had a
 *   request while its parcel was on its way that the carrier could not intercept: approved, it
 *   needs a return instead and opens an RMA (`requested`, "cancelled after shipping") expecting
 *   back every device the order shipped, on the RMA's and the devices' timelines as `openRma`
 *   writes them; the parcel went on (the order shipped or delivered), the phones not sent back
 *   yet.
 * One open request per order. Each step is on the request's timeline as the requests page writes
 * it. Set-based, deterministic; answers the requests.
 */
export async function generateCancelRequests(
  db: Queryable,
  { anchor, actor }: { anchor: Date; actor: number | null },
): Promise<{ cancelRequests: number }> {
  const [row] = await db.query<{ requests: number }>(
    `WITH orders_seen AS (
       SELECT o.id, o.number, o.status, o.source, o.created_at, o.approved_at, o.shipped_at,
         o.cancelled_at, p.id AS package_id, p.status AS package_status, p.tracking_number, h
       FROM orders o
       LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
       CROSS JOIN LATERAL (SELECT (o.id * 2654435761 + 32452843) % 2147483647 AS h) x
       WHERE o.parent_order_id IS NULL),
     -- kind: carried out before the label, denied on its way, waiting, intercept asked for, a
     -- return needed instead.
     planned AS (
       SELECT id, number, h, 'carried_out' AS kind, 'pre_label' AS stage,
         CASE WHEN source = 'carrier_api' AND h / 4 % 2 = 0 THEN 'carrier'
           WHEN h / 4 % 3 = 0 THEN 'internal' ELSE 'customer' END AS requester,
         cancelled_at - interval '20 minutes' AS at, NULL::bigint AS package_id,
         CASE WHEN approved_at IS NULL THEN 'pending' ELSE 'ready' END AS order_from
       FROM orders_seen WHERE status = 'cancelled' AND cancelled_at IS NOT NULL AND h % 4 = 0
       UNION ALL
       SELECT id, number, h, 'denied', 'shipped', 'customer', shipped_at + interval '2 hours',
         NULL, NULL
       FROM orders_seen WHERE status = 'delivered' AND shipped_at IS NOT NULL AND h % 400 = 7
       UNION ALL
       SELECT id, number, h, 'waiting',
         CASE WHEN status = 'shipped' THEN 'shipped' WHEN status = 'labeled' THEN 'labeled'
           ELSE 'pre_label' END,
         (ARRAY['customer', 'carrier', 'internal'])[h / 25 % 3 + 1],
         COALESCE(shipped_at, approved_at, created_at) + interval '1 hour', NULL, NULL
       FROM orders_seen
       WHERE h % 25 = 2 AND (status IN ('pending', 'ready', 'on_hold', 'assigned', 'in_progress',
         'fulfilled', 'labeled') OR (status = 'shipped' AND package_status = 'scanned_out'))
       UNION ALL
       SELECT id, number, h, 'intercepted', 'shipped', (ARRAY['customer', 'carrier'])[h / 25 % 2 + 1],
         shipped_at + interval '1 hour', package_id, NULL
       FROM orders_seen
       WHERE h % 25 = 3 AND status = 'shipped' AND package_status = 'scanned_out'
       UNION ALL
       SELECT id, number, h, 'return', 'shipped', (ARRAY['customer', 'carrier'])[h / 25 % 2 + 1],
         shipped_at + interval '1 hour', package_id, NULL
       FROM orders_seen s
       -- Not an order another kind picks.
       WHERE h / 7 % 10 = 4 AND h % 25 NOT IN (2, 3, 7) AND shipped_at > $2::timestamptz - interval '60 days'
         AND package_status IN ('scanned_out', 'delivered')
         AND EXISTS (SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
           WHERE l.order_id = s.id AND u.status = 'shipped')
         AND NOT EXISTS (SELECT 1 FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
           JOIN rma_lines rl ON rl.device_id = u.device_id AND rl.open WHERE l.order_id = s.id)),
     -- The RMA a request needing a return opens, three hours after it was asked for.
     returns AS (
       INSERT INTO rmas (order_id, reason, note, warranty_ok, created_by, created_at, updated_at)
       SELECT p.id, 'cancelled_after_shipping',
         'Cancelled after shipping: ' || (${REASONS})[p.h % 4 + 1], true, $1,
         p.at + interval '3 hours', p.at + interval '3 hours'
       FROM planned p WHERE kind = 'return' ORDER BY p.at, p.id
       RETURNING id, number, order_id, note, created_at),
     return_units AS (
       SELECT r.id AS rma_id, r.number, r.note, r.created_at, o.number AS order_number,
         u.id AS unit_id, u.device_id
       FROM returns r JOIN orders o ON o.id = r.order_id
       JOIN order_lines l ON l.order_id = r.order_id
       JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'shipped'
       JOIN devices d ON d.id = u.device_id AND d.status IN ('shipped', 'delivered')),
     return_lines AS (
       INSERT INTO rma_lines (rma_id, device_id, order_line_unit_id)
       SELECT rma_id, device_id, unit_id FROM return_units ORDER BY rma_id, device_id
       RETURNING id),
     return_steps AS (
       INSERT INTO rma_events (rma_id, at, actor_id, actor_name, type, to_status, data)
       SELECT r.id, r.created_at, $1, 'generator', 'requested', 'requested',
         jsonb_build_object('rma', r.number, 'order', o.number,
           'reason', 'cancelled_after_shipping', 'note', r.note)
       FROM returns r JOIN orders o ON o.id = r.order_id ORDER BY r.id
       RETURNING id),
     return_device_steps AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, ref_type, ref_id,
         data)
       SELECT device_id, created_at, $1, 'generator', 'rma_requested', 'rma', rma_id,
         jsonb_build_object('rma', number, 'order', order_number,
           'reason', 'cancelled_after_shipping', 'note', note)
       FROM return_units ORDER BY rma_id, device_id
       RETURNING id),
     made AS (
       INSERT INTO cancel_requests (order_id, stage, requester, reason, status, package_id,
         carrier_answer, rma_id, deny_reason, requested_by, requested_by_name, decided_by, decided_at,
         created_at, updated_at)
       SELECT id, stage, requester,
         (${REASONS})[h % 4 + 1],
         CASE kind WHEN 'carried_out' THEN 'cancelled' WHEN 'denied' THEN 'denied'
           WHEN 'waiting' THEN 'requested' WHEN 'return' THEN 'return_required'
           ELSE 'intercept_requested' END,
         package_id,
         CASE WHEN kind = 'intercepted' THEN 'The carrier will return the parcel to the shipper.'
           WHEN kind = 'return' THEN 'The carrier offers no intercept: the parcel must come back as a return.' END,
         (SELECT r.id FROM returns r WHERE r.order_id = planned.id) AS rma_id,
         CASE WHEN kind = 'denied' THEN 'The parcel is on its way: the customer may return it.' END,
         $1, 'generator',
         CASE WHEN kind IN ('denied', 'intercepted', 'return')
           OR (kind = 'carried_out' AND requester <> 'carrier') THEN $1::bigint END,
         CASE kind WHEN 'carried_out' THEN at + interval '20 minutes'
           WHEN 'waiting' THEN NULL ELSE at + interval '3 hours' END,
         at,
         at + CASE kind WHEN 'carried_out' THEN interval '20 minutes' WHEN 'waiting' THEN interval '0'
           ELSE interval '3 hours' END
       FROM planned ORDER BY at, id
       RETURNING id, order_id, status, requester, stage, deny_reason, created_at, decided_at),
     rows AS (
       SELECT m.*, p.number, p.kind, p.order_from, p.at
       FROM made m JOIN planned p ON p.id = m.order_id),
     steps AS (
       SELECT r.id, s.*
       FROM rows r
       CROSS JOIN LATERAL (VALUES
         (1, r.at, 'requested', NULL, 'requested',
          jsonb_build_object('order', r.number, 'stage', r.stage), true),
         (2, r.decided_at, CASE WHEN r.requester = 'carrier' AND r.kind = 'carried_out'
            THEN 'approved_automatically' ELSE 'approved' END, 'requested', 'approved',
          '{}'::jsonb, r.kind IN ('carried_out', 'intercepted', 'return')),
         (3, r.decided_at, 'cancelled', 'approved', 'cancelled',
          jsonb_build_object('order', r.number), r.kind = 'carried_out'),
         (3, r.decided_at, 'intercept_requested', 'approved', 'intercept_requested',
          jsonb_build_object('order', r.number), r.kind = 'intercepted'),
         (3, r.decided_at, 'return_required', 'approved', 'return_required',
          jsonb_build_object('order', r.number), r.kind = 'return'),
         (2, r.decided_at, 'denied', 'requested', 'denied',
          jsonb_build_object('reason', r.deny_reason), r.kind = 'denied')
       ) AS s (seq, at, type, from_status, to_status, data, happened)
       WHERE s.happened),
     timeline AS (
       INSERT INTO cancel_request_events (cancel_request_id, at, actor_id, actor_name, type,
         from_status, to_status, data)
       SELECT id, at, $1, 'generator', type, from_status, to_status, data FROM steps
       ORDER BY id, seq
       RETURNING id),
     -- The order's own cancellation, carried out by the request.
     order_steps AS (
       INSERT INTO order_events (order_id, at, actor_id, actor_name, type, from_status,
         to_status, data)
       SELECT order_id, decided_at, $1, 'generator', 'cancelled', order_from, 'cancelled',
         jsonb_build_object('cancel_request', id)
       FROM rows WHERE kind = 'carried_out'
       RETURNING id)
     SELECT (SELECT count(*)::int FROM made) AS requests,
       (SELECT count(*) FROM timeline) + (SELECT count(*) FROM order_steps)
         + (SELECT count(*) FROM return_lines) + (SELECT count(*) FROM return_steps)
         + (SELECT count(*) FROM return_device_steps) AS written`,
    [actor, anchor.toISOString()],
  );
  return { cancelRequests: row!.requests };
}
