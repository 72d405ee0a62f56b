-- Production (issue 15, DOMAIN.md 2.2, 3.1, 3.7 and 4.17): product requests that take staged
-- warehouse boxes into production, the leaders' assignments of devices to workers, and the
-- workers' test records, wipes and grades.

CREATE SEQUENCE product_request_numbers;
CREATE TABLE product_requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  number text NOT NULL DEFAULT 'PR-' || lpad(nextval('product_request_numbers')::text, 6, '0'),
  model_id bigint NOT NULL REFERENCES device_models (id),
  qty integer NOT NULL CHECK (qty > 0),
  target_grade text CHECK (target_grade IN ('New', 'A+', 'A', 'B', 'C', 'D')),
  priority text NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  due_date date,
  status text NOT NULL DEFAULT 'submitted'
    CHECK (status IN ('submitted', 'approved', 'in_progress', 'completed', 'cancelled')),
  note text,
  approved_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX product_requests_number_key ON product_requests (number);
CREATE INDEX product_requests_status ON product_requests (status, id);
CREATE INDEX product_requests_model ON product_requests (model_id);

-- A request's timeline (the lifecycle's events).
CREATE TABLE product_request_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  product_request_id bigint NOT NULL REFERENCES product_requests (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX product_request_events_request ON product_request_events (product_request_id, id);

-- The warehouse boxes an approved request takes. A box belongs to at most one active request
-- (DOMAIN.md 4.17): the partial unique index decides between two approvals at once.
CREATE TABLE product_request_boxes (
  product_request_id bigint NOT NULL REFERENCES product_requests (id) ON DELETE CASCADE,
  warehouse_box_id bigint NOT NULL REFERENCES warehouse_boxes (id),
  -- False once the request is completed or cancelled: the box may then join another request.
  active boolean NOT NULL DEFAULT true,
  linked_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (product_request_id, warehouse_box_id)
);
CREATE UNIQUE INDEX product_request_boxes_active_box_key
  ON product_request_boxes (warehouse_box_id) WHERE active;
CREATE INDEX product_request_boxes_box ON product_request_boxes (warehouse_box_id);

-- Which worker holds a device in production: one row per device, moved on a reassignment.
CREATE TABLE production_assignments (
  device_id bigint PRIMARY KEY REFERENCES devices (id) ON DELETE CASCADE,
  worker_id bigint NOT NULL REFERENCES users (id),
  product_request_id bigint NOT NULL REFERENCES product_requests (id),
  warehouse_box_id bigint NOT NULL REFERENCES warehouse_boxes (id),
  assigned_at timestamptz NOT NULL DEFAULT now(),
  assigned_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE INDEX production_assignments_worker ON production_assignments (worker_id, device_id);
CREATE INDEX production_assignments_request ON production_assignments (product_request_id);
CREATE INDEX production_assignments_box ON production_assignments (warehouse_box_id);

-- A test run of a device (DOMAIN.md 2.2): the checklist's items, the outcome and what it found.
CREATE TABLE device_tests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  device_id bigint NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  tester_id bigint REFERENCES users (id) ON DELETE SET NULL,
  tool text NOT NULL DEFAULT 'manual',
  run_at timestamptz NOT NULL DEFAULT now(),
  -- {"screen": "pass", "touch": "fail", ...}
  items jsonb NOT NULL,
  battery_health integer CHECK (battery_health BETWEEN 0 AND 100),
  grade text CHECK (grade IN ('New', 'A+', 'A', 'B', 'C', 'D', 'F')),
  issue_codes text[] NOT NULL DEFAULT '{}',
  cosmetic_notes text,
  -- `hold`: the test stopped on a lock (FRP, activation lock) or a blacklist listing.
  result text NOT NULL CHECK (result IN ('pass', 'fail', 'hold'))
);
CREATE INDEX device_tests_device ON device_tests (device_id, id);
CREATE INDEX device_tests_run_at ON device_tests (run_at);

-- What grading needs on the device itself: the wipe, the locks and the battery.
ALTER TABLE devices
  ADD COLUMN wiped_at timestamptz,
  ADD COLUMN wipe_method text,
  ADD COLUMN wipe_certificate text,
  ADD COLUMN frp_lock boolean,
  ADD COLUMN battery_health integer CHECK (battery_health BETWEEN 0 AND 100),
  ADD COLUMN graded_at timestamptz,
  ADD COLUMN graded_by bigint REFERENCES users (id) ON DELETE SET NULL;
