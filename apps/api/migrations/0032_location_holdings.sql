-- What each location holds, counted as it changes (issue 15, decision 0019 amended): the location
-- list reads a figure per row and keeps its answers (decision 0010), instead of counting each
-- row's subtree on every read (a zone's row walked thousands of locations and what they hold: the
-- list ran at 0.1 x a bare page of its table, 0.6 asked).
--
-- A location holds its located inventory boxes and its item levels with units on hand. `here`
-- counts those of the location itself, `below` those of every location under it (at most four
-- levels), so what a location and its subtree hold is the sum of its own counter rows.
--
-- Written by triggers on inventory_boxes and stock_levels, whatever writes them (putaway, a box or
-- units leaving, the generators, psql). A transaction notes its changes in
-- location_holding_changes, and its commit applies them in one deferred statement.
--
-- Without a row every putaway station waits for: with one row per location and one data version,
-- every putaway in a zone writes the zone's row and every change of what is held writes the
-- version, and each commit holds them through its WAL flush (measured with a 2 ms flush, 10
-- putaway stations: 250-440 a second, p99 96-151 ms, against 1,250 and 14 ms in shards). So both
-- are in 8 shards: a committing transaction takes a shard nobody holds (its data version row,
-- 'location_holdings#<n>', FOR UPDATE SKIP LOCKED), adds its changes to that shard's counter rows
-- and moves that shard's version. A location's figure is the sum of its shards' rows; the
-- table's version is the sum of its shards' versions (answer-cache.ts), which moves with every
-- commit that changes a counter.
--
-- Exact deactivation: a location that comes to hold something is locked (FOR SHARE) by the writer
-- until it commits, and must be active; a deactivation locks the locations it changes, so it
-- waits for such a writer and then counts what it committed, or the writer waits for the
-- deactivation and is refused. Either way nothing is held in a location made inactive.

-- One shard's counts of one location. A shard's row may go below zero (a box put away through one
-- shard and taken out through another); the sum of a location's rows never does. No foreign key:
-- a commit adding a row never waits on the location's row lock (a deactivation's or a putaway's).
CREATE TABLE location_holdings (
  location_id bigint NOT NULL,
  shard smallint NOT NULL,
  here integer NOT NULL DEFAULT 0,
  below integer NOT NULL DEFAULT 0,
  PRIMARY KEY (location_id, shard)
);

