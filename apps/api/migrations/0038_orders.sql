-- Orders (issue 16, DOMAIN.md 2.2 "Sales and fulfilment", 3.2, 4.7, 5.2 steps 1-2): the order core
-- every channel writes through (carrier API, cart checkout, offers, campaigns, support).
--
-- Subscribers' names, addresses and phones, and every order's ship-to, live in tables of their own
-- (subscribers, order_ship_to): lists read them only through masking SQL, and reading them whole
-- is its own permission, audited (subscriber.view-pii).
--
-- The daily order report reads order_day_counts, kept by triggers on orders in the transaction of
-- each change, so a year's report sums about 365 x sources x types rows, never the orders.

-- When a business day starts and ends, and the same-day cut-off (DOMAIN.md 8.10: a setting with a
-- default). One row.
CREATE TABLE order_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  time_zone text NOT NULL DEFAULT 'America/Chicago',
  same_day_cutoff time NOT NULL DEFAULT '14:00',
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO order_settings DEFAULT VALUES;

-- An enrolled subscriber of a client carrier (PII). external_id is the enrolment or account number;
-- service_address_key is the normalised service address that "one benefit per address" compares.
CREATE TABLE subscribers (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  program text NOT NULL CHECK (program IN ('lifeline', 'tribal', 'acp-legacy', 'prepaid')),
  external_id text CHECK (length(external_id) BETWEEN 1 AND 64),
  first_name text NOT NULL CHECK (length(first_name) BETWEEN 1 AND 100),
  last_name text NOT NULL CHECK (length(last_name) BETWEEN 1 AND 100),
  phone text,
  service_line1 text NOT NULL,
  service_line2 text,
  service_city text NOT NULL,
  service_state char(2) NOT NULL,
  service_zip text NOT NULL,
  service_address_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX subscribers_external_key ON subscribers (client_carrier_id, external_id)
  WHERE external_id IS NOT NULL;
CREATE INDEX subscribers_service_address ON subscribers (client_carrier_id, service_address_key);

CREATE SEQUENCE order_numbers;

CREATE TABLE orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- SO- and at least 7 digits, given by the insert trigger.
  number text NOT NULL,
  source text NOT NULL CHECK (source IN ('carrier_api', 'web', 'offer', 'express', 'campaign',
    'retailer', 'support', 'replacement', 'reship')),
  fulfilment_type text NOT NULL CHECK (fulfilment_type IN ('new_lifeline', 'ota', 'prepaid',
    'existing_customer', 'replacement', 'support', 'wholesale')),
  client_carrier_id bigint REFERENCES vendors (id),
  program text CHECK (program IN ('lifeline', 'tribal', 'acp-legacy', 'prepaid')),
  subscriber_id bigint REFERENCES subscribers (id),
  retailer_id bigint REFERENCES retailers (id),
  ship_method text NOT NULL DEFAULT 'ground'
    CHECK (ship_method IN ('ground', 'priority', 'express', 'overnight', 'freight', 'pickup')),
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  sla_due_at timestamptz,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'ready', 'assigned',
    'in_progress', 'fulfilled', 'labeled', 'shipped', 'delivered', 'closed', 'on_hold',
    'substitution_pending', 'cancel_requested', 'cancelled', 'returned', 'reshipped', 'lost')),
  hold_reason text CHECK (hold_reason IN ('no_stock', 'address', 'duplicate_benefit',
    'carrier_rejected', 'fraud_review', 'pairing_failed')),
  status_before_hold text,
  -- What validation found, in words, while on hold.
  hold_note text,
  external_ref text CHECK (length(external_ref) BETWEEN 1 AND 100),
  campaign_id bigint,
  parent_order_id bigint REFERENCES orders (id),
  subtotal_cents bigint NOT NULL DEFAULT 0 CHECK (subtotal_cents >= 0),
  shipping_cents bigint NOT NULL DEFAULT 0 CHECK (shipping_cents >= 0),
  total_cents bigint NOT NULL DEFAULT 0 CHECK (total_cents >= 0),
  notes text,
  -- The business day it was received, and whether before that day's cut-off: fixed at receipt
  -- (by trigger), so a later change of the settings does not move past figures.
  received_day date NOT NULL,
  received_before_cutoff boolean NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  approved_at timestamptz,
  shipped_at timestamptz,
  cancelled_at timestamptz,
  CHECK (num_nonnulls(subscriber_id, retailer_id) = 1),
  CHECK ((status = 'on_hold') = (hold_reason IS NOT NULL))
);
CREATE UNIQUE INDEX orders_number_key ON orders (number);
-- A carrier's order reference names one order: a repeated delivery of the same order is refused.
CREATE UNIQUE INDEX orders_external_ref_key ON orders (client_carrier_id, external_ref)
  WHERE external_ref IS NOT NULL AND client_carrier_id IS NOT NULL;
