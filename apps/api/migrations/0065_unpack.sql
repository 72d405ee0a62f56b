-- Unpacking returned parcels (DOMAIN.md 4.16 /shipment-management/unpack and its statistics,
-- 5.3 step 2b): what came back in each parcel, parcels nobody could identify, and the kept daily
-- figures the statistics read.

-- One unpacked parcel: the unique package decides two stations opening the same parcel.
CREATE TABLE unpacks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  package_id bigint NOT NULL REFERENCES packages (id),
  order_id bigint NOT NULL REFERENCES orders (id),
  carrier text NOT NULL,
  client_carrier_id bigint REFERENCES vendors (id),
  -- Why it came back: the carrier sent it back (return_to_sender), or it came with no news.
  reason text NOT NULL CHECK (reason IN ('undeliverable', 'no_tracking')),
  -- The parcel's state when it was opened.
  package_status text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('match', 'mismatch', 'empty')),
  -- The ship-to address in one comparable line (street and ZIP), for repeated returns.
  address_key text NOT NULL,
  zip text NOT NULL,
  notes text CHECK (length(notes) <= 1000),
  station text,
  unpacked_by bigint REFERENCES users (id),
  unpacked_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX unpacks_package_key ON unpacks (package_id);
CREATE INDEX unpacks_order ON unpacks (order_id);
CREATE INDEX unpacks_client_carrier ON unpacks (client_carrier_id) WHERE client_carrier_id IS NOT NULL;
CREATE INDEX unpacks_at ON unpacks (unpacked_at, id);

-- What was expected and what was found, one line per IMEI, ICCID or accessory SKU.
CREATE TABLE unpack_items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  unpack_id bigint NOT NULL REFERENCES unpacks (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('device', 'sim', 'accessory')),
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  expected_qty integer NOT NULL CHECK (expected_qty >= 0),
  found_qty integer NOT NULL CHECK (found_qty >= 0),
  device_id bigint REFERENCES devices (id),
  sim_id bigint REFERENCES sim_cards (id),
  -- A device found: kept for reuse, sent to repair, or held.
  disposition text CHECK (disposition IN ('reuse', 'repair', 'hold')),
  -- What became of it, in words (held as listed, its repair ticket, not ours).
  note text,
  CHECK (disposition IS NULL OR (kind = 'device' AND found_qty > 0)),
  UNIQUE (unpack_id, kind, code)
);
CREATE INDEX unpack_items_device ON unpack_items (device_id) WHERE device_id IS NOT NULL;
CREATE INDEX unpack_items_sim ON unpack_items (sim_id) WHERE sim_id IS NOT NULL;

-- A parcel no one could match to a shipment, put aside in a bin and searchable later.
CREATE TABLE unidentified_parcels (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL CHECK (length(code) BETWEEN 1 AND 64),
  location text NOT NULL CHECK (length(location) BETWEEN 1 AND 60),
  contents text CHECK (length(contents) <= 1000),
  notes text CHECK (length(notes) <= 1000),
  station text,
  found_by bigint REFERENCES users (id),
  found_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX unidentified_parcels_found ON unidentified_parcels (found_at, id);
CREATE INDEX unidentified_parcels_code ON unidentified_parcels (code text_pattern_ops);

-- The statistics' figures per business day, carrier, reason and client carrier (0: none), in 8
-- shards as order_day_counts, so stations unpacking at once do not queue on one row.
CREATE TABLE unpack_day_counts (
  day date NOT NULL,
  carrier text NOT NULL,
  reason text NOT NULL,
  client_carrier_id bigint NOT NULL,
  shard smallint NOT NULL,
  returns integer NOT NULL DEFAULT 0,
  mismatches integer NOT NULL DEFAULT 0,
  empties integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, carrier, reason, client_carrier_id, shard)
);

-- Returns per ship-to address, so repeated addresses are read without counting the returns.
CREATE TABLE unpack_addresses (
  address_key text PRIMARY KEY,
  zip text NOT NULL,
  returns integer NOT NULL,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL
);
CREATE INDEX unpack_addresses_repeated ON unpack_addresses (last_at) WHERE returns > 1;

-- A device the unpack station sets aside is held for quarantine.
ALTER TABLE devices
  DROP CONSTRAINT devices_hold_reason_check,
  ADD CONSTRAINT devices_hold_reason_check CHECK (hold_reason IN ('blacklist', 'frp',
    'activation_lock', 'mismatch', 'missing', 'quarantine'));
