import type { Queryable } from '../../db/db.js';

/**
 * The carrier's last event of the generated parcels behind us (run after `generatePackages`):
 * a delivered parcel's delivery, about two days after scan-out, and a returned parcel's return to
 * its sender a week after, each kept on its package as a recorded event is (migration 0056), so
 * the parcel shipments list shows them delivered and returned. Parcels still on their way get
 * their events from the carrier (the polling job). Set-based, deterministic; answers the events.
 */
export async function generateTracking(db: Queryable): Promise<{ trackingEvents: number }> {
  const [row] = await db.query<{ events: number }>(
    `WITH last AS (
       SELECT p.id, p.tracking_number, p.carrier, e.words, e.description, e.status, e.moved_to,
         date_trunc('milliseconds', LEAST(p.scanned_out_at + e.delay, now())) AS at
       FROM packages p
       CROSS JOIN LATERAL (
         SELECT * FROM (VALUES
           ('delivered', 'Delivered, In/At Mailbox', 'Your item was delivered in or at the mailbox',
            'delivered', 'delivered', interval '50 hours'),
           ('returned', 'Return to Sender', 'Your item is being returned to the sender',
            'return_to_sender', 'return_to_sender', interval '170 hours')
         ) AS v (package_status, words, description, status, moved_to, delay)
         WHERE v.package_status = p.status
       ) e
       WHERE p.scanned_out_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM tracking_events t WHERE t.package_id = p.id)
     ), made AS (
       INSERT INTO tracking_events (package_id, tracking_number, carrier, carrier_status,
         description, status, occurred_at, source, dedup_key, moved_to, recorded_at)
       SELECT id, tracking_number, carrier, words, description, status, at, 'adapter',
         to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '|' || status || '|'
           || lower(words) || '|',
         moved_to, at
       FROM last ORDER BY id
       RETURNING package_id, status, occurred_at, description
     ), kept AS (
       UPDATE packages p SET tracking_status = m.status, last_event_at = m.occurred_at,
         last_event_text = m.description, status_event_at = m.occurred_at,
         delivered_at = CASE WHEN m.status = 'delivered' THEN m.occurred_at END
       FROM made m WHERE p.id = m.package_id
     )
     SELECT count(*)::int AS events FROM made`,
  );
  return { trackingEvents: row!.events };
}
