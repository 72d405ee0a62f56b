-- Work done, per person (DOMAIN.md 2.2 WorkLog, 4.11 Working Report). Every station action
-- already writes a device, SIM, order or parcel event; each also counts here as work for the
-- person who did it. `work_logs` keeps each unit of work for drill-down and a worker's history;
-- `work_day_counts` keeps the day's sums per person and action, so the reports read one row per
-- person, day and action whatever the registry's size.
CREATE TABLE work_logs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  at timestamptz NOT NULL DEFAULT now(),
  business_day date NOT NULL DEFAULT order_business_day(now()),
  action text NOT NULL CHECK (action IN (
    'receive_scan', 'grade', 'consolidate', 'putaway', 'pick', 'label', 'scan_ship', 'unpack',
    'repair', 'test', 'sim_allocate', 'count', 'move'
  )),
  -- What the work was done on: 'device', 'sim', 'order', 'package', 'box' and its id.
  entity_type text NOT NULL,
  entity_id bigint NOT NULL,
  qty integer NOT NULL DEFAULT 1 CHECK (qty > 0),
  -- From the station's start of the unit to its end, where a station has a start.
  duration_s integer CHECK (duration_s >= 0),
  -- Rework: a re-grade, a mismatch, a test failed after repair.
  rework boolean NOT NULL DEFAULT false
);
CREATE INDEX work_logs_user_day ON work_logs (user_id, business_day, id);
CREATE INDEX work_logs_action_day ON work_logs (action, business_day, id);

CREATE TABLE work_day_counts (
  business_day date NOT NULL,
  user_id bigint NOT NULL REFERENCES users (id),
  action text NOT NULL,
  qty integer NOT NULL DEFAULT 0,
  rework integer NOT NULL DEFAULT 0,
  duration_s bigint NOT NULL DEFAULT 0,
  first_at timestamptz NOT NULL,
  last_at timestamptz NOT NULL,
  PRIMARY KEY (business_day, user_id, action)
);
CREATE INDEX work_day_counts_user ON work_day_counts (user_id, business_day);
-- A unit's earlier work of the same action (a re-grade, a second repair), and the drill-down's
-- list of one action by day.
CREATE INDEX work_logs_entity ON work_logs (entity_type, entity_id, action);
CREATE INDEX work_logs_day ON work_logs (business_day, id);

-- What counts as work: which step of which event table is which action for the person who took
-- it (the event's actor). Data, not code: a new station's event is counted by adding a row.
--   source: the event table ('device' device_events, 'sim' sim_events, 'package' package_events,
--     'repair_ticket' repair_ticket_events, 'rma' rma_events, 'audit' audit_events).
--   ref_type: only events caused by this (device_events' ref_type; audit_events' entity type);
--     null for any.
--   rework_when: the step is rework when its data contains this ('{}': always).
--   rework_when_repeated: the step is rework when its unit had this action counted before.
--   duration: where the step's time comes from ('repair_clock': the technician's clock on the
--     ticket since its previous repair); null where the station keeps no start.
CREATE TABLE work_event_actions (
  source text NOT NULL CHECK (source IN ('device', 'sim', 'package', 'repair_ticket', 'rma',
    'audit')),
  event_type text NOT NULL,
  ref_type text,
  action text NOT NULL,
  rework_when jsonb,
  rework_when_repeated boolean NOT NULL DEFAULT false,
  duration text CHECK (duration IN ('repair_clock')),
  UNIQUE NULLS NOT DISTINCT (source, event_type, ref_type)
);
INSERT INTO work_event_actions (source, event_type, ref_type, action, rework_when,
  rework_when_repeated, duration) VALUES
  ('device', 'received', NULL, 'receive_scan', NULL, false, NULL),
  -- The grading bench's test ends in a grade, a QC failure or a hold on a lock.
  ('device', 'graded', NULL, 'grade', NULL, true, NULL),
  ('device', 'failed_qc', NULL, 'grade', NULL, true, NULL),
  ('device', 'held', 'device_test', 'grade', NULL, true, NULL),
  ('device', 'consolidated', NULL, 'consolidate', NULL, false, NULL),
  ('device', 'picked', NULL, 'pick', NULL, false, NULL),
  -- A device scanned back in on its RMA (a parcel's devices count with the parcel's unpack).
  ('device', 'returned', 'rma', 'unpack', NULL, false, NULL),
  ('rma', 'mismatch_flagged', NULL, 'unpack', '{}', false, NULL),
  ('audit', 'inventory_box.located', 'inventory_box', 'putaway', NULL, false, NULL),
  -- A SIM paired with its device at the pick station.
  ('sim', 'allocated_to_order', NULL, 'pick', NULL, false, NULL),
  ('sim', 'allocated', NULL, 'sim_allocate', NULL, false, NULL),
  ('package', 'label_created', NULL, 'label', NULL, false, NULL),
  ('package', 'scanned_out', NULL, 'scan_ship', NULL, false, NULL),
  ('package', 'unpacked', NULL, 'unpack', '{"outcome": "mismatch"}', false, NULL),
  ('repair_ticket', 'repaired', NULL, 'repair', NULL, true, 'repair_clock'),
  ('repair_ticket', 'test_passed', NULL, 'test', NULL, false, NULL),
  ('repair_ticket', 'test_failed', NULL, 'test', '{}', false, NULL);

