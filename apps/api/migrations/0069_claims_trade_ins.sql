-- Carrier claims and trade-ins (issue 19, DOMAIN.md 3.7 Claim and TradeIn, 4.16
-- /shipment-management/claim and /shipment-management/trade-in).

-- When a claim may be filed, per carrier (DOMAIN.md 4.16: waiting periods and 60-120-day windows
-- vary by carrier and insurer). Days are counted from the parcel's scan-out.
CREATE TABLE claim_carrier_terms (
  carrier text PRIMARY KEY CHECK (carrier IN ('usps', 'ups')),
  -- A lost parcel is not claimed before this many days (the carrier's search period).
  lost_wait_days integer NOT NULL CHECK (lost_wait_days BETWEEN 0 AND 90),
  -- Every claim is filed within this many days.
  filing_window_days integer NOT NULL CHECK (filing_window_days BETWEEN 1 AND 365),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (lost_wait_days < filing_window_days)
);
INSERT INTO claim_carrier_terms (carrier, lost_wait_days, filing_window_days)
VALUES ('usps', 15, 60), ('ups', 1, 60);

CREATE SEQUENCE claim_numbers;

CREATE TABLE claims (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'CL-' || lpad(nextval('claim_numbers')::text, 7, '0')
    CHECK (number ~ '^CL-[0-9]{7,}$'),
  package_id bigint NOT NULL REFERENCES packages (id),
  type text NOT NULL CHECK (type IN ('lost', 'damaged', 'missing_contents')),
  -- What the parcel was worth as sold (the order's prices) and what is asked of the carrier
  -- (prefilled with the devices' cost), in cents.
  declared_cents bigint NOT NULL CHECK (declared_cents BETWEEN 0 AND 100000000),
  claimed_cents bigint NOT NULL CHECK (claimed_cents BETWEEN 1 AND 100000000),
  note text CHECK (length(note) <= 2000),
  status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'filed', 'in_review', 'paid',
    'denied', 'closed')),
  -- The carrier's number for the claim, recorded when it is filed.
  carrier_claim_number text CHECK (length(carrier_claim_number) BETWEEN 1 AND 60),
  paid_cents bigint CHECK (paid_cents BETWEEN 0 AND 100000000),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  filed_at timestamptz,
  decided_at timestamptz,
  closed_at timestamptz,
  CHECK ((status = 'draft') = (carrier_claim_number IS NULL)),
  -- A payment is recorded with the step to paid and kept when the claim is closed.
  CHECK (status <> 'paid' OR paid_cents IS NOT NULL),
  CHECK (status IN ('paid', 'closed') OR paid_cents IS NULL)
);
CREATE UNIQUE INDEX claims_number_key ON claims (number);
-- One open claim per package (DOMAIN.md 4.16): a second one waits for the first to be closed.
CREATE UNIQUE INDEX claims_open_package_key ON claims (package_id) WHERE status <> 'closed';
CREATE INDEX claims_package ON claims (package_id, id);
-- The page's open claims and the latest closed ones.
CREATE INDEX claims_status_created ON claims (status, created_at, id);
CREATE TRIGGER claims_attachments_follow AFTER DELETE ON claims
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('claim');

CREATE TABLE claim_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  claim_id bigint NOT NULL REFERENCES claims (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX claim_events_claim ON claim_events (claim_id, id);

-- How long a revised trade-in offer stays open for the customer (DOMAIN.md 4.16: configurable).
-- One row.
CREATE TABLE trade_in_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  offer_valid_days integer NOT NULL DEFAULT 7 CHECK (offer_valid_days BETWEEN 1 AND 90),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO trade_in_settings DEFAULT VALUES;

CREATE SEQUENCE trade_in_numbers;

CREATE TABLE trade_ins (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'TI-' || lpad(nextval('trade_in_numbers')::text, 7, '0')
    CHECK (number ~ '^TI-[0-9]{7,}$'),
  customer_name text NOT NULL CHECK (length(customer_name) BETWEEN 1 AND 200),
  line1 text NOT NULL CHECK (length(line1) BETWEEN 1 AND 200),
  line2 text CHECK (length(line2) <= 200),
  city text NOT NULL CHECK (length(city) BETWEEN 1 AND 100),
  state char(2) NOT NULL,
  zip text NOT NULL CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
  -- What the customer said they send, and the value quoted for it, in cents.
  declared_model text NOT NULL CHECK (length(declared_model) BETWEEN 1 AND 200),
  quoted_cents bigint NOT NULL CHECK (quoted_cents BETWEEN 0 AND 10000000),
  order_id bigint REFERENCES orders (id),
  status text NOT NULL DEFAULT 'expected' CHECK (status IN ('expected', 'received', 'inspected',
    'accepted', 'revalued', 'declined', 'returned', 'rejected')),
  -- Receiving: the IMEI scanned, the model its TAC names, the blacklist check.
  imei text CHECK (imei ~ '^[0-9]{15}$'),
  model_id bigint REFERENCES device_models (id),
  received_at timestamptz,
  received_by bigint REFERENCES users (id) ON DELETE SET NULL,
  station text CHECK (length(station) <= 100),
  -- Inspection (DOMAIN.md 4.16): each item passed or not, and the grade.
  powers_on boolean,
  erased boolean,
  activation_lock_off boolean,
  functions_ok boolean,
  screen_ok boolean,
  body_ok boolean,
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  inspected_at timestamptz,
  inspected_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- A revised offer and until when the customer may take it.
  offer_cents bigint CHECK (offer_cents BETWEEN 0 AND 10000000),
  offer_expires_at timestamptz,
  -- Accepted: the customer's credit and the device it became.
  credit_cents bigint CHECK (credit_cents BETWEEN 0 AND 10000000),
  device_id bigint REFERENCES devices (id),
  -- Declined: the label that sends the phone back.
  return_carrier text CHECK (return_carrier IN ('usps', 'ups')),
  return_tracking_number text CHECK (return_tracking_number ~ '^[0-9A-Z]{18,34}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'expected') = (imei IS NULL)),
  CHECK ((status = 'accepted') = (credit_cents IS NOT NULL)),
  CHECK ((offer_cents IS NULL) = (offer_expires_at IS NULL))
);
CREATE UNIQUE INDEX trade_ins_number_key ON trade_ins (number);
-- One phone is in one trade-in at a time.
CREATE UNIQUE INDEX trade_ins_open_imei_key ON trade_ins (imei)
  WHERE status IN ('received', 'inspected', 'revalued', 'declined');
CREATE INDEX trade_ins_imei ON trade_ins (imei, id) WHERE imei IS NOT NULL;
CREATE INDEX trade_ins_order ON trade_ins (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX trade_ins_model ON trade_ins (model_id) WHERE model_id IS NOT NULL;
CREATE INDEX trade_ins_device ON trade_ins (device_id) WHERE device_id IS NOT NULL;
CREATE INDEX trade_ins_status_created ON trade_ins (status, created_at, id);

CREATE TABLE trade_in_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  trade_in_id bigint NOT NULL REFERENCES trade_ins (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX trade_in_events_trade_in ON trade_in_events (trade_in_id, id);
