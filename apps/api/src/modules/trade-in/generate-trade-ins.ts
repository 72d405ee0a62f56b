import type { Queryable } from '../../db/db.js';

export type GenerateTradeInsOptions = {
  readonly anchor: Date;
  readonly actor: number | null;
  /**
   * SQL of the 15-digit IMEI of the nth phone traded in, over the bigint expression given: phones
   * the registry never held, whose TACs name generated models (the IMEI space is the caller's).
   */
  readonly imei: (n: string) => string;
};

/** Orders (of a subscriber's, or the web's) that come with a trade-in: one in a hundred. */
const TRADE_IN_PER_CENT = 1;

/**
 * A year of trade-ins (DOMAIN.md 3.7 TradeIn): one in a hundred subscriber and web orders comes
 * with a phone traded in by its customer (half credited to that order), quoted at once, received
 * five days later, inspected the next day. Of the phones: most accepted at the quote, some
 * revalued with an offer (accepted, or declined and sent back), a few rejected as
 * activation-locked, one in twenty reported stolen, lost or unpaid two days after the quote (an
 * open blacklist entry) and so rejected at its receipt as the trade-in desk does (no inspection,
 * no device of ours, nothing held), one in twenty never sent. Each reaches the steps it had by `anchor`, so the
 * newest are still expected, received, inspected or revalued. An accepted phone becomes our
 * device, `returned`, for re-inspection; two weeks after, it was approved for reuse. Every step
 * is on the trade-in's timeline, and the device's, as the trade-in desk writes them. Set-based,
 * deterministic; answers the trade-ins.
 */
