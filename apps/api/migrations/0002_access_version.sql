-- One counter that every change of an account, a role, a permission or their assignments moves
-- forward. Each request reads it with its session, so app servers may cache accounts and their
-- grants and still apply any change on the very next request.
CREATE TABLE access_state (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
INSERT INTO access_state (id, version) VALUES (true, 1);

CREATE FUNCTION bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE access_state SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER roles_access_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON roles
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER permissions_access_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER role_permissions_access_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER user_roles_access_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_roles
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
CREATE TRIGGER users_access_version
  AFTER INSERT OR DELETE OR UPDATE OF user_name, name, type, status, first_login OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