-- The seconds a ticket's clock ran since its previous repair (stopped sessions), for the repair
-- that event `p_event` completes; null when the clock never ran.
CREATE FUNCTION repair_clock_seconds(p_ticket bigint, p_event bigint) RETURNS integer
LANGUAGE sql STABLE AS $$
  SELECT sum(ceil(extract(epoch FROM l.stopped_at - l.started_at)))::integer
  FROM repair_labour l
  WHERE l.ticket_id = p_ticket AND l.stopped_at IS NOT NULL
    AND l.stopped_at > COALESCE((SELECT max(p.at) FROM repair_ticket_events p
                                 WHERE p.ticket_id = p_ticket AND p.type = 'repaired'
                                   AND p.id < p_event), '-infinity')
$$;

-- The statement that logs the work in the events of `p_from` (an event table or a trigger's
-- transition table) of source `p_source`. Its columns: `p_entity` the unit worked on, `p_type` the
-- step, `p_data` its facts, `p_ref` its cause (null: none), `p_entity_type` the unit's kind (null:
-- the source's name). Set-based, so a bulk step costs one statement.
CREATE FUNCTION work_from_events_sql(p_from text, p_source text, p_entity text, p_type text,
  p_data text, p_ref text, p_entity_type text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT format($q$
    INSERT INTO work_logs (user_id, at, business_day, action, entity_type, entity_id,
      duration_s, rework)
    SELECT w.user_id, w.at, order_business_day(w.at), w.action, w.entity_type, w.entity_id,
      w.duration_s,
      w.flagged OR (w.repeats AND (w.nth > 1 OR EXISTS (
        SELECT 1 FROM work_logs p
        WHERE p.entity_type = w.entity_type AND p.entity_id = w.entity_id
          AND p.action = w.action)))
    FROM (
      SELECT e.actor_id AS user_id, e.at, m.action, %7$s AS entity_type,
        e.%3$I::bigint AS entity_id,
        CASE m.duration WHEN 'repair_clock' THEN repair_clock_seconds(e.%3$I::bigint, e.id)
        END AS duration_s,
        COALESCE(e.%5$I @> m.rework_when, false) AS flagged,
        m.rework_when_repeated AS repeats,
        row_number() OVER (PARTITION BY e.%3$I, m.action ORDER BY e.at, e.id) AS nth
      FROM %1$I e
      JOIN work_event_actions m ON m.source = %2$L AND m.event_type = e.%4$I
        AND (m.ref_type IS NULL OR m.ref_type = %6$s)
      WHERE e.actor_id IS NOT NULL AND EXISTS (SELECT 1 FROM users u WHERE u.id = e.actor_id)
    ) w
    ORDER BY w.at, w.entity_id$q$,
    p_from, p_source, p_entity, p_type, p_data,
    CASE WHEN p_ref IS NULL THEN 'NULL' ELSE format('e.%I', p_ref) END,
    CASE WHEN p_entity_type IS NULL THEN quote_literal(p_source)
      ELSE format('e.%I', p_entity_type) END)
$$;

-- The event tables whose steps may be work, and how each names them (the columns as
-- work_from_events_sql takes them).
CREATE TABLE work_event_sources (
  event_table text PRIMARY KEY,
  source text NOT NULL UNIQUE,
  entity_column text NOT NULL,
  type_column text NOT NULL,
  data_column text NOT NULL,
  ref_column text,
  entity_type_column text
);
INSERT INTO work_event_sources VALUES
  ('device_events', 'device', 'device_id', 'type', 'data', 'ref_type', NULL),
  ('sim_events', 'sim', 'sim_id', 'type', 'data', NULL, NULL),
  ('package_events', 'package', 'package_id', 'type', 'data', NULL, NULL),
  ('repair_ticket_events', 'repair_ticket', 'ticket_id', 'type', 'data', NULL, NULL),
  ('rma_events', 'rma', 'rma_id', 'type', 'data', NULL, NULL),
  -- The audit log names its entity's kind; a mapping's ref_type picks the kind it counts.
  ('audit_events', 'audit', 'entity_id', 'action', 'after', 'entity_type', 'entity_type');

-- The statement logging the work in `p_from` (the event table itself or a trigger's transition
-- table) of the event table `p_table`.
CREATE FUNCTION work_from_table_sql(p_table text, p_from text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT work_from_events_sql(p_from, source, entity_column, type_column, data_column,
    ref_column, entity_type_column)
  FROM work_event_sources WHERE event_table = p_table
$$;

-- After each statement on an event table: its steps that are work, logged in the same
-- transaction.
CREATE FUNCTION work_logs_from_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE work_from_table_sql(TG_TABLE_NAME, 'new_events');
  RETURN NULL;
END
$$;

-- The day's sums follow the log, whoever writes it (the triggers above, the jobs, the data
-- generator): one upsert per statement, in key order so two writers never lock in a circle.
-- A concurrent writer of the same row waits for the first and adds to what it committed.
CREATE FUNCTION work_day_counts_from_logs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO work_day_counts AS c (business_day, user_id, action, qty, rework, duration_s,
    first_at, last_at)
  SELECT business_day, user_id, action, sum(qty), COALESCE(sum(qty) FILTER (WHERE rework), 0),
    COALESCE(sum(duration_s), 0), min(at), max(at)
  FROM new_logs GROUP BY business_day, user_id, action
  ORDER BY business_day, user_id, action
  ON CONFLICT (business_day, user_id, action) DO UPDATE SET
    qty = c.qty + EXCLUDED.qty,
    rework = c.rework + EXCLUDED.rework,
    duration_s = c.duration_s + EXCLUDED.duration_s,
    first_at = least(c.first_at, EXCLUDED.first_at),
    last_at = greatest(c.last_at, EXCLUDED.last_at);
  RETURN NULL;
END
$$;
CREATE TRIGGER work_logs_day_counts AFTER INSERT ON work_logs
  REFERENCING NEW TABLE AS new_logs FOR EACH STATEMENT
  EXECUTE FUNCTION work_day_counts_from_logs();

DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT event_table FROM work_event_sources ORDER BY event_table LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_events '
      'FOR EACH STATEMENT EXECUTE FUNCTION work_logs_from_events()', t || '_work', t);
    -- The work already done on a database that had events before this version.
    EXECUTE work_from_table_sql(t, t);
  END LOOP;
END
$$;
