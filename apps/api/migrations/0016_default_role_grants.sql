-- Grants that a release adds to a default role reach databases seeded before it once (decision
-- 0013): each (role key, permission) pair given is remembered here, so a grant an administrator
-- removes later is not given again.
CREATE TABLE default_role_grants_given (
  role_key text NOT NULL,
  permission text NOT NULL,
  PRIMARY KEY (role_key, permission)
);
