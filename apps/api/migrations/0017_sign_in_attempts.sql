-- A sign-in counts as a failure from the moment it is read, not after its password is checked
-- (decision 0012): parallel attempts then see each other, so no limit of the throttle can be
-- passed by sending many at once. The attempt's rows go again when it succeeds or is refused by
-- the throttle itself; a wrong password leaves them as its failure.
ALTER TABLE login_failures ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY;

DROP FUNCTION sign_in_candidate(text, text, text, text, text, int, int);

-- The failures in the throttling window before this attempt (of the account from this address,
-- of the address across accounts, of the account from anywhere), whether the account is known at
-- the address, the user with its role names if there is one, and the rows that record this
-- attempt. Attempts sharing a key are counted one at a time: the locks are taken in one order
-- (address and account, address, account), so they never wait on each other in a circle.
CREATE FUNCTION sign_in_attempt(
  p_user_name text, p_pair_key text, p_client_key text, p_account_key text, p_ip text,
  p_window_seconds int, p_known_days int
) RETURNS TABLE (
  id bigint, user_name text, name text, type text, status text, password_hash text,
  first_login smallint, roles text[],
  pair_failures int, client_failures int, account_failures int, pair_wait int, client_wait int,
  known_address boolean, attempt_ids bigint[]
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
  attempt bigint[];
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext(p_pair_key));
  PERFORM pg_advisory_xact_lock(hashtext(p_client_key));
  PERFORM pg_advisory_xact_lock(hashtext(p_account_key));
  WITH recorded AS (
    INSERT INTO login_failures (key) VALUES (p_pair_key), (p_client_key), (p_account_key)
    RETURNING login_failures.id
  )
  SELECT array_agg(recorded.id) INTO attempt FROM recorded;
  RETURN QUERY
  SELECT u.id, u.user_name, u.name, u.type, u.status, u.password_hash, u.first_login,
         COALESCE((SELECT array_agg(r.name ORDER BY r.name)
                   FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = u.id), '{}'),
         f.pair_failures, f.client_failures, f.account_failures, f.pair_wait, f.client_wait,
         EXISTS (SELECT 1 FROM sessions s
                 WHERE s.user_id = u.id AND s.ip = p_ip
                   AND s.created_at > now() - make_interval(days => p_known_days)),
         attempt
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
      AND lf.id <> ALL (attempt)
  ) f
  LEFT JOIN users u ON lower(u.user_name) = lower(p_user_name);
END
$$;

DROP FUNCTION open_session(bigint, text, double precision, text, text, text, text, jsonb, text);

-- A successful sign-in, atomic in one call: the attempt's rows go, then the session, the user's
-- last login (and re-hashed password) and the audit event as recordAudit writes it.
CREATE FUNCTION open_session(
  p_user_id bigint, p_token_hash text, p_max_seconds double precision, p_ip text,
  p_user_agent text, p_rehashed text, p_actor_name text, p_after jsonb, p_request_id text,
  p_attempt_ids bigint[]
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  session_id bigint;
BEGIN
  DELETE FROM login_failures WHERE login_failures.id = ANY (p_attempt_ids);
  INSERT INTO sessions (user_id, token_hash, expires_at, ip, user_agent)
  VALUES (p_user_id, p_token_hash, now() + make_interval(secs => p_max_seconds), p_ip, p_user_agent)
  RETURNING sessions.id INTO session_id;
  UPDATE users SET last_login_at = now(), password_hash = COALESCE(p_rehashed, password_hash)
  WHERE users.id = p_user_id;
  INSERT INTO audit_events (actor_id, actor_name, action, entity_type, entity_id, after, ip, request_id)
  VALUES (p_user_id, p_actor_name, 'login.succeeded', 'session', session_id::text, p_after, p_ip,
          p_request_id);
  RETURN session_id;
END
$$;
