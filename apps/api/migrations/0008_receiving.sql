-- Receiving and the device registry (DOMAIN.md 2.2 purchasing and devices, 3.1, 3.7, 4.12, 4.13,
-- 4.17, 5.1 steps 1 to 4): purchase invoices with their lines and IMEI manifests, inbound
-- shipments, warehouse boxes, one row per device with its event history, the blacklist, returns
-- to vendors, and the unknown TACs met at scanning.

CREATE TABLE purchase_invoices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES vendors (id),
  invoice_no text NOT NULL,
  invoice_date date,
  currency text NOT NULL DEFAULT 'USD' CHECK (currency ~ '^[A-Z]{3}$'),
  -- The total printed on the vendor's document; the lines' sum is computed.
  total_cents bigint CHECK (total_cents >= 0),
  status text NOT NULL DEFAULT 'expected'
    CHECK (status IN ('expected', 'receiving', 'received', 'reconciled', 'closed')),
  notes text,
  -- True once an IMEI list is loaded: receiving then checks every scan against it; without one,
  -- a scanned device counts against a line of its model.
  has_manifest boolean NOT NULL DEFAULT false,
  reconciled_at timestamptz,
  reconciled_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX purchase_invoices_vendor_no_key ON purchase_invoices (vendor_id, lower(invoice_no));
CREATE INDEX purchase_invoices_no_order ON purchase_invoices (lower(invoice_no), id);
CREATE INDEX purchase_invoices_created_order ON purchase_invoices (created_at, id);
CREATE INDEX purchase_invoices_status ON purchase_invoices (status, id);
CREATE INDEX purchase_invoices_vendor ON purchase_invoices (vendor_id, id);

