-- The two statements of a sign-in as PL/pgSQL functions: a function keeps its plans for the
-- connection, where PGlite plans every plain statement anew (about 1.3 ms of a sign-in, against
-- a budget of 5 ms beyond the password hash). Same SQL as before, same answers.

-- The failures of the account and of the client address in the throttling window, and the user
-- with its role names if there is one: one row either way.
CREATE FUNCTION sign_in_candidate(
  p_user_name text, p_account_key text, p_client_key text, p_window_seconds int
) RETURNS TABLE (
  id bigint, user_name text, name text, type text, status text, password_hash text,
  first_login smallint, roles text[],
  account_failures int, client_failures int, account_wait int, client_wait int
) LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  SELECT u.id, u.user_name, u.name, u.type, u.status, u.password_hash, u.first_login,
         COALESCE((SELECT array_agg(r.name ORDER BY r.name)
                   FROM user_roles ur JOIN roles r ON r.id = ur.role_id
                   WHERE ur.user_id = u.id), '{}'),
         f.account_failures, f.client_failures, f.account_wait, f.client_wait
  FROM (
    SELECT count(*) FILTER (WHERE lf.key = p_account_key)::int AS account_failures,
           count(*) FILTER (WHERE lf.key = p_client_key)::int AS client_failures,
           ceil(extract(epoch FROM min(lf.at) FILTER (WHERE lf.key = p_account_key)
             + make_interval(secs => p_window_seconds) - now()))::int AS account_wait,
           ceil(extract(epoch FROM min(lf.at) FILTER (WHERE lf.key = p_client_key)
             + make_interval(secs => p_window_seconds) - now()))::int AS client_wait
    FROM login_failures lf
    WHERE lf.key IN (p_account_key, p_client_key)
      AND lf.at > now() - make_interval(secs => p_window_seconds)
  ) f
  LEFT JOIN users u ON lower(u.user_name) = lower(p_user_name);
END
$$;

-- A successful sign-in, atomic in one call: the session, the user's last login (and re-hashed
-- password) and the audit event as recordAudit writes it. Answers the session's id.
CREATE FUNCTION open_session(
  p_user_id bigint, p_token_hash text, p_max_seconds double precision, p_ip text,
  p_user_agent text, p_rehashed text, p_actor_name text, p_after jsonb, p_request_id text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  session_id bigint;
BEGIN
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
