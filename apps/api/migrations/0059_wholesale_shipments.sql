-- Wholesale (retailer) outbound (DOMAIN.md 2.2 OrderBox / Shipment, 4.7 /order/box, /shipment,
-- /shipment/scan-out-to-ship, 5.2 "Wholesale (retailer) variant").
--
-- An assigned wholesale order is packed into cartons (order boxes, "OB-…") by IMEI and accessory
-- quantity; a carton is closed with its weight. The order's closed cartons ship together as one
-- shipment: freight under a bill of lading, or parcels with a carrier label per carton. The
-- shipment is checked (contents verified, by whom and when), its cartons are scanned at the dock,
-- optionally grouped on pallets, and the carrier's pickup ships them.

CREATE SEQUENCE wholesale_shipment_numbers;
CREATE TABLE wholesale_shipments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'WS-' || lpad(nextval('wholesale_shipment_numbers')::text, 6, '0'),
  order_id bigint NOT NULL REFERENCES orders (id),
  mode text NOT NULL CHECK (mode IN ('freight', 'parcel')),
  -- Freight: the carrier's name as the BOL prints it; parcel: the service's carrier (usps, ups).
  carrier text NOT NULL CHECK (length(carrier) BETWEEN 1 AND 80),
  -- Parcel only: the carrier service every carton's label is bought for.
  service text CHECK (service IS NULL OR length(service) BETWEEN 1 AND 40),
  bol_number text CHECK (bol_number IS NULL OR length(bol_number) BETWEEN 1 AND 40),
  pro_number text CHECK (pro_number IS NULL OR length(pro_number) BETWEEN 1 AND 40),
  ship_date date NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'in_transit', 'delivered')),
  checked_at timestamptz,
  checked_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- The carrier's pickup at the dock.
  pickup_carrier text CHECK (pickup_carrier IS NULL OR length(pickup_carrier) BETWEEN 1 AND 80),
  driver_name text CHECK (driver_name IS NULL OR length(driver_name) BETWEEN 1 AND 80),
  picked_up_at timestamptz,
  confirmed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- A pickup with cartons not scanned at the dock: the manager who let it go, and why.
  override_by bigint REFERENCES users (id) ON DELETE SET NULL,
  override_reason text CHECK (override_reason IS NULL OR length(override_reason) BETWEEN 1 AND 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (mode = 'freight' OR service IS NOT NULL),
  CHECK ((status = 'open') = (picked_up_at IS NULL)),
  -- Never shipped unchecked (DOMAIN.md 4.7: the checked flag is required before completion).
  CHECK (status = 'open' OR checked_at IS NOT NULL),
  CHECK ((override_by IS NULL) = (override_reason IS NULL))
);
CREATE UNIQUE INDEX wholesale_shipments_number_key ON wholesale_shipments (number);
-- An order's cartons ship together: one shipment per order.
CREATE UNIQUE INDEX wholesale_shipments_order_key ON wholesale_shipments (order_id);
CREATE INDEX wholesale_shipments_status ON wholesale_shipments (status, id);
CREATE INDEX wholesale_shipments_bol ON wholesale_shipments (bol_number) WHERE bol_number IS NOT NULL;

CREATE SEQUENCE wholesale_pallet_numbers;
CREATE TABLE wholesale_pallets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'PL-' || lpad(nextval('wholesale_pallet_numbers')::text, 6, '0'),
  shipment_id bigint NOT NULL REFERENCES wholesale_shipments (id),
  opened_at timestamptz NOT NULL DEFAULT now(),
  opened_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX wholesale_pallets_code_key ON wholesale_pallets (code);
CREATE INDEX wholesale_pallets_shipment ON wholesale_pallets (shipment_id, id);
-- One pallet being loaded per shipment: the cartons scanned go onto it.
CREATE UNIQUE INDEX wholesale_pallets_open_key ON wholesale_pallets (shipment_id) WHERE closed_at IS NULL;

