-- On PGlite the one app process keeps open sessions and the access version in memory (decision
-- 0002). These notifications tell it of every change to them, whichever statement made it, before
-- that statement (or its transaction's COMMIT) returns. They are sent only on a connection that
-- asked for them with inventory.notify_changes = on, which PostgreSQL app servers never set.

CREATE OR REPLACE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  next_version bigint;
BEGIN
  UPDATE access_state SET version = version + 1 RETURNING version INTO next_version;
  IF current_setting('inventory.notify_changes', true) = 'on' THEN
    PERFORM pg_notify('access_changed', next_version::text);
  END IF;
  RETURN NULL;
END
$$;

-- The payload is the id of the changed session, or empty when every session may have changed.
CREATE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('inventory.notify_changes', true) = 'on' THEN
    IF TG_OP = 'TRUNCATE' THEN
      PERFORM pg_notify('session_changed', '');
    ELSE
      PERFORM pg_notify('session_changed', OLD.id::text);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION notify_session_change();
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION notify_session_change();
