-- The SIM dashboard's kept figures and the agent portal (issue 17; DOMAIN.md 4.6 /sim/dashboard,
-- 7): counts kept by statement-level triggers in the transaction of every change to sim_cards
-- and agent_sim_ledger, so the dashboard and the agent's home read a few small rows whatever the
-- SIMs number (QUALITY.md gate S); the agents' shipping addresses with the changes waiting for a
-- coordinator; and the window each agent's scans are counted in.
--
-- The kept tables (all but the activation days, below) are written in 8 shards (the writing
-- transaction's id mod 8), like order_day_counts (migration 0038), so concurrent scans, and a
-- scan beside a long detection run, do not queue on one row until they commit; a figure is the
-- sum of its shards. Each statement adds its new rows' figures less its old rows', so an update
-- counts only what changed, and rows are upserted in key order, so two transactions on the same
-- shard take the rows' locks in the same order.

-- SIMs per client carrier and status.
CREATE TABLE sim_status_counts (
  client_carrier_id bigint NOT NULL,
  status text NOT NULL,
  shard smallint NOT NULL,
  sims integer NOT NULL,
  PRIMARY KEY (client_carrier_id, status, shard)
);

-- SIMs an agent holds (agent_id set) per client carrier and status.
CREATE TABLE sim_agent_counts (
  agent_id bigint NOT NULL,
  client_carrier_id bigint NOT NULL,
  status text NOT NULL,
  shard smallint NOT NULL,
  sims integer NOT NULL,
  PRIMARY KEY (agent_id, client_carrier_id, status, shard)
);

-- SIMs with an agent (status with_agent, not yet assigned) by the business day the agent got them
-- (held_since): the ageing figure (held over sim_settings.hold_days) sums the days before a cut.
CREATE TABLE sim_agent_held_days (
  agent_id bigint NOT NULL,
  day date NOT NULL,
  shard smallint NOT NULL,
  sims integer NOT NULL,
  PRIMARY KEY (agent_id, day, shard)
);

-- Activations (activated_at, set by the carrier's detection) per business day, client carrier
-- and the agent credited (activated_agent_id; null for a SIM no agent held, an OTA kit's). Not
-- sharded: only a detection run sets activated_at, and runs are few, so no row here is hot, and
-- the dashboard's 30 days read a row per day, carrier and agent.
CREATE TABLE sim_activation_days (
  day date NOT NULL,
  client_carrier_id bigint NOT NULL,
  agent_id bigint,
  sims integer NOT NULL
);
CREATE UNIQUE INDEX sim_activation_days_key
  ON sim_activation_days (day, client_carrier_id, agent_id) NULLS NOT DISTINCT;
CREATE INDEX sim_activation_days_agent ON sim_activation_days (agent_id, day)
  WHERE agent_id IS NOT NULL;

-- Each agent's activation rate: SIMs received (ledger entries received and transfer_in) and SIMs
-- credited to the agent as activated (sim_cards.activated_agent_id).
CREATE TABLE sim_agent_figures (
  agent_id bigint NOT NULL,
  shard smallint NOT NULL,
  received integer NOT NULL DEFAULT 0,
  activated integer NOT NULL DEFAULT 0,
  PRIMARY KEY (agent_id, shard)
);

-- This transaction's shard of the kept counts.
CREATE FUNCTION sim_count_shard() RETURNS smallint LANGUAGE sql VOLATILE AS $$
  SELECT (pg_current_xact_id()::text::bigint % 8)::smallint
$$;

-- The triggers that keep the SIM counts: one function per kind of statement, made from one
-- template whose %1$s is the statement's signed rows (the SIMs' counted columns with `d`, +1 for a
-- new row and -1 for an old one), read from the statement's transition tables.
DO $do$
DECLARE
  counted text := 'client_carrier_id, status, agent_id, held_since, activated_at, activated_agent_id';
  template text := $template$
CREATE FUNCTION %2$I() RETURNS trigger LANGUAGE plpgsql AS $fn$
DECLARE
  shard_no smallint := sim_count_shard();
  zone text := (SELECT time_zone FROM order_settings);
BEGIN
  INSERT INTO sim_status_counts AS c (client_carrier_id, status, shard, sims)
  SELECT client_carrier_id, status, shard_no, sum(d) FROM (%1$s) AS x
  GROUP BY client_carrier_id, status HAVING sum(d) <> 0
  ORDER BY client_carrier_id, status
  ON CONFLICT (client_carrier_id, status, shard) DO UPDATE SET sims = c.sims + EXCLUDED.sims;

  INSERT INTO sim_agent_counts AS c (agent_id, client_carrier_id, status, shard, sims)
  SELECT agent_id, client_carrier_id, status, shard_no, sum(d) FROM (%1$s) AS x
  WHERE agent_id IS NOT NULL
  GROUP BY agent_id, client_carrier_id, status HAVING sum(d) <> 0
  ORDER BY agent_id, client_carrier_id, status
  ON CONFLICT (agent_id, client_carrier_id, status, shard) DO UPDATE
    SET sims = c.sims + EXCLUDED.sims;

  INSERT INTO sim_agent_held_days AS c (agent_id, day, shard, sims)
  SELECT agent_id, (held_since AT TIME ZONE zone)::date, shard_no, sum(d) FROM (%1$s) AS x
  WHERE status = 'with_agent'
  GROUP BY 1, 2 HAVING sum(d) <> 0
  ORDER BY 1, 2
  ON CONFLICT (agent_id, day, shard) DO UPDATE SET sims = c.sims + EXCLUDED.sims;

  INSERT INTO sim_activation_days AS c (day, client_carrier_id, agent_id, sims)
  SELECT (activated_at AT TIME ZONE zone)::date, client_carrier_id, activated_agent_id, sum(d)
  FROM (%1$s) AS x WHERE activated_at IS NOT NULL
  GROUP BY 1, 2, 3 HAVING sum(d) <> 0
  ORDER BY 1, 2, 3
  ON CONFLICT (day, client_carrier_id, agent_id) DO UPDATE
    SET sims = c.sims + EXCLUDED.sims;

  INSERT INTO sim_agent_figures AS c (agent_id, shard, activated)
  SELECT activated_agent_id, shard_no, sum(d) FROM (%1$s) AS x
  WHERE activated_agent_id IS NOT NULL
  GROUP BY 1 HAVING sum(d) <> 0
  ORDER BY 1
  ON CONFLICT (agent_id, shard) DO UPDATE SET activated = c.activated + EXCLUDED.activated;
  RETURN NULL;
END $fn$
$template$;
BEGIN
  EXECUTE format(template, format('SELECT %s, 1 AS d FROM new_sims', counted),
    'sim_cards_count_inserted');
  EXECUTE format(template, format(
    'SELECT %1$s, 1 AS d FROM new_sims UNION ALL SELECT %1$s, -1 AS d FROM old_sims', counted),
    'sim_cards_count_updated');
  EXECUTE format(template, format('SELECT %s, -1 AS d FROM old_sims', counted),
    'sim_cards_count_deleted');
END $do$;

CREATE TRIGGER sim_cards_count_inserted AFTER INSERT ON sim_cards
  REFERENCING NEW TABLE AS new_sims
  FOR EACH STATEMENT EXECUTE FUNCTION sim_cards_count_inserted();
CREATE TRIGGER sim_cards_count_updated AFTER UPDATE ON sim_cards
  REFERENCING OLD TABLE AS old_sims NEW TABLE AS new_sims
  FOR EACH STATEMENT EXECUTE FUNCTION sim_cards_count_updated();
CREATE TRIGGER sim_cards_count_deleted AFTER DELETE ON sim_cards
  REFERENCING OLD TABLE AS old_sims
  FOR EACH STATEMENT EXECUTE FUNCTION sim_cards_count_deleted();

-- SIMs an agent received (a shipment's or a transfer's), counted as the ledger is written.
CREATE FUNCTION agent_sim_ledger_count_received() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sim_agent_figures AS c (agent_id, shard, received)
  SELECT agent_id, sim_count_shard(), count(*) FROM new_entries
  WHERE entry IN ('received', 'transfer_in')
  GROUP BY agent_id ORDER BY agent_id
  ON CONFLICT (agent_id, shard) DO UPDATE SET received = c.received + EXCLUDED.received;
  RETURN NULL;
END $$;
CREATE TRIGGER agent_sim_ledger_count_received AFTER INSERT ON agent_sim_ledger
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION agent_sim_ledger_count_received();

-- Counts from the SIMs and ledger rows there are already (none in a new database).
INSERT INTO sim_status_counts (client_carrier_id, status, shard, sims)
SELECT client_carrier_id, status, 0, count(*) FROM sim_cards GROUP BY 1, 2;
INSERT INTO sim_agent_counts (agent_id, client_carrier_id, status, shard, sims)
SELECT agent_id, client_carrier_id, status, 0, count(*) FROM sim_cards
WHERE agent_id IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO sim_agent_held_days (agent_id, day, shard, sims)
SELECT agent_id, (held_since AT TIME ZONE (SELECT time_zone FROM order_settings))::date, 0, count(*)
FROM sim_cards WHERE status = 'with_agent' GROUP BY 1, 2;
INSERT INTO sim_activation_days (day, client_carrier_id, agent_id, sims)
SELECT (activated_at AT TIME ZONE (SELECT time_zone FROM order_settings))::date,
  client_carrier_id, activated_agent_id, count(*)
FROM sim_cards WHERE activated_at IS NOT NULL GROUP BY 1, 2, 3;
INSERT INTO sim_agent_figures (agent_id, shard, received, activated)
SELECT agent_id, 0, sum(received), sum(activated) FROM (
  SELECT agent_id, count(*) AS received, 0 AS activated FROM agent_sim_ledger
  WHERE entry IN ('received', 'transfer_in') GROUP BY agent_id
  UNION ALL
  SELECT activated_agent_id, 0, count(*) FROM sim_cards
  WHERE activated_agent_id IS NOT NULL GROUP BY activated_agent_id
) AS f GROUP BY agent_id;

-- An agent's shipping address (DOMAIN.md 7 "Profile"): where requested SIMs are shipped.
CREATE TABLE agent_addresses (
  agent_id bigint PRIMARY KEY REFERENCES users (id),
  line1 text NOT NULL,
  line2 text,
  city text NOT NULL,
  state text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
  zip text NOT NULL CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The coordinator who approved it.
  approved_by bigint REFERENCES users (id) ON DELETE SET NULL
);

-- An address change an agent asked for: it waits for a coordinator (one pending per agent).
CREATE TABLE agent_address_changes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  agent_id bigint NOT NULL REFERENCES users (id),
  line1 text NOT NULL,
  line2 text,
  city text NOT NULL,
  state text NOT NULL CHECK (state ~ '^[A-Z]{2}$'),
  zip text NOT NULL CHECK (zip ~ '^[0-9]{5}(-[0-9]{4})?$'),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected',
    'withdrawn')),
  reason text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  decided_by bigint REFERENCES users (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX agent_address_changes_one_pending ON agent_address_changes (agent_id)
  WHERE status = 'pending';
CREATE INDEX agent_address_changes_agent ON agent_address_changes (agent_id, id);
CREATE INDEX agent_address_changes_pending ON agent_address_changes (requested_at, id)
  WHERE status = 'pending';

-- Each agent's scans in the current minute (sim_settings.agent_scans_per_minute): one row per
-- agent, started again when a new minute begins.
CREATE TABLE agent_scan_windows (
  agent_id bigint PRIMARY KEY REFERENCES users (id),
  minute timestamptz NOT NULL,
  scans integer NOT NULL
);
