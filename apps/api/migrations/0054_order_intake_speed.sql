-- The daily order counts (migration 0038) kept by one PL/pgSQL trigger function. Its helpers were
-- SQL functions taking the rows as JSON, which PostgreSQL plans again at every call: every
-- statement that wrote orders paid for three plannings (about 1 ms an insert and 6 ms a status
-- change at 100,000 orders), and fulfilment changes an order's status at every step. The plans of
-- a PL/pgSQL function are kept by the session. An update that moves no figure (an assignee, a
-- note, a step between two statuses the report does not count) now writes no counts row: the old
-- condition added up absolute values, so it wrote a row of zeros for every such update.
CREATE OR REPLACE FUNCTION orders_count_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_day_counts AS c (day, source, fulfilment_type, shard, received,
      received_before_cutoff, approved, shipped, shipped_same_day, backlog, cancelled)
    SELECT f.day, f.source, f.fulfilment_type, (pg_current_xact_id()::text::bigint % 8)::smallint,
      sum(f.received), sum(f.received_before_cutoff), sum(f.approved), sum(f.shipped),
      sum(f.shipped_same_day), sum(f.backlog), sum(f.cancelled)
    FROM new_orders o CROSS JOIN LATERAL order_day_figure_rows(o.source, o.fulfilment_type,
      o.status, o.received_day, o.received_before_cutoff, o.approved_at, o.shipped_at,
      o.cancelled_at, 1) f
    GROUP BY f.day, f.source, f.fulfilment_type
    HAVING sum(f.received) <> 0 OR sum(f.received_before_cutoff) <> 0 OR sum(f.approved) <> 0
      OR sum(f.shipped) <> 0 OR sum(f.shipped_same_day) <> 0 OR sum(f.backlog) <> 0
      OR sum(f.cancelled) <> 0
    ON CONFLICT (day, source, fulfilment_type, shard) DO UPDATE SET
      received = c.received + EXCLUDED.received,
      received_before_cutoff = c.received_before_cutoff + EXCLUDED.received_before_cutoff,
      approved = c.approved + EXCLUDED.approved,
      shipped = c.shipped + EXCLUDED.shipped,
      shipped_same_day = c.shipped_same_day + EXCLUDED.shipped_same_day,
      backlog = c.backlog + EXCLUDED.backlog,
      cancelled = c.cancelled + EXCLUDED.cancelled;
  ELSE
    INSERT INTO order_day_counts AS c (day, source, fulfilment_type, shard, received,
      received_before_cutoff, approved, shipped, shipped_same_day, backlog, cancelled)
    SELECT f.day, f.source, f.fulfilment_type, (pg_current_xact_id()::text::bigint % 8)::smallint,
      sum(f.received), sum(f.received_before_cutoff), sum(f.approved), sum(f.shipped),
      sum(f.shipped_same_day), sum(f.backlog), sum(f.cancelled)
    FROM (
      SELECT f.* FROM new_orders o CROSS JOIN LATERAL order_day_figure_rows(o.source,
        o.fulfilment_type, o.status, o.received_day, o.received_before_cutoff, o.approved_at,
        o.shipped_at, o.cancelled_at, 1) f
      UNION ALL
      SELECT f.* FROM old_orders o CROSS JOIN LATERAL order_day_figure_rows(o.source,
        o.fulfilment_type, o.status, o.received_day, o.received_before_cutoff, o.approved_at,
        o.shipped_at, o.cancelled_at, -1) f
    ) f
    GROUP BY f.day, f.source, f.fulfilment_type
    HAVING sum(f.received) <> 0 OR sum(f.received_before_cutoff) <> 0 OR sum(f.approved) <> 0
      OR sum(f.shipped) <> 0 OR sum(f.shipped_same_day) <> 0 OR sum(f.backlog) <> 0
      OR sum(f.cancelled) <> 0
    ON CONFLICT (day, source, fulfilment_type, shard) DO UPDATE SET
      received = c.received + EXCLUDED.received,
      received_before_cutoff = c.received_before_cutoff + EXCLUDED.received_before_cutoff,
      approved = c.approved + EXCLUDED.approved,
      shipped = c.shipped + EXCLUDED.shipped,
      shipped_same_day = c.shipped_same_day + EXCLUDED.shipped_same_day,
      backlog = c.backlog + EXCLUDED.backlog,
      cancelled = c.cancelled + EXCLUDED.cancelled;
  END IF;
  RETURN NULL;
END $$;

-- What one order row adds to the figures (sign 1) or takes away (sign -1), one row per day it
-- counts on. A SQL function of one SELECT without FROM: PostgreSQL inlines it into the trigger's
-- statements, so it is planned with them, once.
CREATE FUNCTION order_day_figure_rows(p_source text, p_fulfilment_type text, p_status text,
  p_received_day date, p_received_before_cutoff boolean, p_approved_at timestamptz,
  p_shipped_at timestamptz, p_cancelled_at timestamptz, p_sign int)
RETURNS TABLE (day date, source text, fulfilment_type text, received int,
  received_before_cutoff int, approved int, shipped int, shipped_same_day int, backlog int,
  cancelled int)
LANGUAGE sql STABLE AS $$
  SELECT d.day, $1, $2,
    $9 * (d.kind = 'received')::int,
    $9 * (d.kind = 'received' AND $5)::int,
    $9 * (d.kind = 'approved')::int,
    $9 * (d.kind = 'shipped')::int,
    $9 * (d.kind = 'received' AND $5 AND $7 IS NOT NULL
      AND order_business_day($7) = $4)::int,
    $9 * (d.kind = 'received' AND $3 = 'on_hold')::int,
    $9 * (d.kind = 'cancelled')::int
  FROM (VALUES
    ('received', $4),
    ('approved', order_business_day($6)),
    ('shipped', order_business_day($7)),
    ('cancelled', order_business_day($8))
  ) AS d (kind, day)
  WHERE d.day IS NOT NULL
$$;

DROP FUNCTION add_order_day_counts(jsonb);
DROP FUNCTION order_day_figures(jsonb, int);

-- Whether an order's line has the units it needs in sellable stock: the count stops at the units
-- needed (a carrier order asked pts_sellable_available to count every unit of the model in
-- stock, a cost that grew with the stock). Exact below `p_needed`, so a shortfall is told as it
-- is; a bundle or combo is counted in full as before (its pools need every component's count).
CREATE FUNCTION pts_sellable_up_to(p_variant_id bigint, p_bundle_id bigint, p_combo_id bigint,
  p_needed bigint)
RETURNS bigint
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN p_variant_id IS NOT NULL THEN (
      SELECT count(*) FROM (
        SELECT 1 FROM product_variants v
        JOIN products p ON p.id = v.product_id
        JOIN devices d ON d.model_id = p.model_id
        JOIN inventory_boxes b ON b.id = d.inventory_box_id
        WHERE v.id = p_variant_id
          AND d.status = 'in_stock' AND d.hold_reason IS NULL
          AND b.status IN ('located', 'partially_picked')
          AND (v.grade IS NULL OR d.grade = v.grade)
          AND (v.color_id IS NULL OR d.color_id = v.color_id)
          AND (v.capacity_gb IS NULL OR d.capacity_gb = v.capacity_gb)
          AND (v.carrier_lock IS NULL OR d.carrier_lock = v.carrier_lock)
        LIMIT p_needed) unit)
    ELSE LEAST(pts_sellable_available(NULL, p_bundle_id, p_combo_id), p_needed)
  END
$$;