CREATE SEQUENCE order_box_numbers;
CREATE TABLE order_boxes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'OB-' || lpad(nextval('order_box_numbers')::text, 6, '0'),
  order_id bigint NOT NULL REFERENCES orders (id),
  -- Carton n of the order, as its label says ("carton 2").
  seq integer NOT NULL CHECK (seq > 0),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed', 'scanned_out')),
  weight_g integer CHECK (weight_g BETWEEN 1 AND 1000000),
  shipment_id bigint REFERENCES wholesale_shipments (id),
  -- A parcel shipment's label of this carton.
  tracking_number text CHECK (tracking_number IS NULL OR tracking_number ~ '^[0-9A-Z]{18,34}$'),
  pallet_id bigint REFERENCES wholesale_pallets (id),
  opened_at timestamptz NOT NULL DEFAULT now(),
  opened_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  reopened_count integer NOT NULL DEFAULT 0 CHECK (reopened_count >= 0),
  -- Scanned at the dock, waiting for the pickup; scanned out when the carrier took it.
  dock_scanned_at timestamptz,
  dock_scanned_by bigint REFERENCES users (id) ON DELETE SET NULL,
  dock_station text,
  scanned_out_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'open') = (closed_at IS NULL)),
  CHECK ((status = 'open') = (weight_g IS NULL)),
  CHECK ((status = 'scanned_out') = (scanned_out_at IS NOT NULL)),
  -- Only a closed carton of a shipment goes onto the dock.
  CHECK (dock_scanned_at IS NULL OR (status <> 'open' AND shipment_id IS NOT NULL))
);
CREATE UNIQUE INDEX order_boxes_code_key ON order_boxes (code);
CREATE UNIQUE INDEX order_boxes_order_seq_key ON order_boxes (order_id, seq);
CREATE INDEX order_boxes_shipment ON order_boxes (shipment_id, id) WHERE shipment_id IS NOT NULL;
CREATE INDEX order_boxes_pallet ON order_boxes (pallet_id) WHERE pallet_id IS NOT NULL;
CREATE UNIQUE INDEX order_boxes_tracking_key ON order_boxes (tracking_number)
  WHERE tracking_number IS NOT NULL;

-- The carton a device unit was packed into.
ALTER TABLE order_line_units ADD COLUMN order_box_id bigint REFERENCES order_boxes (id);
CREATE INDEX order_line_units_order_box ON order_line_units (order_box_id)
  WHERE order_box_id IS NOT NULL;

-- Accessories packed into a carton, by variant and quantity.
CREATE TABLE order_box_items (
  box_id bigint NOT NULL REFERENCES order_boxes (id) ON DELETE CASCADE,
  variant_id bigint NOT NULL REFERENCES product_variants (id),
  qty integer NOT NULL CHECK (qty > 0),
  PRIMARY KEY (box_id, variant_id)
);
CREATE INDEX order_box_items_variant ON order_box_items (variant_id);

-- The accessories a wholesale order ships, per variant: accessory lines and bundles' non-device
-- components (the pick station's list). The carton station and the queue read the same rule.
CREATE FUNCTION order_accessory_needs(p_order_id bigint)
RETURNS TABLE (variant_id bigint, qty int)
LANGUAGE sql STABLE AS $$
  SELECT a.variant_id, sum(a.qty)::int FROM (
    SELECT v.id AS variant_id, l.qty
    FROM order_lines l JOIN product_variants v ON v.id = l.variant_id
    JOIN products p ON p.id = v.product_id
    WHERE l.order_id = p_order_id AND p.kind <> 'device' AND l.status <> 'cancelled'
    UNION ALL
    SELECT v.id, l.qty * c.qty
    FROM order_lines l JOIN bundle_components c ON c.bundle_id = l.bundle_id
    JOIN product_variants v ON v.id = c.variant_id JOIN products p ON p.id = v.product_id
    WHERE l.order_id = p_order_id AND p.kind <> 'device' AND l.status <> 'cancelled'
  ) a GROUP BY a.variant_id
$$;
