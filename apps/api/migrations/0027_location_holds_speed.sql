-- What a location holds, fast enough for the location list to ask it of each of its 50 rows
-- (issue 15's gate: the list at least 0.6 x a bare page of the table; it was 0.2).
--
-- location_subtree and location_holds (0023, 0024, 0026) were SQL functions, which PostgreSQL
-- plans again on every call, and the subtree walked the tree one level at a time. A location's
-- code is its path (decision 0019: a child's code is its parent's, a dash and a segment), so a
-- subtree is the location's code and the codes that start with it and a dash: one range of an
-- index that compares codes byte by byte, from the code up to the code and a '.' (codes hold only
-- letters, digits and dashes, and of those only '-' sorts before '.'). As PL/pgSQL functions their plans are kept for the connection, and the range
-- has parameters a kept plan can use, where a LIKE pattern would not.

CREATE INDEX locations_code_bytes ON locations (code text_pattern_ops);

CREATE OR REPLACE FUNCTION location_subtree(p_location_id bigint) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_code text := (SELECT code FROM locations WHERE id = p_location_id);
BEGIN
  RETURN QUERY
    SELECT l.id FROM locations l
    WHERE l.code ~>=~ v_code AND l.code ~<~ (v_code || '.');
END
$$;

CREATE OR REPLACE FUNCTION location_holds(p_location_id bigint) RETURNS int
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_code text := (SELECT code FROM locations WHERE id = p_location_id);
  v_count int;
BEGIN
  SELECT (SELECT count(*)::int FROM locations l JOIN stock_levels s ON s.location_id = l.id
          WHERE l.code ~>=~ v_code AND l.code ~<~ (v_code || '.') AND s.on_hand > 0)
    + (SELECT count(*)::int FROM locations l JOIN inventory_boxes b ON b.location_id = l.id
       WHERE l.code ~>=~ v_code AND l.code ~<~ (v_code || '.'))
  INTO v_count;
  RETURN v_count;
END
$$;