CREATE INDEX orders_external_ref ON orders (external_ref) WHERE external_ref IS NOT NULL;
-- The list's sorts (created, SLA due, number) and its filters, each led by the filter and ending in
-- the default order, so a filtered page reads one index range (1,000,000 orders).
CREATE INDEX orders_created ON orders (created_at, id);
CREATE INDEX orders_sla_due ON orders ((COALESCE(sla_due_at, 'infinity'::timestamptz)), id);
CREATE INDEX orders_status_created ON orders (status, created_at, id);
CREATE INDEX orders_hold_created ON orders (hold_reason, created_at, id) WHERE hold_reason IS NOT NULL;
CREATE INDEX orders_source_created ON orders (source, created_at, id);
CREATE INDEX orders_type_created ON orders (fulfilment_type, created_at, id);
CREATE INDEX orders_carrier_created ON orders (client_carrier_id, created_at, id);
CREATE INDEX orders_received_day ON orders (received_day, source, fulfilment_type);
CREATE INDEX orders_subscriber ON orders (subscriber_id) WHERE subscriber_id IS NOT NULL;
CREATE INDEX orders_retailer ON orders (retailer_id, created_at, id) WHERE retailer_id IS NOT NULL;
CREATE INDEX orders_parent ON orders (parent_order_id) WHERE parent_order_id IS NOT NULL;
CREATE INDEX orders_campaign ON orders (campaign_id) WHERE campaign_id IS NOT NULL;

