-- Work jobs (DOMAIN.md 2.2 Job, 3.7, 4.11 /report/job, /report/work, /report/admin): a unit of
-- assigned work (a count of boxes, a move, a production or repair target) given to named people,
-- started and finished by them on /report/work and verified by a manager on /report/admin.
-- Named `work_jobs`: `jobs` are the server's background jobs.

-- A job saved to be created again: what the create form is filled with.
CREATE TABLE work_job_templates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  kind text NOT NULL CHECK (kind IN ('count', 'move', 'production', 'repair', 'other')),
  title text NOT NULL,
  target_qty integer CHECK (target_qty > 0),
  instructions text,
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX work_job_templates_name ON work_job_templates (lower(name));

CREATE TABLE work_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('count', 'move', 'production', 'repair', 'other')),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  instructions text,
  -- Units to do; a count's target is the devices its boxes held when it was created.
  target_qty integer CHECK (target_qty > 0),
  -- Units done: a count's devices found, or what the worker reported on finishing.
  done_qty integer NOT NULL DEFAULT 0 CHECK (done_qty >= 0),
  due_at timestamptz,
  status text NOT NULL DEFAULT 'assigned'
    CHECK (status IN ('assigned', 'in_progress', 'done', 'verified', 'cancelled')),
  product_request_id bigint REFERENCES product_requests (id),
  template_id bigint REFERENCES work_job_templates (id) ON DELETE SET NULL,
  started_at timestamptz,
  done_at timestamptz,
  verified_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL
);
-- The lists' orders (newest, due date) and the open jobs the dashboard counts.
CREATE INDEX work_jobs_created_order ON work_jobs (created_at, id);
CREATE INDEX work_jobs_due_order ON work_jobs ((COALESCE(due_at, 'infinity'::timestamptz)), id);
CREATE INDEX work_jobs_status ON work_jobs (status, created_at, id);
CREATE INDEX work_jobs_open_due ON work_jobs (due_at) WHERE status IN ('assigned', 'in_progress');
CREATE INDEX work_jobs_product_request ON work_jobs (product_request_id)
  WHERE product_request_id IS NOT NULL;
CREATE INDEX work_jobs_template ON work_jobs (template_id) WHERE template_id IS NOT NULL;

CREATE TABLE work_job_assignees (
  job_id bigint NOT NULL REFERENCES work_jobs (id),
  user_id bigint NOT NULL REFERENCES users (id),
  PRIMARY KEY (job_id, user_id)
);
-- A worker's own jobs (/report/work).
CREATE INDEX work_job_assignees_user ON work_job_assignees (user_id, job_id);

-- The boxes a job is about; a count job's box carries the count it runs (migration 0028), which
-- locks the box until the job is done or cancelled.
CREATE TABLE work_job_boxes (
  job_id bigint NOT NULL REFERENCES work_jobs (id),
  box_id bigint NOT NULL REFERENCES inventory_boxes (id),
  count_id bigint REFERENCES inventory_box_counts (id),
  PRIMARY KEY (job_id, box_id)
);
CREATE INDEX work_job_boxes_box ON work_job_boxes (box_id, job_id);
CREATE INDEX work_job_boxes_count ON work_job_boxes (count_id) WHERE count_id IS NOT NULL;

CREATE TABLE work_job_locations (
  job_id bigint NOT NULL REFERENCES work_jobs (id),
  location_id bigint NOT NULL REFERENCES locations (id),
  PRIMARY KEY (job_id, location_id)
);
CREATE INDEX work_job_locations_location ON work_job_locations (location_id, job_id);

-- A job's timeline: every step (toolkit/lifecycle.ts), reassignments and notes.
CREATE TABLE work_job_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  job_id bigint NOT NULL REFERENCES work_jobs (id),
  at timestamptz NOT NULL DEFAULT now(),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  type text NOT NULL,
  from_status text,
  to_status text,
  data jsonb
);
CREATE INDEX work_job_events_job ON work_job_events (job_id, id);
