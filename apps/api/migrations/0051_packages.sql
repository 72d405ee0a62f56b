-- Packages and their shipping labels (issue 18, DOMAIN.md 2.2 Package / ShippingLabel, 3.3,
-- 4.14 /fulfill/print-label and /fulfill/scan-to-ship, 4.16 /shipment-management/package).
--
-- A fulfilled order gets one package with one label from a carrier adapter (the offline adapter
-- is built in); the package is scanned out at the dock. A package carries its one label: voiding
-- the label ends the package (status voided), and labelling the order again makes a new package,
-- so "one active label per package" holds by construction and "one active package per order" by
-- the partial unique index below. A label is bought under a key made of the order and how many
-- labels it had before, so a retried request gets the same label back, never a second one.

-- What shipping labels need that no other table holds (DOMAIN.md 4.14: weight = model weight +
-- packaging). One row.
CREATE TABLE shipping_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- Box, bubble wrap, slip: added to each package's devices.
  packaging_weight_g integer NOT NULL DEFAULT 170 CHECK (packaging_weight_g BETWEEN 0 AND 20000),
  -- A device whose model has no weight recorded weighs this much.
  default_device_weight_g integer NOT NULL DEFAULT 200
    CHECK (default_device_weight_g BETWEEN 1 AND 20000),
  ship_from_name text NOT NULL DEFAULT 'Fulfilment Center',
  ship_from_line1 text NOT NULL DEFAULT '1200 Commerce Dr',
  ship_from_city text NOT NULL DEFAULT 'Dallas',
  ship_from_state char(2) NOT NULL DEFAULT 'TX',
  ship_from_zip text NOT NULL DEFAULT '75247',
  -- The mailer's USPS Mailer ID (6 digits) and UPS shipper number (6 characters) the offline
  -- adapter writes into its tracking numbers.
  usps_mailer_id text NOT NULL DEFAULT '901234' CHECK (usps_mailer_id ~ '^[0-9]{6}$'),
  ups_shipper_number text NOT NULL DEFAULT 'A1B2C3' CHECK (ups_shipper_number ~ '^[0-9A-Z]{6}$'),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO shipping_settings DEFAULT VALUES;

-- A run of label creation started on /fulfill/print-label: its labels download as one file.
CREATE TABLE label_batches (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  format text NOT NULL DEFAULT 'pdf' CHECK (format IN ('pdf', 'zpl')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);

CREATE TABLE packages (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id),
  label_batch_id bigint REFERENCES label_batches (id),
  carrier text NOT NULL CHECK (carrier IN ('usps', 'ups')),
  service text NOT NULL CHECK (length(service) BETWEEN 1 AND 40),
  tracking_number text NOT NULL CHECK (tracking_number ~ '^[0-9A-Z]{18,34}$'),
  weight_g integer NOT NULL CHECK (weight_g > 0),
  label_format text NOT NULL CHECK (label_format IN ('pdf', 'zpl')),
  status text NOT NULL DEFAULT 'label_created' CHECK (status IN ('label_created', 'in_gaylord',
    'scanned_out', 'in_transit', 'out_for_delivery', 'delivered', 'failed_attempt',
    'available_for_pickup', 'exception', 'return_to_sender', 'returned', 'voided', 'lost')),
  -- Outbound gaylords come later (DOMAIN.md 4.14 /fulfill/gaylord); no table yet.
  gaylord_id bigint,
  label_created_at timestamptz NOT NULL DEFAULT now(),
  label_created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  first_printed_at timestamptz,
  reprint_count integer NOT NULL DEFAULT 0 CHECK (reprint_count >= 0),
  voided_at timestamptz,
  voided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  void_reason text,
  scanned_out_at timestamptz,
  scanned_out_by bigint REFERENCES users (id) ON DELETE SET NULL,
  scan_station text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'voided') = (voided_at IS NOT NULL))
);
-- One active package (and so one active label) per order.
CREATE UNIQUE INDEX packages_active_order_key ON packages (order_id) WHERE status <> 'voided';
-- A tracking number names one parcel on its way. A carrier recycles its numbers after a while
-- (UPS's 1Z has a 7-digit reference), so a number may return on a later parcel: the scan takes the
-- newest parcel of the number.
CREATE UNIQUE INDEX packages_tracking_open_key ON packages (tracking_number)
  WHERE status NOT IN ('voided', 'delivered', 'returned', 'lost');
CREATE INDEX packages_tracking ON packages (tracking_number, id);
CREATE INDEX packages_order ON packages (order_id);
CREATE INDEX packages_batch ON packages (label_batch_id, id) WHERE label_batch_id IS NOT NULL;
-- The list's sorts and filters (label created, scanned out), each ending in the id.
CREATE INDEX packages_created ON packages (label_created_at, id);
CREATE INDEX packages_status_created ON packages (status, label_created_at, id);
CREATE INDEX packages_carrier_created ON packages (carrier, label_created_at, id);
-- Today's count at the dock, and the list's sort by scan-out.
CREATE INDEX packages_scanned_out ON packages ((COALESCE(scanned_out_at, '-infinity'::timestamptz)), id);

-- The package's timeline: every step of its lifecycle, and each print.
CREATE TABLE package_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  package_id bigint NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX package_events_package ON package_events (package_id, id);
