import { TEST_ITEMS } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';

const ALL_PASS = Object.fromEntries(TEST_ITEMS.map((item) => [item, 'pass']));

export type GenerateRepairSummary = { tickets: number };

/**
 * Repair tickets for `npm run db:generate`: four in five devices that failed QC get a ticket
 * raised over the 60 days before `anchor`, and every returned device that RMA receiving or the
 * unpack desk routed to repair gets one then (its source and reference the RMA's number or the
 * parcel's tracking), first assigned to the repair workers (or the first user). Most are released with a grade (the device `repaired`), some declared beyond repair
 * (the device scrapped or kept for parts), the rest still open at a step of the line (the device
 * `in_repair`); one in four needed a second test. Written as set statements with their device
 * events, as the generator writes the rest of the registry. Parts are not issued: the counted
 * stock's ledger is the stock generator's.
 */
export async function generateRepair(
  db: Queryable,
  { anchor }: { anchor: Date },
): Promise<GenerateRepairSummary> {
  const [made] = await db.query<{ tickets: number }>(
    `WITH technicians AS (
       SELECT array_agg(id ORDER BY id) AS ids FROM (
         SELECT ur.user_id AS id FROM user_roles ur JOIN roles r ON r.id = ur.role_id
         WHERE r.key = 'repair-worker'
         UNION SELECT min(id) FROM users) t),
     -- A returned device came back routed to repair: by RMA receiving or at the unpack desk.
     routed AS (
       SELECT DISTINCT ON (device_id) device_id, source, reference, at FROM (
         SELECT l.device_id, 'rma' AS source, r.number AS reference,
           l.received_at + interval '2 hours' AS at
         FROM rma_lines l JOIN rmas r ON r.id = l.rma_id
         WHERE l.route = 'repair' AND l.received_at IS NOT NULL
         UNION ALL
         SELECT i.device_id, 'unpack', p.tracking_number, k.unpacked_at
         FROM unpack_items i JOIN unpacks k ON k.id = i.unpack_id
         JOIN packages p ON p.id = k.package_id
         WHERE i.disposition = 'repair') r
       ORDER BY device_id, at DESC),
     placed AS (
       SELECT d.id, d.id::int AS n, d.status AS from_status, r.reference,
         CASE WHEN r.source IS NULL THEN 'production' ELSE r.source END AS source,
         COALESCE(r.at,
           $1::timestamptz - make_interval(days => d.id::int % 60, hours => d.id::int % 24)) AS at
       FROM devices d LEFT JOIN routed r ON r.device_id = d.id
       WHERE ((d.status = 'failed_qc' AND d.id % 5 <> 0) OR (d.status = 'returned' AND r.at IS NOT NULL))
         AND NOT EXISTS (SELECT 1 FROM repair_tickets t WHERE t.device_id = d.id)),
     -- A ticket raised more than two months ago has left the line.
     picked AS (
       SELECT placed.*,
         CASE WHEN n % 10 = 6 THEN 'beyond_repair'
              WHEN n % 10 < 6 OR at < $1::timestamptz - interval '60 days' THEN 'released'
              ELSE (ARRAY['requested', 'sorted', 'assigned', 'in_repair', 'waiting_parts',
                          'repaired'])[1 + n % 6] END AS target
       FROM placed),
     tickets AS (
       INSERT INTO repair_tickets (device_id, status, source, reference, issue_codes, priority,
         estimated_cost_cents, resale_value_cents, ber_candidate, technician_id, labour_seconds,
         test_count, grade, ber_outcome, requested_at, sorted_at, assigned_at, repaired_at,
         closed_at)
       SELECT p.id, p.target, p.source, p.reference,
         ARRAY[(ARRAY['LCD-CRACK', 'BATTERY-WEAK', 'PORT-FAIL', 'CAMERA-FAIL', 'NO-POWER'])[1 + p.n % 5]],
         (ARRAY['low', 'normal', 'high', 'urgent'])[1 + p.n % 4],
         CASE WHEN p.target <> 'requested' THEN 1500 + (p.n % 40) * 250 END,
         CASE WHEN p.target <> 'requested' THEN 6000 + (p.n % 30) * 500 END,
         p.target = 'beyond_repair',
         CASE WHEN p.target NOT IN ('requested', 'sorted')
              THEN (SELECT ids[1 + p.n % cardinality(ids)] FROM technicians) END,
         CASE WHEN p.target IN ('released', 'repaired', 'in_repair', 'waiting_parts')
              THEN 900 + (p.n % 20) * 300 ELSE 0 END,
         CASE WHEN p.target = 'released' THEN 1 + (p.n % 4 = 0)::int ELSE 0 END,
         CASE WHEN p.target = 'released' THEN (ARRAY['A', 'B', 'B', 'C'])[1 + p.n % 4] END,
         CASE WHEN p.target = 'beyond_repair'
              THEN (ARRAY['scrapped', 'parts'])[1 + p.n % 2] END,
         p.at,
         CASE WHEN p.target <> 'requested' THEN p.at + interval '2 hours' END,
         CASE WHEN p.target NOT IN ('requested', 'sorted') THEN p.at + interval '4 hours' END,
         CASE WHEN p.target IN ('released', 'repaired') THEN p.at + interval '1 day' END,
         CASE WHEN p.target IN ('released', 'beyond_repair') THEN p.at + interval '2 days' END
       FROM picked p
       RETURNING id, number, device_id, status, grade, ber_outcome, test_count, requested_at,
         closed_at),
     -- The unpack desk names the ticket on the parcel's line, as the station does.
     noted AS (
       UPDATE unpack_items i SET note = 'Repair ticket ' || t.number || '.'
       FROM tickets t JOIN picked p ON p.id = t.device_id
       WHERE p.source = 'unpack' AND i.device_id = t.device_id AND i.disposition = 'repair'
       RETURNING i.id),
     moved AS (
       UPDATE devices d
       SET status = CASE t.status WHEN 'released' THEN 'repaired'
                                  WHEN 'beyond_repair' THEN t.ber_outcome ELSE 'in_repair' END,
           grade = COALESCE(t.grade, d.grade), updated_at = now()
       FROM tickets t, picked p WHERE d.id = t.device_id AND p.id = t.device_id
       RETURNING d.id, p.from_status, d.status, t.id AS ticket_id, t.requested_at, t.closed_at),
     device_steps AS (
       INSERT INTO device_events (device_id, at, type, from_status, to_status, ref_type, ref_id,
         station)
       SELECT m.id, m.requested_at, 'sent_to_repair', m.from_status, 'in_repair', 'repair_ticket',
         m.ticket_id, 'repair'
       FROM moved m
       UNION ALL
       SELECT m.id, m.closed_at,
         CASE m.status WHEN 'repaired' THEN 'repair_test_passed' WHEN 'scrapped' THEN 'scrapped'
                       ELSE 'harvested_for_parts' END,
         'in_repair', m.status, 'repair_ticket', m.ticket_id, 'repair'
       FROM moved m WHERE m.status <> 'in_repair'
       RETURNING id),
     ticket_events AS (
       INSERT INTO repair_ticket_events (ticket_id, at, type, to_status)
       SELECT t.id, t.requested_at, 'requested', 'requested' FROM tickets t
       RETURNING id),
     tests AS (
       INSERT INTO repair_tests (ticket_id, passed, grade, items, tested_at)
       SELECT t.id, true, t.grade, $2::jsonb, t.closed_at FROM tickets t
       WHERE t.status = 'released'
       UNION ALL
       SELECT t.id, false, NULL, $3::jsonb, t.closed_at - interval '6 hours' FROM tickets t
       WHERE t.status = 'released' AND t.test_count = 2
       RETURNING id)
     SELECT count(*)::int AS tickets, (SELECT count(*) FROM noted) AS noted FROM tickets`,
    [
      anchor.toISOString(),
      JSON.stringify(ALL_PASS),
      JSON.stringify({ ...ALL_PASS, touch: 'fail' }),
    ],
  );
  return { tickets: made!.tickets };
}
