import type { Queryable } from '../../db/db.js';
import { generateChildOrders } from '../order/index.js';

/** Delivered orders reshipped, the parcel damaged or holding the wrong item: 15 in 1000. */
const DELIVERED_RESHIP_PER_MILLE = 15;

/**
 * Child orders of a reship whose parcel came back undeliverable again: 7 in 100 of those made
 * two weeks before the anchor, about 0.2 % of the orders shipped.
 */
const CHILD_RETURNED_PER_CENT = 7;

/**
 * A year of reship requests for the generated orders (run after the returns: unpacks, claims and
 * RMAs read the original orders as returned, lost or delivered). Eight in ten parcels returned
 * to sender are reshipped to a corrected address, nine in ten lost ones, and 1.5 % of delivered
 * orders without an RMA (damaged or the wrong item): about 3 % of the orders shipped. A request
 * of the last two days waits (naming the unit that came back, when one did); older ones were
 * decided three hours after: one in twenty denied, the others approved, each making its child
 * order (`generateChildOrders`) and leaving its original order reshipped, on the request's and
 * the order's timelines as the approval writes them. Of the child orders made two weeks before
 * the anchor, 7 in 100 came back undeliverable too (`returned`, their parcels made so by
 * `generatePackages` and `generateTracking`): `generateSecondReships` reships them. The
 * statistics read these rows and the day counts the orders' triggers keep. Set-based,
 * deterministic; answers the requests.
 */
export async function generateReships(
  db: Queryable,
  { anchor, actor }: { anchor: Date; actor: number | null },
): Promise<{ reships: number; reshipOrders: number }> {
  const made = await writeReships(db, { anchor, actor, second: false });
  await db.query(
    `UPDATE orders o SET status = 'returned', updated_at = o.shipped_at + interval '170 hours'
     FROM reships r
     WHERE o.id = r.new_order_id AND o.status = 'delivered'
       AND o.created_at < $1::timestamptz - interval '14 days'
       AND (o.id * 2654435761 + 49979687) % 2147483647 % 100 < ${CHILD_RETURNED_PER_CENT}`,
    [anchor.toISOString()],
  );
  return made;
}

/**
 * Second reships (run once the child orders' parcels and their tracking are made, before the
 * parcels of the orders made since): each child order of a reship that came back undeliverable
 * is asked to ship again to a corrected address, its request counting the reship before it
 * (`earlier_reships` 1), so a manager decides it (order.reship-approve: the generator's user,
 * the administrator); as the first reships, a request of the last two days waits, one in twenty
 * is denied and the others make their child order. Set-based, deterministic; answers the
 * requests and the child orders made.
 */
export async function generateSecondReships(
  db: Queryable,
  { anchor, actor }: { anchor: Date; actor: number | null },
): Promise<{ reships: number; reshipOrders: number }> {
  return writeReships(db, { anchor, actor, second: true });
}

/** The requests of one round, their child orders and timelines. */
async function writeReships(
  db: Queryable,
  { anchor, actor, second }: { anchor: Date; actor: number | null; second: boolean },
): Promise<{ reships: number; reshipOrders: number }> {
  const requests = reshipRequests(`'${anchor.toISOString()}'::timestamptz`, second);
  const reshipOrders = await generateChildOrders(db, {
    source: 'reship',
    wanted: `SELECT order_id AS parent_order_id, at + interval '3 hours' AS at, ship_to,
        'Reship of ' || number || ' (' || replace(reason, '_', ' ') || ').' AS notes
      FROM (${requests}) r WHERE status = 'order_created'`,
    anchor,
    actor,
  });
  const [row] = await db.query<{ reships: number }>(
    `WITH requests AS (${requests}),
     made AS (
       INSERT INTO reships (original_order_id, reason, cost_owner, earlier_reships, device_id,
         ship_to, note, status, deny_reason, new_order_id, requested_by, requested_by_name,
         decided_by, decided_at, created_at, updated_at)
       SELECT r.order_id, r.reason, r.cost_owner, ${second ? 1 : 0}, r.device_id, r.ship_to, NULL, r.status,
         CASE WHEN r.status = 'denied' THEN 'A refund was agreed with the customer instead.' END,
         n.id, $1, 'generator', CASE WHEN r.status <> 'requested' THEN $1::bigint END,
         CASE WHEN r.status <> 'requested' THEN r.at + interval '3 hours' END, r.at,
         r.at + CASE WHEN r.status <> 'requested' THEN interval '3 hours' ELSE interval '0' END
       FROM requests r
       LEFT JOIN orders n ON n.parent_order_id = r.order_id AND n.source = 'reship'
       ORDER BY r.at, r.order_id
       RETURNING id, original_order_id, status, deny_reason, new_order_id),
     rows AS (
       SELECT m.id, m.status, m.deny_reason, r.order_id, r.number, r.order_status, r.reason,
         r.ship_to, r.at, n.number AS new_order
       FROM made m JOIN requests r ON r.order_id = m.original_order_id
       LEFT JOIN orders n ON n.id = m.new_order_id),
     steps AS (
       SELECT r.id, s.*
       FROM rows r
       CROSS JOIN LATERAL (VALUES
         (1, r.at, 'requested', NULL, 'requested',
          jsonb_build_object('order', r.number, 'reason', r.reason,
            'address_changed', r.ship_to IS NOT NULL), true),
         (2, r.at + interval '3 hours', 'denied', 'requested', 'denied',
          jsonb_build_object('reason', r.deny_reason), r.status = 'denied'),
         (3, r.at + interval '3 hours', 'approved', 'requested', 'approved', '{}'::jsonb,
          r.status = 'order_created'),
         (4, r.at + interval '3 hours', 'order_created', 'approved', 'order_created',
          jsonb_build_object('order', r.new_order), r.status = 'order_created')
       ) AS s (seq, at, type, from_status, to_status, data, happened)
       WHERE s.happened),
     timeline AS (
       INSERT INTO reship_events (reship_id, at, actor_id, actor_name, type, from_status,
         to_status, data)
       SELECT id, at, $1, 'generator', type, from_status, to_status, data FROM steps
       ORDER BY id, seq
       RETURNING id),
     reshipped AS (
       UPDATE orders o SET status = 'reshipped', updated_at = r.at + interval '3 hours'
       FROM rows r WHERE o.id = r.order_id AND r.status = 'order_created'
       RETURNING o.id),
     order_steps AS (
       INSERT INTO order_events (order_id, at, actor_id, actor_name, type, from_status,
         to_status, data)
       SELECT order_id, at + interval '3 hours', $1, 'generator', 'reshipped', order_status,
         'reshipped', jsonb_build_object('reship', id, 'new_order', new_order)
       FROM rows WHERE status = 'order_created'
       RETURNING id)
     SELECT (SELECT count(*)::int FROM made) AS reships,
       (SELECT count(*) FROM timeline) + (SELECT count(*) FROM reshipped)
         + (SELECT count(*) FROM order_steps) AS written`,
    [actor],
  );
  return { reships: row!.reships, reshipOrders };
}

