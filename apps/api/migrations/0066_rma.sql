-- RMAs (issue 19, DOMAIN.md 3.4, 4.10, 5.3): a customer's return authorised against an order,
-- its return label, the devices expected back (lines), what receiving found, the resolution
-- (replacement order, refund, repair), and the reuse queue's re-inspections.

-- The warranty window and how many times one device may go back into stock (DOMAIN.md 4.10:
-- both configuration). One row.
CREATE TABLE rma_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- Days from the order's shipping within which a return is under warranty.
  warranty_days integer NOT NULL DEFAULT 365 CHECK (warranty_days BETWEEN 1 AND 3650),
  -- A device approved for reuse this many times is not approved again (scrap or vendor instead).
  reuse_limit integer NOT NULL DEFAULT 3 CHECK (reuse_limit BETWEEN 0 AND 100),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO rma_settings DEFAULT VALUES;

-- How many times a device was approved back into stock from the reuse queue.
ALTER TABLE devices ADD COLUMN reuse_count integer NOT NULL DEFAULT 0 CHECK (reuse_count >= 0);

CREATE SEQUENCE rma_numbers;

CREATE TABLE rmas (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'RMA-' || lpad(nextval('rma_numbers')::text, 7, '0')
    CHECK (number ~ '^RMA-[0-9]{7,}$'),
  order_id bigint NOT NULL REFERENCES orders (id),
  reason text NOT NULL CHECK (reason IN ('defective', 'wrong_item', 'damaged_in_transit',
    'customer_return', 'cancelled_after_shipping')),
  note text CHECK (length(note) <= 2000),
  -- Within the warranty window when it was requested (fixed then: a later change of the window
  -- does not move it).
  warranty_ok boolean NOT NULL,
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'authorized', 'rejected',
    'in_transit', 'received', 'inspected', 'replacement_sent', 'refunded', 'repair', 'closed',
    'cancelled')),
  resolution text CHECK (resolution IN ('replacement', 'refund', 'repair')),
  replacement_order_id bigint REFERENCES orders (id),
  refund_cents bigint CHECK (refund_cents >= 0),
  -- What came back with the devices (receiving's checklist).
  accessories text[] NOT NULL DEFAULT '{}',
  damage_note text CHECK (length(damage_note) <= 2000),
  -- Receiving scanned an IMEI that is not on the RMA: a supervisor looks at it.
  mismatch_flagged boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  authorized_at timestamptz,
  received_at timestamptz,
  closed_at timestamptz
);
CREATE UNIQUE INDEX rmas_number_key ON rmas (number);
CREATE INDEX rmas_order ON rmas (order_id);
CREATE INDEX rmas_replacement_order ON rmas (replacement_order_id)
  WHERE replacement_order_id IS NOT NULL;
CREATE INDEX rmas_created ON rmas (created_at, id);
CREATE INDEX rmas_status_created ON rmas (status, created_at, id);
CREATE INDEX rmas_mismatch ON rmas (created_at, id) WHERE mismatch_flagged;
CREATE TRIGGER rmas_attachments_follow AFTER DELETE ON rmas
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('rma');

-- The devices an RMA expects back: the one named, or every device the order shipped.
CREATE TABLE rma_lines (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rma_id bigint NOT NULL REFERENCES rmas (id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices (id),
  order_line_unit_id bigint NOT NULL REFERENCES order_line_units (id),
  -- True until the RMA is closed, rejected or cancelled: one open RMA per device.
  open boolean NOT NULL DEFAULT true,
  received_at timestamptz,
  received_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- Where receiving sent it.
  route text CHECK (route IN ('reuse', 'inspection', 'repair')),
  UNIQUE (rma_id, device_id)
);
CREATE UNIQUE INDEX rma_lines_open_device ON rma_lines (device_id) WHERE open;
CREATE INDEX rma_lines_device ON rma_lines (device_id, rma_id);
CREATE INDEX rma_lines_unit ON rma_lines (order_line_unit_id);

-- The return label bought for the RMA: from the customer's address to our warehouse.
CREATE TABLE rma_return_labels (
  rma_id bigint PRIMARY KEY REFERENCES rmas (id) ON DELETE CASCADE,
  carrier text NOT NULL,
  service text NOT NULL,
  tracking_number text NOT NULL,
  carrier_ref text CHECK (length(carrier_ref) BETWEEN 1 AND 100),
  -- The carrier's own label file; without it the label is our 4x6 rendering.
  format text CHECK (format IN ('pdf', 'zpl')),
  content bytea CHECK (octet_length(content) BETWEEN 1 AND 2097152),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((format IS NULL) = (content IS NULL))
);
CREATE UNIQUE INDEX rma_return_labels_tracking_key ON rma_return_labels (tracking_number);

-- Every IMEI scanned at RMA receiving, matched or not.
CREATE TABLE rma_scans (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rma_id bigint NOT NULL REFERENCES rmas (id) ON DELETE CASCADE,
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  device_id bigint REFERENCES devices (id),
  result text NOT NULL CHECK (result IN ('received', 'mismatch', 'already_received')),
  station text,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL
);
CREATE INDEX rma_scans_rma ON rma_scans (rma_id, id);
CREATE INDEX rma_scans_device ON rma_scans (device_id) WHERE device_id IS NOT NULL;

-- The RMA's timeline.
CREATE TABLE rma_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  rma_id bigint NOT NULL REFERENCES rmas (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX rma_events_rma ON rma_events (rma_id, id);

-- A re-inspection at the reuse queue: the new wipe, the blacklist re-check and the grade, and
-- what was decided.
CREATE TABLE device_reuse_inspections (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  wipe_method text NOT NULL CHECK (length(wipe_method) BETWEEN 1 AND 100),
  wipe_certificate text CHECK (length(wipe_certificate) <= 200),
  blacklist_state text NOT NULL CHECK (blacklist_state IN ('clean', 'blocked', 'unknown')),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  decision text NOT NULL CHECK (decision IN ('approved', 'repair', 'scrap', 'vendor')),
  note text CHECK (length(note) <= 2000),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX device_reuse_inspections_device ON device_reuse_inspections (device_id, id);
-- The reuse queue: returned and repaired devices, longest waiting first.
CREATE INDEX devices_reuse_queue ON devices (updated_at, id) WHERE status IN ('returned', 'repaired');
