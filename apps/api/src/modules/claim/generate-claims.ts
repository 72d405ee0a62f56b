import type { Queryable } from '../../db/db.js';

/**
 * The carrier claims for the generated lost parcels (run after `generateUnits`): each lost parcel
 * whose unit names a device is claimed once the carrier's search period is over, valued at the
 * order's price and asking the device's cost. Claims filed more than a month before `anchor` are
 * decided (half paid, the device then written off as `lost`; some denied; some paid and closed);
 * newer ones are filed or in review, the last days' still drafts. Each step is on the claim's
 * timeline as the claim desk writes it. Set-based, deterministic; answers the claims.
 */
export async function generateClaims(
  db: Queryable,
  { anchor, actor }: { anchor: Date; actor: number | null },
): Promise<{ claims: number }> {
  const [row] = await db.query<{ claims: number }>(
    `WITH lost AS (
       SELECT p.id AS package_id, p.carrier, o.total_cents, d.id AS device_id, d.unit_cost_cents,
         p.scanned_out_at + make_interval(days => t.lost_wait_days + 1 + (p.id % 5)::int) AS at
       FROM packages p
       JOIN claim_carrier_terms t ON t.carrier = p.carrier
       JOIN orders o ON o.id = p.order_id
       JOIN order_lines l ON l.order_id = o.id
       JOIN order_line_units u ON u.order_line_id = l.id AND u.status = 'shipped'
       JOIN devices d ON d.id = u.device_id AND d.status = 'shipped'
       WHERE p.status = 'lost' AND p.scanned_out_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM claims c WHERE c.package_id = p.id)),
     staged AS (
       SELECT lost.*,
         CASE WHEN at > $1::timestamptz - interval '3 days' THEN 'draft'
           WHEN at > $1::timestamptz - interval '30 days'
             THEN (ARRAY['filed', 'in_review'])[package_id % 2 + 1]
           ELSE (ARRAY['paid', 'paid', 'paid', 'paid', 'denied', 'denied', 'closed'])[package_id % 7 + 1]
         END AS status
       FROM lost WHERE at < $1::timestamptz),
     made AS (
       INSERT INTO claims (package_id, type, declared_cents, claimed_cents, status,
         carrier_claim_number, paid_cents, created_at, created_by, updated_at, filed_at, decided_at,
         closed_at)
       SELECT package_id, 'lost', total_cents, GREATEST(1, unit_cost_cents), status,
         CASE WHEN status <> 'draft' THEN upper(carrier) || '-' || lpad(package_id::text, 10, '0') END,
         CASE WHEN status IN ('paid', 'closed') THEN GREATEST(1, unit_cost_cents) END,
         at, $2, at + CASE status WHEN 'draft' THEN interval '0' WHEN 'filed' THEN interval '1 day'
           WHEN 'in_review' THEN interval '3 days' WHEN 'closed' THEN interval '25 days'
           ELSE interval '20 days' END,
         CASE WHEN status <> 'draft' THEN at + interval '1 day' END,
         CASE WHEN status IN ('paid', 'denied', 'closed') THEN at + interval '20 days' END,
         CASE WHEN status = 'closed' THEN at + interval '25 days' END
       FROM staged ORDER BY at, package_id
       RETURNING id, number, package_id, status, created_at, carrier_claim_number, paid_cents),
     steps AS (
       SELECT m.id, s.at, s.type, s.from_status, s.to_status, s.data
       FROM made m
       CROSS JOIN LATERAL (VALUES
         (m.created_at, 'created', NULL, 'draft', jsonb_build_object('type', 'lost'), true),
         (m.created_at + interval '1 day', 'filed', 'draft', 'filed',
          jsonb_build_object('carrier_claim_number', m.carrier_claim_number), m.status <> 'draft'),
         (m.created_at + interval '3 days', 'in_review', 'filed', 'in_review', '{}'::jsonb,
          m.status NOT IN ('draft', 'filed')),
         (m.created_at + interval '20 days', 'paid', 'in_review', 'paid',
          jsonb_build_object('paid_cents', m.paid_cents), m.status IN ('paid', 'closed')),
         (m.created_at + interval '20 days', 'denied', 'in_review', 'denied', '{}'::jsonb,
          m.status = 'denied'),
         (m.created_at + interval '25 days', 'closed', 'paid', 'closed', '{}'::jsonb,
          m.status = 'closed')
       ) AS s (at, type, from_status, to_status, data, happened)
       WHERE s.happened),
     timeline AS (
       INSERT INTO claim_events (claim_id, at, actor_id, actor_name, type, from_status, to_status,
         data)
       SELECT id, at, $2, 'generator', type, from_status, to_status, data FROM steps
       ORDER BY id, at
       RETURNING id),
     -- A lost parcel's claim paid writes its device off.
     written_off AS (
       UPDATE devices d SET status = 'lost', updated_at = m.created_at + interval '20 days'
       FROM made m JOIN lost l USING (package_id)
       WHERE d.id = l.device_id AND m.status IN ('paid', 'closed')
       RETURNING d.id, m.id AS claim_id, m.number, d.updated_at),
     device_steps AS (
       INSERT INTO device_events (device_id, at, actor_id, actor_name, type, from_status,
         to_status, ref_type, ref_id, data)
       SELECT id, updated_at, $2, 'generator', 'lost', 'shipped', 'lost', 'claim', claim_id,
         jsonb_build_object('claim', number)
       FROM written_off
       RETURNING id)
     SELECT (SELECT count(*)::int FROM made) AS claims,
       (SELECT count(*) FROM timeline) + (SELECT count(*) FROM device_steps) AS written`,
    [anchor.toISOString(), actor],
  );
  return { claims: row!.claims };
}
