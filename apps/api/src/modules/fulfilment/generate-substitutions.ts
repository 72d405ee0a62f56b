import type { Queryable } from '../../db/db.js';

export type GenerateSubstitutionsSummary = {
  readonly substitutionRules: number;
  readonly substitutions: number;
  readonly supportOrders: number;
};

/**
 * Substitutions and support orders for the data generator (npm run db:generate), after the
 * orders: a rule per client carrier and programme (every third carrier wants to hear of each
 * substitution); one in fifty delivered Lifeline orders shipped a substitute of its product (the
 * line keeps the variant ordered, the substitution is applied and, where asked, notified); a
 * third of the no-stock backlog has a substitute proposed; every support order its reason, those
 * with a device approved unless still pending. Set-based.
 */
export async function generateSubstitutions(db: Queryable): Promise<GenerateSubstitutionsSummary> {
  const [admin] = await db.query<{ id: number | null }>('SELECT min(id) AS id FROM users');
  const rules = await db.query(
    `INSERT INTO substitution_rules (client_carrier_id, program, notify_client, created_by,
       updated_by)
     SELECT v.id, p.program, v.id % 3 = 0, $1, $1
     FROM vendors v CROSS JOIN unnest(ARRAY['lifeline', 'tribal', 'prepaid']) AS p (program)
     WHERE v.type = 'carrier-client' AND v.active
     ON CONFLICT (client_carrier_id, program) DO NOTHING
     RETURNING id`,
    [admin!.id],
  );
  // Each chosen line with another active variant of its product: the one it was ordered as.
  const substituted = await db.query(
    `WITH chosen AS (
       SELECT o.id AS order_id, l.id AS line_id, l.variant_id AS to_id, l.qty,
         l.unit_price_cents, COALESCE(o.approved_at, o.created_at + interval '2 hours') AS at,
         r.id AS rule_id, r.notify_client,
         (SELECT w.id FROM product_variants w WHERE w.product_id = v.product_id
            AND w.id <> v.id AND w.status = 'active' ORDER BY w.id LIMIT 1) AS from_id
       FROM orders o
       JOIN order_lines l ON l.order_id = o.id
       JOIN product_variants v ON v.id = l.variant_id
       JOIN products p ON p.id = v.product_id AND p.kind = 'device'
       JOIN substitution_rules r ON r.client_carrier_id = o.client_carrier_id
         AND r.program = o.program
       WHERE o.status = 'delivered' AND o.program = 'lifeline' AND o.id % 50 = 7
     ), lines AS (
       UPDATE order_lines l SET substituted_from_variant_id = c.from_id
       FROM chosen c WHERE l.id = c.line_id AND c.from_id IS NOT NULL
     )
     INSERT INTO order_substitutions (order_id, order_line_id, rule_id, from_variant_id,
       to_variant_id, qty, ordered_price_cents, substitute_price_cents, status, notify_client,
       client_notified_at, client_notified_by, proposed_at, proposed_by, decided_at, decided_by)
     SELECT order_id, line_id, rule_id, from_id, to_id, qty, unit_price_cents, unit_price_cents,
       'applied', notify_client,
       CASE WHEN notify_client AND at < now() - interval '3 days' THEN at + interval '1 day' END,
       CASE WHEN notify_client AND at < now() - interval '3 days' THEN $1::bigint END,
       at, $1, at, $1
     FROM chosen WHERE from_id IS NOT NULL
     RETURNING id`,
    [admin!.id],
  );
  const proposed = await db.query(
    `WITH chosen AS (
       SELECT o.id AS order_id, l.id AS line_id, l.variant_id AS from_id, l.qty,
         l.unit_price_cents, r.id AS rule_id, r.notify_client,
         (SELECT w.id FROM product_variants w WHERE w.product_id = v.product_id
            AND w.id <> v.id AND w.status = 'active' ORDER BY w.id LIMIT 1) AS to_id
       FROM orders o
       JOIN order_lines l ON l.order_id = o.id
       JOIN product_variants v ON v.id = l.variant_id
       JOIN products p ON p.id = v.product_id AND p.kind = 'device'
       JOIN substitution_rules r ON r.client_carrier_id = o.client_carrier_id
         AND r.program = o.program
       WHERE o.status = 'on_hold' AND o.hold_reason = 'no_stock' AND o.id % 3 = 0
     ), held AS (
       UPDATE orders o SET status = 'substitution_pending', hold_reason = NULL,
         status_before_hold = NULL, hold_note = NULL
       FROM chosen c WHERE o.id = c.order_id AND c.to_id IS NOT NULL
     )
     INSERT INTO order_substitutions (order_id, order_line_id, rule_id, from_variant_id,
       to_variant_id, qty, ordered_price_cents, substitute_price_cents, status, notify_client,
       proposed_by)
     SELECT order_id, line_id, rule_id, from_id, to_id, qty, unit_price_cents, unit_price_cents,
       'proposed', notify_client, $1
     FROM chosen WHERE to_id IS NOT NULL
     RETURNING id`,
    [admin!.id],
  );
  const support = await db.query(
    `INSERT INTO support_orders (order_id, reason, needs_approval, approved_at, approved_by)
     SELECT o.id,
       (ARRAY['missing_item', 'defective_accessory', 'sim_replacement', 'goodwill',
         'service_recovery'])[o.id % 5 + 1],
       d.device, CASE WHEN d.device AND o.status <> 'pending' THEN o.approved_at END,
       CASE WHEN d.device AND o.status <> 'pending' AND o.approved_at IS NOT NULL THEN $1::bigint END
     FROM orders o
     CROSS JOIN LATERAL (
       SELECT EXISTS (SELECT 1 FROM order_lines l JOIN product_variants v ON v.id = l.variant_id
                      JOIN products p ON p.id = v.product_id
                      WHERE l.order_id = o.id AND p.kind = 'device') AS device) d
     WHERE o.source = 'support'
     ON CONFLICT (order_id) DO NOTHING
     RETURNING order_id`,
    [admin!.id],
  );
  return {
    substitutionRules: rules.length,
    substitutions: substituted.length + proposed.length,
    supportOrders: support.length,
  };
}
