-- Inventory boxes (issue 15, DOMAIN.md 2.2, 3.7, 4.2 and 4.17): homogeneous boxes of ready-to-sell
-- devices. A consolidation worker fills an open box with graded devices of one model, colour,
-- capacity, grade and carrier lock, seals it (its "IB-" label printed) and putaway locates it.
--
-- A device is in one container at a time (DOMAIN.md invariant 3): consolidating it sets its
-- inventory box and leaves its warehouse box. The box's qty is what it holds, kept by the
-- service in the transaction that moves a device in.

CREATE SEQUENCE inventory_box_numbers;
CREATE TABLE inventory_boxes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'IB-' || lpad(nextval('inventory_box_numbers')::text, 6, '0'),
  -- What every device in it is (invariant 4); a colour or capacity not known is a value too.
  model_id bigint NOT NULL REFERENCES device_models (id),
  color_id bigint REFERENCES colors (id),
  capacity_gb integer,
  grade text NOT NULL CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  carrier_lock text,
  max_qty integer NOT NULL CHECK (max_qty > 0),
  qty integer NOT NULL DEFAULT 0 CHECK (qty >= 0 AND qty <= max_qty),
  status text NOT NULL DEFAULT 'open' CHECK (status IN (
    'open', 'sealed', 'located', 'partially_picked', 'empty', 'archived', 'locked')),
  source text NOT NULL DEFAULT 'consolidation' CHECK (source IN ('consolidation', 'reuse', 'new_sealed')),
  location_id bigint REFERENCES locations (id),
  sealed_at timestamptz,
  sealed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  located_at timestamptz,
  located_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'open') = (sealed_at IS NULL)),
  -- A box is located from putaway on; before it, it has no place.
  CHECK (status <> 'located' OR location_id IS NOT NULL),
  CHECK (status NOT IN ('open', 'sealed') OR location_id IS NULL)
);
CREATE UNIQUE INDEX inventory_boxes_code_key ON inventory_boxes (code);
CREATE INDEX inventory_boxes_model ON inventory_boxes (model_id);
CREATE INDEX inventory_boxes_color ON inventory_boxes (color_id) WHERE color_id IS NOT NULL;
CREATE INDEX inventory_boxes_location ON inventory_boxes (location_id) WHERE location_id IS NOT NULL;
-- The open box a scanned device goes to: one lookup by its attributes.
CREATE INDEX inventory_boxes_open ON inventory_boxes (model_id, grade, id) WHERE status = 'open';
-- The putaway queue: sealed boxes without a location, oldest sealed first.
CREATE INDEX inventory_boxes_putaway ON inventory_boxes (sealed_at, id) WHERE status = 'sealed';

ALTER TABLE devices ADD COLUMN inventory_box_id bigint REFERENCES inventory_boxes (id);
CREATE INDEX devices_inventory_box ON devices (inventory_box_id, identifier, id)
  WHERE inventory_box_id IS NOT NULL;
-- One container at a time: a device in an inventory box has left its warehouse box.
ALTER TABLE devices ADD CONSTRAINT devices_one_container
  CHECK (inventory_box_id IS NULL OR warehouse_box_id IS NULL);

-- What a location holds now counts the inventory boxes put away in its subtree too (the stock
-- term is 0024's, unchanged).
CREATE OR REPLACE FUNCTION location_holds(p_location_id bigint) RETURNS int
LANGUAGE sql STABLE AS $$
  SELECT (SELECT count(*)::int FROM stock_levels s
          WHERE s.location_id IN (SELECT location_subtree(p_location_id)) AND s.on_hand > 0)
    + (SELECT count(*)::int FROM inventory_boxes b
       WHERE b.location_id IN (SELECT location_subtree(p_location_id)))
$$;
