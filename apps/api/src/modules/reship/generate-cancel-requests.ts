import type { Queryable } from '../../db/db.js';

/**
 * Cancellation requests for the generated orders (run after `generateTracking`: a shipped order's
 * parcel must be on its way), about 1.5 % of the orders:
 * - a quarter of the cancelled orders were cancelled by a request before their label: asked
 *   twenty minutes before, approved (a client carrier's by itself) and carried out at the
 *   cancellation, the order's timeline saying so;
 * - one delivered order in four hundred had a request while its parcel was on its way, denied;
 * - of the open orders, one in twenty-five has a request waiting at the stage it is in, and one
 *   shipped order in twenty-five had its parcel intercept asked of the carrier, the request waiting
 *   for the parcel to come back.
 * One open request per order. Each step is on the request's timeline as the requests page writes
 * it. Set-based, deterministic; answers the requests.
 */
export async function generateCancelRequests(
  db: Queryable,
  { actor }: { actor: number | null },
): Promise<{ cancelRequests: number }> {
  const [row] = await db.query<{ requests: number }>(
    `WITH orders_seen AS (
       SELECT o.id, o.number, o.status, o.source, o.created_at, o.approved_at, o.shipped_at,
         o.cancelled_at, p.id AS package_id, p.status AS package_status, p.tracking_number, h
       FROM orders o
       LEFT JOIN packages p ON p.order_id = o.id AND p.status <> 'voided'
       CROSS JOIN LATERAL (SELECT (o.id * 2654435761 + 32452843) % 2147483647 AS h) x
       WHERE o.parent_order_id IS NULL),
     -- kind: carried out before the label, denied on its way, waiting, intercept asked for.
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
       WHERE h % 25 = 3 AND status = 'shipped' AND package_status = 'scanned_out'),
     made AS (
       INSERT INTO cancel_requests (order_id, stage, requester, reason, status, package_id,
         carrier_answer, deny_reason, requested_by, requested_by_name, decided_by, decided_at,
         created_at, updated_at)
       SELECT id, stage, requester,
         (ARRAY['The customer no longer wants the phone.', 'Duplicate order.',
           'The subscriber moved out of the service area.', 'Ordered the wrong model.'])[h % 4 + 1],
         CASE kind WHEN 'carried_out' THEN 'cancelled' WHEN 'denied' THEN 'denied'
           WHEN 'waiting' THEN 'requested' ELSE 'intercept_requested' END,
         package_id,
         CASE WHEN kind = 'intercepted' THEN 'The carrier will return the parcel to the shipper.' END,
         CASE WHEN kind = 'denied' THEN 'The parcel is on its way: the customer may return it.' END,
         $1, 'generator',
         CASE WHEN kind IN ('denied', 'intercepted')
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
          '{}'::jsonb, r.kind IN ('carried_out', 'intercepted')),
         (3, r.decided_at, 'cancelled', 'approved', 'cancelled',
          jsonb_build_object('order', r.number), r.kind = 'carried_out'),
         (3, r.decided_at, 'intercept_requested', 'approved', 'intercept_requested',
          jsonb_build_object('order', r.number), r.kind = 'intercepted'),
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
       (SELECT count(*) FROM timeline) + (SELECT count(*) FROM order_steps) AS written`,
    [actor],
  );
  return { cancelRequests: row!.requests };
}
