-- Carrier updates (issue 18, DOMAIN.md 4.14 /fulfill/ota-orders and /fulfill/existing-customer,
-- 5.2 step 4b): when the last unit of an OTA order is picked, its IMEI and ICCID pairing is
-- reported to the client carrier; an existing customer's device change (the new IMEI, and the
-- ICCID of a SIM swap) likewise, unless the carrier does not acknowledge device changes. The
-- label waits until the carrier answers ok. Prepaid lines the carrier has us pre-activate wait
-- for their MDN at the station.

-- How a client carrier takes updates: by a batch file exported and answered by file (no URL), or
-- at its HTTP endpoint with a key; whether its device changes need an acknowledgement; whether we
-- pre-activate its prepaid lines. A carrier without a row takes the defaults.
CREATE TABLE client_carrier_links (
  client_carrier_id bigint PRIMARY KEY REFERENCES vendors (id),
  update_url text CHECK (update_url ~ '^https?://' AND length(update_url) <= 500),
  update_key text CHECK (length(update_key) BETWEEN 1 AND 500),
  device_change_ack boolean NOT NULL DEFAULT true,
  pre_activation boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (update_key IS NULL OR update_url IS NOT NULL)
);

-- A failed update older than this goes to the backlog (pairing_failed). One row.
CREATE TABLE carrier_update_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  pairing_failed_hours integer NOT NULL DEFAULT 24 CHECK (pairing_failed_hours BETWEEN 1 AND 720),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO carrier_update_settings DEFAULT VALUES;

-- A batch file of updates exported for one carrier: its rows are the updates it submitted.
CREATE TABLE carrier_update_files (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  kind text NOT NULL CHECK (kind IN ('pairing', 'device_change')),
  update_count integer NOT NULL CHECK (update_count > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX carrier_update_files_carrier ON carrier_update_files (client_carrier_id, id);

-- One report of an order's units to its carrier. An order's latest update (highest id, cancelled
-- ones aside) is the one that counts: a retry sends the same row again, a re-pair with another
-- SIM makes a new one, an unpick cancels the open ones.
CREATE TABLE carrier_updates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id),
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  kind text NOT NULL CHECK (kind IN ('pairing', 'device_change')),
  status text NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'submitted', 'ok', 'failed', 'cancelled')),
  -- How it travels, fixed when it is made: a batch file, or the carrier's HTTP endpoint (a job).
  delivery text NOT NULL CHECK (delivery IN ('batch_file', 'http')),
  -- What is reported: {"units": [{"imei": ..., "iccid": ... or null}]}.
  payload jsonb NOT NULL,
  -- The carrier's words with its last answer.
  message text,
  -- Times it was submitted.
  attempts integer NOT NULL DEFAULT 0,
  batch_file_id bigint REFERENCES carrier_update_files (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  submitted_at timestamptz,
  answered_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX carrier_updates_order ON carrier_updates (order_id, id);
CREATE INDEX carrier_updates_carrier ON carrier_updates (client_carrier_id, status, id);
CREATE INDEX carrier_updates_file ON carrier_updates (batch_file_id);
-- The desk's board and the sweep read the updates still open or failed, by kind.
CREATE INDEX carrier_updates_open ON carrier_updates (kind, status, id)
  WHERE status IN ('pending', 'submitted', 'failed');

-- The MDN of a line we pre-activated (prepaid), recorded at the station before the label; an
-- existing customer's device change that swaps the SIM too (a SIM ships with each unit).
ALTER TABLE orders
  ADD COLUMN sim_swap boolean NOT NULL DEFAULT false,
  ADD COLUMN mdn text CHECK (mdn ~ '^[0-9]{10}$'),
  ADD COLUMN mdn_recorded_at timestamptz,
  ADD COLUMN mdn_recorded_by bigint REFERENCES users (id) ON DELETE SET NULL;

-- Why an order may not be labelled yet, in words; null when it may. The label desk refuses and
-- its queue shows waiting what this names: an OTA pairing or device change whose latest update
-- is not ok, a pre-activated prepaid line without its MDN.
CREATE FUNCTION order_label_blocker(p_order_id bigint)
RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(
    (SELECT CASE u.kind WHEN 'pairing' THEN 'The carrier pairing' ELSE 'The device change' END
       || CASE u.status
            WHEN 'pending' THEN ' is not sent to the carrier yet.'
            WHEN 'submitted' THEN ' waits for the carrier''s answer.'
            ELSE ' failed' || COALESCE(': ' || u.message, '.')
          END
     FROM (SELECT kind, status, message FROM carrier_updates
           WHERE order_id = p_order_id AND status <> 'cancelled'
           ORDER BY id DESC LIMIT 1) u
     WHERE u.status <> 'ok'),
    (SELECT 'The pre-activated line''s MDN is not recorded yet.'
     FROM orders o JOIN client_carrier_links k ON k.client_carrier_id = o.client_carrier_id
     WHERE o.id = p_order_id AND o.fulfilment_type = 'prepaid' AND k.pre_activation
       AND o.mdn IS NULL))
$$;
