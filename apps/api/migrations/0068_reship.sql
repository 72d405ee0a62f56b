-- Exceptions on orders (DOMAIN.md 3.7 CancelRequest and Reship, 4.16): cancellation requests by
-- the stage the order was in, and reship requests whose approval creates a child order.

CREATE TABLE cancel_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  order_id bigint NOT NULL REFERENCES orders (id),
  -- The stage as last read: at the request, then again at the approval, which acts on it.
  stage text NOT NULL CHECK (stage IN ('pre_label', 'labeled', 'shipped')),
  requester text NOT NULL CHECK (requester IN ('carrier', 'customer', 'internal')),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
  status text NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'approved', 'label_voided', 'intercept_requested',
                      'return_required', 'cancelled', 'denied')),
  -- The package whose label was voided or whose intercept was asked for.
  package_id bigint REFERENCES packages (id),
  -- What the carrier answered to an intercept, in its words.
  carrier_answer text CHECK (length(carrier_answer) <= 500),
  -- The RMA that expects the parcel back when the carrier could not intercept it.
  rma_id bigint REFERENCES rmas (id),
  deny_reason text CHECK (length(deny_reason) <= 500),
  requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  requested_by_name text NOT NULL,
  decided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One open request per order: a second one, even at the same moment, is refused.
CREATE UNIQUE INDEX cancel_requests_one_open ON cancel_requests (order_id)
  WHERE status IN ('requested', 'approved', 'label_voided', 'intercept_requested');
CREATE INDEX cancel_requests_status_created ON cancel_requests (status, created_at DESC, id DESC);
CREATE INDEX cancel_requests_package ON cancel_requests (package_id);
CREATE INDEX cancel_requests_order ON cancel_requests (order_id);
CREATE INDEX cancel_requests_rma ON cancel_requests (rma_id);

CREATE TABLE cancel_request_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  cancel_request_id bigint NOT NULL REFERENCES cancel_requests (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX cancel_request_events_request ON cancel_request_events (cancel_request_id, at);

CREATE TABLE reships (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  original_order_id bigint NOT NULL REFERENCES orders (id),
  reason text NOT NULL
    CHECK (reason IN ('return_to_sender', 'lost', 'damaged', 'wrong_item', 'address_corrected')),
  cost_owner text NOT NULL CHECK (cost_owner IN ('company', 'carrier', 'customer', 'client')),
  -- The original order's reships before this one, approved or waiting: 1 or more needs a manager.
  earlier_reships integer NOT NULL CHECK (earlier_reships >= 0),
  -- The unit that came back reusable, shipped again; none for a new unit from stock.
  device_id bigint REFERENCES devices (id),
  -- The corrected address (PII), or none when the parcel goes where it went.
  ship_to jsonb,
  note text CHECK (length(note) <= 500),
  status text NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'approved', 'denied', 'order_created')),
  deny_reason text CHECK (length(deny_reason) <= 500),
  new_order_id bigint UNIQUE REFERENCES orders (id),
  requested_by bigint REFERENCES users (id) ON DELETE SET NULL,
  requested_by_name text NOT NULL,
  decided_by bigint REFERENCES users (id) ON DELETE SET NULL,
  decided_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'order_created') = (new_order_id IS NOT NULL))
);
-- One waiting request per order.
CREATE UNIQUE INDEX reships_one_open ON reships (original_order_id)
  WHERE status IN ('requested', 'approved');
CREATE INDEX reships_status_created ON reships (status, created_at DESC, id DESC);
CREATE INDEX reships_device ON reships (device_id);
CREATE INDEX reships_original_order ON reships (original_order_id);
-- The statistics read a date range of reships by the day they were asked for.
CREATE INDEX reships_created ON reships (created_at, id);

CREATE TABLE reship_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reship_id bigint NOT NULL REFERENCES reships (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX reship_events_reship ON reship_events (reship_id, at);

-- The reship orders page: child orders of reships, newest first.
CREATE INDEX orders_reship_children ON orders (created_at DESC, id DESC) WHERE source = 'reship';
