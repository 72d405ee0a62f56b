-- Counted stock (issue 15, DOMAIN.md 2.1, 2.2 and invariant 8): accessories and repair parts are
-- not serialised, so their stock is a ledger, as Odoo and InvenTree keep it. `stock_levels` holds
-- what is on hand and reserved per item and location; `stock_moves` is the append-only ledger of
-- every change. A quantity changes only through a named action of the stock service, which writes
-- the move and the level in one transaction, so a level always equals the sum of its moves.
--
-- An item is an accessory or a part: `item_kind` and `item_id` name it, and a generated column per
-- kind carries the foreign key to its master table.

CREATE TABLE stock_levels (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_kind text NOT NULL CHECK (item_kind IN ('accessory', 'part')),
  item_id bigint NOT NULL,
  accessory_id bigint GENERATED ALWAYS AS (CASE WHEN item_kind = 'accessory' THEN item_id END)
    STORED REFERENCES accessories (id),
  part_id bigint GENERATED ALWAYS AS (CASE WHEN item_kind = 'part' THEN item_id END)
    STORED REFERENCES parts (id),
  location_id bigint NOT NULL REFERENCES locations (id),
  on_hand integer NOT NULL DEFAULT 0 CHECK (on_hand >= 0),
  -- Held for orders and repair tickets; never more than is on hand.
  reserved integer NOT NULL DEFAULT 0 CHECK (reserved >= 0 AND reserved <= on_hand),
  last_counted_at timestamptz,
  last_moved_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX stock_levels_item_location_key ON stock_levels (item_kind, item_id, location_id);
CREATE INDEX stock_levels_accessory ON stock_levels (accessory_id) WHERE accessory_id IS NOT NULL;
CREATE INDEX stock_levels_part ON stock_levels (part_id) WHERE part_id IS NOT NULL;
CREATE INDEX stock_levels_location ON stock_levels (location_id);

-- The ledger. A quantity is always positive and goes from a location (null: it came in from
-- outside, a receipt or a found unit) to a location (null: it left, consumed, written off or
-- returned to its vendor); a move between bins names both.
CREATE TABLE stock_moves (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  item_kind text NOT NULL CHECK (item_kind IN ('accessory', 'part')),
  item_id bigint NOT NULL,
  accessory_id bigint GENERATED ALWAYS AS (CASE WHEN item_kind = 'accessory' THEN item_id END)
    STORED REFERENCES accessories (id),
  part_id bigint GENERATED ALWAYS AS (CASE WHEN item_kind = 'part' THEN item_id END)
    STORED REFERENCES parts (id),
  qty integer NOT NULL CHECK (qty > 0),
  from_location_id bigint REFERENCES locations (id),
  to_location_id bigint REFERENCES locations (id),
  reason text NOT NULL CHECK (reason IN ('receipt', 'adjust', 'move', 'consume', 'count', 'rtv')),
  -- A receipt's delivery note or PO, a repair ticket's number.
  reference text,
  note text,
  vendor_id bigint REFERENCES vendors (id),
  -- What one unit cost on a receipt, in cents.
  unit_cost_cents integer CHECK (unit_cost_cents >= 0),
  actor_id bigint REFERENCES users (id) ON DELETE SET NULL,
  at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_location_id IS NOT NULL OR to_location_id IS NOT NULL),
  CHECK (from_location_id IS DISTINCT FROM to_location_id),
  CHECK (reason <> 'receipt' OR (from_location_id IS NULL AND reference IS NOT NULL)),
  CHECK (reason <> 'move' OR (from_location_id IS NOT NULL AND to_location_id IS NOT NULL)),
  CHECK (reason NOT IN ('consume', 'rtv') OR to_location_id IS NULL),
  CHECK (unit_cost_cents IS NULL OR reason = 'receipt')
);
CREATE INDEX stock_moves_item ON stock_moves (item_kind, item_id, at, id);
CREATE INDEX stock_moves_accessory ON stock_moves (accessory_id) WHERE accessory_id IS NOT NULL;
CREATE INDEX stock_moves_part ON stock_moves (part_id) WHERE part_id IS NOT NULL;
CREATE INDEX stock_moves_from ON stock_moves (from_location_id) WHERE from_location_id IS NOT NULL;
CREATE INDEX stock_moves_to ON stock_moves (to_location_id) WHERE to_location_id IS NOT NULL;
CREATE INDEX stock_moves_vendor ON stock_moves (vendor_id) WHERE vendor_id IS NOT NULL;

-- Never edited (invariant 8): a mistake is corrected by another move.
CREATE FUNCTION stock_moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'Stock moves are a ledger: they are never edited or deleted; record a correcting move.'
    USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER stock_moves_append_only BEFORE UPDATE OR DELETE ON stock_moves
  FOR EACH ROW EXECUTE FUNCTION stock_moves_append_only();
CREATE TRIGGER stock_moves_no_truncate BEFORE TRUNCATE ON stock_moves
  FOR EACH STATEMENT EXECUTE FUNCTION stock_moves_append_only();

-- What each item took in and used per day, kept as the moves are written: the dashboard's usage,
-- days of cover and weekly chart read these rows (items x days), never the ledger, so they cost
-- the same at any number of moves.
CREATE TABLE stock_usage_days (
  item_kind text NOT NULL CHECK (item_kind IN ('accessory', 'part')),
  item_id bigint NOT NULL,
  day date NOT NULL,
  consumed integer NOT NULL DEFAULT 0,
  received integer NOT NULL DEFAULT 0,
  PRIMARY KEY (item_kind, item_id, day)
);
CREATE INDEX stock_usage_days_day ON stock_usage_days (item_kind, day);

-- One upsert per statement, however many moves it inserts (the generator writes months at once).
CREATE FUNCTION stock_moves_count_usage() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stock_usage_days AS u (item_kind, item_id, day, consumed, received)
  SELECT m.item_kind, m.item_id, (m.at AT TIME ZONE 'UTC')::date,
    COALESCE(sum(m.qty) FILTER (WHERE m.reason = 'consume'), 0),
    COALESCE(sum(m.qty) FILTER (WHERE m.reason = 'receipt'), 0)
  FROM new_moves m
  WHERE m.reason IN ('consume', 'receipt')
  GROUP BY 1, 2, 3
  ON CONFLICT (item_kind, item_id, day) DO UPDATE
    SET consumed = u.consumed + EXCLUDED.consumed, received = u.received + EXCLUDED.received;
  RETURN NULL;
END $$;
CREATE TRIGGER stock_moves_count_usage AFTER INSERT ON stock_moves
  REFERENCING NEW TABLE AS new_moves
  FOR EACH STATEMENT EXECUTE FUNCTION stock_moves_count_usage();

-- What a location holds, the locations below it included (migration 0023 counted nothing yet):
-- the item levels with units on hand there. The locations list shows it, and a location holding
-- anything is not deactivated. Inventory boxes, when they come, add theirs to this sum.
CREATE OR REPLACE FUNCTION location_holds(p_location_id bigint) RETURNS int
LANGUAGE sql STABLE AS $$
  SELECT count(*)::int FROM stock_levels s
  WHERE s.location_id IN (SELECT location_subtree(p_location_id)) AND s.on_hand > 0
$$;