-- What the statements of a transaction changed, until its commit applies it: one row per
-- transaction, so its commit runs one deferred trigger however many statements or rows (a
-- generator's) changed what is held. Unlogged: its rows never outlive their transaction.
CREATE UNLOGGED TABLE location_holding_changes (
  xact xid8 PRIMARY KEY DEFAULT pg_current_xact_id(),
  location_ids bigint[] NOT NULL,
  changes integer[] NOT NULL
);

-- One thing more in each of `gained` (a location named twice gains two), one less in each of
-- `lost`. A location that gains is locked until commit and must be active: the API's writers
-- check it first, but a deactivation may come between (serialization_failure: the API's 409 "try
-- again", and trying again meets the inactive location's own answer).
CREATE FUNCTION note_location_holdings(gained bigint[], lost bigint[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  inactive text;
BEGIN
  IF cardinality(gained) > 0 THEN
    PERFORM 1 FROM locations WHERE id = ANY (gained) ORDER BY id FOR SHARE;
    -- Read after the lock, by a statement of its own: a deactivation that held it is seen.
    SELECT string_agg(code, ', ' ORDER BY code) INTO inactive
    FROM locations WHERE id = ANY (gained) AND NOT active;
    IF inactive IS NOT NULL THEN
      RAISE EXCEPTION 'Location % is not active: nothing can be put there.', inactive
        USING ERRCODE = 'serialization_failure';
    END IF;
  END IF;
  INSERT INTO location_holding_changes AS pending (location_ids, changes)
  SELECT array_agg(id), array_agg(change) FROM (
    SELECT id, sum(change)::int AS change FROM (
      SELECT unnest(gained), 1 UNION ALL SELECT unnest(lost), -1
    ) noted (id, change)
    GROUP BY id HAVING sum(change) <> 0
  ) net
  HAVING count(*) > 0
  ON CONFLICT (xact) DO UPDATE SET location_ids = pending.location_ids || EXCLUDED.location_ids,
    changes = pending.changes || EXCLUDED.changes;
END $$;

-- At commit: this transaction's changes, added to each location's `here` and its ancestors'
-- `below` in the shard it takes. Changes that cancel out write nothing (and move no version).
CREATE FUNCTION apply_location_holding_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids bigint[];
  heres integer[];
  belows integer[];
  shard_name text;
BEGIN
  -- A location is at most four levels below its zone (bin, level, rack, aisle, zone): its
  -- ancestors are four joins by primary key, where a recursive walk was planned as a scan of
  -- every location per level.
  WITH taken AS (
    DELETE FROM location_holding_changes WHERE xact = pg_current_xact_id()
    RETURNING location_ids, changes
  ), net AS (
    SELECT location_id, sum(change)::int AS change
    FROM taken, unnest(location_ids, changes) AS noted (location_id, change)
    GROUP BY location_id HAVING sum(change) <> 0
  ), path (id, change, here) AS (
    SELECT location_id, change, true FROM net
    UNION ALL
    SELECT ancestor, net.change, false
    FROM net JOIN locations l ON l.id = net.location_id
      LEFT JOIN locations p1 ON p1.id = l.parent_id
      LEFT JOIN locations p2 ON p2.id = p1.parent_id
      LEFT JOIN locations p3 ON p3.id = p2.parent_id
      CROSS JOIN unnest(ARRAY[l.parent_id, p1.parent_id, p2.parent_id, p3.parent_id]) AS ancestor
    WHERE ancestor IS NOT NULL
  )
  SELECT array_agg(id), array_agg(here), array_agg(below) INTO ids, heres, belows
  FROM (
    SELECT id, COALESCE(sum(change) FILTER (WHERE here), 0)::int AS here,
      COALESCE(sum(change) FILTER (WHERE NOT here), 0)::int AS below
    FROM path GROUP BY id
  ) sums
  WHERE here <> 0 OR below <> 0;
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  -- The first shard nobody holds; when every one is held, wait for one.
  SELECT table_name INTO shard_name FROM data_versions
  WHERE table_name LIKE 'location\_holdings#%' ORDER BY table_name
  LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF shard_name IS NULL THEN
    SELECT table_name INTO shard_name FROM data_versions
    WHERE table_name = 'location_holdings#' || pg_current_xact_id()::text::bigint % 8
    FOR UPDATE;
  END IF;
  INSERT INTO location_holdings AS h (location_id, shard, here, below)
  SELECT s.location_id, split_part(shard_name, '#', 2)::smallint, s.here, s.below
  FROM unnest(ids, heres, belows) AS s (location_id, here, below)
  ON CONFLICT (location_id, shard) DO UPDATE
    SET here = h.here + EXCLUDED.here, below = h.below + EXCLUDED.below;
  RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER apply_location_holding_changes AFTER INSERT ON location_holding_changes
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION apply_location_holding_changes();

-- The data version of location_holdings, in shards: every statement that writes it moves the
-- version of each shard it wrote (a shard its transaction holds, when the commit above writes).
INSERT INTO data_versions (table_name, version)
SELECT 'location_holdings#' || n, 1 FROM generate_series(0, 7) AS n;

CREATE FUNCTION bump_location_holdings_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE data_versions SET version = version + 1 WHERE table_name LIKE 'location\_holdings#%';
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE data_versions SET version = version + 1
    WHERE table_name IN (SELECT 'location_holdings#' || shard FROM removed_rows);
  ELSE
    -- The shards the rows are in now: any move of one moves the sum.
    UPDATE data_versions SET version = version + 1
    WHERE table_name IN (SELECT 'location_holdings#' || shard FROM written_rows);
  END IF;
  IF current_setting('inventory.notify_changes', true) = 'on' THEN
    SELECT sum(version) INTO total FROM data_versions WHERE table_name LIKE 'location\_holdings#%';
    PERFORM pg_notify('data_changed', 'location_holdings ' || total);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER location_holdings_insert_version AFTER INSERT ON location_holdings
  REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_location_holdings_version();
CREATE TRIGGER location_holdings_update_version AFTER UPDATE ON location_holdings
  REFERENCING NEW TABLE AS written_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_location_holdings_version();
CREATE TRIGGER location_holdings_delete_version AFTER DELETE ON location_holdings
  REFERENCING OLD TABLE AS removed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION bump_location_holdings_version();
CREATE TRIGGER location_holdings_truncate_version AFTER TRUNCATE ON location_holdings
  FOR EACH STATEMENT EXECUTE FUNCTION bump_location_holdings_version();

-- Inventory boxes: one located is held by its location.
CREATE FUNCTION inventory_boxes_note_holdings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM note_location_holdings(
      ARRAY(SELECT location_id FROM new_boxes WHERE location_id IS NOT NULL), '{}');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM note_location_holdings(
      '{}', ARRAY(SELECT location_id FROM old_boxes WHERE location_id IS NOT NULL));
  ELSE
    PERFORM note_location_holdings(
      array_remove(ARRAY[NEW.location_id], NULL), array_remove(ARRAY[OLD.location_id], NULL));
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER inventory_boxes_insert_holdings AFTER INSERT ON inventory_boxes
  REFERENCING NEW TABLE AS new_boxes
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_boxes_note_holdings();
CREATE TRIGGER inventory_boxes_delete_holdings AFTER DELETE ON inventory_boxes
  REFERENCING OLD TABLE AS old_boxes
  FOR EACH STATEMENT EXECUTE FUNCTION inventory_boxes_note_holdings();
-- Per row, and only when the location changes: the consolidation station's many box updates
-- (its quantity, its status) call nothing.
CREATE TRIGGER inventory_boxes_move_holdings AFTER UPDATE OF location_id ON inventory_boxes
  FOR EACH ROW WHEN (OLD.location_id IS DISTINCT FROM NEW.location_id)
  EXECUTE FUNCTION inventory_boxes_note_holdings();

-- Item levels: one with units on hand is held by its location.
CREATE FUNCTION stock_levels_note_holdings() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM note_location_holdings(
      ARRAY(SELECT location_id FROM new_levels WHERE on_hand > 0), '{}');
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM note_location_holdings(
      '{}', ARRAY(SELECT location_id FROM old_levels WHERE on_hand > 0));
  ELSE
    PERFORM note_location_holdings(
      CASE WHEN NEW.on_hand > 0 THEN ARRAY[NEW.location_id] ELSE '{}' END,
      CASE WHEN OLD.on_hand > 0 THEN ARRAY[OLD.location_id] ELSE '{}' END);
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_levels_insert_holdings AFTER INSERT ON stock_levels
  REFERENCING NEW TABLE AS new_levels
  FOR EACH STATEMENT EXECUTE FUNCTION stock_levels_note_holdings();
CREATE TRIGGER stock_levels_delete_holdings AFTER DELETE ON stock_levels
  REFERENCING OLD TABLE AS old_levels
  FOR EACH STATEMENT EXECUTE FUNCTION stock_levels_note_holdings();
-- Per row, and only when a level empties, fills or changes place: most stock moves call nothing.
CREATE TRIGGER stock_levels_move_holdings AFTER UPDATE OF on_hand, location_id ON stock_levels
  FOR EACH ROW
  WHEN ((OLD.on_hand > 0) <> (NEW.on_hand > 0) OR OLD.location_id <> NEW.location_id)
  EXECUTE FUNCTION stock_levels_note_holdings();

-- What the locations hold now, in shard 0.
INSERT INTO location_holdings (location_id, shard, here, below)
WITH RECURSIVE held AS (
  SELECT location_id FROM stock_levels WHERE on_hand > 0
  UNION ALL
  SELECT location_id FROM inventory_boxes WHERE location_id IS NOT NULL
), path (id, here) AS (
  SELECT location_id, true FROM held
  UNION ALL
  SELECT l.parent_id, false FROM path JOIN locations l ON l.id = path.id
  WHERE l.parent_id IS NOT NULL
)
SELECT id, 0, count(*) FILTER (WHERE here), count(*) FILTER (WHERE NOT here)
FROM path GROUP BY id;

-- What a location and all below it hold, as committed.
CREATE OR REPLACE FUNCTION location_holds(p_location_id bigint) RETURNS int
LANGUAGE sql STABLE AS $$
  SELECT COALESCE(sum(here + below), 0)::int FROM location_holdings
  WHERE location_id = p_location_id
$$;

-- No list asks for subtrees any more, only an activation: it follows the parent links again, as
-- 0023 did, because a zone may be named like another zone's aisle ("B-01"), which a range of
-- codes (0027) took for part of zone B.
CREATE OR REPLACE FUNCTION location_subtree(p_location_id bigint) RETURNS SETOF bigint
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE tree AS (
    SELECT id FROM locations WHERE id = p_location_id
    UNION ALL
    SELECT l.id FROM locations l JOIN tree t ON l.parent_id = t.id
  )
  SELECT id FROM tree
$$;
DROP INDEX locations_code_bytes;
