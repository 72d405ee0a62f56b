-- Storage locations (issue 15, DOMAIN.md 4.2 and 4.18): the warehouse's tree of zone, aisle,
-- rack, level and bin. Inventory boxes are put away to a location and counted stock sits in one;
-- a location's place in the tree is its parent, and its code is the whole path ("A-01-03-B"),
-- unique across the warehouse, as its label prints it.
--
-- A zone may be the quarantine zone: held stock goes only there, and nothing else does. A child
-- takes its zone's flag (zone_id names the zone of every location, itself for a zone), so one
-- read tells whether a bin is in quarantine.
--
-- A location starts inactive and is activated when it is ready to hold stock; one that holds
-- anything cannot be deactivated (the server checks what it holds). Audits, as Snipe-IT keeps
-- them: the last one's time and person, and when the next is due.

CREATE TABLE locations (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  code text NOT NULL CHECK (code ~ '^[A-Z0-9][A-Z0-9-]{0,39}$'),
  kind text NOT NULL CHECK (kind IN ('zone', 'aisle', 'rack', 'level', 'bin')),
  parent_id bigint REFERENCES locations (id),
  zone_id bigint REFERENCES locations (id),
  name text,
  quarantine boolean NOT NULL DEFAULT false,
  -- How many boxes it holds at most; null: no limit (a zone, a floor area).
  capacity_boxes integer CHECK (capacity_boxes > 0),
  active boolean NOT NULL DEFAULT false,
  last_audit_at timestamptz,
  last_audit_by bigint REFERENCES users (id) ON DELETE SET NULL,
  next_audit_due date,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  -- A zone is the root of its tree and its own zone; every other kind has a parent.
  CHECK ((kind = 'zone') = (parent_id IS NULL)),
  CHECK (kind <> 'zone' OR zone_id IS NULL OR zone_id = id)
);
CREATE UNIQUE INDEX locations_code_key ON locations (code);
CREATE INDEX locations_parent ON locations (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX locations_zone ON locations (zone_id);
-- The list's sorts and its "audit due" filter: a location never audited sorts last, as never due.
CREATE INDEX locations_audit_due ON locations ((COALESCE(next_audit_due, 'infinity'::date)), id);
CREATE INDEX locations_updated_order ON locations (updated_at, id);
CREATE INDEX locations_last_audit_by ON locations (last_audit_by) WHERE last_audit_by IS NOT NULL;

-- A zone names itself as its zone; a child takes its parent's zone and the zone's quarantine flag.
CREATE FUNCTION locations_follow_zone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.kind = 'zone' THEN
    NEW.zone_id := NEW.id;
  ELSE
    SELECT p.zone_id, z.quarantine INTO NEW.zone_id, NEW.quarantine
    FROM locations p JOIN locations z ON z.id = p.zone_id WHERE p.id = NEW.parent_id;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER locations_follow_zone BEFORE INSERT OR UPDATE OF parent_id, kind ON locations
  FOR EACH ROW EXECUTE FUNCTION locations_follow_zone();

-- A zone's quarantine flag goes to every location of the zone.
CREATE FUNCTION locations_zone_quarantine() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE locations SET quarantine = NEW.quarantine WHERE zone_id = NEW.id AND id <> NEW.id;
  RETURN NULL;
END $$;
CREATE TRIGGER locations_zone_quarantine AFTER UPDATE OF quarantine ON locations
  FOR EACH ROW WHEN (NEW.kind = 'zone' AND OLD.quarantine IS DISTINCT FROM NEW.quarantine)
  EXECUTE FUNCTION locations_zone_quarantine();

-- A location and every location below it, by the parent links (a code is a path, but a zone
-- may be named like another zone's aisle, so codes are not followed).
CREATE FUNCTION location_subtree(p_location_id bigint) RETURNS SETOF bigint
LANGUAGE sql STABLE AS $$
  WITH RECURSIVE tree AS (
    SELECT id FROM locations WHERE id = p_location_id
    UNION ALL
    SELECT l.id FROM locations l JOIN tree t ON l.parent_id = t.id
  )
  SELECT id FROM tree
$$;

-- What a location holds, the locations below it included: what the list shows and what stops a
-- deactivation. Nothing can be put in a location yet, so nothing is held; counted stock (0024)
-- and inventory boxes replace this function to count what they put in location_subtree($1).
CREATE FUNCTION location_holds(p_location_id bigint) RETURNS int LANGUAGE sql STABLE AS $$
  SELECT 0
$$;

-- Lists of locations are read far more than the tree changes.
SELECT track_data_version('locations');
