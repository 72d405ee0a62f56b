-- Deleting a user keeps the users it created.
ALTER TABLE users DROP CONSTRAINT users_created_by_fkey;
ALTER TABLE users ADD CONSTRAINT users_created_by_fkey
  FOREIGN KEY (created_by) REFERENCES users (id) ON DELETE SET NULL;

CREATE INDEX users_name_order ON users (lower(name), id);

-- Failed sign-ins of the last hour, per account and per client address, for throttling.
CREATE TABLE login_failures (
  key text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_key_at ON login_failures (key, at);
