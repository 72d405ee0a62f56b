-- The push-to-sale catalogue (issue 16, DOMAIN.md 2.2 "Catalog, PTS and pricing", 4.5): what the
-- business sells, and the listings that cap how much each channel may sell.
--
-- A product is made from a device model; its variants are the sellable cuts of it (colour ×
-- capacity × grade × carrier lock). A variant's match rule is its own attribute columns: a device
-- matches when it is of the product's model and equals every attribute the variant sets (an
-- attribute left empty matches any value). Orders point at a sellable: a variant, a bundle (fixed
-- kit) or a combo (choice slots).

CREATE TABLE products (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  kind text NOT NULL DEFAULT 'device' CHECK (kind IN ('device', 'accessory', 'sim_kit', 'service')),
  model_id bigint REFERENCES device_models (id),
  description text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- A device product sells units of one model.
  CHECK (kind <> 'device' OR model_id IS NOT NULL)
);
CREATE UNIQUE INDEX products_name_key ON products (lower(name));
CREATE INDEX products_model ON products (model_id) WHERE model_id IS NOT NULL;

CREATE TABLE product_variants (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_id bigint NOT NULL REFERENCES products (id),
  sku text NOT NULL CHECK (sku ~ '^[A-Z0-9][A-Z0-9._-]{1,63}$'),
  -- The match rule: NULL matches any value of that attribute.
  color_id bigint REFERENCES colors (id),
  capacity_gb integer CHECK (capacity_gb > 0),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  carrier_lock text,
  -- What a non-device variant sells from counted stock.
  accessory_id bigint REFERENCES accessories (id),
  barcode text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX product_variants_sku_key ON product_variants (sku);
CREATE INDEX product_variants_product ON product_variants (product_id);
-- One variant per cut of a product.
CREATE UNIQUE INDEX product_variants_cut_key ON product_variants (
  product_id, COALESCE(color_id, 0), COALESCE(capacity_gb, 0), COALESCE(grade, ''), COALESCE(carrier_lock, ''));

-- Fixed kits: every component is picked; buildable = the minimum over components of stock ÷ qty.
CREATE TABLE bundles (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sku text NOT NULL CHECK (sku ~ '^[A-Z0-9][A-Z0-9._-]{1,63}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bundles_sku_key ON bundles (sku);
CREATE TABLE bundle_components (
  bundle_id bigint NOT NULL REFERENCES bundles (id) ON DELETE CASCADE,
  variant_id bigint NOT NULL REFERENCES product_variants (id),
  qty integer NOT NULL CHECK (qty > 0),
  PRIMARY KEY (bundle_id, variant_id)
);
CREATE INDEX bundle_components_variant ON bundle_components (variant_id);

-- Choice slots: each slot is filled by any allowed variant, oldest stock first.
CREATE TABLE combos (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sku text NOT NULL CHECK (sku ~ '^[A-Z0-9][A-Z0-9._-]{1,63}$'),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX combos_sku_key ON combos (sku);
CREATE TABLE combo_slots (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  combo_id bigint NOT NULL REFERENCES combos (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  qty integer NOT NULL DEFAULT 1 CHECK (qty > 0),
  position integer NOT NULL DEFAULT 0
);
CREATE INDEX combo_slots_combo ON combo_slots (combo_id, position);
CREATE TABLE combo_slot_variants (
  slot_id bigint NOT NULL REFERENCES combo_slots (id) ON DELETE CASCADE,
  variant_id bigint NOT NULL REFERENCES product_variants (id),
  PRIMARY KEY (slot_id, variant_id)
);
CREATE INDEX combo_slot_variants_variant ON combo_slot_variants (variant_id);

-- Push-to-sale listings: how much of a sellable a channel may sell, and at what price. Reserving
-- is one guarded UPDATE (qty_reserved + qty_sold + n <= qty_pushed), so racing checkouts, offers
-- and carrier orders can never reserve more than was pushed.
CREATE TABLE pts_listings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  variant_id bigint REFERENCES product_variants (id),
  bundle_id bigint REFERENCES bundles (id),
  combo_id bigint REFERENCES combos (id),
  channel text NOT NULL CHECK (channel IN ('web', 'retailer', 'campaign', 'carrier')),
  qty_pushed integer NOT NULL DEFAULT 0 CHECK (qty_pushed >= 0),
  qty_reserved integer NOT NULL DEFAULT 0 CHECK (qty_reserved >= 0),
  qty_sold integer NOT NULL DEFAULT 0 CHECK (qty_sold >= 0),
  price_cents bigint NOT NULL CHECK (price_cents >= 0),
  floor_price_cents bigint NOT NULL DEFAULT 0 CHECK (floor_price_cents >= 0),
  allow_backorder boolean NOT NULL DEFAULT false,
  starts_at timestamptz,
  ends_at timestamptz,
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'live', 'paused', 'sold_out', 'ended')),
  -- Retailer price tiers or groups that see it; empty = everyone on the channel.
  visibility text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (num_nonnulls(variant_id, bundle_id, combo_id) = 1),
  CHECK (qty_reserved + qty_sold <= qty_pushed OR allow_backorder),
  CHECK (ends_at IS NULL OR starts_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX pts_listings_variant ON pts_listings (variant_id) WHERE variant_id IS NOT NULL;
CREATE INDEX pts_listings_bundle ON pts_listings (bundle_id) WHERE bundle_id IS NOT NULL;
CREATE INDEX pts_listings_combo ON pts_listings (combo_id) WHERE combo_id IS NOT NULL;
CREATE INDEX pts_listings_channel_status ON pts_listings (channel, status, id);

-- Sellable stock (DOMAIN.md 3.1: available = in_stock, in a located box, no hold): what listings,
-- bundles, combos and order intake count against. The partial index answers a variant's count
-- from the index and the small boxes table alone.
CREATE INDEX devices_sellable ON devices (model_id, grade, color_id, capacity_gb, carrier_lock)
  INCLUDE (inventory_box_id) WHERE status = 'in_stock' AND hold_reason IS NULL;

CREATE FUNCTION variant_sellable_stock(p_variant_ids bigint[])
RETURNS TABLE (variant_id bigint, available bigint)
LANGUAGE sql STABLE AS $$
  SELECT v.id,
    (SELECT count(*) FROM devices d
     JOIN inventory_boxes b ON b.id = d.inventory_box_id
     WHERE d.status = 'in_stock' AND d.hold_reason IS NULL
       AND b.status IN ('located', 'partially_picked')
       AND d.model_id = p.model_id
       AND (v.grade IS NULL OR d.grade = v.grade)
       AND (v.color_id IS NULL OR d.color_id = v.color_id)
       AND (v.capacity_gb IS NULL OR d.capacity_gb = v.capacity_gb)
       AND (v.carrier_lock IS NULL OR d.carrier_lock = v.carrier_lock))
  FROM product_variants v
  JOIN products p ON p.id = v.product_id
  WHERE v.id = ANY (p_variant_ids)
$$;
