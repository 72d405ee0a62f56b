-- SIM cards (issue 17, DOMAIN.md 2.2 "SIM", 3.6, 4.6, 5.4, 7; invariants 2 and 3): carrier boxes
-- received by ICCID range or list and split into packs, every SIM with its one holder (a box or
-- pack in stock, a request, an agent, an order or device), its timeline, each agent's ledger,
-- agents' requests and returns, and the carrier's detection runs with their anomalies.
--
-- A SIM's client carrier is the government-plan carrier (a vendor of type carrier-client) whose
-- subscribers it serves; its issuer is the network named by the ICCID's prefix (sim_prefixes).

-- The configurable prefix table (DOMAIN.md [S8]): the longest prefix that starts an ICCID names
-- its issuer and, where the carrier's boxes always carry it, the client carrier.
CREATE TABLE sim_prefixes (
  prefix text PRIMARY KEY CHECK (prefix ~ '^89[0-9]{1,10}$'),
  issuer text NOT NULL CHECK (length(issuer) BETWEEN 1 AND 80),
  country text NOT NULL DEFAULT 'US' CHECK (country ~ '^[A-Z]{2}$'),
  client_carrier_id bigint REFERENCES vendors (id)
);
CREATE INDEX sim_prefixes_client_carrier ON sim_prefixes (client_carrier_id)
  WHERE client_carrier_id IS NOT NULL;
INSERT INTO sim_prefixes (prefix, issuer, country) VALUES
  ('8901410', 'AT&T', 'US'),
  ('8901260', 'T-Mobile', 'US'),
  ('8901120', 'Sprint (T-Mobile)', 'US'),
  ('891480', 'Verizon', 'US'),
  ('8944', 'UK operator', 'GB');

-- The SIM rules operations may change (DOMAIN.md 8): one row.
CREATE TABLE sim_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  -- An agent's SIM held longer than this is highlighted for return and counted as ageing.
  hold_days integer NOT NULL DEFAULT 30 CHECK (hold_days BETWEEN 1 AND 365),
  -- Activation rate (activated / received) under which approving a request needs a manager.
  low_activation_rate numeric(4, 3) NOT NULL DEFAULT 0.200 CHECK (low_activation_rate BETWEEN 0 AND 1),
  -- An agent's rate counts only once the agent has received at least this many SIMs.
  rate_minimum_received integer NOT NULL DEFAULT 20 CHECK (rate_minimum_received >= 0),
  -- Agents' scans (receive, activation, return) per minute, per agent.
  agent_scans_per_minute integer NOT NULL DEFAULT 120 CHECK (agent_scans_per_minute BETWEEN 1 AND 6000),
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO sim_settings DEFAULT VALUES;

-- A carrier box as received: a contiguous range (iccid_first..iccid_last) or a listed file.
CREATE TABLE sim_boxes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^SB-[0-9]{6,}$'),
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  issuer text,
  form text NOT NULL DEFAULT 'triple-cut' CHECK (form IN ('triple-cut', 'esim')),
  received_by_range boolean NOT NULL,
  iccid_first text NOT NULL,
  iccid_last text NOT NULL,
  qty integer NOT NULL CHECK (qty > 0),
  -- SIMs of the box still in_stock (kept by the statements that move them).
  qty_available integer NOT NULL CHECK (qty_available BETWEEN 0 AND qty),
  location_id bigint REFERENCES locations (id),
  status text NOT NULL DEFAULT 'in_stock' CHECK (status IN ('in_stock', 'split', 'depleted')),
  import_batch_id bigint REFERENCES import_batches (id) ON DELETE SET NULL,
  note text,
  received_at timestamptz NOT NULL DEFAULT now(),
  received_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE sim_box_numbers;
CREATE INDEX sim_boxes_received ON sim_boxes (received_at, id);
CREATE INDEX sim_boxes_carrier ON sim_boxes (client_carrier_id, received_at, id);
CREATE INDEX sim_boxes_location ON sim_boxes (location_id) WHERE location_id IS NOT NULL;
CREATE INDEX sim_boxes_import_batch ON sim_boxes (import_batch_id) WHERE import_batch_id IS NOT NULL;

