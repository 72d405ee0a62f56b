-- SIM stock (issue 17, DOMAIN.md 4.6 /sim/box, /sim, /sim/inquire): what the SIM list's filters
-- read at millions of SIMs beside migration 0044's indexes.

-- /sim filtered by client carrier or by agent, newest first: without these the planner walks
-- the list's id order testing each row, or sorts every SIM of the carrier or agent.
CREATE INDEX sim_cards_carrier_received ON sim_cards (client_carrier_id, id);
CREATE INDEX sim_cards_agent_received ON sim_cards (agent_id, id) WHERE agent_id IS NOT NULL;

-- The issuer of an ICCID: the longest prefix of the configurable table that starts it (null when
-- none does). Receipts by range and by list, and any later writer of SIMs, name issuers alike.
CREATE FUNCTION sim_issuer_of(p_iccid text) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT p.issuer FROM sim_prefixes p WHERE starts_with(p_iccid, p.prefix)
  ORDER BY length(p.prefix) DESC LIMIT 1
$$;
