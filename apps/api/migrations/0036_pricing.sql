-- Government-plan prices (issue 16, DOMAIN.md 4.9, `/push-to-sale/price/air-talk`): what a client
-- carrier (a vendor of type 'carrier-client') pays or charges for a device under a programme, per
-- state and model (optionally one variant of it), with effective dates.
--
-- Every row is one version of its key (carrier, programme, state, model, variant): a change is a
-- new row starting later, which closes the one before it, so a key's history is its rows in order
-- of their start. Dates are whole days of UTC (`plan_price_today()`), both ends inclusive; no end
-- is open-ended. A NULL state is a price for every state; a state's own row wins over it, as a
-- variant's row wins over its model's (`effective_plan_price`).

-- Equality on bigint and text inside a GiST exclusion constraint.
CREATE EXTENSION IF NOT EXISTS btree_gist;

CREATE FUNCTION plan_price_today() RETURNS date
LANGUAGE sql STABLE AS $$ SELECT (now() AT TIME ZONE 'UTC')::date $$;

CREATE TABLE gov_plan_prices (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  carrier_id bigint NOT NULL REFERENCES vendors (id),
  programme text NOT NULL CHECK (programme IN ('lifeline', 'tribal', 'acp-legacy', 'prepaid')),
  -- A US state or territory (two capital letters); NULL: every state.
  state text CHECK (state ~ '^[A-Z]{2}$'),
  model_id bigint NOT NULL REFERENCES device_models (id),
  variant_id bigint REFERENCES product_variants (id),
  -- The key's versions count from 1 in order of creation.
  version integer NOT NULL CHECK (version > 0),
  -- The subscriber's co-pay for the device.
  device_price_cents bigint NOT NULL CHECK (device_price_cents BETWEEN 0 AND 100000000),
  plan_name text NOT NULL CHECK (length(plan_name) BETWEEN 1 AND 200),
  -- Mobile data per month and minutes per month; NULL: unlimited.
  data_gb numeric(8, 2) CHECK (data_gb >= 0),
  minutes integer CHECK (minutes >= 0),
  effective_from date NOT NULL,
  -- The last day it is in effect; NULL: until a change or an expiry closes it.
  effective_to date,
  note text CHECK (length(note) <= 500),
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by bigint REFERENCES users (id) ON DELETE SET NULL,
  CHECK (effective_to IS NULL OR effective_to >= effective_from),
  -- Two versions of a key are never in effect on the same day.
  CONSTRAINT gov_plan_prices_no_overlap EXCLUDE USING gist (
    carrier_id WITH =,
    programme WITH =,
    (COALESCE(state, '')) WITH =,
    model_id WITH =,
    (COALESCE(variant_id, 0)) WITH =,
    (daterange(effective_from, effective_to, '[]')) WITH &&)
);
-- A key's versions, in order (history, the next version number, the snapshot's lookup).
CREATE UNIQUE INDEX gov_plan_prices_version_key ON gov_plan_prices (
  carrier_id, programme, COALESCE(state, ''), model_id, COALESCE(variant_id, 0), version);
CREATE INDEX gov_plan_prices_model ON gov_plan_prices (model_id);
CREATE INDEX gov_plan_prices_variant ON gov_plan_prices (variant_id) WHERE variant_id IS NOT NULL;
-- The list's sorts.
CREATE INDEX gov_plan_prices_from_order ON gov_plan_prices (effective_from, id);
CREATE INDEX gov_plan_prices_state_order ON gov_plan_prices (COALESCE(state, ''), id);
CREATE INDEX gov_plan_prices_price_order ON gov_plan_prices (device_price_cents, id);

-- A version that has started is kept as it was: only its last day may be brought forward, to
-- today at the earliest (an expiry or a scheduled change), never for a version already past; it
-- is never deleted. The service says why before it writes; this is the database's own guarantee.
CREATE FUNCTION gov_plan_prices_keep_started() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  today date := plan_price_today();
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.effective_from <= today THEN
      RAISE EXCEPTION 'Government plan price % has started and is kept.', OLD.id
        USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.effective_from <= today AND (
       (NEW.carrier_id, NEW.programme, NEW.state, NEW.model_id, NEW.variant_id, NEW.version,
        NEW.device_price_cents, NEW.plan_name, NEW.data_gb, NEW.minutes, NEW.effective_from,
        NEW.note)
       IS DISTINCT FROM
       (OLD.carrier_id, OLD.programme, OLD.state, OLD.model_id, OLD.variant_id, OLD.version,
        OLD.device_price_cents, OLD.plan_name, OLD.data_gb, OLD.minutes, OLD.effective_from,
        OLD.note)
       OR (OLD.effective_to IS NOT NULL AND OLD.effective_to < today)
       OR NEW.effective_to IS NULL AND OLD.effective_to IS NOT NULL
       OR NEW.effective_to < today
       OR NEW.effective_to > OLD.effective_to) THEN
    RAISE EXCEPTION 'Government plan price % has started: only its last day may be brought forward.', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER gov_plan_prices_keep_started BEFORE UPDATE OR DELETE ON gov_plan_prices
  FOR EACH ROW EXECUTE FUNCTION gov_plan_prices_keep_started();

-- The Lifeline minimum service standard for mobile broadband (DOMAIN.md 4.9, [S24]): the FCC sets
-- it every year, from a date. Each value is kept with the day it takes effect; the one in effect
-- on a day is the latest that started by then. Prices whose plan gives less data are warned of,
-- not refused.
CREATE TABLE lifeline_minimum_standards (
  effective_from date PRIMARY KEY,
  data_gb numeric(8, 2) NOT NULL CHECK (data_gb > 0),
  note text CHECK (length(note) <= 500),
  set_at timestamptz NOT NULL DEFAULT now(),
  set_by bigint REFERENCES users (id) ON DELETE SET NULL
);
INSERT INTO lifeline_minimum_standards (effective_from, data_gb, note)
VALUES ('2020-12-01', 4.5, 'FCC standard for December 2020 (4.5 GB a month)');

CREATE FUNCTION lifeline_minimum_gb(p_day date) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT data_gb FROM lifeline_minimum_standards
  WHERE effective_from <= p_day ORDER BY effective_from DESC LIMIT 1
$$;

-- The price in effect for an order on a day: a variant's row before its model's, a state's row
-- before the every-state row. At most one row per key is in effect on a day (the exclusion
-- constraint), so the order below picks one.
CREATE FUNCTION effective_plan_price(
  p_carrier_id bigint, p_programme text, p_state text, p_model_id bigint, p_variant_id bigint,
  p_day date)
RETURNS SETOF gov_plan_prices
LANGUAGE sql STABLE AS $$
  SELECT * FROM gov_plan_prices
  WHERE carrier_id = p_carrier_id AND programme = p_programme AND model_id = p_model_id
    AND (state = p_state OR state IS NULL)
    AND (variant_id = p_variant_id OR variant_id IS NULL)
    AND effective_from <= p_day AND (effective_to IS NULL OR effective_to >= p_day)
  ORDER BY variant_id IS NULL, state IS NULL
  LIMIT 1
$$;