-- What the vendor says it sold: model, colour, capacity, condition, quantity and cost.
CREATE TABLE invoice_lines (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  invoice_id bigint NOT NULL REFERENCES purchase_invoices (id) ON DELETE CASCADE,
  model_id bigint NOT NULL REFERENCES device_models (id),
  color_id bigint REFERENCES colors (id),
  capacity_gb integer,
  condition text NOT NULL DEFAULT 'used'
    CHECK (condition IN ('new', 'used', 'refurbished', 'ungraded')),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  qty integer NOT NULL CHECK (qty > 0),
  unit_cost_cents bigint NOT NULL DEFAULT 0 CHECK (unit_cost_cents >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX invoice_lines_invoice ON invoice_lines (invoice_id, id);

-- A device: one row per phone, by IMEI (or MEID for CDMA-only units).
CREATE TABLE devices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  imei text CHECK (imei ~ '^[0-9]{15}$'),
  imei2 text CHECK (imei2 ~ '^[0-9]{15}$'),
  meid text CHECK (meid ~ '^[0-9A-F]{14}$'),
  serial text,
  -- What the device is known by: its IMEI, or its MEID when it has none. Lists sort by it.
  identifier text GENERATED ALWAYS AS (COALESCE(imei, meid)) STORED NOT NULL,
  tac text,
  model_id bigint NOT NULL REFERENCES device_models (id),
  color_id bigint REFERENCES colors (id),
  capacity_gb integer,
  condition text CHECK (condition IN ('new', 'used', 'refurbished', 'ungraded')),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  carrier_lock text,
  status text NOT NULL CHECK (status IN (
    'received', 'in_production', 'graded', 'failed_qc', 'hold', 'in_repair', 'repaired', 'reuse',
    'in_stock', 'reserved', 'picked', 'packed', 'shipped', 'delivered', 'lost', 'returned',
    'scrapped', 'parts', 'rtv')),
  hold_reason text CHECK (hold_reason IN ('blacklist', 'frp', 'activation_lock', 'mismatch', 'missing')),
  -- Where a held device goes back to when its hold is cleared.
  status_before_hold text,
  blacklist_state text NOT NULL DEFAULT 'unknown' CHECK (blacklist_state IN ('clean', 'blocked', 'unknown')),
  blacklist_checked_at timestamptz,
  -- The one container a device is in (DOMAIN.md invariant 3); later areas add theirs here.
  warehouse_box_id bigint,
  invoice_id bigint REFERENCES purchase_invoices (id),
  vendor_id bigint REFERENCES vendors (id),
  unit_cost_cents bigint,
  received_at timestamptz NOT NULL DEFAULT now(),
  received_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (imei IS NOT NULL OR meid IS NOT NULL),
  CHECK ((status = 'hold') = (hold_reason IS NOT NULL)),
  CHECK (imei2 IS NULL OR imei2 <> imei)
);
CREATE UNIQUE INDEX devices_imei_key ON devices (imei);
CREATE UNIQUE INDEX devices_imei2_key ON devices (imei2);
CREATE UNIQUE INDEX devices_meid_key ON devices (meid);
CREATE INDEX devices_serial ON devices (serial) WHERE serial IS NOT NULL;
-- The device list's keyset orders, alone and under its most used filters.
CREATE UNIQUE INDEX devices_identifier_order ON devices (identifier, id);
CREATE INDEX devices_received_order ON devices (received_at, id);
CREATE INDEX devices_model_order ON devices (model_id, identifier, id);
CREATE INDEX devices_status_order ON devices (status, identifier, id);
CREATE INDEX devices_invoice_order ON devices (invoice_id, identifier, id);
CREATE INDEX devices_vendor_order ON devices (vendor_id, identifier, id);
CREATE INDEX devices_box_order ON devices (warehouse_box_id, identifier, id) WHERE warehouse_box_id IS NOT NULL;
CREATE INDEX devices_held ON devices (hold_reason, identifier, id) WHERE hold_reason IS NOT NULL;
-- The dashboards: unprocessed stock by age, vendor and model; the pipeline by model.
CREATE INDEX devices_unprocessed ON devices (received_at, vendor_id, invoice_id) WHERE status = 'received';
CREATE INDEX devices_model_status ON devices (model_id, status);
CREATE INDEX devices_vendor_model_status ON devices (vendor_id, model_id, status);

-- The vendor's IMEI manifest of an invoice, reconciled against what was received.
CREATE TABLE invoice_imeis (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  invoice_id bigint NOT NULL REFERENCES purchase_invoices (id) ON DELETE CASCADE,
  line_id bigint REFERENCES invoice_lines (id) ON DELETE SET NULL,
  imei text CHECK (imei ~ '^[0-9]{15}$'),
  imei2 text CHECK (imei2 ~ '^[0-9]{15}$'),
  meid text CHECK (meid ~ '^[0-9A-F]{14}$'),
  serial text,
  identifier text GENERATED ALWAYS AS (COALESCE(imei, meid)) STORED NOT NULL,
  -- What the vendor claims, and what the TAC says (null when the TAC is unknown or for a MEID).
  model_id bigint REFERENCES device_models (id),
  tac_model_id bigint REFERENCES device_models (id),
  color_id bigint REFERENCES colors (id),
  capacity_gb integer,
  condition text CHECK (condition IN ('new', 'used', 'refurbished', 'ungraded')),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  unit_cost_cents bigint CHECK (unit_cost_cents >= 0),
  match_status text NOT NULL DEFAULT 'expected'
    CHECK (match_status IN ('expected', 'received', 'missing', 'unexpected', 'duplicate')),
  -- False for a row the receiving scan added: a device off the manifest, or of an invoice without one.
  from_manifest boolean NOT NULL DEFAULT true,
  device_id bigint REFERENCES devices (id) ON DELETE SET NULL,
  -- The decision on a discrepancy, required before the invoice closes.
  decision text CHECK (decision IN ('accepted', 'vendor_credit', 'return_to_vendor', 'written_off')),
  decision_note text,
  decided_at timestamptz,
  decided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- False once the invoice is closed: an IMEI may be open on one invoice only (DOMAIN.md 4.13).
  open boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (imei IS NOT NULL OR meid IS NOT NULL)
);
CREATE UNIQUE INDEX invoice_imeis_invoice_identifier_key ON invoice_imeis (invoice_id, identifier);
CREATE UNIQUE INDEX invoice_imeis_open_identifier_key ON invoice_imeis (identifier) WHERE open;
CREATE INDEX invoice_imeis_identifier_order ON invoice_imeis (identifier, id);
CREATE INDEX invoice_imeis_invoice_order ON invoice_imeis (invoice_id, identifier, id);
CREATE INDEX invoice_imeis_status_order ON invoice_imeis (match_status, identifier, id);
CREATE INDEX invoice_imeis_imei2 ON invoice_imeis (imei2) WHERE imei2 IS NOT NULL;
CREATE INDEX invoice_imeis_device ON invoice_imeis (device_id) WHERE device_id IS NOT NULL;
CREATE INDEX invoice_imeis_mismatch ON invoice_imeis (invoice_id)
  WHERE tac_model_id IS DISTINCT FROM model_id AND tac_model_id IS NOT NULL AND model_id IS NOT NULL;

-- Trucks and parcels from vendors, checked in at the dock.
CREATE TABLE inbound_shipments (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  vendor_id bigint NOT NULL REFERENCES vendors (id),
  -- A shipment may arrive before its invoice (DOMAIN.md 4.17).
  invoice_id bigint REFERENCES purchase_invoices (id),
  carrier text,
  tracking text,
  pallets_expected integer CHECK (pallets_expected >= 0),
  boxes_expected integer CHECK (boxes_expected >= 0),
  eta date,
  status text NOT NULL DEFAULT 'expected' CHECK (status IN ('expected', 'arrived', 'received')),
  arrived_at timestamptz,
  checked_in_by bigint REFERENCES users (id) ON DELETE SET NULL,
  pallets_received integer CHECK (pallets_received >= 0),
  boxes_received integer CHECK (boxes_received >= 0),
  damaged boolean NOT NULL DEFAULT false,
  damage_notes text,
  notes text,
  received_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
-- Undated shipments last when sorted by expected arrival.
CREATE INDEX inbound_shipments_eta_order ON inbound_shipments ((COALESCE(eta, DATE '9999-12-31')), id);
CREATE INDEX inbound_shipments_created_order ON inbound_shipments (created_at, id);
CREATE INDEX inbound_shipments_status ON inbound_shipments (status, id);
CREATE INDEX inbound_shipments_invoice ON inbound_shipments (invoice_id) WHERE invoice_id IS NOT NULL;
CREATE INDEX inbound_shipments_vendor ON inbound_shipments (vendor_id, id);
CREATE INDEX inbound_shipments_tracking ON inbound_shipments (lower(tracking)) WHERE tracking IS NOT NULL;

-- A vendor's carton as received: the devices scanned into it against its invoice.
CREATE SEQUENCE warehouse_box_codes;
CREATE TABLE warehouse_boxes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'WB-' || lpad(nextval('warehouse_box_codes')::text, 6, '0'),
  invoice_id bigint NOT NULL REFERENCES purchase_invoices (id),
  inbound_shipment_id bigint REFERENCES inbound_shipments (id),
  vendor_label text,
  expected_model_id bigint REFERENCES device_models (id),
  qty_expected integer CHECK (qty_expected > 0),
  -- Devices scanned in at receiving; kept by the scan in the same transaction as the device.
  qty_scanned integer NOT NULL DEFAULT 0 CHECK (qty_scanned >= 0),
  status text NOT NULL DEFAULT 'receiving' CHECK (status IN (
    'receiving', 'received', 'staged', 'requested', 'in_production', 'emptied')),
  staging_location text,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  close_override_reason text,
  staged_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX warehouse_boxes_code_key ON warehouse_boxes (code);
CREATE INDEX warehouse_boxes_invoice ON warehouse_boxes (invoice_id, id);
CREATE INDEX warehouse_boxes_status ON warehouse_boxes (status, id);
CREATE INDEX warehouse_boxes_created_order ON warehouse_boxes (created_at, id);
ALTER TABLE devices ADD CONSTRAINT devices_warehouse_box_fkey
  FOREIGN KEY (warehouse_box_id) REFERENCES warehouse_boxes (id);

-- What happened to a device, newest last: the timeline of /devices/scan.
CREATE TABLE device_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  -- The container the device was in after the event, by code ("WB-000123").
  container text,
  ref_type text,
  ref_id bigint,
  station text,
  data jsonb
);
CREATE INDEX device_events_device ON device_events (device_id, id);
CREATE INDEX device_events_at ON device_events (at);

-- Blacklist: provider results and manual entries; an open entry holds its device.
CREATE TABLE blacklist_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  imei text NOT NULL CHECK (imei ~ '^[0-9]{15}$'),
  source text NOT NULL CHECK (source IN ('gsma', 'carrier', 'internal', 'vendor', 'checker')),
  reason text NOT NULL CHECK (reason IN ('lost', 'stolen', 'unpaid', 'fraud', 'dispute', 'other')),
  reference text,
  note text,
  flagged_at timestamptz NOT NULL DEFAULT now(),
  cleared_at timestamptz,
  cleared_by bigint REFERENCES users (id) ON DELETE SET NULL,
  clear_evidence text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK ((cleared_at IS NULL) = (clear_evidence IS NULL))
);
CREATE UNIQUE INDEX blacklist_entries_open_imei_key ON blacklist_entries (imei) WHERE cleared_at IS NULL;
CREATE INDEX blacklist_entries_imei_order ON blacklist_entries (imei, id);
CREATE INDEX blacklist_entries_flagged_order ON blacklist_entries (flagged_at, id);

