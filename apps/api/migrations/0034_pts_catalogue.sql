-- The push-to-sale catalogue at work (issue 16, DOMAIN.md 4.5): product images, the lookups of a
-- product's tags and property values, and the pick rule of a combo's slot.

-- A product's images and sheets are attachments of kind 'product' (migration 0018).
CREATE TRIGGER products_attachments AFTER DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('product');

-- The tags and property values of one product, bundle or combo, read for every row of a page.
CREATE INDEX tag_assignments_entity ON tag_assignments (entity_type, entity_id);
CREATE INDEX property_values_entity ON property_values (entity_type, entity_id);

-- A colour merged or deleted, an accessory deleted, finds the variants that name it.
CREATE INDEX product_variants_color ON product_variants (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX product_variants_accessory ON product_variants (accessory_id)
  WHERE accessory_id IS NOT NULL;

/*
 * Which allowed variant fills a combo's slot (DOMAIN.md 4.5: oldest stock first): of the slot's
 * active variants of active products that have sellable stock (the devices that
 * variant_sellable_stock counts), the one whose oldest located box was sealed first; ties go to
 * the lower variant id. No row when no allowed variant has stock.
 */
CREATE FUNCTION combo_slot_pick(p_slot_id bigint)
RETURNS TABLE (variant_id bigint, inventory_box_id bigint, sealed_at timestamptz)
LANGUAGE sql STABLE AS $$
  SELECT v.id, oldest.id, oldest.sealed_at
  FROM combo_slot_variants sv
  JOIN product_variants v ON v.id = sv.variant_id AND v.status = 'active'
  JOIN products p ON p.id = v.product_id AND p.status = 'active'
  CROSS JOIN LATERAL (
    SELECT b.id, b.sealed_at FROM devices d
    JOIN inventory_boxes b ON b.id = d.inventory_box_id
    WHERE d.status = 'in_stock' AND d.hold_reason IS NULL
      AND b.status IN ('located', 'partially_picked')
      AND d.model_id = p.model_id
      AND (v.grade IS NULL OR d.grade = v.grade)
      AND (v.color_id IS NULL OR d.color_id = v.color_id)
      AND (v.capacity_gb IS NULL OR d.capacity_gb = v.capacity_gb)
      AND (v.carrier_lock IS NULL OR d.carrier_lock = v.carrier_lock)
    ORDER BY b.sealed_at, b.id LIMIT 1) oldest
  WHERE sv.slot_id = p_slot_id
  ORDER BY oldest.sealed_at, v.id
  LIMIT 1
$$;
