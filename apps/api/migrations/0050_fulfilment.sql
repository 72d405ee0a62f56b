-- Fulfilment, first half (issue 18, DOMAIN.md 3.2, 4.14, 5.2 steps 3-4): a ready order is assigned
-- to a worker with one specific device reserved per unit, picked at the station and fulfilled.
--
-- The assignment is kept on the order (its assignee, when and by whom): one open assignment per
-- order, as DOMAIN.md's FulfillmentAssignment says, without a table of its own.

ALTER TABLE orders
  ADD COLUMN assignee_id bigint REFERENCES users (id),
  ADD COLUMN assigned_at timestamptz,
  ADD COLUMN assigned_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The worker confirmed the accessories the order ships with (chargers, cases) at the station.
  ADD COLUMN accessories_confirmed_at timestamptz,
  -- Problems found at pick go to the backlog with their reason too.
  DROP CONSTRAINT orders_hold_reason_check,
  ADD CONSTRAINT orders_hold_reason_check CHECK (hold_reason IN ('no_stock', 'address',
    'duplicate_benefit', 'carrier_rejected', 'fraud_review', 'pairing_failed', 'damaged_unit',
    'wrong_item'));

-- The assignment queue (ready orders, most urgent first), a worker's queue and load, and the
-- pipeline's pages by stage, each led by its filter and ending in the list's order.
CREATE INDEX orders_status_sla ON orders (status, (COALESCE(sla_due_at, 'infinity'::timestamptz)), id);
CREATE INDEX orders_assignee_sla ON orders (assignee_id, (COALESCE(sla_due_at, 'infinity'::timestamptz)), id)
  WHERE assignee_id IS NOT NULL;

-- The box a unit was picked from (it goes back there when unpicked), and who picked it when.
ALTER TABLE order_line_units
  ADD COLUMN picked_from_box_id bigint REFERENCES inventory_boxes (id),
  ADD COLUMN picked_at timestamptz,
  ADD COLUMN picked_by bigint REFERENCES users (id) ON DELETE SET NULL;
CREATE INDEX order_line_units_picked_from_box ON order_line_units (picked_from_box_id)
  WHERE picked_from_box_id IS NOT NULL;

-- The devices a variant's match rule takes, oldest box first: the sellable index's devices with
-- their box's age. The assignment's reservation reads this per rule (LIMIT the units it needs).
CREATE INDEX inventory_boxes_sellable_age ON inventory_boxes (sealed_at, id)
  WHERE status IN ('located', 'partially_picked');

-- The device units an order's lines ship, as match rules (DOMAIN.md 2.2 OrderLineUnit): a device
-- variant line qty units of its variant; a bundle line its device components (x their qty); a
-- combo line each slot's qty of any of the slot's active device variants. Accessories and SIM
-- kits are no device units. Assignment, the demand figures and the pick read the same rules.
CREATE FUNCTION order_unit_rules(p_order_ids bigint[])
RETURNS TABLE (order_id bigint, line_id bigint, variant_ids bigint[], units int)
LANGUAGE sql STABLE AS $$
  SELECT l.order_id, l.id, ARRAY[l.variant_id], l.qty
  FROM order_lines l
  JOIN product_variants v ON v.id = l.variant_id
  JOIN products p ON p.id = v.product_id
  WHERE l.order_id = ANY (p_order_ids) AND p.kind = 'device'
  UNION ALL
  SELECT l.order_id, l.id, ARRAY[c.variant_id], l.qty * c.qty
  FROM order_lines l
  JOIN bundle_components c ON c.bundle_id = l.bundle_id
  JOIN product_variants v ON v.id = c.variant_id
  JOIN products p ON p.id = v.product_id
  WHERE l.order_id = ANY (p_order_ids) AND p.kind = 'device'
  UNION ALL
  SELECT l.order_id, l.id,
    ARRAY(SELECT sv.variant_id FROM combo_slot_variants sv
          JOIN product_variants v ON v.id = sv.variant_id AND v.status = 'active'
          JOIN products p ON p.id = v.product_id AND p.kind = 'device' AND p.status = 'active'
          WHERE sv.slot_id = s.id ORDER BY sv.variant_id),
    l.qty * s.qty
  FROM order_lines l
  JOIN combo_slots s ON s.combo_id = l.combo_id
  WHERE l.order_id = ANY (p_order_ids)
$$;

-- Whether a device of these attributes matches a variant's rule: the product's model and every
-- attribute the variant sets (variant_sellable_stock's rule, for one device).
CREATE FUNCTION device_matches_variant(p_model_id bigint, p_grade text, p_color_id bigint,
  p_capacity_gb int, p_carrier_lock text, p_variant_id bigint)
RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id
    WHERE v.id = p_variant_id AND p.model_id = p_model_id
      AND (v.grade IS NULL OR v.grade = p_grade)
      AND (v.color_id IS NULL OR v.color_id = p_color_id)
      AND (v.capacity_gb IS NULL OR v.capacity_gb = p_capacity_gb)
      AND (v.carrier_lock IS NULL OR v.carrier_lock = p_carrier_lock))
$$;