-- Where an order goes (PII for a subscriber's order): one row per order.
CREATE TABLE order_ship_to (
  order_id bigint PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  company text,
  line1 text NOT NULL,
  line2 text,
  city text NOT NULL,
  state char(2) NOT NULL,
  zip text NOT NULL,
  phone text,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE order_lines (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position integer NOT NULL,
  variant_id bigint REFERENCES product_variants (id),
  bundle_id bigint REFERENCES bundles (id),
  combo_id bigint REFERENCES combos (id),
  -- The sellable as it was sold: its SKU and name at the time.
  sku text NOT NULL,
  description text NOT NULL,
  listing_id bigint REFERENCES pts_listings (id),
  qty integer NOT NULL CHECK (qty BETWEEN 1 AND 10000),
  -- Units of the listing's cap this line holds (reserved on intake, released on cancel).
  qty_reserved integer NOT NULL DEFAULT 0 CHECK (qty_reserved >= 0 AND qty_reserved <= qty),
  unit_price_cents bigint NOT NULL CHECK (unit_price_cents >= 0),
  status text NOT NULL DEFAULT 'open'
    CHECK (status IN ('open', 'allocated', 'picked', 'packed', 'shipped', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (num_nonnulls(variant_id, bundle_id, combo_id) = 1),
  UNIQUE (order_id, position)
);
CREATE INDEX order_lines_variant ON order_lines (variant_id) WHERE variant_id IS NOT NULL;
CREATE INDEX order_lines_bundle ON order_lines (bundle_id) WHERE bundle_id IS NOT NULL;
CREATE INDEX order_lines_combo ON order_lines (combo_id) WHERE combo_id IS NOT NULL;
CREATE INDEX order_lines_listing ON order_lines (listing_id) WHERE listing_id IS NOT NULL;

-- The IMEI and ICCID bound to a line (fulfilment fills them), with any substitution.
CREATE TABLE order_line_units (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_line_id bigint NOT NULL REFERENCES order_lines (id) ON DELETE CASCADE,
  variant_id bigint REFERENCES product_variants (id),
  device_id bigint REFERENCES devices (id),
  iccid text,
  substituted_from_variant_id bigint REFERENCES product_variants (id),
  substitution_reason text,
  status text NOT NULL DEFAULT 'allocated'
    CHECK (status IN ('allocated', 'picked', 'packed', 'shipped', 'returned', 'cancelled')),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_line_units_line ON order_line_units (order_line_id);
-- DOMAIN.md invariant 3: a device or SIM is in at most one open order unit.
CREATE UNIQUE INDEX order_line_units_open_device ON order_line_units (device_id)
  WHERE device_id IS NOT NULL AND status IN ('allocated', 'picked', 'packed');
CREATE UNIQUE INDEX order_line_units_open_iccid ON order_line_units (iccid)
  WHERE iccid IS NOT NULL AND status IN ('allocated', 'picked', 'packed');
CREATE INDEX order_line_units_device ON order_line_units (device_id) WHERE device_id IS NOT NULL;
CREATE INDEX order_line_units_variant ON order_line_units (variant_id) WHERE variant_id IS NOT NULL;
CREATE INDEX order_line_units_substituted ON order_line_units (substituted_from_variant_id)
  WHERE substituted_from_variant_id IS NOT NULL;

-- The order's timeline: every step of its lifecycle and every edit.
CREATE TABLE order_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX order_events_order ON order_events (order_id, id);

-- The daily order report's figures per business day x source x fulfilment type, in 8 shards so
-- that concurrent intakes do not queue on one row until they commit (the shard is the writing
-- transaction's id mod 8). A day's figure is the sum of its shards.
--   received, received_before_cutoff, shipped_same_day: by the day the orders were received;
--   approved, shipped, cancelled: by the day it happened (first approval, shipping, cancelling);
--   backlog: orders received that day that are on hold now.
CREATE TABLE order_day_counts (
  day date NOT NULL,
  source text NOT NULL,
  fulfilment_type text NOT NULL,
  shard smallint NOT NULL,
  received integer NOT NULL DEFAULT 0,
  received_before_cutoff integer NOT NULL DEFAULT 0,
  approved integer NOT NULL DEFAULT 0,
  shipped integer NOT NULL DEFAULT 0,
  shipped_same_day integer NOT NULL DEFAULT 0,
  backlog integer NOT NULL DEFAULT 0,
  cancelled integer NOT NULL DEFAULT 0,
  PRIMARY KEY (day, source, fulfilment_type, shard)
);

-- A moment's business day.
CREATE FUNCTION order_business_day(p_at timestamptz) RETURNS date
LANGUAGE sql STABLE AS $$
  SELECT (p_at AT TIME ZONE (SELECT time_zone FROM order_settings))::date
$$;

CREATE FUNCTION orders_on_receipt() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  settings order_settings;
  next_number text;
BEGIN
  IF NEW.number IS NULL THEN
    next_number := nextval('order_numbers')::text;
    NEW.number := 'SO-' || lpad(next_number, greatest(7, length(next_number)), '0');
  END IF;
  SELECT * INTO settings FROM order_settings;
  NEW.received_day := (NEW.created_at AT TIME ZONE settings.time_zone)::date;
  NEW.received_before_cutoff :=
    (NEW.created_at AT TIME ZONE settings.time_zone)::time < settings.same_day_cutoff;
  RETURN NEW;
END $$;
CREATE TRIGGER orders_on_receipt BEFORE INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_on_receipt();

-- Adds rows of figures (day, source, type, and the seven counts) to this transaction's shard.
CREATE FUNCTION add_order_day_counts(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_day_counts AS c (day, source, fulfilment_type, shard, received,
    received_before_cutoff, approved, shipped, shipped_same_day, backlog, cancelled)
  SELECT day, source, fulfilment_type, (pg_current_xact_id()::text::bigint % 8)::smallint,
    sum(received), sum(received_before_cutoff), sum(approved), sum(shipped),
    sum(shipped_same_day), sum(backlog), sum(cancelled)
  FROM jsonb_to_recordset(changes) AS x (day date, source text, fulfilment_type text,
    received int, received_before_cutoff int, approved int, shipped int, shipped_same_day int,
    backlog int, cancelled int)
  GROUP BY day, source, fulfilment_type
  HAVING sum(abs(received) + abs(received_before_cutoff) + abs(approved) + abs(shipped)
    + abs(shipped_same_day) + abs(backlog) + abs(cancelled)) > 0
  ON CONFLICT (day, source, fulfilment_type, shard) DO UPDATE SET
    received = c.received + EXCLUDED.received,
    received_before_cutoff = c.received_before_cutoff + EXCLUDED.received_before_cutoff,
    approved = c.approved + EXCLUDED.approved,
    shipped = c.shipped + EXCLUDED.shipped,
    shipped_same_day = c.shipped_same_day + EXCLUDED.shipped_same_day,
    backlog = c.backlog + EXCLUDED.backlog,
    cancelled = c.cancelled + EXCLUDED.cancelled
$$;

-- What a set of order rows adds to the figures (sign 1) or takes away (sign -1): every statement's
-- effect is its new rows' figures less its old rows', so an update counts only what changed.
CREATE FUNCTION order_day_figures(rows_json jsonb, sign int) RETURNS jsonb
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(jsonb_agg(f), '[]'::jsonb) FROM (
    SELECT d.day, o.source, o.fulfilment_type,
      sign * (d.kind = 'received')::int AS received,
      sign * (d.kind = 'received' AND o.received_before_cutoff)::int AS received_before_cutoff,
      sign * (d.kind = 'approved')::int AS approved,
      sign * (d.kind = 'shipped')::int AS shipped,
      sign * (d.kind = 'received' AND o.received_before_cutoff AND o.shipped_at IS NOT NULL
        AND order_business_day(o.shipped_at) = o.received_day)::int AS shipped_same_day,
      sign * (d.kind = 'received' AND o.status = 'on_hold')::int AS backlog,
      sign * (d.kind = 'cancelled')::int AS cancelled
    FROM jsonb_to_recordset(rows_json) AS o (source text, fulfilment_type text, status text,
      received_day date, received_before_cutoff boolean, approved_at timestamptz,
      shipped_at timestamptz, cancelled_at timestamptz)
    CROSS JOIN LATERAL (VALUES
      ('received', o.received_day),
      ('approved', order_business_day(o.approved_at)),
      ('shipped', order_business_day(o.shipped_at)),
      ('cancelled', order_business_day(o.cancelled_at))
    ) AS d (kind, day)
    WHERE d.day IS NOT NULL
  ) f
$$;

CREATE FUNCTION orders_count_days() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  added jsonb;
  removed jsonb := '[]'::jsonb;
BEGIN
  SELECT order_day_figures(COALESCE(jsonb_agg(to_jsonb(n)), '[]'::jsonb), 1) INTO added
  FROM new_orders n;
  IF TG_OP = 'UPDATE' THEN
    SELECT order_day_figures(COALESCE(jsonb_agg(to_jsonb(o)), '[]'::jsonb), -1) INTO removed
    FROM old_orders o;
  END IF;
  PERFORM add_order_day_counts(added || removed);
  RETURN NULL;
END $$;
CREATE TRIGGER orders_count_days_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_count_days();
CREATE TRIGGER orders_count_days_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION orders_count_days();