/**
 * The requests to make, one per original order: when, why, who bears the cost, the corrected
 * address of a parcel returned to sender, the returned unit a waiting request names, and the
 * status. Read twice, by the child orders and by the requests. The first round reads the orders
 * without a parent; the second the child orders of reships that came back (every one: a parcel
 * returned twice is sent again), to an address corrected once more.
 */
function reshipRequests(anchor: string, second: boolean): string {
  return `
    SELECT c.*,
      CASE WHEN c.at > ${anchor} - interval '2 days' THEN 'requested'
        WHEN c.h / 1000 % 20 = 0 THEN 'denied' ELSE 'order_created' END AS status,
      CASE WHEN c.at > ${anchor} - interval '2 days' AND c.reason = 'return_to_sender' THEN
        (SELECT d.id FROM order_lines l JOIN order_line_units u ON u.order_line_id = l.id
         JOIN devices d ON d.id = u.device_id
         WHERE l.order_id = c.order_id AND d.status = 'returned' ORDER BY d.id LIMIT 1)
      END AS device_id
    FROM (
      SELECT o.id AS order_id, o.number, o.status AS order_status, h,
        CASE o.status WHEN 'returned' THEN 'return_to_sender' WHEN 'lost' THEN 'lost'
          ELSE (ARRAY['damaged', 'wrong_item'])[h % 2 + 1] END AS reason,
        CASE o.status WHEN 'returned' THEN (ARRAY['customer', 'company', 'client'])[h / 10 % 3 + 1]
          WHEN 'lost' THEN 'carrier'
          ELSE CASE WHEN h % 2 = 0 THEN 'carrier' ELSE 'company' END END AS cost_owner,
        CASE o.status
          WHEN 'returned' THEN COALESCE(p.status_event_at, p.scanned_out_at + interval '170 hours')
            + interval '2 days' + (h % 24) * interval '1 hour'
          WHEN 'lost' THEN p.scanned_out_at + interval '16 days' + (h % 72) * interval '1 hour'
          ELSE COALESCE(p.delivered_at, p.scanned_out_at + interval '2 days') + interval '1 day'
            + (h % 72) * interval '1 hour' END AS at,
        CASE WHEN o.status = 'returned' THEN jsonb_build_object('name', t.name,
          'company', t.company, 'line1', t.line1,
          'line2', '${second ? 'UNIT' : 'APT'} ' || (h % 90 + 1),
          'city', t.city, 'state', t.state, 'zip', t.zip, 'phone', t.phone) END AS ship_to
      FROM orders o
      JOIN packages p ON p.order_id = o.id AND p.status = o.status
        AND p.scanned_out_at IS NOT NULL
      JOIN order_ship_to t ON t.order_id = o.id
      CROSS JOIN LATERAL (SELECT (o.id * 2654435761 + 15485863) % 2147483647 AS h) x
      WHERE ${second ? "o.source = 'reship' AND o.status = 'returned'" : 'o.parent_order_id IS NULL'}
        AND CASE o.status WHEN 'returned' THEN h % 10 < ${second ? 10 : 8} WHEN 'lost' THEN h % 10 < 9
          WHEN 'delivered' THEN h % 1000 < ${DELIVERED_RESHIP_PER_MILLE}
            AND NOT EXISTS (SELECT 1 FROM rmas r WHERE r.order_id = o.id)
          ELSE false END
    ) c
    WHERE c.at < ${anchor}`;
}