-- Returns to vendor (RTV): devices sent back for credit.
CREATE SEQUENCE vendor_transfer_codes;
CREATE TABLE vendor_transfers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL DEFAULT 'RTV-' || lpad(nextval('vendor_transfer_codes')::text, 6, '0'),
  vendor_id bigint NOT NULL REFERENCES vendors (id),
  invoice_id bigint REFERENCES purchase_invoices (id),
  reason text NOT NULL CHECK (reason IN ('blacklisted', 'not_on_manifest', 'wrong_model', 'defective', 'other')),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN (
    'draft', 'packed', 'shipped', 'received_by_vendor', 'credited', 'cancelled')),
  carrier text,
  tracking text,
  credit_cents bigint CHECK (credit_cents >= 0),
  notes text,
  shipped_at timestamptz,
  received_by_vendor_at timestamptz,
  credited_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX vendor_transfers_code_key ON vendor_transfers (code);
CREATE INDEX vendor_transfers_created_order ON vendor_transfers (created_at, id);
CREATE INDEX vendor_transfers_vendor ON vendor_transfers (vendor_id, id);
CREATE INDEX vendor_transfers_status ON vendor_transfers (status, id);

CREATE TABLE vendor_transfer_devices (
  transfer_id bigint NOT NULL REFERENCES vendor_transfers (id) ON DELETE CASCADE,
  device_id bigint NOT NULL REFERENCES devices (id),
  unit_cost_cents bigint,
  -- False when the transfer is cancelled: a device is on one live transfer at a time.
  active boolean NOT NULL DEFAULT true,
  added_at timestamptz NOT NULL DEFAULT now(),
  added_by bigint REFERENCES users (id) ON DELETE SET NULL,
  PRIMARY KEY (transfer_id, device_id)
);
CREATE UNIQUE INDEX vendor_transfer_devices_live_key ON vendor_transfer_devices (device_id) WHERE active;

-- TACs met at scanning that map to no model yet: the learn-TAC list of the TAC page.
CREATE TABLE unknown_tacs (
  tac text PRIMARY KEY CHECK (tac ~ '^[0-9]{8}$'),
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  seen_count integer NOT NULL DEFAULT 1,
  last_imei text,
  last_invoice_id bigint REFERENCES purchase_invoices (id) ON DELETE SET NULL,
  last_seen_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX unknown_tacs_seen_order ON unknown_tacs (last_seen_at, tac);
