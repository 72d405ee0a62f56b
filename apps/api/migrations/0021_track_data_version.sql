-- One SQL helper gives a table a data version (decision 0010, amended): its row in data_versions
-- and the statement trigger that moves it in every writer's transaction. A table that lists read
-- joins the versions by calling it, never by a copy of the trigger; the tables of migration 0010
-- got the same row and trigger from its loop. Tables written many times a second by concurrent
-- work (devices, their events, boxes and their scan log, manifests) are never given one: the
-- counter's row lock would line their writers up (decision 0010 lists them).
CREATE FUNCTION track_data_version(tracked regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  name text := (SELECT relname FROM pg_class WHERE oid = tracked);
BEGIN
  INSERT INTO data_versions (table_name, version) VALUES (name, 1)
    ON CONFLICT (table_name) DO NOTHING;
  EXECUTE format(
    'CREATE OR REPLACE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %s
       FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version()',
    name || '_data_version', tracked);
END
$$;

-- The role and permission lists read these, written only when an administrator edits access.
SELECT track_data_version('permissions');
SELECT track_data_version('role_permissions');
