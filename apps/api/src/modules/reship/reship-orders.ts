import { RESHIP_PAGE_MAX, type ReshipOrder } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { isoTextSql } from '../../http/sql.js';

/**
 * The reship orders (DOMAIN.md 4.16 /shipment-management/reship/order): child orders created by
 * reships, newest first, with their parent and where fulfilment has them. They are assigned,
 * picked and shipped on the normal fulfilment pages.
 */
export async function reshipOrders(db: Queryable) {
  const [orders, [count]] = await Promise.all([
    db.query<ReshipOrder>(
      `SELECT o.id::int AS id, o.number, o.status, o.priority,
         p.id::int AS parent_order_id, p.number AS parent_number,
         r.id::int AS reship_id, r.reason,
         t.city || ', ' || t.state AS place,
         (SELECT string_agg(l.qty || ' × ' || l.sku, ', ' ORDER BY l.position)
          FROM order_lines l WHERE l.order_id = o.id) AS items_text,
         ru.imei AS requested_imei, ru.state AS requested_unit,
         ${isoTextSql('o.created_at')} AS created_at, ${isoTextSql('o.shipped_at')} AS shipped_at
       FROM orders o
       JOIN reships r ON r.new_order_id = o.id
       JOIN orders p ON p.id = r.original_order_id
       JOIN order_ship_to t ON t.order_id = o.id
       LEFT JOIN LATERAL (
         SELECT d.identifier AS imei,
           CASE WHEN own.status = 'shipped' THEN 'shipped'
             WHEN own.status IS NOT NULL THEN 'reserved'
             WHEN EXISTS (SELECT 1 FROM order_line_units u WHERE u.order_line_id = l.id
                            AND u.status IN ('allocated', 'picked', 'packed', 'shipped'))
               THEN 'another_unit'
             ELSE 'to_assign' END AS state
         FROM order_lines l JOIN devices d ON d.id = l.requested_device_id
         LEFT JOIN LATERAL (
           SELECT u.status FROM order_line_units u
           WHERE u.order_line_id = l.id AND u.device_id = d.id
             AND u.status IN ('allocated', 'picked', 'packed', 'shipped')
           ORDER BY u.id DESC LIMIT 1
         ) own ON true
         WHERE l.order_id = o.id ORDER BY l.position LIMIT 1
       ) ru ON true
       WHERE o.source = 'reship'
       ORDER BY o.created_at DESC, o.id DESC LIMIT ${RESHIP_PAGE_MAX}`,
    ),
    db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM reships WHERE new_order_id IS NOT NULL`,
    ),
  ]);
  return { orders, total: count?.total ?? 0 };
}
