-- User list counts are cached by access version; a changed email changes what a search finds.
DROP TRIGGER users_access_version ON users;
CREATE TRIGGER users_access_version
  AFTER INSERT OR DELETE OR UPDATE OF user_name, name, email, type, status, first_login
  OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION bump_access_version();
