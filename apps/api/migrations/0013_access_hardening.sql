-- Role keys: guards name roles, and the server compares the keys of those names with the keys of
-- the roles a user holds, never a name that an edit could give (decision 0012). A system role gets
-- the key of the name it was seeded with (roleKeyOf in the contract) and keeps it for good.
ALTER TABLE roles ADD COLUMN key text;
UPDATE roles SET key = trim(BOTH '-' FROM regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g'))
WHERE is_system;
CREATE UNIQUE INDEX roles_key_key ON roles (key);

CREATE FUNCTION roles_key_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.key IS NOT NULL AND NEW.key IS DISTINCT FROM OLD.key THEN
    RAISE EXCEPTION 'the key of role % cannot change', OLD.id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER roles_key_fixed BEFORE UPDATE OF key ON roles
  FOR EACH ROW EXECUTE FUNCTION roles_key_fixed();

-- Sign-in throttling per account and address (decision 0012): an address where the account has
-- signed in before is "known" to it, found by this index.
CREATE INDEX sessions_user_ip ON sessions (user_id, ip, created_at);

DROP FUNCTION sign_in_candidate(text, text, text, int);

-- The failures in the throttling window of the account from this address, of the address across
-- accounts and of the account from anywhere, whether the account is known at the address, and
-- the user with its role names if there is one: one row either way.
CREATE FUNCTION sign_in_candidate(
  p_user_name text, p_pair_key text, p_client_key text, p_account_key text, p_ip text,
  p_window_seconds int, p_known_days int
) RETURNS TABLE (
  id bigint, user_name text, name text, type text, status text, password_hash text,
  first_login smallint, roles text[],
  pair_failures int, client_failures int, account_failures int, pair_wait int, client_wait int,
  known_address boolean
) LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT u.id, u.user_name, u.name, u.type, u.status, u.password_hash, u.first_login,
         COALESCE((SELECT array_agg(r.name ORDER BY r.name)
                   FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = u.id), '{}'),
         f.pair_failures, f.client_failures, f.account_failures, f.pair_wait, f.client_wait,
         EXISTS (SELECT 1 FROM sessions s
                 WHERE s.user_id = u.id AND s.ip = p_ip
                   AND s.created_at > now() - make_interval(days => p_known_days))
  FROM (
    SELECT count(*) FILTER (WHERE lf.key = p_pair_key)::int AS pair_failures,
           count(*) FILTER (WHERE lf.key = p_client_key)::int AS client_failures,
           count(*) FILTER (WHERE lf.key = p_account_key)::int AS account_failures,
           ceil(extract(epoch FROM min(lf.at) FILTER (WHERE lf.key = p_pair_key)
             + make_interval(secs => p_window_seconds) - now()))::int AS pair_wait,
           ceil(extract(epoch FROM min(lf.at) FILTER (WHERE lf.key = p_client_key)
             + make_interval(secs => p_window_seconds) - now()))::int AS client_wait
    FROM login_failures lf
    WHERE lf.key IN (p_pair_key, p_client_key, p_account_key)
      AND lf.at > now() - make_interval(secs => p_window_seconds)
  ) f
  LEFT JOIN users u ON lower(u.user_name) = lower(p_user_name);
END
$$;
