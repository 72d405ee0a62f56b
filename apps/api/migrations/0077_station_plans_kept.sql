-- Plans kept for the statements every station scan runs (decision 0054).
--
-- Work counting (0071) built its statement on every insert into an event table: the trigger ran
-- EXECUTE, so PostgreSQL parsed and planned the whole statement again each time, about a
-- millisecond of the server's time per event insert, several per station scan. Each event table
-- now gets a trigger function of its own whose statement is written once, here: a PL/pgSQL
-- function keeps its plan for the connection's life. What counts stays data (work_event_actions);
-- a new event table is counted by calling count_work_of().

CREATE FUNCTION count_work_of(p_table text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  fn text := 'work_logs_from_' || p_table;
BEGIN
  EXECUTE format(
    'CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L',
    fn, format('BEGIN %s; RETURN NULL; END', work_from_table_sql(p_table, 'new_events')));
  EXECUTE format('DROP TRIGGER IF EXISTS %I ON %I', p_table || '_work', p_table);
  EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_events '
    'FOR EACH STATEMENT EXECUTE FUNCTION %I()', p_table || '_work', p_table, fn);
END
$$;

SELECT count_work_of(event_table) FROM work_event_sources ORDER BY event_table;

DROP FUNCTION work_logs_from_events();

-- A SQL function whose body holds a sub-select is not inlined: PostgreSQL plans it again in every
-- statement that calls it (the pick station's scan, once per scan). PL/pgSQL keeps the plan.
CREATE OR REPLACE FUNCTION device_matches_variant(p_model_id bigint, p_grade text,
  p_color_id bigint, p_capacity_gb int, p_carrier_lock text, p_variant_id bigint)
RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN EXISTS (
    SELECT 1 FROM product_variants v JOIN products p ON p.id = v.product_id
    WHERE v.id = p_variant_id AND p.model_id = p_model_id
      AND (v.grade IS NULL OR v.grade = p_grade)
      AND (v.color_id IS NULL OR v.color_id = p_color_id)
      AND (v.capacity_gb IS NULL OR v.capacity_gb = p_capacity_gb)
      AND (v.carrier_lock IS NULL OR v.carrier_lock = p_carrier_lock));
END
$$;
