import type { Queryable } from '../../db/db.js';

export type GenerateProductionOptions = {
  /** Product requests to create over staged (or received) boxes of received devices (default 20, at most 1,000). */
  requests?: number;
};

export type GenerateProductionSummary = { requests: number; graded: number; failed: number };

/**
 * Product requests for `npm run db:generate`: each takes one closed box of received devices,
 * hands its devices to the first production worker (or the first user), and records tests for
 * three in four of them: most graded, some failed with an issue code. Written as set statements
 * with their device events, as the generator writes the rest of the registry.
 */
export async function generateProduction(
  db: Queryable,
  options: GenerateProductionOptions = {},
): Promise<GenerateProductionSummary> {
  const requests = options.requests ?? 20;
  if (!Number.isInteger(requests) || requests < 0 || requests > 1000) {
    throw new RangeError('requests must be a whole number from 0 to 1000.');
  }
  const [made] = await db.query<{ requests: number; graded: number; failed: number }>(
    `WITH boxes AS (
       SELECT wb.id, (SELECT d.model_id FROM devices d WHERE d.warehouse_box_id = wb.id
                      AND d.status = 'received' LIMIT 1) AS model_id
       FROM warehouse_boxes wb
       WHERE wb.status IN ('received', 'staged')
         AND NOT EXISTS (SELECT 1 FROM product_request_boxes l WHERE l.warehouse_box_id = wb.id)
       ORDER BY wb.id LIMIT $1),
     worker AS (
       SELECT COALESCE(
         (SELECT ur.user_id FROM user_roles ur JOIN roles r ON r.id = ur.role_id
          WHERE r.key = 'production-worker' ORDER BY ur.user_id LIMIT 1),
         (SELECT min(id) FROM users)) AS id),
     requests AS (
       INSERT INTO product_requests (model_id, qty, priority, status, approved_at, note)
       SELECT b.model_id, (SELECT count(*) FROM devices d WHERE d.warehouse_box_id = b.id),
         (ARRAY['low', 'normal', 'high', 'urgent'])[1 + b.id % 4], 'in_progress', now(),
         'box ' || b.id
       FROM boxes b WHERE b.model_id IS NOT NULL RETURNING id, note),
     links AS (
       INSERT INTO product_request_boxes (product_request_id, warehouse_box_id)
       SELECT r.id, substr(r.note, 5)::bigint FROM requests r RETURNING *),
     boxes_moved AS (
       UPDATE warehouse_boxes SET status = 'in_production'
       WHERE id IN (SELECT warehouse_box_id FROM links) RETURNING id),
     devices_of AS (
       SELECT d.id, l.product_request_id, l.warehouse_box_id,
         CASE WHEN d.id % 4 = 0 THEN 'in_production' WHEN d.id % 7 = 0 THEN 'failed_qc'
              ELSE 'graded' END AS target
       FROM devices d JOIN links l ON l.warehouse_box_id = d.warehouse_box_id
       WHERE d.status = 'received'),
     assigned AS (
       INSERT INTO production_assignments (device_id, worker_id, product_request_id, warehouse_box_id)
       SELECT d.id, (SELECT id FROM worker), d.product_request_id, d.warehouse_box_id
       FROM devices_of d WHERE (SELECT id FROM worker) IS NOT NULL RETURNING device_id),
     moved AS (
       UPDATE devices d SET status = o.target,
         grade = CASE o.target WHEN 'graded' THEN (ARRAY['A', 'B', 'B', 'C', 'D'])[1 + d.id % 5]
                               WHEN 'failed_qc' THEN 'F' ELSE d.grade END,
         battery_health = 70 + d.id % 30, frp_lock = false,
         wipe_method = CASE WHEN o.target = 'graded' THEN 'factory_reset' END,
         wipe_certificate = CASE WHEN o.target = 'graded' THEN 'GEN-' || d.id END,
         wiped_at = CASE WHEN o.target = 'graded' THEN now() END,
         graded_at = CASE WHEN o.target = 'graded' THEN now() END,
         blacklist_state = 'clean', blacklist_checked_at = now()
       FROM devices_of o WHERE o.id = d.id AND o.id IN (SELECT device_id FROM assigned)
       RETURNING d.id, o.target, d.grade),
     tests AS (
       INSERT INTO device_tests (device_id, tester_id, items, battery_health, grade, issue_codes, result)
       SELECT m.id, (SELECT id FROM worker),
         CASE WHEN m.target = 'graded' THEN '{"screen":"pass","touch":"pass","audio":"pass","mic":"pass","cameras":"pass","buttons":"pass","port":"pass","wifi":"pass","bluetooth":"pass","sensors":"pass"}'::jsonb
              ELSE '{"screen":"fail","touch":"pass","audio":"pass","mic":"pass","cameras":"pass","buttons":"pass","port":"pass","wifi":"pass","bluetooth":"pass","sensors":"pass"}'::jsonb END,
         70 + m.id % 30, m.grade,
         CASE WHEN m.target = 'failed_qc' THEN ARRAY['LCD-CRACK'] ELSE '{}' END,
         CASE WHEN m.target = 'graded' THEN 'pass' ELSE 'fail' END
       FROM moved m WHERE m.target <> 'in_production' RETURNING result),
     events AS (
       INSERT INTO device_events (device_id, type, from_status, to_status, ref_type)
       SELECT m.id, CASE m.target WHEN 'in_production' THEN 'production_started'
                                  ELSE m.target END, 'received', m.target, 'product_request'
       FROM moved m RETURNING id)
     SELECT (SELECT count(*)::int FROM requests) AS requests,
       (SELECT count(*)::int FROM tests WHERE result = 'pass') AS graded,
       (SELECT count(*)::int FROM tests WHERE result = 'fail') AS failed`,
    [requests],
  );
  await db.query(
    `UPDATE product_requests SET note = NULL WHERE note LIKE 'box %' AND note ~ '^box [0-9]+$'`,
  );
  return made!;
}
