import type { ProductionOverview } from '@inventory/contract';
import type { Db } from '../../db/db.js';
import { businessDayStartSql } from '../../http/sql.js';

/**
 * The product team's overview (DOMAIN.md 4.17 `/invoice/product-team`): per open request its boxes
 * waiting, in production and done; today's tests; the grades of the open requests' devices.
 */
export async function productionOverview(db: Db): Promise<ProductionOverview> {
  const [overview] = await db.query<ProductionOverview>(
    `SELECT
       COALESCE((
         SELECT json_agg(r ORDER BY r.id DESC) FROM (
           SELECT pr.id, pr.number,
             concat_ws(' ', (SELECT b.name FROM brands b WHERE b.id = m.brand_id), m.name) AS model,
             pr.priority, pr.status,
             count(*) FILTER (WHERE box.waiting = box.total)::int AS boxes_waiting,
             count(*) FILTER (WHERE box.waiting < box.total AND box.open > 0)::int AS boxes_in_production,
             count(*) FILTER (WHERE box.total > 0 AND box.open = 0)::int AS boxes_done
           FROM product_requests pr
           JOIN device_models m ON m.id = pr.model_id
           LEFT JOIN product_request_boxes l ON l.product_request_id = pr.id
           LEFT JOIN LATERAL (
             SELECT count(*) AS total,
               count(*) FILTER (WHERE d.status = 'received') AS waiting,
               count(*) FILTER (WHERE d.status IN ('received', 'in_production')) AS open
             FROM devices d WHERE d.warehouse_box_id = l.warehouse_box_id
           ) box ON true
           WHERE pr.status IN ('submitted', 'approved', 'in_progress')
           GROUP BY pr.id, m.brand_id, m.name) r), '[]'::json) AS requests,
       (SELECT json_build_object(
           'graded', count(*) FILTER (WHERE result = 'pass'),
           'failed', count(*) FILTER (WHERE result = 'fail'),
           'held', count(*) FILTER (WHERE result = 'hold'))
        FROM device_tests WHERE run_at >= ${businessDayStartSql('order_business_day(now())')}) AS today,
       COALESCE((
         SELECT json_agg(g ORDER BY g.grade) FROM (
           SELECT d.grade, count(*)::int AS devices
           FROM product_requests pr
           JOIN product_request_boxes l ON l.product_request_id = pr.id AND l.active
           JOIN devices d ON d.warehouse_box_id = l.warehouse_box_id
           WHERE d.status = 'graded' AND d.grade IS NOT NULL
           GROUP BY d.grade) g), '[]'::json) AS grades`,
  );
  return overview!;
}
