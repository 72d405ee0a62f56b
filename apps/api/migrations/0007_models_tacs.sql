-- Device models and TAC numbers (DOMAIN.md 4.4): what their lists sort and filter by, so that a
-- page of 100,000 TACs costs its 50 rows in every order.

-- A TAC is 8 digits (its CHECK says so), so text holds it as char(8) did; as text its unique
-- index also serves the list's keyset pages, compared (tac, id) > (text, bigint), and the
-- prefix search (tac LIKE '3528%').
ALTER TABLE tac_numbers ALTER COLUMN tac TYPE text;

-- Recently changed first.
CREATE INDEX tac_numbers_updated_order ON tac_numbers (updated_at, id);
-- The few TACs added by hand or learned at scanning, and the deactivated ones: the bulk of
-- imported, active rows stays out of these.
CREATE INDEX tac_numbers_source ON tac_numbers (source, tac) WHERE source <> 'import';
CREATE INDEX tac_numbers_inactive ON tac_numbers (tac) WHERE NOT active;

-- "Brand Model" lower-cased, kept by triggers: the order of the models by brand, of the model
-- picker and of the TACs by model (a nested loop over this index and tac_numbers_model).
ALTER TABLE device_models ADD COLUMN sort_name text;

CREATE FUNCTION device_models_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sort_name :=
    lower(COALESCE((SELECT name FROM brands WHERE id = NEW.brand_id), '') || ' ' || NEW.name);
  RETURN NEW;
END
$$;
CREATE TRIGGER device_models_sort_name BEFORE INSERT OR UPDATE OF brand_id, name ON device_models
  FOR EACH ROW EXECUTE FUNCTION device_models_sort_name();

CREATE FUNCTION brands_sort_name() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_models SET sort_name = lower(NEW.name || ' ' || name) WHERE brand_id = NEW.id;
  RETURN NULL;
END
$$;
CREATE TRIGGER brands_sort_name AFTER UPDATE OF name ON brands
  FOR EACH ROW EXECUTE FUNCTION brands_sort_name();

UPDATE device_models m SET sort_name = lower(b.name || ' ' || m.name)
FROM brands b WHERE b.id = m.brand_id;
ALTER TABLE device_models ALTER COLUMN sort_name SET NOT NULL;
CREATE INDEX device_models_sort_order ON device_models (sort_name, id);
