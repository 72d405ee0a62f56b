-- The repair line (issue 19, DOMAIN.md 3.5 and 4.19): a ticket per device sent to repair, on the
-- lifecycle `repairTicketLifecycle` of the contract. A device has at most one open ticket
-- (`repair_tickets_open_device`): of two concurrent requests for it, the second fails on the index.

CREATE SEQUENCE repair_ticket_numbers;
CREATE TABLE repair_tickets (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'RT-' || lpad(nextval('repair_ticket_numbers')::text, 6, '0'),
  device_id bigint NOT NULL REFERENCES devices (id),
  status text NOT NULL DEFAULT 'requested' CHECK (status IN ('requested', 'sorted', 'assigned',
    'in_repair', 'waiting_parts', 'repaired', 'testing', 'passed', 'failed', 'released',
    'beyond_repair', 'cancelled')),
  -- Where the device came from: an RMA, a returned parcel, production QC, a trade-in, by hand.
  source text NOT NULL CHECK (source IN ('rma', 'unpack', 'production', 'trade_in', 'manual')),
  reference text CHECK (reference IS NULL OR length(reference) <= 60),
  issue_codes text[] NOT NULL DEFAULT '{}',
  note text CHECK (note IS NULL OR length(note) <= 1000),
  -- Sorting: priority and repair cost against what the device resells for.
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  estimated_cost_cents integer CHECK (estimated_cost_cents >= 0),
  resale_value_cents integer CHECK (resale_value_cents >= 0),
  ber_candidate boolean NOT NULL DEFAULT false,
  technician_id bigint REFERENCES users (id),
  -- What a technician's clock has run on the ticket, stopped sessions only (`repair_labour`).
  labour_seconds integer NOT NULL DEFAULT 0,
  -- The items the last failed test named, for the technician.
  failed_items text[] NOT NULL DEFAULT '{}',
  test_count integer NOT NULL DEFAULT 0,
  grade text,
  ber_outcome text CHECK (ber_outcome IN ('scrapped', 'parts')),
  requested_at timestamptz NOT NULL DEFAULT now(),
  requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  sorted_at timestamptz,
  assigned_at timestamptz,
  repaired_at timestamptz,
  -- When the ticket left the line: released, beyond repair or cancelled (the statistics' day).
  closed_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX repair_tickets_number_key ON repair_tickets (number);
CREATE UNIQUE INDEX repair_tickets_open_device ON repair_tickets (device_id)
  WHERE status NOT IN ('released', 'beyond_repair', 'cancelled');
CREATE INDEX repair_tickets_device ON repair_tickets (device_id, id);
CREATE INDEX repair_tickets_open ON repair_tickets (status, requested_at)
  WHERE status NOT IN ('released', 'beyond_repair', 'cancelled');
CREATE INDEX repair_tickets_technician ON repair_tickets (technician_id, status)
  WHERE technician_id IS NOT NULL;
CREATE INDEX repair_tickets_requested ON repair_tickets (requested_at);
CREATE INDEX repair_tickets_closed ON repair_tickets (closed_at) WHERE closed_at IS NOT NULL;

CREATE TABLE repair_ticket_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES repair_tickets (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX repair_ticket_events_ticket ON repair_ticket_events (ticket_id, id);

-- A technician's clock on a ticket: one running session per ticket.
CREATE TABLE repair_labour (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES repair_tickets (id) ON DELETE CASCADE,
  technician_id bigint NOT NULL REFERENCES users (id),
  started_at timestamptz NOT NULL DEFAULT now(),
  stopped_at timestamptz,
  CHECK (stopped_at IS NULL OR stopped_at >= started_at)
);
CREATE UNIQUE INDEX repair_labour_running ON repair_labour (ticket_id) WHERE stopped_at IS NULL;
CREATE INDEX repair_labour_ticket ON repair_labour (ticket_id);

-- Parts scanned out of stock onto a ticket: each is a `consume` move of the ledger; a cancelled
-- ticket puts its unfitted parts back with another move (`returned_move_id`).
CREATE TABLE repair_ticket_parts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES repair_tickets (id) ON DELETE CASCADE,
  part_id bigint NOT NULL REFERENCES parts (id),
  location_id bigint NOT NULL REFERENCES locations (id),
  qty integer NOT NULL CHECK (qty > 0),
  unit_cost_cents integer NOT NULL DEFAULT 0,
  issued_move_id bigint NOT NULL REFERENCES stock_moves (id),
  returned_move_id bigint REFERENCES stock_moves (id),
  issued_by bigint REFERENCES users (id) ON DELETE SET NULL,
  issued_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repair_ticket_parts_ticket ON repair_ticket_parts (ticket_id);
CREATE INDEX repair_ticket_parts_issued ON repair_ticket_parts (issued_at);
-- Each reference found by index, so a part, a location or a stock move is checked before a delete.
CREATE INDEX repair_ticket_parts_part ON repair_ticket_parts (part_id);
CREATE INDEX repair_ticket_parts_location ON repair_ticket_parts (location_id);
CREATE INDEX repair_ticket_parts_issued_move ON repair_ticket_parts (issued_move_id);
CREATE INDEX repair_ticket_parts_returned_move ON repair_ticket_parts (returned_move_id)
  WHERE returned_move_id IS NOT NULL;

-- Parts the leader asks purchasing for; the ticket waits for them.
CREATE TABLE repair_part_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES repair_tickets (id) ON DELETE CASCADE,
  part_id bigint NOT NULL REFERENCES parts (id),
  qty integer NOT NULL CHECK (qty > 0),
  requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  requested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repair_part_requests_ticket ON repair_part_requests (ticket_id);
CREATE INDEX repair_part_requests_part ON repair_part_requests (part_id);

-- Each run of the testing station's checklist on a ticket.
CREATE TABLE repair_tests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  ticket_id bigint NOT NULL REFERENCES repair_tickets (id) ON DELETE CASCADE,
  passed boolean NOT NULL,
  grade text,
  items jsonb NOT NULL,
  failed_items text[] NOT NULL DEFAULT '{}',
  note text,
  tested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  tested_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX repair_tests_ticket ON repair_tests (ticket_id, id);
CREATE INDEX repair_tests_at ON repair_tests (tested_at);

-- A ticket's photos are attachments of kind 'repair_ticket' (migration 0018).
CREATE TRIGGER repair_tickets_attachments AFTER DELETE ON repair_tickets
  FOR EACH ROW EXECUTE FUNCTION attachments_follow_record('repair_ticket');