-- A pack split from a box (10 or 50 SIMs), labelled and allocated whole or by ICCID.
CREATE TABLE sim_packs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL UNIQUE CHECK (code ~ '^SP-[0-9]{6,}$'),
  sim_box_id bigint NOT NULL REFERENCES sim_boxes (id),
  size integer NOT NULL CHECK (size > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE SEQUENCE sim_pack_numbers;
CREATE INDEX sim_packs_box ON sim_packs (sim_box_id, id);

-- An agent's request for SIMs of one client carrier (DOMAIN.md 4.6, 7): submitted → approved →
-- packed → shipped → received; rejected or cancelled end it. One open request per agent and
-- carrier (the unique index below).
CREATE TABLE sim_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL UNIQUE CHECK (number ~ '^SR-[0-9]{6,}$'),
  agent_id bigint NOT NULL REFERENCES users (id),
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  qty_requested integer NOT NULL CHECK (qty_requested > 0),
  qty_approved integer CHECK (qty_approved > 0 AND qty_approved <= qty_requested),
  note text,
  delivery text NOT NULL DEFAULT 'ship' CHECK (delivery IN ('ship', 'pickup')),
  -- The agent's profile address at submission (or a pickup note).
  ship_to text,
  status text NOT NULL DEFAULT 'submitted' CHECK (status IN ('submitted', 'approved', 'packed',
    'shipped', 'received', 'rejected', 'cancelled')),
  reason text,
  -- Approved under the low-activation-rate rule by someone allowed to.
  rate_override boolean NOT NULL DEFAULT false,
  approved_at timestamptz,
  approved_by bigint REFERENCES users (id) ON DELETE SET NULL,
  tracking_number text,
  shipped_at timestamptz,
  received_at timestamptz,
  qty_received integer CHECK (qty_received >= 0),
  qty_missing integer CHECK (qty_missing >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE SEQUENCE sim_request_numbers;
CREATE UNIQUE INDEX sim_requests_one_open ON sim_requests (agent_id, client_carrier_id)
  WHERE status IN ('submitted', 'approved', 'packed');
CREATE INDEX sim_requests_agent ON sim_requests (agent_id, created_at, id);
CREATE INDEX sim_requests_status ON sim_requests (status, created_at, id);
CREATE INDEX sim_requests_created ON sim_requests (created_at, id);
CREATE INDEX sim_requests_carrier ON sim_requests (client_carrier_id, created_at, id);

CREATE TABLE sim_request_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sim_request_id bigint NOT NULL REFERENCES sim_requests (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX sim_request_events_request ON sim_request_events (sim_request_id, id);

-- A return of SIMs (DOMAIN.md 4.6): from an agent, an RMA or a customer; its lines are the
-- ICCIDs expected (an agent's selection) and those found by scanning, each with a disposition.
CREATE TABLE sim_returns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL UNIQUE CHECK (number ~ '^SRT-[0-9]{6,}$'),
  source text NOT NULL CHECK (source IN ('agent', 'rma', 'customer')),
  agent_id bigint REFERENCES users (id),
  reason text NOT NULL CHECK (reason IN ('unused', 'defective', 'damaged')),
  note text,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'receiving', 'closed',
    'cancelled')),
  label_tracking text,
  qty_expected integer NOT NULL DEFAULT 0 CHECK (qty_expected >= 0),
  qty_received integer NOT NULL DEFAULT 0 CHECK (qty_received >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  closed_at timestamptz,
  closed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (source <> 'agent' OR agent_id IS NOT NULL)
);
CREATE SEQUENCE sim_return_numbers;
CREATE INDEX sim_returns_agent ON sim_returns (agent_id, created_at, id);
CREATE INDEX sim_returns_status ON sim_returns (status, created_at, id);
CREATE INDEX sim_returns_created ON sim_returns (created_at, id);

-- The SIM card (DOMAIN.md 2.2 SimCard, 3.6). Its holder is exactly one of: its box or pack while
-- in stock, a request while allocated or on its way, an agent, an order (OTA kit) or a device.
CREATE TABLE sim_cards (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  iccid text NOT NULL UNIQUE CHECK (iccid ~ '^89[0-9]{17,18}$'),
  issuer text,
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  form text NOT NULL DEFAULT 'triple-cut' CHECK (form IN ('triple-cut', 'esim')),
  status text NOT NULL DEFAULT 'in_stock' CHECK (status IN ('in_stock', 'allocated',
    'in_transit', 'with_agent', 'assigned', 'active', 'inactive', 'suspended', 'shipped',
    'returned', 'destroyed', 'lost', 'defective')),
  sim_box_id bigint NOT NULL REFERENCES sim_boxes (id),
  sim_pack_id bigint REFERENCES sim_packs (id),
  sim_request_id bigint REFERENCES sim_requests (id),
  agent_id bigint REFERENCES users (id),
  -- Since when its current holder has had it (days held, ageing).
  held_since timestamptz NOT NULL DEFAULT now(),
  order_id bigint REFERENCES orders (id),
  device_id bigint REFERENCES devices (id),
  -- The IMEI an agent recorded with the activation (the phone handed out), when not our device.
  paired_imei text CHECK (paired_imei ~ '^[0-9]{15}$'),
  -- The carrier's enrolment or application id the agent recorded (no subscriber PII).
  enrolment_ref text,
  assigned_at timestamptz,
  mdn text,
  activated_at timestamptz,
  -- Ever seen active by a detection: such a SIM is never restocked.
  ever_active boolean NOT NULL DEFAULT false,
  -- The agent credited with its first activation.
  activated_agent_id bigint REFERENCES users (id),
  last_detected_at timestamptz,
  last_detect_state text CHECK (last_detect_state IN ('active', 'inactive', 'suspended',
    'not_found')),
  sim_return_id bigint REFERENCES sim_returns (id),
  status_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (status NOT IN ('with_agent', 'assigned') OR agent_id IS NOT NULL),
  CHECK (status NOT IN ('allocated', 'in_transit') OR sim_request_id IS NOT NULL
    OR order_id IS NOT NULL)
);
CREATE INDEX sim_cards_status ON sim_cards (status, id);
CREATE INDEX sim_cards_carrier_status ON sim_cards (client_carrier_id, status, id);
CREATE INDEX sim_cards_box ON sim_cards (sim_box_id, iccid);
CREATE INDEX sim_cards_pack ON sim_cards (sim_pack_id, iccid) WHERE sim_pack_id IS NOT NULL;
CREATE INDEX sim_cards_request ON sim_cards (sim_request_id, iccid) WHERE sim_request_id IS NOT NULL;
CREATE INDEX sim_cards_agent ON sim_cards (agent_id, status, id) WHERE agent_id IS NOT NULL;
CREATE INDEX sim_cards_order ON sim_cards (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX sim_cards_device ON sim_cards (device_id) WHERE device_id IS NOT NULL;
CREATE INDEX sim_cards_return ON sim_cards (sim_return_id) WHERE sim_return_id IS NOT NULL;

-- A SIM's timeline: every named action (DOMAIN.md invariant 6), the detection's state changes too.
CREATE TABLE sim_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sim_id bigint NOT NULL REFERENCES sim_cards (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text NOT NULL,
  type text NOT NULL,
  from_status text,
  to_status text,
  -- What the step names: the request, agent, return, detection run, order or device it concerns.
  data jsonb
);
CREATE INDEX sim_events_sim ON sim_events (sim_id, id);

-- Each agent's ledger of SIMs (DOMAIN.md 4.6: transfers on both agents' ledgers): what came in
-- (received, transfer_in), what went out (transfer_out, returned, lost) and what they did
-- (assigned, activated).
CREATE TABLE agent_sim_ledger (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id bigint NOT NULL REFERENCES users (id),
  sim_id bigint NOT NULL REFERENCES sim_cards (id),
  entry text NOT NULL CHECK (entry IN ('received', 'transfer_in', 'transfer_out', 'assigned',
    'activated', 'returned', 'lost', 'defective')),
  -- The other agent of a transfer; the request or return of a receipt or return.
  counterpart_agent_id bigint REFERENCES users (id),
  sim_request_id bigint REFERENCES sim_requests (id),
  sim_return_id bigint REFERENCES sim_returns (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX agent_sim_ledger_agent ON agent_sim_ledger (agent_id, at, id);
CREATE INDEX agent_sim_ledger_sim ON agent_sim_ledger (sim_id, id);
CREATE INDEX agent_sim_ledger_request ON agent_sim_ledger (sim_request_id)
  WHERE sim_request_id IS NOT NULL;
CREATE INDEX agent_sim_ledger_return ON agent_sim_ledger (sim_return_id)
  WHERE sim_return_id IS NOT NULL;

CREATE TABLE sim_return_lines (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sim_return_id bigint NOT NULL REFERENCES sim_returns (id),
  iccid text NOT NULL,
  sim_id bigint REFERENCES sim_cards (id),
  -- Listed when the return was created (an agent's selection) rather than found by scanning.
  expected boolean NOT NULL DEFAULT false,
  received_at timestamptz,
  received_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- Why a scanned ICCID is flagged: not the agent's, unknown, or not returnable in its state.
  flag text CHECK (flag IN ('not_agents', 'unknown', 'not_returnable')),
  disposition text CHECK (disposition IN ('restock', 'destroy', 'defective_to_carrier')),
  disposed_at timestamptz,
  disposed_by bigint REFERENCES users (id) ON DELETE SET NULL,
  UNIQUE (sim_return_id, iccid)
);
CREATE INDEX sim_return_lines_sim ON sim_return_lines (sim_id) WHERE sim_id IS NOT NULL;

-- The column mapping of a carrier's activation export, kept per client carrier.
CREATE TABLE sim_detection_mappings (
  client_carrier_id bigint PRIMARY KEY REFERENCES vendors (id),
  -- {iccid, state, mdn, activation_date, imei} → the export's header names.
  columns jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL
);

-- A detection run (DOMAIN.md 2.2 SimDetectionRun, 4.6): an export file or an adapter's pull.
CREATE TABLE sim_detection_runs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  source text NOT NULL CHECK (source IN ('file', 'api')),
  client_carrier_id bigint NOT NULL REFERENCES vendors (id),
  file_name text,
  status text NOT NULL DEFAULT 'loading' CHECK (status IN ('loading', 'applying', 'done',
    'failed')),
  rerun_of bigint REFERENCES sim_detection_runs (id),
  rows_total integer NOT NULL DEFAULT 0,
  rows_loaded integer NOT NULL DEFAULT 0,
  matched integer NOT NULL DEFAULT 0,
  newly_active integer NOT NULL DEFAULT 0,
  unknown integer NOT NULL DEFAULT 0,
  anomalies integer NOT NULL DEFAULT 0,
  error text,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz,
  run_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX sim_detection_runs_started ON sim_detection_runs (started_at, id);
CREATE INDEX sim_detection_runs_carrier ON sim_detection_runs (client_carrier_id, started_at);

-- A run's rows as read (line = the export's line), with what applying each did.
CREATE TABLE sim_detection_rows (
  run_id bigint NOT NULL REFERENCES sim_detection_runs (id),
  line integer NOT NULL,
  iccid text NOT NULL,
  state text NOT NULL,
  mdn text,
  activation_date date,
  imei_seen text,
  sim_id bigint,
  outcome text CHECK (outcome IN ('newly_active', 'changed', 'unchanged', 'unknown', 'anomaly',
    'invalid')),
  PRIMARY KEY (run_id, line)
);
CREATE INDEX sim_detection_rows_outcome ON sim_detection_rows (run_id, outcome, line);

-- What a detection found that needs a person (DOMAIN.md 4.6): active while still in stock, or
-- the IMEI seen differing from the paired one (an OTA order's kit flagged). One open per SIM and
-- kind.
CREATE TABLE sim_anomalies (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  sim_id bigint NOT NULL REFERENCES sim_cards (id),
  run_id bigint NOT NULL REFERENCES sim_detection_runs (id),
  kind text NOT NULL CHECK (kind IN ('active_in_stock', 'imei_mismatch')),
  detail text,
  ota_order boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolution text,
  resolved_at timestamptz,
  resolved_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX sim_anomalies_one_open ON sim_anomalies (sim_id, kind) WHERE status = 'open';
CREATE INDEX sim_anomalies_status ON sim_anomalies (status, id);
CREATE INDEX sim_anomalies_run ON sim_anomalies (run_id, id);
