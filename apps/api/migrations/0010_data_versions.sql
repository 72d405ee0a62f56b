-- Data versions (decision 0010): a counter per table that lists read, moved by every statement
-- that writes the table, in the writer's transaction. A list answer read at one set of versions
-- stays right until one of them moves, so a server may keep it and answer again from memory.
-- Tables written many times a second by concurrent work (devices, boxes, events) get no counter:
-- the row lock would line their writers up, and their lists are read from the tables each time.
CREATE TABLE data_versions (
  table_name text PRIMARY KEY,
  version bigint NOT NULL
);

CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_version bigint;
BEGIN
  UPDATE data_versions SET version = version + 1 WHERE table_name = TG_TABLE_NAME
    RETURNING version INTO next_version;
  IF current_setting('inventory.notify_changes', true) = 'on' THEN
    PERFORM pg_notify('data_changed', TG_TABLE_NAME || ' ' || next_version);
  END IF;
  RETURN NULL;
END
$$;

DO $$
DECLARE
  name text;
BEGIN
  FOREACH name IN ARRAY ARRAY[
    'users', 'roles', 'user_roles', 'brands', 'device_models', 'colors', 'tac_numbers',
    'accessories', 'parts', 'vendors', 'tags', 'tag_assignments', 'properties', 'property_values'
  ] LOOP
    INSERT INTO data_versions (table_name, version) VALUES (name, 1);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I
         FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()',
      name || '_data_version', name);
  END LOOP;
END
$$;