export async function generateTradeIns(
  db: Queryable,
  { anchor, actor, imei }: GenerateTradeInsOptions,
): Promise<{ tradeIns: number }> {
  const [base] = await db.query<{ id: number }>(
    'SELECT COALESCE(max(id), 0)::int AS id FROM trade_ins',
  );
  const [row] = await db.query<{ trade_ins: number }>(
    `WITH customers AS (
       SELECT o.id AS order_id, o.created_at + interval '1 hour' AS at, t.name, t.line1, t.line2,
         t.city, t.state, t.zip, h,
         row_number() OVER (ORDER BY o.id) - 1 AS n
       FROM orders o
       JOIN order_ship_to t ON t.order_id = o.id
       CROSS JOIN LATERAL (SELECT (o.id * 2654435761 + 104729) % 2147483647 AS h) x
       WHERE o.parent_order_id IS NULL AND o.source IN ('carrier_api', 'campaign', 'web')
         AND h % 100 < ${TRADE_IN_PER_CENT} AND o.created_at + interval '1 hour' < $1::timestamptz),
     phones AS (
       SELECT c.*, $2::int + n + 1 AS id, i.imei, tn.model_id,
         b.name || ' ' || m.name AS declared_model, 5000 + (h / 100 % 30) * 1000 AS quoted_cents,
         -- accept at the quote, accept a revised offer, decline it, rejected, blacklisted, never
         -- sent.
         CASE WHEN h / 100 % 20 < 11 THEN 'accept' WHEN h / 100 % 20 < 14 THEN 'accept_offer'
           WHEN h / 100 % 20 < 17 THEN 'decline' WHEN h / 100 % 20 < 18 THEN 'reject'
           WHEN h / 100 % 20 < 19 THEN 'blacklisted' ELSE 'never' END AS outcome,
         (ARRAY['stolen', 'lost', 'unpaid'])[h / 7 % 3 + 1] AS blacklist_reason
       FROM customers c
       CROSS JOIN LATERAL (SELECT ${imei('c.n')} AS imei) i
       JOIN tac_numbers tn ON tn.tac = left(i.imei, 8)
       JOIN device_models m ON m.id = tn.model_id JOIN brands b ON b.id = m.brand_id),
     -- When each step happened, or NULL when it did not (or not yet by the anchor).
     timed AS (
       SELECT p.*, s.*
       FROM phones p
       CROSS JOIN LATERAL (SELECT
         CASE WHEN outcome <> 'never' THEN at + interval '5 days' END AS received,
         CASE WHEN outcome NOT IN ('never', 'blacklisted') THEN at + interval '6 days' END
           AS inspected,
         CASE WHEN outcome = 'blacklisted' THEN at + interval '2 days' END AS flagged,
         CASE WHEN outcome IN ('accept_offer', 'decline') THEN at + interval '6 days 1 hour' END
           AS revalued,
         CASE outcome WHEN 'accept' THEN at + interval '6 days 2 hours'
           WHEN 'accept_offer' THEN at + interval '8 days' END AS accepted,
         CASE WHEN outcome = 'decline' THEN at + interval '9 days' END AS declined,
         CASE WHEN outcome = 'decline' THEN at + interval '10 days' END AS sent_back) t
       CROSS JOIN LATERAL (SELECT
         CASE WHEN t.received <= $1 THEN t.received END AS received_at,
         CASE WHEN t.inspected <= $1 THEN t.inspected END AS inspected_at,
         CASE WHEN t.flagged <= $1 THEN t.flagged END AS flagged_at,
         CASE WHEN t.revalued <= $1 THEN t.revalued END AS revalued_at,
         CASE WHEN t.accepted <= $1 THEN t.accepted END AS accepted_at,
         CASE WHEN t.declined <= $1 THEN t.declined END AS declined_at,
         CASE WHEN t.sent_back <= $1 THEN t.sent_back END AS sent_back_at) s),
     stated AS (
       SELECT timed.*,
         CASE WHEN sent_back_at IS NOT NULL THEN 'returned'
           WHEN declined_at IS NOT NULL THEN 'declined' WHEN accepted_at IS NOT NULL THEN 'accepted'
           WHEN revalued_at IS NOT NULL THEN 'revalued'
           WHEN inspected_at IS NOT NULL THEN CASE WHEN outcome = 'reject' THEN 'rejected'
             ELSE 'inspected' END
           WHEN received_at IS NOT NULL THEN CASE WHEN outcome = 'blacklisted' THEN 'rejected'
             ELSE 'received' END
           ELSE 'expected' END AS status,
         (ARRAY['A', 'B', 'B', 'C'])[h / 2000 % 4 + 1] AS grade,
         CASE WHEN revalued_at IS NOT NULL THEN quoted_cents * 6 / 10 END AS offer_cents
       FROM timed),
     -- The phone reported two days after its quote: the entry its receipt finds.
     blacklisted AS (
       INSERT INTO blacklist_entries (imei, source, reason, reference, note, flagged_at,
         created_at, updated_at, created_by, updated_by)
       SELECT imei, 'carrier', blacklist_reason, 'TI-' || id,
         'Reported by its carrier after the trade-in quote.', flagged_at, flagged_at, flagged_at,
         $3, $3
       FROM stated WHERE flagged_at IS NOT NULL ORDER BY id
       RETURNING id),
     -- An accepted phone becomes our device; two weeks on it was approved for reuse.
     devices_made AS (
       INSERT INTO devices (imei, tac, model_id, condition, grade, status, blacklist_state,
         blacklist_checked_at, unit_cost_cents, received_at, received_by, reuse_count, created_at,
         updated_at)
       SELECT imei, left(imei, 8), model_id, 'used', grade,
         CASE WHEN accepted_at < $1::timestamptz - interval '14 days' THEN 'reuse'
           ELSE 'returned' END,
         'clean', received_at, COALESCE(offer_cents, quoted_cents), accepted_at, $3,
         (accepted_at < $1::timestamptz - interval '14 days')::int, accepted_at,
         CASE WHEN accepted_at < $1::timestamptz - interval '14 days'
           THEN accepted_at + interval '14 days' ELSE accepted_at END
       FROM stated WHERE status = 'accepted' ORDER BY id
       RETURNING id, imei, status, grade, received_at),
     made AS (
       INSERT INTO trade_ins (id, customer_name, line1, line2, city, state, zip, declared_model,
         quoted_cents, order_id, status, imei, model_id, received_at, received_by, station,
         powers_on, erased, activation_lock_off, functions_ok, screen_ok, body_ok, grade,
         inspected_at, inspected_by, offer_cents, offer_expires_at, credit_cents, device_id,
         return_carrier, return_tracking_number, created_at, created_by, updated_at)
       OVERRIDING SYSTEM VALUE
       SELECT s.id, s.name, s.line1, s.line2, s.city, s.state, s.zip, s.declared_model,
         s.quoted_cents, CASE WHEN s.h % 2 = 0 THEN s.order_id END, s.status,
         CASE WHEN s.received_at IS NOT NULL THEN s.imei END,
         CASE WHEN s.received_at IS NOT NULL THEN s.model_id END, s.received_at,
         CASE WHEN s.received_at IS NOT NULL THEN $3::bigint END,
         CASE WHEN s.received_at IS NOT NULL THEN 'trade-in-' || (s.h % 2 + 1) END,
         CASE WHEN s.inspected_at IS NOT NULL THEN true END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.h % 7 <> 0 END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.outcome <> 'reject' END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.outcome NOT IN ('accept_offer', 'decline') END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.h % 5 <> 0 END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.h % 3 <> 0 END,
         CASE WHEN s.inspected_at IS NOT NULL THEN s.grade END, s.inspected_at,
         CASE WHEN s.inspected_at IS NOT NULL THEN $3::bigint END,
         s.offer_cents,
         s.revalued_at + make_interval(days => (SELECT offer_valid_days FROM trade_in_settings)),
         CASE WHEN s.status = 'accepted' THEN COALESCE(s.offer_cents, s.quoted_cents) END, d.id,
         CASE WHEN s.sent_back_at IS NOT NULL THEN 'usps' END,
         CASE WHEN s.sent_back_at IS NOT NULL THEN '9205' || lpad(s.id::text, 18, '0') END,
         s.at, $3,
         COALESCE(s.sent_back_at, s.declined_at, s.accepted_at, s.revalued_at, s.inspected_at,
           s.received_at, s.at)
       FROM stated s LEFT JOIN devices_made d ON d.imei = s.imei
       ORDER BY s.id
       RETURNING id, number),
     steps AS (
       SELECT s.id, x.*
       FROM stated s JOIN made m ON m.id = s.id
       CROSS JOIN LATERAL (VALUES
         (1, s.at, 'expected', NULL, 'expected', jsonb_build_object('quoted_cents', s.quoted_cents),
          true),
         (2, s.received_at, 'received', 'expected', 'received', '{}'::jsonb,
          s.received_at IS NOT NULL AND s.outcome <> 'blacklisted'),
         (2, s.received_at, 'rejected', 'expected', 'rejected',
          jsonb_build_object('blacklist_reason', s.blacklist_reason, 'reason', 'blacklisted'),
          s.received_at IS NOT NULL AND s.outcome = 'blacklisted'),
         (3, s.inspected_at, 'rejected', 'received', 'rejected',
          jsonb_build_object('reason', 'activation_locked'),
          s.inspected_at IS NOT NULL AND s.outcome = 'reject'),
         (3, s.inspected_at, 'inspected', 'received', 'inspected', '{}'::jsonb,
          s.inspected_at IS NOT NULL AND s.outcome <> 'reject'),
         (4, s.revalued_at, 'revalued', 'inspected', 'revalued',
          jsonb_build_object('offer_cents', s.offer_cents), s.revalued_at IS NOT NULL),
         (5, s.accepted_at, 'accepted', CASE WHEN s.revalued_at IS NULL THEN 'inspected'
            ELSE 'revalued' END, 'accepted', '{}'::jsonb, s.accepted_at IS NOT NULL),
         (5, s.declined_at, 'declined', 'revalued', 'declined',
          jsonb_build_object('reason', 'The customer keeps the phone.'), s.declined_at IS NOT NULL),
         (6, s.sent_back_at, 'sent_back', 'declined', 'returned', '{}'::jsonb,
          s.sent_back_at IS NOT NULL)
       ) AS x (seq, at, type, from_status, to_status, data, happened)
       WHERE x.happened),
     timeline AS (
       INSERT INTO trade_in_events (trade_in_id, at, actor_id, actor_name, type, from_status,
         to_status, data)
       SELECT id, at, $3, 'generator', type, from_status, to_status, data FROM steps
       ORDER BY id, seq
       RETURNING id),
     device_steps AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, from_status,
         to_status, ref_type, ref_id, station, data)
       SELECT d.id, s.accepted_at, $3, 'generator', 'traded_in', NULL, 'returned', 'trade_in',
         s.id, NULL, jsonb_build_object('trade_in', m.number)
       FROM devices_made d JOIN stated s ON s.imei = d.imei JOIN made m ON m.id = s.id
       UNION ALL
       SELECT d.id, s.accepted_at + interval '14 days', $3, 'generator', 'reuse_approved',
         'returned', 'reuse', NULL, NULL, 'reuse', jsonb_build_object('grade', d.grade)
       FROM devices_made d JOIN stated s ON s.imei = d.imei WHERE d.status = 'reuse'
       RETURNING id),
     inspections AS (
       INSERT INTO device_reuse_inspections (device_id, wipe_method, blacklist_state, grade,
         decision, at, actor_id)
       SELECT d.id, 'NIST 800-88 purge', 'clean', d.grade, 'approved',
         s.accepted_at + interval '14 days', $3
       FROM devices_made d JOIN stated s ON s.imei = d.imei WHERE d.status = 'reuse'
       RETURNING id)
     SELECT (SELECT count(*)::int FROM made) AS trade_ins,
       (SELECT count(*) FROM timeline) + (SELECT count(*) FROM device_steps)
         + (SELECT count(*) FROM blacklisted)
         + (SELECT count(*) FROM inspections) AS written`,
    [anchor.toISOString(), base!.id, actor],
  );
  await db.query(
    `SELECT setval(pg_get_serial_sequence('trade_ins', 'id'),
       (SELECT COALESCE(max(id), 0) + 1 FROM trade_ins), false)`,
  );
  return { tradeIns: row!.trade_ins };
}
